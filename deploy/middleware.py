"""Refuse a NUL character in the address before any view or query sees it.

PostgreSQL's text cannot hold U+0000: ``/api/matches/%00/`` reached the database as a stream id
and failed there (a 500). No address or query parameter of the site has a use for it.
"""

from __future__ import annotations

from django.http import HttpResponseBadRequest, JsonResponse


class RefuseNulMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        if "\x00" in request.path or "\x00" in request.META.get("QUERY_STRING", "") or any(
            "\x00" in value for values in request.GET.lists() for value in values[1] + [values[0]]
        ):
            reason = "the address contains a NUL character (%00), which no address here uses"
            if request.path.startswith("/api/"):
                return JsonResponse({"detail": reason, "code": "bad_request"}, status=400)
            return HttpResponseBadRequest(reason, content_type="text/plain; charset=utf-8")
        return self.get_response(request)
