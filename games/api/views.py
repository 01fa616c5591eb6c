"""Thin API views: validate, call one service, shape the response."""

from __future__ import annotations

from django.db import transaction
from django.http import HttpResponse
from django.shortcuts import get_object_or_404
from django.urls import reverse
from django.utils.translation import gettext as _
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import permissions, status
from rest_framework.exceptions import Throttled
from rest_framework.response import Response
from rest_framework.views import APIView

from apikit import paging, printing
from apikit.refusals import refusal_text, said_later
from eventlog import store
from games import exports, imports, selectors, viewer
from games.command_answers import answer_command
from games.creation import match_create
from games.errors import BadCommand, MatchNotFound, Reason
from games.loading import match_load
from games.mat_io import MAX_MAT_BYTES, check_import_games, decode_mat_upload, match_import_mat, players_for_import
from games.rights import can_read, check_may_create
from games.models import ExportJob, ImportJob
from players.models import Player

from .serializers import (
    MatchCommandAnswerSerializer,
    CommandSerializer,
    DiceProofSerializer,
    ErrorSerializer,
    EventSerializer,
    ExportJobSerializer,
    GameRowSerializer,
    ImportJobSerializer,
    MatchCreateSerializer,
    MatchImportSerializer,
    MatchStateSerializer,
    MatchSummarySerializer,
    StaleAnswerSerializer,
    typed_command,
)

REFUSED = {
    400: OpenApiResponse(ErrorSerializer, description="refused: a body or a command that breaks a rule"),
    403: OpenApiResponse(ErrorSerializer, description="not yours to do"),
}
NOT_FOUND = {404: OpenApiResponse(ErrorSerializer, description="no such match (or none you may see)")}


def _is_number(text: str | None) -> bool:
    return bool(text) and text.isascii() and text.isdigit()  # "²" is a digit to str.isdigit, not to int()


def _readable(request, stream_id: str):
    record = match_load(stream_id)
    if not can_read(request.user, record):
        raise MatchNotFound(Reason.NO_MATCH, match=stream_id)
    return record


class MatchListCreate(APIView):
    permission_classes = [permissions.IsAuthenticatedOrReadOnly]

    @extend_schema(
        responses=MatchSummarySerializer(many=True),
        parameters=[OpenApiParameter("tournament", int, description="only this tournament's matches"),
                    *paging.PAGE_PARAMETERS],
    )
    def get(self, request):
        tournament = request.query_params.get("tournament")
        rows = selectors.match_summaries(tournament_id=int(tournament) if _is_number(tournament) else None)
        rows, headers = paging.page(request, rows)
        return Response(MatchSummarySerializer(rows, many=True).data, headers=headers)

    @extend_schema(request=MatchCreateSerializer, responses={201: MatchStateSerializer, **REFUSED},
                   description="A casual match between two players (an event creates its own matches).")
    def post(self, request):
        form = MatchCreateSerializer(data=request.data)
        form.is_valid(raise_exception=True)
        data = dict(form.validated_data)
        player0 = get_object_or_404(Player, pk=data.pop("player0"))
        player1 = get_object_or_404(Player, pk=data.pop("player1"))
        partners = [None if pk is None else get_object_or_404(Player, pk=pk)
                    for pk in (data.pop("partner0"), data.pop("partner1"))]
        check_may_create(request.user, (player0, player1, *[p for p in partners if p is not None]))
        with transaction.atomic():  # the answer is rendered before the commit: no error answered after it
            record = match_create(actor=request.user, player0=player0, player1=player1, partner0=partners[0],
                                  partner1=partners[1], **data)
            body = selectors.match_state_data(record)
        return Response(body, status=status.HTTP_201_CREATED)


class MatchDetail(APIView):
    permission_classes = [permissions.AllowAny]

    @extend_schema(responses={200: MatchStateSerializer, **NOT_FOUND},
                   description="The live state of the match, folded from its stream.")
    def get(self, request, stream_id: str):
        return Response(selectors.match_state_data(_readable(request, stream_id)))


