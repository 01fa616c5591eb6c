"""Public PDFs without a CPU drain: each printed once per version of what it shows, a few per client a minute.

WeasyPrint takes seconds of CPU for a page (a season's table: 3-5 s). A PDF is kept in the cache under a digest
of the facts it prints and the reader's language, so a reader gets the one printed for the same facts. One
print at a time per process and per PDF: a request that finds the press busy is told to come back (503,
``Retry-After``) rather than waiting on a thread that bystanders need. Requests are counted per client address
(per user when signed in) at ``settings.PDF_THROTTLE_RATE``, on the API's limiter (apikit/throttling.py).
"""

from __future__ import annotations

import hashlib
import json
import logging
import threading
import time
from collections.abc import Callable

from django.conf import settings
from django.core.cache import cache
from django.http import HttpResponse
from django.utils.translation import get_language
from django.utils.translation import gettext as _

from .throttling import _rate, limiter

log = logging.getLogger(__name__)

KEEP_SECONDS = 7 * 24 * 3600  # a digest names its content: an entry is never stale, only unused
PRINTING_SECONDS = 120  # a print's claim, in case its process dies while printing
COME_BACK_SECONDS = 5
_press = threading.BoundedSemaphore(1)


def throttled(request, scope: str) -> HttpResponse | None:
    """A 429 answer with ``Retry-After`` once this client has asked for ``scope`` too often; None to go on."""
    user = getattr(request, "user", None)
    who = f"user-{user.pk}" if user is not None and user.is_authenticated else request.META.get("REMOTE_ADDR", "?")
    item = _rate(settings.PDF_THROTTLE_RATE)
    try:
        if limiter().hit(item, f"pdf-{scope}", who):
            return None
        retry = max(1, int(limiter().get_window_stats(item, f"pdf-{scope}", who).reset_time - time.time()))
    except Exception as storage_down:  # noqa: BLE001 - a throttle must never take a page down with Redis
        log.warning("PDF throttle skipped: %s", storage_down)
        return None
    answer = HttpResponse(_("Too many printed pages asked for; try again in a minute.") + "\n", status=429,
                          content_type="text/plain; charset=utf-8")
    answer["Retry-After"] = str(retry)
    return answer


def printed(*, kind: str, facts, render: Callable[[], bytes]) -> bytes | None:
    """The PDF printing ``facts`` (anything JSON can write, with str for the rest) in the reader's language:
    from the cache, else printed here by ``render``; None while it is being printed elsewhere or this process's
    press is busy (come back in a few seconds)."""
    digest = hashlib.sha256(json.dumps(facts, sort_keys=True, default=str).encode()).hexdigest()
    key = f"pdf:{kind}:{get_language()}:{digest}"
    pdf = cache.get(key)
    if pdf is not None:
        return pdf
    if not _press.acquire(blocking=False):
        return None
    try:
        if not cache.add(f"{key}:printing", 1, timeout=PRINTING_SECONDS):
            return None
        try:
            pdf = render()
            cache.set(key, pdf, timeout=KEEP_SECONDS)
            return pdf
        finally:
            cache.delete(f"{key}:printing")
    finally:
        _press.release()


def come_back_later() -> HttpResponse:
    answer = HttpResponse(_("This page is being printed; it will be ready in a few seconds.") + "\n", status=503,
                          content_type="text/plain; charset=utf-8")
    answer["Retry-After"] = str(COME_BACK_SECONDS)
    return answer
