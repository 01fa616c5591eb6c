"""The logged-in player's own details through the API: who they are, and the language the site writes to them in."""

from django.conf import settings
from django.shortcuts import get_object_or_404
from drf_spectacular.utils import extend_schema
from rest_framework import permissions, serializers
from rest_framework.response import Response
from rest_framework.views import APIView

from apikit.serializers import ErrorSerializer

from . import services
from .languages import preferred_language
from .models import Player


class MyPlayerSerializer(serializers.Serializer):
    id = serializers.IntegerField(read_only=True)
    display_name = serializers.CharField(read_only=True)
    language = serializers.ChoiceField(
        choices=[("", "the site's language")] + list(settings.LANGUAGES), allow_blank=True,
        help_text="the language the site writes to the player in (their match e-mails); empty: the site's")
    written_in = serializers.CharField(read_only=True, help_text="the language their e-mails are written in now")


def _shown(player: Player) -> dict:
    return {"id": player.pk, "display_name": player.display_name, "language": player.language,
            "written_in": preferred_language(player)}


class MyPlayer(APIView):
    permission_classes = [permissions.IsAuthenticated]

    def _mine(self, request) -> Player:
        return get_object_or_404(Player, user=request.user)

    @extend_schema(operation_id="players_me", responses={200: MyPlayerSerializer, 404: ErrorSerializer},
                   description="The player the logged-in user is (404: the account is nobody's player).")
    def get(self, request):
        return Response(_shown(self._mine(request)))

    @extend_schema(operation_id="players_me_update", request=MyPlayerSerializer,
                   responses={200: MyPlayerSerializer, 400: ErrorSerializer, 404: ErrorSerializer},
                   description="Choose the language the site writes to you in (`language`: a code of the site's "
                               "languages, or empty for the site's).")
    def patch(self, request):
        player = self._mine(request)
        form = MyPlayerSerializer(data=request.data, partial=True)
        form.is_valid(raise_exception=True)
        if "language" in form.validated_data:
            services.player_set_language(actor=request.user, player=player, language=form.validated_data["language"])
        return Response(_shown(player))
