"""The API's throttles: anonymous clients per address, signed-in users per user, at the rates in
``settings.API_THROTTLE_RATES`` (read when a request comes, so a change of settings applies).

Counted by the ``limits`` library (the rate limiter under Flask-Limiter and SlowAPI) with its sliding-window
counter: two integers per client, changed in one atomic call (a Lua script on Redis). DRF's own throttles keep
the timestamp of every request of the last window in one cache entry, read and written back whole on every
request: two round trips, a list as long as the rate (600 a minute: 600 floats pickled both ways), and two
requests at once each write back a list without the other's.

The counts live in ``settings.API_THROTTLE_STORAGE``: Redis when there is one (every gunicorn worker and node
shares them), else this process's memory.
"""

from __future__ import annotations

import logging
import time
from functools import lru_cache

from django.conf import settings
from limits import RateLimitItem, parse, storage, strategies
from rest_framework.throttling import BaseThrottle

log = logging.getLogger(__name__)

_limiters: dict[str, strategies.SlidingWindowCounterRateLimiter] = {}


def limiter() -> strategies.SlidingWindowCounterRateLimiter:
    """The limiter over the configured storage, one per process (made at first use: after gunicorn's fork)."""
    uri = settings.API_THROTTLE_STORAGE
    found = _limiters.get(uri)
    if found is None:
        options = {"key_prefix": "crawford-throttle"} if uri.startswith(("redis", "rediss")) else {}
        found = _limiters[uri] = strategies.SlidingWindowCounterRateLimiter(storage.storage_from_string(uri, **options))
    return found


def forget_counts() -> None:
    """Every client starts afresh (the tests; an operator lifting a throttle by hand)."""
    limiter().storage.reset()


@lru_cache(maxsize=32)
def _rate(text: str) -> RateLimitItem:
    return parse(text)


class _Throttle(BaseThrottle):
    scope = ""

    def who(self, request) -> str | None:
        """Whom this throttle counts the request against; None: not its to count."""
        raise NotImplementedError

    def allow_request(self, request, view) -> bool:
        rate, who = settings.API_THROTTLE_RATES.get(self.scope), self.who(request)
        if not rate or who is None:
            return True
        self._wait = spend(rate, self.scope, who, what="throttle")
        return self._wait is None

    def wait(self) -> float:
        """Seconds until the next request would be counted in (the answer's Retry-After)."""
        return max(0.0, self._wait)


def spend(rate: str, scope: str, who: str, *, cost: int = 1, what: str) -> float | None:
    """Count ``cost`` against ``who``'s budget in ``scope`` at ``rate``: None while within it, else the seconds
    until it would be counted in. None too when the counts' storage is down (logged, as "``what`` skipped"): a
    throttle never takes a page or the API down with Redis."""
    item = _rate(rate)
    try:
        if limiter().hit(item, scope, who, cost=cost):
            return None
        return limiter().get_window_stats(item, scope, who).reset_time - time.time()
    except Exception as storage_down:  # noqa: BLE001 - see above
        log.warning("%s skipped: %s", what, storage_down)
        return None


class AnonymousThrottle(_Throttle):
    """Anonymous requests, counted per client address (the real one: deploy/proxy.py)."""

    scope = "anon"

    def who(self, request):
        return None if request.user and request.user.is_authenticated else self.get_ident(request)


class UserThrottle(_Throttle):
    """Signed-in requests, counted per user (anonymous ones are the address's, above)."""

    scope = "user"

    def who(self, request):
        return str(request.user.pk) if request.user and request.user.is_authenticated else None
