"""The API's front door: what a client finds at ``/api/`` (JSON, like every answer under ``/api/``)."""

from drf_spectacular.utils import extend_schema
from rest_framework import permissions, serializers
from rest_framework.response import Response
from rest_framework.reverse import reverse
from rest_framework.views import APIView


class ApiRootSerializer(serializers.Serializer):
    matches = serializers.URLField()
    match_import = serializers.URLField()
    tournaments = serializers.URLField()
    seasons = serializers.URLField()
    ratings = serializers.URLField()
    player_ratings = serializers.CharField(help_text="a URL template: {id} is the player's id")
    player_records = serializers.CharField(help_text="a URL template: a player's records (streaks, nemesis)")
    head_to_head = serializers.CharField(help_text="a URL template: {id} against {opponent_id}")
    me = serializers.URLField(help_text="the logged-in user's player, and the language their e-mails are written in")
    schema = serializers.URLField(help_text="this OpenAPI document")
    docs = serializers.URLField(help_text="the OpenAPI document in Swagger UI")
    health = serializers.URLField()


class ApiRoot(APIView):
    """Where each collection is, and where the schema and its documentation are."""

    permission_classes = [permissions.AllowAny]

    @extend_schema(responses=ApiRootSerializer, description="Where each collection is, and the schema's address.")
    def get(self, request):
        def url(name: str) -> str:
            return reverse(name, request=request)

        return Response({
            "matches": url("match-list"),
            "match_import": url("match-import"),
            "tournaments": url("tournament-list"),
            "seasons": url("season-list"),
            "ratings": url("rating-list"),
            "player_ratings": url("rating-list").replace("ratings/", "players/{id}/ratings/"),
            "player_records": url("rating-list").replace("ratings/", "players/{id}/records/"),
            "head_to_head": url("rating-list").replace("ratings/", "players/{id}/head-to-head/{opponent_id}/"),
            "me": url("my-player"),
            "schema": url("schema"),
            "docs": url("api-docs"),
            "health": url("health"),
        })
