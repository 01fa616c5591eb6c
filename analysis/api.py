"""Thin API views of the analysis."""

from __future__ import annotations

from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import permissions
from rest_framework.exceptions import NotFound
from rest_framework.response import Response
from rest_framework.views import APIView

from games import services as match_services

from . import selectors
from .serializers import EventAverageSerializer, HistoryPointSerializer, MatchAnalysisSerializer


class MatchAnalysisView(APIView):
    permission_classes = [permissions.AllowAny]

    @extend_schema(
        responses=MatchAnalysisSerializer,
        parameters=[OpenApiParameter("plies", int, description="evaluation depth (default: the site's setting)")],
        description="GNU Backgammon's analysis of the match: every checker play with more than one legal play "
                    "(played and best play, equities, loss, gnubg's mark) and both players' figures. 404 while "
                    "the match is not finished (or was voided); `status` says queued/running/done/failed.",
    )
    def get(self, request, stream_id: str):
        record = match_services.match_load(stream_id)  # MatchNotFound: 404
        if not match_services.can_read(request.user, record):
            raise match_services.MatchNotFound(f"no match {stream_id}")
        plies = request.query_params.get("plies")
        row = selectors.match_analysis(stream_id, int(plies) if plies and plies.isascii() and plies.isdigit() else None)
        if row is None:
            raise NotFound(f"match {stream_id} has no analysis (it is analysed once it is finished)")
        return Response(MatchAnalysisSerializer(row).data)


class PlayerAnalysisView(APIView):
    permission_classes = [permissions.AllowAny]

    @extend_schema(responses=HistoryPointSerializer(many=True),
                   description="The player's analysed matches, oldest first: error rates for the player page's chart.")
    def get(self, request, pk: int):
        return Response(HistoryPointSerializer(selectors.player_history(pk), many=True).data)


class EventAnalysisView(APIView):
    permission_classes = [permissions.AllowAny]

    @extend_schema(responses=EventAverageSerializer(many=True),
                   description="Each player's average figures over the event's analysed matches.")
    def get(self, request, pk: int):
        from tournaments.services import visible_or_404  # the event's own rule: a hidden one is 404

        visible_or_404(request.user, pk)
        return Response(EventAverageSerializer(selectors.event_averages(pk), many=True).data)

