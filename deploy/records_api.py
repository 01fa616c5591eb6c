"""Players' records through the API: totals, streaks, nemesis; head-to-head by opponent; best results; two players'
matches against each other.

Records join the ratings' results (``ratings/records.py``) and the events' places (``tournaments/placings.py``),
two apps that do not know each other: so the endpoints live here, at the composition root. Lists that grow with
the player's career are paged (``apikit.paging``)."""

from django.shortcuts import get_object_or_404
from drf_spectacular.utils import extend_schema
from rest_framework import permissions, serializers
from rest_framework.response import Response
from rest_framework.views import APIView

from apikit import paging
from players.models import Player
from players.selectors import display_names
from ratings import records
from tournaments import placings


class TallySerializer(serializers.Serializer):
    matches = serializers.IntegerField()
    wins = serializers.IntegerField()
    losses = serializers.IntegerField()
    points_won = serializers.IntegerField(help_text="match points scored in these matches (their recorded scores)")
    points_lost = serializers.IntegerField(help_text="match points the opponents scored in them")


class StreakSerializer(serializers.Serializer):
    kind = serializers.ChoiceField(choices=["won", "lost"], allow_null=True, help_text="null before a first result")
    length = serializers.IntegerField()


class StreaksSerializer(serializers.Serializer):
    current = StreakSerializer()
    longest_winning = serializers.IntegerField()
    longest_losing = serializers.IntegerField()


class OpponentSerializer(TallySerializer):
    opponent_id = serializers.IntegerField()
    opponent = serializers.CharField(allow_blank=True)


class PlayerRecordsSerializer(TallySerializer):
    player_id = serializers.IntegerField()
    name = serializers.CharField()
    person_id = serializers.IntegerField(help_text="the kept player this entry stands for (itself unless merged)")
    streaks = StreaksSerializer()
    nemesis = OpponentSerializer(allow_null=True, help_text="the opponent lost to most; ties: the one beaten "
                                                            "least, then the latest loss. Null without a loss")


class BestResultSerializer(serializers.Serializer):
    tournament_id = serializers.IntegerField()
    event = serializers.CharField()
    flight = serializers.CharField(allow_blank=True, help_text="main, consolation, last_chance, or '' for one table")
    place = serializers.IntegerField()
    shared = serializers.BooleanField(help_text="others hold the same place: knocked out in the same round of a "
                                                "knockout (shown 3=)")
    field = serializers.IntegerField(help_text="players in that table")
    wins = serializers.IntegerField()
    losses = serializers.IntegerField()
    date = serializers.DateField()


class HeadToHeadMatchSerializer(serializers.Serializer):
    match = serializers.CharField(help_text="the result: a match stream, or an event's slot tournament-<pk>:<slot>")
    match_id = serializers.CharField(allow_null=True, help_text="a match one can open, if there is one")
    tournament_id = serializers.IntegerField(allow_null=True)
    seq = serializers.IntegerField(help_text="the global position of the event that gave the result")
    date = serializers.DateTimeField(allow_null=True)
    length = serializers.IntegerField()
    winner_id = serializers.IntegerField()
    score = serializers.ListField(child=serializers.IntegerField(), min_length=2, max_length=2,
                                  help_text="[player's points, opponent's points]; [0, 0] when no score was recorded")


class HeadToHeadSerializer(TallySerializer):
    player_id = serializers.IntegerField(help_text="the kept player the first id stands for")
    opponent_id = serializers.IntegerField(help_text="the kept player the second id stands for")
    name = serializers.CharField()
    opponent = serializers.CharField()
    results = HeadToHeadMatchSerializer(many=True, help_text="newest first, one page (the next in the Link header)")


class PlayerRecords(APIView):
    permission_classes = [permissions.AllowAny]

    @extend_schema(responses={200: PlayerRecordsSerializer})
    def get(self, request, player_id: int):
        player = get_object_or_404(Player, pk=player_id)
        return Response({"player_id": player.pk, "name": player.display_name,
                         **records.player_records(player.pk, viewer=request.user)})


class PlayerOpponents(APIView):
    permission_classes = [permissions.AllowAny]

    @extend_schema(responses={200: OpponentSerializer(many=True)}, parameters=paging.PAGE_PARAMETERS,
                   description="Head-to-head with each opponent, most matches first.")
    def get(self, request, player_id: int):
        player = get_object_or_404(Player, pk=player_id)
        rows, headers = paging.page(request, records.opponents(player.pk, viewer=request.user))
        return Response(rows, headers=headers)


class PlayerBestResults(APIView):
    permission_classes = [permissions.AllowAny]

    @extend_schema(responses={200: BestResultSerializer(many=True)}, parameters=paging.PAGE_PARAMETERS,
                   description="Places in finished, published events: best place first, then the larger field, "
                               "then the later event.")
    def get(self, request, player_id: int):
        player = get_object_or_404(Player, pk=player_id)
        rows, headers = paging.page(request, placings.best_results(player.pk))
        return Response(rows, headers=headers)


class HeadToHead(APIView):
    permission_classes = [permissions.AllowAny]

    @extend_schema(responses={200: HeadToHeadSerializer}, parameters=paging.PAGE_PARAMETERS,
                   description="Two players' matches against each other, from the first player's side.")
    def get(self, request, player_id: int, opponent_id: int):
        get_object_or_404(Player, pk=player_id)
        get_object_or_404(Player, pk=opponent_id)
        h2h = records.head_to_head(player_id, opponent_id, viewer=request.user)
        results, headers = paging.page(request, h2h.pop("results"))
        known = display_names([h2h["player_id"], h2h["opponent_id"]])
        return Response({**h2h, "name": known.get(h2h["player_id"], ""), "opponent": known.get(h2h["opponent_id"], ""),
                         "results": results}, headers=headers)
