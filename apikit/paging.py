"""Bounded answers for every list and stream endpoint (the throttles: apikit/throttling.py).

A page stays what the endpoint always answered (a JSON list, or the list inside the object), at most
``API_PAGE_MAX`` items (``?limit=``, default ``API_PAGE_SIZE``), and the next page's address is in the
``Link`` header (``rel="next"``), as GitHub's API does: clients that read one page keep working, and no
request makes the server build a 9 MB answer. A stream is paged by version (``?after=N``): each page ends
where the next begins, however many events arrive meanwhile.
"""

from __future__ import annotations

from django.conf import settings
from drf_spectacular.utils import OpenApiParameter
from rest_framework.exceptions import ValidationError


def number_of(request, name: str, default: int) -> int:
    text = request.query_params.get(name)
    if text is None or text == "":
        return default
    if not (text.isascii() and text.isdigit()) or len(text) > 12:
        raise ValidationError({name: f"'{name}' is a whole number"})
    return int(text)


def limit_of(request, default: int | None = None) -> int:
    limit = number_of(request, "limit", default or settings.API_PAGE_SIZE)
    return max(1, min(limit, settings.API_PAGE_MAX))


def next_link(request, **params) -> dict:
    query = request.query_params.copy()
    for name, value in params.items():
        query[name] = str(value)
    return {"Link": f'<{request.build_absolute_uri(request.path)}?{query.urlencode()}>; rel="next"'}


def page(request, rows) -> tuple[list, dict]:
    """One page of ``rows`` (a queryset or a list) by ``?offset=&limit=``; the headers name the next page."""
    limit, offset = limit_of(request), number_of(request, "offset", 0)
    taken = list(rows[offset: offset + limit + 1])
    if len(taken) > limit:
        return taken[:limit], next_link(request, offset=offset + limit, limit=limit)
    return taken, {}


PAGE_PARAMETERS = [
    OpenApiParameter("limit", int, description="items per page (default and maximum in the settings: "
                                               "API_PAGE_SIZE, API_PAGE_MAX); the next page is in the Link header"),
    OpenApiParameter("offset", int, description="items to skip"),
]
