"""What the public PDFs share: a key per state of what they print, a throttle per client, "being printed".

A PDF costs seconds of CPU: it is printed once per state of its facts and language (the key below names it), by
a worker, and asked for a few times a minute per client address (per user when signed in) at
``settings.PDF_THROTTLE_RATE``, on the API's limiter (apikit/throttling.py). Until it is printed the answer is a
small page that reloads itself (202, ``Retry-After``). The season table uses it: seasons/printing.py.
"""

from __future__ import annotations

import hashlib
import json

from django.conf import settings
from django.http import HttpResponse
from django.utils.html import escape
from django.utils.translation import gettext as _

from .throttling import spend

COME_BACK_SECONDS = 3


def key_of(kind: str, facts, language: str) -> str:
    """``kind:language:digest`` of ``facts`` (anything JSON writes, with str for the rest)."""
    digest = hashlib.sha256(json.dumps(facts, sort_keys=True, default=str).encode()).hexdigest()
    return f"{kind}:{language}:{digest}"


def throttled(request, scope: str) -> HttpResponse | None:
    """A 429 answer with ``Retry-After`` once this client has asked for ``scope`` too often; None to go on."""
    user = getattr(request, "user", None)
    who = f"user-{user.pk}" if user is not None and user.is_authenticated else request.META.get("REMOTE_ADDR", "?")
    wait = spend(settings.PDF_THROTTLE_RATE, f"pdf-{scope}", who, what="PDF throttle")
    if wait is None:
        return None
    retry = max(1, int(wait))
    answer = HttpResponse(_("Too many printed pages asked for; try again in a minute.") + "\n", status=429,
                          content_type="text/plain; charset=utf-8")
    answer["Retry-After"] = str(retry)
    return answer


def being_printed() -> HttpResponse:
    """202 and a page that asks again by itself in a few seconds (a browser following a PDF link sees it)."""
    return come_back_page(_("This sheet is being printed; it opens by itself in a few seconds."))


def come_back_page(title: str, more: str = "") -> HttpResponse:
    """202 and a page titled ``title`` (``more`` below it) that asks for the same address again by itself in a few
    seconds: what a browser following a link to a file a worker is still making sees."""
    text = escape(title)
    rest = f"<p>{escape(more)}</p>" if more else ""
    answer = HttpResponse(f'<!doctype html><meta charset="utf-8"><meta http-equiv="refresh" '
                          f'content="{COME_BACK_SECONDS}"><title>{text}</title><p>{text}</p>{rest}\n', status=202,
                          content_type="text/html; charset=utf-8")
    answer["Retry-After"] = str(COME_BACK_SECONDS)
    answer["Cache-Control"] = "no-store"
    return answer
