"""The API's front door: what a client finds at ``/api/`` (JSON, like every answer under ``/api/``)."""

from drf_spectacular.utils import extend_schema
from rest_framework import permissions
from rest_framework.response import Response
from rest_framework.reverse import reverse
from rest_framework.views import APIView


class ApiRoot(APIView):
    """Where each collection is, and where the schema and its documentation are."""

    permission_classes = [permissions.AllowAny]

    @extend_schema(exclude=True)
    def get(self, request):
        def url(name: str) -> str:
            return reverse(name, request=request)

        return Response({
            "matches": url("match-list"),
            "match_import": url("match-import"),
            "tournaments": url("tournament-list"),
            "ratings": url("rating-list"),
            "player_ratings": url("rating-list").replace("ratings/", "players/{id}/ratings/"),
            "schema": url("schema"),
            "docs": url("api-docs"),
            "health": url("health"),
        })