class MatchCommands(APIView):
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(
        request=CommandSerializer,
        parameters=[OpenApiParameter("Idempotency-Key", str, OpenApiParameter.HEADER, description="retry-safe key")],
        responses={200: MatchCommandAnswerSerializer, **REFUSED, **NOT_FOUND,
                   409: OpenApiResponse(StaleAnswerSerializer, description="sent for a version the match has left")},
        description="One command of the match; its body's ``type`` says which.",
    )
    def post(self, request, stream_id: str):
        answer = answer_command(actor=request.user, stream_id=stream_id,
                                body=request.data if isinstance(request.data, dict) else None, parse=typed_command,
                                key=request.headers.get("Idempotency-Key"),
                                correlation_id=request.headers.get("X-Correlation-ID"))
        headers = {"X-Match-Version": str(answer.version)} if answer.version is not None else {}
        return Response(answer.body, status=answer.status, headers=headers)


class MatchEvents(APIView):
    permission_classes = [permissions.AllowAny]

    @extend_schema(
        parameters=[OpenApiParameter("after", int, description="only events after this version"),
                    OpenApiParameter("limit", int, description="events per page (at most API_PAGE_MAX); the next "
                                                               "page is in the Link header")],
        responses={200: EventSerializer(many=True), **NOT_FOUND,
                   400: OpenApiResponse(ErrorSerializer, description="'after' is not a version number")},
    )
    def get(self, request, stream_id: str):
        _readable(request, stream_id)
        after = request.query_params.get("after", "0")
        if not _is_number(after) or len(after) > 12:
            raise BadCommand(Reason.AFTER_VERSION)
        after, limit = int(after), paging.limit_of(request)
        rows = store.read_stream(stream_id, after=after, until=after + limit)  # versions follow on: one page
        headers = paging.next_link(request, after=after + limit, limit=limit) if len(rows) == limit else {}
        return Response(EventSerializer(rows, many=True).data, headers=headers)


class MatchGames(APIView):
    permission_classes = [permissions.AllowAny]

    @extend_schema(responses={200: GameRowSerializer(many=True), **NOT_FOUND}, parameters=paging.PAGE_PARAMETERS,
                   description="Each game's result and Crawford flags (read model).")
    def get(self, request, stream_id: str):
        _readable(request, stream_id)
        rows, headers = paging.page(request, selectors.game_summaries(stream_id))
        return Response(rows, headers=headers)


DICE_GAMES_PER_PAGE = 10  # each game's line lists its rolls


class MatchDice(APIView):
    permission_classes = [permissions.AllowAny]

    @extend_schema(responses={200: DiceProofSerializer(many=True), **NOT_FOUND}, parameters=paging.PAGE_PARAMETERS,
                   description="Each game's dice commitment, its seed once revealed, and whether every server roll checks out.")
    def get(self, request, stream_id: str):
        _readable(request, stream_id)
        # a page of games, and only their events read: the proof of a 200-game session is not built per visit
        limit = paging.limit_of(request, default=DICE_GAMES_PER_PAGE)
        first = paging.number_of(request, "offset", 0) + 1
        lines, more = viewer.dice_proof(stream_id, first=first, count=limit)
        headers = paging.next_link(request, offset=first - 1 + limit, limit=limit) if more else {}
        return Response(lines, headers=headers)


class MatchExport(APIView):
    permission_classes = [permissions.AllowAny]

    @extend_schema(responses={(200, "text/plain"): OpenApiResponse(str, description="the match as a .mat file"),
                              202: OpenApiResponse(ExportJobSerializer, description=(
                                  "a big match's file is being written by a worker: come back after Retry-After "
                                  "(a browser is sent a page that reloads itself); the job's address is Location")),
                              **NOT_FOUND})
    def get(self, request, stream_id: str):
        record = _readable(request, stream_id)
        # a version's file never changes: written once, then served from the cache; a big match's by a worker
        found = exports.export_or_job(record)
        if isinstance(found, ExportJob):
            return _being_written(request, found)
        response = HttpResponse(found, content_type="text/plain; charset=utf-8")
        response["Content-Disposition"] = f'attachment; filename="match-{stream_id}.mat"'
        return response


def _being_written(request, job: ExportJob) -> HttpResponse:
    if "text/html" in request.META.get("HTTP_ACCEPT", ""):  # a browser following the match page's link
        done = {"done": job.games_done, "total": job.games, "percent": imports.percent_done(job)}
        return printing.come_back_page(_("This match's file is being written; it downloads by itself in a few "
                                         "seconds."), _("%(done)s of %(total)s games written (%(percent)s%%).") % done)
    answer = Response(export_job_data(job), status=status.HTTP_202_ACCEPTED)
    answer["Location"] = reverse("export-job", args=[job.pk])
    answer["Retry-After"] = str(printing.COME_BACK_SECONDS)
    answer["Cache-Control"] = "no-store"
    return answer


