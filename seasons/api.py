"""Thin API views for seasons: the list, one season with its table, and the director's commands."""

from django.shortcuts import get_object_or_404
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import permissions, status
from rest_framework.response import Response
from rest_framework.views import APIView

from apikit import paging
from apikit.serializers import ErrorSerializer
from eventlog.idempotency import run_once
from players.models import Club
from tournaments.models import Tournament

from . import selectors, services
from . import serializers as bodies
from .models import Season

IDEMPOTENCY_KEY = OpenApiParameter("Idempotency-Key", str, OpenApiParameter.HEADER,
                                   description="retry-safe key: a retry returns the first answer and appends nothing")
REFUSALS = {400: ErrorSerializer, 403: ErrorSerializer, 404: ErrorSerializer}


class SeasonListOpen(APIView):
    permission_classes = [permissions.IsAuthenticatedOrReadOnly]

    @extend_schema(operation_id="seasons_list", responses={200: bodies.SeasonRowSerializer(many=True)},
                   parameters=paging.PAGE_PARAMETERS)
    def get(self, request):
        rows, headers = paging.page(request, selectors.season_rows())
        return Response(rows, headers=headers)

    @extend_schema(request=bodies.SeasonOpenSerializer, responses={201: bodies.SeasonSerializer, **REFUSALS},
                   description="Open a season or a series (a club's directors under its name, or an official).")
    def post(self, request):
        form = bodies.SeasonOpenSerializer(data=request.data)
        form.is_valid(raise_exception=True)
        data = form.validated_data
        club = get_object_or_404(Club, pk=data["club"]) if data.get("club") else None
        season = services.season_open(actor=request.user, name=data["name"], kind=data["kind"], club=club,
                                      rule=data.get("rule"), effective_from=data.get("effective_from"))
        return Response(selectors.season_data(season), status=status.HTTP_201_CREATED)


class SeasonDetail(APIView):
    permission_classes = [permissions.AllowAny]

    @extend_schema(responses={200: bodies.SeasonSerializer, 404: ErrorSerializer})
    def get(self, request, pk: int):
        season = get_object_or_404(Season, pk=pk)
        return Response(selectors.season_data(season, with_hidden=services.may_run(request.user, season)))


class SeasonCommands(APIView):
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(
        request=bodies.SeasonCommandSerializer, parameters=[IDEMPOTENCY_KEY],
        responses={200: bodies.SeasonCommandAnswerSerializer, 409: ErrorSerializer, **REFUSALS},
        description="add_event, remove_event, set_rule (a new version from a date), add_chouette (the club counts "
                    "a chouette night: its session and which player each name on its sheet is) or remove_chouette; "
                    "a refusal's code says why.",
    )
    def post(self, request, pk: int):
        season = get_object_or_404(Season, pk=pk)
        form = bodies.SeasonCommandSerializer(data=request.data)
        form.is_valid(raise_exception=True)
        data = form.validated_data
        expected = data.get("expected_version")

        def send() -> tuple[int, dict]:
            kind = data["type"]
            if kind == "add_event":
                tournament = get_object_or_404(Tournament, pk=data["tournament"])
                version = services.season_add_event(actor=request.user, season=season, tournament=tournament,
                                                    on=data.get("on"), expected_version=expected)
            elif kind == "add_chouette":
                version = services.season_add_chouette(actor=request.user, season=season, chouette=data["chouette"],
                                                       players=data["players"], on=data.get("on"),
                                                       expected_version=expected)
            elif kind == "remove_chouette":
                version = services.season_remove_chouette(actor=request.user, season=season,
                                                          chouette=data["chouette"], expected_version=expected)
            elif kind == "remove_event":
                version = services.season_remove_event(actor=request.user, season=season,
                                                       tournament_id=data["tournament"], expected_version=expected)
            else:
                version = services.season_set_rule(actor=request.user, season=season, rule=data["rule"],
                                                   effective_from=data["effective_from"], expected_version=expected)
            return 200, {"version": version}

        status_code, body = run_once(actor=str(request.user.pk), key=request.headers.get("Idempotency-Key"),
                                     request={"season": pk, "command": request.data if isinstance(request.data, dict)
                                              else {}}, command=send)
        return Response(body, status=status_code)
