"""Thin API views for events."""

from django.shortcuts import get_object_or_404
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import permissions, serializers, status
from rest_framework.response import Response
from rest_framework.views import APIView

from eventlog import store
from eventlog.idempotency import run_once
from games.limits import MAX_MATCH_LENGTH, MAX_REASON, max_final_score
from deploy import paging
from players.models import Club
from tournaments.formats.standings import TIEBREAKS

from . import config, selectors, services
from .models import Tournament
from .stream import stream_id_of


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

    @extend_schema(operation_id="tournaments_list", responses={200: OpenApiTypes.OBJECT},
                   parameters=paging.PAGE_PARAMETERS)
    def get(self, request):
        rows = (Tournament.objects.filter(published=True).values("id", "name", "club_id", "starts_on")
                .order_by("-starts_on", "name", "pk"))  # a stable order: pages neither skip nor repeat
        rows, headers = paging.page(request, rows)
        return Response(rows, headers=headers)

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


class TournamentCommandSerializer(serializers.Serializer):
    """Documentation of a command's shape and limits; the service validates it (tournaments/services.py)."""

    type = serializers.ChoiceField(choices=list(services.COMMAND_TYPES))
    expected_version = serializers.IntegerField(
        min_value=0, required=False,
        help_text="the event's version you are looking at; a stale one answers 409 and appends nothing")
    player = serializers.IntegerField(required=False, help_text="enter, check_in, withdraw")
    players = serializers.ListField(child=serializers.IntegerField(), min_length=2, max_length=2, required=False,
                                    help_text="forbid: the two players who must not meet")
    method = serializers.ChoiceField(choices=["random", "rating", "manual"], required=False)
    seeds = serializers.ListField(child=serializers.IntegerField(), required=False, help_text="draw, method manual")
    round = serializers.IntegerField(min_value=1, max_value=config.MAX_ROUNDS, required=False,
                                     help_text="pair_round: the next round (once the previous is finished), "
                                               "or the last one again before it begins")
    pairings = serializers.ListField(
        child=serializers.ListField(child=serializers.IntegerField(allow_null=True), min_length=2, max_length=2),
        required=False, help_text="pair_round: [player, player] or [player, null] for a bye")
    slot = serializers.CharField(required=False, max_length=40)
    winner = serializers.IntegerField(required=False)
    score = serializers.ListField(child=serializers.IntegerField(min_value=0, max_value=max_final_score(MAX_MATCH_LENGTH)),
                                  min_length=2, max_length=2, required=False,
                                  help_text="[winner's points, loser's points]")
    reason = serializers.CharField(required=False, max_length=MAX_REASON)


class TournamentCommands(APIView):
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(
        request=TournamentCommandSerializer,
        parameters=[OpenApiParameter("Idempotency-Key", str, OpenApiParameter.HEADER,
                                     description="retry-safe key: a retry returns the first answer and appends nothing")],
        responses={200: OpenApiTypes.OBJECT},
    )
    def post(self, request, pk: int):
        tournament = services.visible_or_404(request.user, pk)
        command = request.data if isinstance(request.data, dict) else {}

        def send() -> tuple[int, dict]:
            new = services.tournament_command(actor=request.user, tournament=tournament, command=command)
            return 200, {"appended": [{"type": e.event_type, "payload": e.payload} for e in new],
                         "version": store.stream_version(stream_id_of(tournament.pk))}

        status_code, body = run_once(actor=str(request.user.pk), key=request.headers.get("Idempotency-Key"),
                                     request={"tournament": pk, "command": command}, command=send)
        return Response(body, status=status_code)
