"""Thin API views of the analysis."""

from __future__ import annotations

from collections.abc import Callable

from django.conf import settings
from django.core.exceptions import ImproperlyConfigured
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import permissions, serializers, status
from rest_framework.exceptions import NotFound, PermissionDenied, ValidationError
from rest_framework.response import Response
from rest_framework.views import APIView

from games.errors import MatchNotFound, Reason
from games.forbidden import Forbidden
from games.loading import match_load
from games.rights import can_read, is_official, seat_of

from players import authority

from . import selectors, services
from .serializers import EventAverageSerializer, FairPlaySerializer, MatchAnalysisSerializer, PlayerAnalysisSerializer


class MatchAnalysisView(APIView):
    permission_classes = [permissions.AllowAny]

    @extend_schema(
        responses=MatchAnalysisSerializer,
        parameters=[OpenApiParameter("plies", int, description="evaluation depth (default: the site's setting)")],
        description="GNU Backgammon's analysis of the match (`status` none while there is none: the match is not "
                    "finished, or was voided, or is not noticed yet). By default the one players see: the quick "
                    "depth at once, replaced by the deeper one (`deeper`) when that is done; `plies` names the depth "
                    "shown, `unfinished` an analysis of a match that stopped before its end (up to there). "
                    "Every checker play with more than one legal play "
                    "and every cube decision (played and best, equities, loss, gnubg's mark) and both players' figures; "
                    "`status`: none, queued, running (decisions_done of decisions_total, games_done of games), "
                    "done or failed.",
    )
    def get(self, request, stream_id: str):
        record = match_load(stream_id)  # MatchNotFound: 404
        if not can_read(request.user, record):
            raise MatchNotFound(Reason.NO_MATCH, match=stream_id)
        plies = request.query_params.get("plies")
        if plies is not None and plies not in ("0", "1", "2"):
            raise ValidationError({"plies": "an evaluation depth: 0, 1 or 2"})
        row = selectors.match_analysis(stream_id, int(plies) if plies is not None else None)
        if row is None:  # not an error: the page asks while the match is played (and a voided one has none)
            return Response(_none(stream_id, int(plies) if plies is not None else settings.ANALYSIS_PLIES))
        return Response(MatchAnalysisSerializer(row).data)


def _none(stream_id: str, plies: int) -> dict:
    return {"match": stream_id, "plies": plies, "status": "none", "decisions_done": 0, "decisions_total": 0,
            "games_done": 0, "games": 0, "unfinished": False, "deeper": None,
            "engine": f"GNU Backgammon, {plies}-ply", "attempts": 0, "error": "", "seconds": None,
            "finished_at": None, "players": [], "decisions": []}


class AnalysisRequestSerializer(serializers.Serializer):
    plies = serializers.IntegerField(min_value=0, max_value=2, required=False,
                                     help_text="evaluation depth, 0 to 2 (default: the site's depths, the quick "
                                               "one first)")


class MatchAnalysisRequest(APIView):
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(request=AnalysisRequestSerializer, responses={202: MatchAnalysisSerializer},
                   description="Ask for the match's analysis (an imported match, one still played or stopped before "
                               "its end, or another depth): a player of the match or its director/an official. Queued "
                               "once per match and depth; asking again answers the existing analysis, or analyses "
                               "again an unfinished match that has moved on since.")
    def post(self, request, stream_id: str):
        record = match_load(stream_id)
        if not can_read(request.user, record):
            raise MatchNotFound(Reason.NO_MATCH, match=stream_id)
        if not (is_official(request.user, record) or seat_of(request.user, record) is not None):
            raise PermissionDenied("only a player of the match or its director may ask for its analysis")
        refused = services.why_not_analysable(record)
        if refused is not None:  # said now, with the reason: nothing is queued that gnubg cannot do
            raise ValidationError({"detail": refused})
        form = AnalysisRequestSerializer(data=request.data)
        form.is_valid(raise_exception=True)
        services.analysis_queue(stream_id=stream_id, plies=form.validated_data.get("plies"),
                                player_ids=record.player_ids, tournament_id=record.tournament_id)
        shown = selectors.match_analysis(stream_id, form.validated_data.get("plies"))
        return Response(MatchAnalysisSerializer(shown).data,
                        status=status.HTTP_202_ACCEPTED)


class PlayerAnalysisView(APIView):
    permission_classes = [permissions.AllowAny]

    @extend_schema(responses=PlayerAnalysisSerializer,
                   description="The player's analysed matches, oldest first (`matches`: error rates for the player "
                               "page's chart), and their figures over all of them (`pooled`: the total error over "
                               "the total decisions, as eXtreme Gammon pools them).")
    def get(self, request, pk: int):
        body = {"pooled": selectors.player_pooled(pk), "matches": selectors.player_history(pk)}
        return Response(PlayerAnalysisSerializer(body).data)


class PlayerFairPlayView(APIView):
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(responses=FairPlaySerializer,
                   description="For officials and the directors of the events the player entered: the player's "
                               "figures online beside theirs at the board and the field's, and a flag for a person "
                               "to review (never automatic), with its limits.")
    def get(self, request, pk: int):
        if not authority.reviews_fair_play(request.user, pk):
            raise Forbidden(Reason.FAIR_PLAY_REVIEWERS)
        return Response(FairPlaySerializer(selectors.fair_play(pk)).data)


class EventAnalysisView(APIView):
    """Routed by deploy/urls.py, which passes the event's own visibility rule: analysis reads games, players and
    the event log, never tournaments (the import contracts), so the composition root hands it the one question
    it needs answered about an event."""

    permission_classes = [permissions.AllowAny]
    # (user, event id) -> None, raising Http404 for an event this user may not see (a hidden one)
    event_or_404: Callable[[object, int], object] | None = None

    @extend_schema(responses=EventAverageSerializer(many=True),
                   description="Each player's figures over the event's analysed matches, pooled: the total "
                               "error over the total decisions, as eXtreme Gammon pools them.")
    def get(self, request, pk: int):
        if self.event_or_404 is None:
            raise ImproperlyConfigured("EventAnalysisView.as_view(event_or_404=...) names the event's visibility rule")
        self.event_or_404(request.user, pk)
        return Response(EventAverageSerializer(selectors.event_averages(pk), many=True).data)