def export_job_data(job: ExportJob) -> dict:
    return {"id": job.pk, "status": job.status, "match": job.stream_id, "version": job.version, "games": job.games,
            "games_done": job.games_done, "percent": imports.percent_done(job), "file": reverse("match-export", args=[job.stream_id]), "claimed_at": job.claimed_at,
            "finished_at": job.finished_at}


class ExportJobView(APIView):
    permission_classes = [permissions.AllowAny]

    @extend_schema(responses={200: ExportJobSerializer, **NOT_FOUND},
                   description="A big match's export being written by a worker, for whoever may read the match: "
                               "queued, running or done (then its file is served at 'file').")
    def get(self, request, pk: int):
        job = ExportJob.objects.filter(pk=pk).first()
        if job is None:
            raise MatchNotFound(Reason.NO_EXPORT, job=pk)
        _readable(request, job.stream_id)
        return Response(export_job_data(job))


class MatchImport(APIView):
    permission_classes = [permissions.IsAuthenticated]
    # the project's parsers (settings: JSON with a bound on nesting, forms, multipart for the file)

    @extend_schema(request=MatchImportSerializer,
                   responses={201: MatchStateSerializer, 202: ImportJobSerializer, **REFUSED},
                   description="A casual match from a .mat file (an event imports into its own matches). A big record "
                               "(over 32 kB or 25 games) is judged by a worker: 202 with the job, whose address "
                               "(Location) tells its status and then the match; one at a time per member. The "
                               "games imported are counted per member and hour (429 past them).")
    def post(self, request):
        form = MatchImportSerializer(data=request.data)
        form.is_valid(raise_exception=True)
        data = form.validated_data
        text = data.get("text")
        if data.get("file") is not None:
            raw = data["file"].read(MAX_MAT_BYTES + 1)
            text = decode_mat_upload(raw)
        if not text:
            raise BadCommand(Reason.MAT_FILE_FIELD)
        if (queued := big_import_or_charge(request, text, data)) is not None:
            return queued
        with transaction.atomic():  # players named in a refused file are not kept
            player0, player1 = players_for_import(text, data.get("player0"), data.get("player1"))
            check_may_create(request.user, (player0, player1))
            record = match_import_mat(actor=request.user, text=text, player0=player0, player1=player1)
            body = selectors.match_state_data(record)  # before the commit: no error answered after it
        viewer.game_bounds(record.stream_id)  # where each game begins, cached now: no visitor pays for it
        return Response(body, status=status.HTTP_201_CREATED)


def big_import_or_charge(request, text: str, data: dict, *, tournament_id: int | None = None) -> Response | None:
    """A big record handed to a worker: its 202 answer. A small one is charged to the member's hourly budget and
    None returned: the caller imports it now. 429 past the budget, either way."""
    check_import_games(text)
    try:
        if imports.is_big(text):  # judged by a worker: answered now, followed at the job's address
            job = imports.import_submit(user=request.user, text=text, player0_id=data.get("player0"),
                                        player1_id=data.get("player1"), tournament_id=tournament_id)
            answer = Response(import_job_data(job), status=status.HTTP_202_ACCEPTED)
            answer["Location"] = reverse("import-job", args=[job.pk])
            return answer
        imports.charge(user=request.user, games=imports.games_in(text))
    except imports.ImportBudgetSpent as spent:
        raise Throttled(wait=spent.retry_after, detail=refusal_text(spent)) from spent
    return None


def import_job_data(job) -> dict:
    return {"id": job.pk, "status": job.status, "games": job.games, "games_done": job.games_done,
            "percent": imports.percent_done(job), "match": job.stream_id or None, "tournament": job.tournament_id,
            "refusal": said_later(job.refusal), "created_at": job.created_at,
            "finished_at": job.finished_at}


class ImportJobView(APIView):
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(responses={200: ImportJobSerializer, **NOT_FOUND},
                   description="A big import's job, for the member who sent it (casual, or into an event: "
                               "'tournament'): queued, running, done (with the match's id) or failed (with the "
                               "refusal the import would have answered).")
    def get(self, request, pk: int):
        job = ImportJob.objects.filter(pk=pk, user=request.user).first()
        if job is None:
            raise MatchNotFound(Reason.NO_IMPORT, job=pk)
        return Response(import_job_data(job))
