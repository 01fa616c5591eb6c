"""Public pages cached by the log position of what they show.

A page names the positions its content was read at (a stream's version, how far the projections have read the log);
its ETag and the keys of its cached fragments are made of them, so a new event changes both the moment it is
projected, and nothing has to be invalidated: an old key is simply never asked for again (and expires). A viewer who is
not signed in is sent the page as rendered for all such viewers at those positions, with their own CSRF token put in:
a crowd of spectators costs a cache read a page, not a render."""

from __future__ import annotations

import hashlib
import re
import time
from collections.abc import Callable

from django.core.cache import cache
from django.middleware.csrf import get_token
from django.http import HttpRequest, HttpResponse
from django.utils.cache import get_conditional_response, patch_cache_control, patch_vary_headers
from django.utils.translation import get_language

# a fragment's key holds the log position it shows, so it is never stale while the log is the only writer; the
# timeout only bounds what a write outside the log (a name edited in the admin) leaves on a page, and the memory
FRAGMENT_SECONDS = 300
# how long the others wait for the one request building a part, asking the cache every step
BUILD_SECONDS = 10
WAIT_STEP_SECONDS = 0.01


def _digest(parts) -> str:
    return hashlib.sha256("\x1f".join(str(p) for p in parts).encode()).hexdigest()[:32]


def viewer_variant(request: HttpRequest) -> str:
    """What of a page depends on who asks: the language, the account (its name, its links) and the CSRF secret its
    forms' tokens are made from (the language switch's too), which a login rotates."""
    user = getattr(request, "user", None)
    get_token(request)  # a first visit's secret is made now: the page's forms and its ETag both use it
    secret = request.META.get("CSRF_COOKIE", "")
    account = f"u{user.pk}" if user is not None and user.is_authenticated else "anon"
    return f"{account}:{_digest([secret])[:12]}:{get_language()}"


def page_etag(request: HttpRequest, *positions) -> str:
    """A strong ETag of the page at these positions for this viewer: two viewers never share one."""
    return f'"{_digest([request.path, request.GET.urlencode(), viewer_variant(request), *positions])}"'


def conditional(request: HttpRequest, etag: str, render: Callable[[], HttpResponse]) -> HttpResponse:
    """304 when the client's copy is the page at these positions; else the page, rendered, with its ETag. Browsers
    and proxies keep it per viewer (Cookie, language) and ask again each time (no-cache: revalidate)."""
    response = get_conditional_response(request, etag=etag)
    if response is None:
        response = render()
        if response.status_code == 200:
            response["ETag"] = etag
    else:
        response["ETag"] = etag
    patch_vary_headers(response, ("Cookie", "Accept-Language"))
    patch_cache_control(response, private=True, no_cache=True)
    return response


def page(request: HttpRequest, positions: tuple, render: Callable[[], HttpResponse], *,
         query: dict[str, str | None] | None = None) -> HttpResponse:
    """The page at these positions: :func:`conditional` on its ETag, and for a viewer who is not signed in the page
    as rendered once for every such viewer (:func:`shared_by_anonymous_viewers`).

    ``query``: the parameters the page reads, each as the page spells what it understood (None: not given). A
    request whose query string says anything else (another parameter, another spelling of a value) is rendered for
    itself: the pages kept are the pages there are, not one per string a client can make up."""
    shared = _as_read(request, query or {})
    return conditional(request, page_etag(request, *positions),
                       (lambda: shared_by_anonymous_viewers(request, positions, render)) if shared else render)


def _as_read(request: HttpRequest, query: dict[str, str | None]) -> bool:
    given = dict(request.GET.lists())
    return given == {name: [value] for name, value in query.items() if value is not None}


# what Django's {% csrf_token %} writes: the only part of a page a viewer who is not signed in has of their own
_CSRF_INPUT = re.compile(rb'(<input type="hidden" name="csrfmiddlewaretoken" value=")[^"]*(">)')
_CSRF_SLOT = b"\x00csrf\x00"


def shared_by_anonymous_viewers(request: HttpRequest, positions: tuple, render: Callable[[], HttpResponse]
                                ) -> HttpResponse:
    """For a viewer who is not signed in, the page rendered once per path, query, language and ``positions`` and
    shared, each viewer's own CSRF token written into its forms (a crowd of spectators costs a cache read each,
    not a render each; the crowd arriving the moment the page moves on waits for one of them to render it); for a
    signed-in viewer (their name, their links, their match), ``render()``."""
    user = getattr(request, "user", None)
    if user is None or user.is_authenticated:
        return render()
    unshared: list[HttpResponse] = []

    def build() -> tuple[bytes, str]:
        response = render()
        if response.status_code != 200 or response.streaming:
            unshared.append(response)
            raise _NotShared
        return _CSRF_INPUT.sub(rb"\1" + _CSRF_SLOT + rb"\2", response.content), response["Content-Type"]

    try:
        body, content_type = fragment("anonymous-page", (request.path, request.GET.urlencode(), *positions), build)
    except _NotShared:
        return unshared[0]
    return HttpResponse(body.replace(_CSRF_SLOT, get_token(request).encode()), content_type=content_type)


class _NotShared(Exception):
    """The page rendered is not one to share (not a 200): it goes to its own viewer only."""


def _key(name: str, positions: tuple) -> str:
    return f"page:{name}:{get_language()}:{_digest(positions)}"


def fragments(*wanted: tuple[str, tuple, Callable[[], object]]) -> list:
    """:func:`fragment` of each (name, positions, build), those already built read in one round trip."""
    keys = [_key(name, positions) for name, positions, _ in wanted]
    found = cache.get_many(keys)
    return [found[key] if found.get(key) is not None else fragment(name, positions, build)
            for key, (name, positions, build) in zip(keys, wanted, strict=True)]


def fragment(name: str, positions: tuple, build: Callable[[], object]):
    """A part of a page, shared by every viewer in the same language, built once per ``positions``: while one
    request builds it, the others at the same position wait for it rather than build it too (a big event's page
    read by a crowd the moment a result moves it on)."""
    key = _key(name, positions)
    value = cache.get(key)
    if value is not None:
        return value
    building = key + ":building"
    if not cache.add(building, 1, BUILD_SECONDS):
        value = _built_by_another(key, building)
        if value is not None:
            return value
    try:
        value = build()
        cache.set(key, value, FRAGMENT_SECONDS)
    finally:
        cache.delete(building)
    return value


def _built_by_another(key: str, building: str):
    """The part another request is building, once it is there; None if that request stopped without it (it
    failed: its mark is gone) or it is not there within BUILD_SECONDS (it died): then this one builds it."""
    deadline = time.monotonic() + BUILD_SECONDS
    while time.monotonic() < deadline:
        time.sleep(WAIT_STEP_SECONDS)
        found = cache.get_many([key, building])
        if found.get(key) is not None:
            return found[key]
        if building not in found:
            return None
    return None
