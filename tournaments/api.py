"""Thin API views for events."""

from django.shortcuts import get_object_or_404
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema
from rest_framework import permissions, serializers, status
from rest_framework.response import Response
from rest_framework.views import APIView

from games.limits import MAX_MATCH_LENGTH
from players.models import Club
from tournaments.formats.standings import TIEBREAKS

from . import config, selectors, services
from .models import Tournament


def _length(**kwargs):
    return serializers.IntegerField(min_value=1, max_value=MAX_MATCH_LENGTH, help_text="a match length: odd", **kwargs)


class LengthsSerializer(serializers.Serializer):
    default = _length(required=False)
    final = _length(required=False)
    rounds = serializers.DictField(child=_length(), required=False,
                                   help_text=f"round number (1 to {config.MAX_ROUNDS}) -> its match length")


class BracketLengthsSerializer(serializers.Serializer):
    main = LengthsSerializer(required=False)
    consolation = LengthsSerializer(required=False)
    last_chance = LengthsSerializer(required=False)
    winners = LengthsSerializer(required=False)
    losers = LengthsSerializer(required=False)
    grand_final = LengthsSerializer(required=False)
    rounds = LengthsSerializer(required=False, help_text="Swiss and round robin")


class SettingsSerializer(serializers.Serializer):
    """The event's settings: documented here with their limits; ``tournaments/config.py`` checks them."""

    lengths = BracketLengthsSerializer(required=False)
    rounds = serializers.IntegerField(min_value=1, max_value=config.MAX_ROUNDS, required=False, help_text="Swiss")
    tiebreaks = serializers.ListField(child=serializers.ChoiceField(choices=TIEBREAKS), required=False,
                                      max_length=len(TIEBREAKS))
    consolation = serializers.BooleanField(required=False)
    consolation_feeds = serializers.IntegerField(min_value=1, max_value=config.MAX_ROUNDS, required=False)
    last_chance = serializers.BooleanField(required=False)
    reset = serializers.BooleanField(required=False, help_text="double elimination: a bracket reset")
    cycles = serializers.IntegerField(min_value=1, max_value=config.MAX_CYCLES, required=False)
    auto_pair = serializers.BooleanField(required=False)
    late_entry_until_round = serializers.IntegerField(min_value=0, max_value=config.MAX_ROUNDS, required=False)
    late_entry_points = serializers.FloatField(min_value=0, max_value=config.MAX_ROUNDS, required=False)


class TournamentCreateSerializer(serializers.Serializer):
    name = serializers.CharField(max_length=160)
    format = serializers.ChoiceField(choices=["single_elimination", "double_elimination", "swiss", "round_robin"])
    club = serializers.IntegerField(required=False, allow_null=True)
    settings = SettingsSerializer(required=False, help_text="lengths per bracket/round, rounds, tiebreaks…")


class TournamentListCreate(APIView):
    permission_classes = [permissions.IsAuthenticatedOrReadOnly]

    @extend_schema(operation_id="tournaments_list", responses={200: OpenApiTypes.OBJECT})
    def get(self, request):
        rows = Tournament.objects.filter(published=True).values("id", "name", "club_id", "starts_on")
        return Response(list(rows))

    @extend_schema(request=TournamentCreateSerializer, responses={201: OpenApiTypes.OBJECT})
    def post(self, request):
        form = TournamentCreateSerializer(data=request.data)
        form.is_valid(raise_exception=True)
        data = form.validated_data
        club = get_object_or_404(Club, pk=data["club"]) if data.get("club") else None
        # the client's own dict, so an unknown key is refused by name rather than dropped unseen
        settings = request.data.get("settings") if isinstance(request.data, dict) else None
        tournament = services.tournament_create(
            actor=request.user, name=data["name"], format=data["format"], club=club, settings=settings
        )
        return Response(selectors.tournament_data(tournament), status=status.HTTP_201_CREATED)


class TournamentDetail(APIView):
    permission_classes = [permissions.AllowAny]

    @extend_schema(responses={200: OpenApiTypes.OBJECT})
    def get(self, request, pk: int):
        return Response(selectors.tournament_data(services.visible_or_404(request.user, pk)))


class TournamentCommands(APIView):
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(request=OpenApiTypes.OBJECT, responses={200: OpenApiTypes.OBJECT})
    def post(self, request, pk: int):
        tournament = services.visible_or_404(request.user, pk)
        command = request.data if isinstance(request.data, dict) else {}
        new = services.tournament_command(actor=request.user, tournament=tournament, command=command)
        return Response({"appended": [{"type": e.event_type, "payload": e.payload} for e in new]})
