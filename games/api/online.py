"""The API of online play: challenges between members, and each player's presence in an online match."""

from __future__ import annotations

from django.db import transaction
from django.shortcuts import get_object_or_404
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import permissions, serializers, status
from rest_framework.response import Response
from rest_framework.views import APIView

from games import challenges, online, selectors
from games.errors import BadCommand, MatchNotFound, Reason
from games.loading import match_load
from games.models import Challenge
from games.rights import can_read, seat_of
from players.models import Player

from .serializers import ErrorSerializer, MatchStateSerializer

REFUSED = {
    400: OpenApiResponse(ErrorSerializer, description="refused: a body or a command that breaks a rule"),
    403: OpenApiResponse(ErrorSerializer, description="not yours to do"),
    404: OpenApiResponse(ErrorSerializer, description="no such match or challenge (or none you may see)"),
}


class OnlineChallengeSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    challenger = serializers.IntegerField(source="challenger_id")
    challenger_name = serializers.CharField(source="challenger.display_name")
    opponent = serializers.IntegerField(source="opponent_id")
    opponent_name = serializers.CharField(source="opponent.display_name")
    length = serializers.IntegerField()
    clock = serializers.CharField(help_text="the clock's preset; empty: no clock")
    disconnect = serializers.CharField(help_text="the disconnect clock's preset")
    status = serializers.ChoiceField(choices=[s for s, _ in Challenge.STATUSES])
    match = serializers.CharField(source="stream_id", help_text="the online match, once accepted")


class ChallengeIssueSerializer(serializers.Serializer):
    opponent = serializers.IntegerField(help_text="the player challenged (a member with an account)")
    length = serializers.IntegerField(help_text="the match's length in points (odd, 1 to 25)")
    clock = serializers.CharField(required=False, allow_blank=True, default="",
                                  help_text="a clock preset (us, uk, aba…); empty: no clock")
    disconnect = serializers.CharField(required=False, default="standard",
                                       help_text="the disconnect clock's preset: short, standard or long")


class Challenges(APIView):
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(responses=OnlineChallengeSerializer(many=True), description="Your challenges, made and received.")
    def get(self, request):
        return Response(OnlineChallengeSerializer(challenges.challenges_of(request.user), many=True).data)

    @extend_schema(request=ChallengeIssueSerializer, responses={201: OnlineChallengeSerializer, **REFUSED},
                   description="Challenge another member to a match online.")
    def post(self, request):
        form = ChallengeIssueSerializer(data=request.data)
        form.is_valid(raise_exception=True)
        data = dict(form.validated_data)
        opponent = get_object_or_404(Player, pk=data.pop("opponent"))
        challenge = challenges.challenge_issue(actor=request.user, opponent=opponent, **data)
        return Response(OnlineChallengeSerializer(challenge).data, status=status.HTTP_201_CREATED)


class ChallengeAccept(APIView):
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(request=None, responses={201: MatchStateSerializer, **REFUSED},
                   description="Accept a challenge made to you: its online match is created.")
    def post(self, request, pk: int):
        with transaction.atomic():  # the answer is rendered before the commit: no error answered after it
            record = challenges.challenge_accept(actor=request.user, challenge_id=pk)
            body = selectors.match_state_data(record)
        return Response(body, status=status.HTTP_201_CREATED)


class ChallengeDecline(APIView):
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(request=None, responses={200: OnlineChallengeSerializer, **REFUSED},
                   description="Decline a challenge made to you, or withdraw yours, while it is open.")
    def post(self, request, pk: int):
        return Response(OnlineChallengeSerializer(challenges.challenge_decline(actor=request.user, challenge_id=pk)).data)


class _SeatPresence(serializers.Serializer):
    here = serializers.BooleanField()
    seen_at = serializers.IntegerField(allow_null=True, help_text="the server's reading of the last heartbeat")
    away_since = serializers.IntegerField(allow_null=True)
    runs_out_at = serializers.IntegerField(allow_null=True, help_text="when the disconnect clock of a player away "
                                                                      "runs out (the match under way)")


class PresenceSerializer(serializers.Serializer):
    at = serializers.IntegerField(help_text="the server's reading, milliseconds since 1970")
    grace = serializers.IntegerField(help_text="seconds without a heartbeat after which a player is away")
    heartbeat = serializers.FloatField(help_text="seconds between a page's heartbeats")
    disconnect = serializers.IntegerField(allow_null=True)
    start_by = serializers.IntegerField(allow_null=True)
    late = serializers.IntegerField(allow_null=True)
    begun = serializers.BooleanField()
    finished = serializers.BooleanField()
    seats = _SeatPresence(many=True)


class BeatSerializer(serializers.Serializer):
    here = serializers.BooleanField(required=False, default=True, help_text="false: the page is closing")


def _online_record(request, stream_id: str):
    record = match_load(stream_id)
    if not can_read(request.user, record):
        raise MatchNotFound(Reason.NO_MATCH, match=stream_id)
    if record.online is None:
        raise BadCommand(Reason.NOT_ONLINE)
    return record


class MatchPresence(APIView):
    permission_classes = [permissions.IsAuthenticatedOrReadOnly]

    @extend_schema(responses={200: PresenceSerializer, **REFUSED},
                   description="Each player of an online match here or away, and their disconnect clocks.")
    def get(self, request, stream_id: str):
        return Response(online.presence_data(_online_record(request, stream_id)))

    @extend_schema(request=BeatSerializer, responses={200: PresenceSerializer, **REFUSED},
                   description="A player's page beats (here), or says it is closing (away at once).")
    def post(self, request, stream_id: str):
        record = _online_record(request, stream_id)
        form = BeatSerializer(data=request.data if isinstance(request.data, dict) else {})
        form.is_valid(raise_exception=True)
        return Response(online.presence_beat(record=record, seat=seat_of(request.user, record),
                                             here=form.validated_data["here"]))
