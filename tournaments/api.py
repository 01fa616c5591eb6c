"""Thin API views for events."""

from django.db import transaction
from django.shortcuts import get_object_or_404
from django.utils.translation import gettext as _
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import permissions, serializers, status
from rest_framework.exceptions import Throttled
from rest_framework.response import Response
from rest_framework.views import APIView

from eventlog import store
from eventlog.idempotency import run_once
from games.errors import BadCommand
from games.errors import Reason as GamesReason
from games.imports import ImportBudgetSpent
from games.mat_io import MAX_MAT_BYTES, decode_mat_upload, players_for_import
from games.api.serializers import ImportJobSerializer
from games.api.views import big_import_or_charge
from games.limits import MAX_MATCH_LENGTH
from apikit import paging
from apikit.refusals import refusal_text
from players.identity import name_key
from players.models import Club, Player
from tournaments.formats.standings import TIEBREAKS

from . import commands as cmds
from . import config, console, proofs, selectors, services
from . import serializers as bodies
from .models import Tournament
from .stream import FORMATS, stream_id_of

IDEMPOTENCY_KEY = OpenApiParameter("Idempotency-Key", str, OpenApiParameter.HEADER,
                                   description="retry-safe key: a retry returns the first answer and appends nothing")
REFUSALS = {400: bodies.ErrorSerializer, 403: bodies.ErrorSerializer, 404: bodies.ErrorSerializer}


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


class ReentrySettingsSerializer(serializers.Serializer):
    until_round = serializers.IntegerField(min_value=1, max_value=config.MAX_ROUNDS, required=False,
                                           help_text="the last main round whose losers may re-enter (default 1)")
    times = serializers.IntegerField(min_value=1, max_value=config.MAX_REENTRIES, required=False,
                                     help_text="how many times one player may re-enter (default 1)")


def _setting_field(setting: config.Setting) -> serializers.Field:
    """A setting of :class:`tournaments.config.EventSettings` as the API's JSON types it."""
    options: dict = {"required": False, **({"help_text": setting.help} if setting.help else {})}
    if setting.kind == "whole":
        return serializers.IntegerField(min_value=int(setting.low), max_value=int(setting.high), **options)
    if setting.kind == "number":
        return serializers.FloatField(min_value=setting.low, max_value=setting.high, **options)
    if setting.kind == "flag":
        return serializers.BooleanField(**options)
    if setting.kind == "choice":
        return serializers.ChoiceField(choices=list(setting.choices), **options)
    if setting.kind == "tiebreaks":
        return serializers.ListField(child=serializers.ChoiceField(choices=TIEBREAKS), max_length=len(TIEBREAKS),
                                     **options)
    if setting.kind == "lengths":
        return BracketLengthsSerializer(**options)
    if setting.kind == "reentry":
        return ReentrySettingsSerializer(**options)
    raise AssertionError(f"a setting of kind {setting.kind!r}")


# the director's settings, generated from their declaration (tournaments.config.EventSettings), which checks them
SettingsSerializer = type("SettingsSerializer", (serializers.Serializer,), {
    "__doc__": "The event's settings, with their limits (``tournaments.config.EventSettings`` checks them).",
    "__module__": __name__, **{name: _setting_field(s) for name, s in config.SETTINGS.items()}})


def _set_by_command(command) -> serializers.Field:
    """A setting a command sets (``setting``), one entry per value of its ``keyed_by`` fields: the command's other
    fields, as its body types them."""
    values = type(f"{command.__name__}ValuesSerializer", (serializers.Serializer,), {
        "__module__": __name__, **{f.name: bodies.field_of(f, a) for f, a in cmds.args_of(command)
                                   if f.name not in command.keyed_by}})
    return serializers.DictField(child=values(), required=False,
                                 help_text=f"set by the command {command.type}, by {' and '.join(command.keyed_by)} "
                                           f"(\"default\": the event's own)")


# the event's settings as they stand: the director's, and those set by a command of their own
EventSettingsSerializer = type("EventSettingsSerializer", (SettingsSerializer,), {
    "__doc__": "The event's settings as they stand: its format, the director's settings and those its commands set.",
    "__module__": __name__, "format": serializers.ChoiceField(choices=list(FORMATS)),
    **{cls.setting: _set_by_command(cls) for cls in cmds.COMMANDS.values() if cls.setting}})


class TournamentCreateSerializer(serializers.Serializer):
    name = serializers.CharField(max_length=160)
    format = serializers.ChoiceField(choices=list(FORMATS))
    club = serializers.IntegerField(required=False, allow_null=True)
    settings = SettingsSerializer(required=False, help_text="lengths per bracket/round, rounds, tiebreaks…")


class TournamentListCreate(APIView):
    permission_classes = [permissions.IsAuthenticatedOrReadOnly]

    @extend_schema(operation_id="tournaments_list", responses={200: bodies.TournamentRowSerializer(many=True)},
                   parameters=paging.PAGE_PARAMETERS)
    def get(self, request):
        rows = (Tournament.objects.filter(published=True).values("id", "name", "club_id", "starts_on")
                .order_by("-starts_on", "name", "pk"))  # a stable order: pages neither skip nor repeat
        rows, headers = paging.page(request, rows)
        return Response(rows, headers=headers)

    @extend_schema(request=TournamentCreateSerializer, responses={201: bodies.TournamentSerializer, **REFUSALS})
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

    @extend_schema(responses={200: bodies.TournamentSerializer, 404: bodies.ErrorSerializer})
    def get(self, request, pk: int):
        return Response(selectors.tournament_data(services.visible_or_404(request.user, pk)))


class TournamentSettings(APIView):
    """The event's settings as they stand (changed on its settings page, and by commands such as a round's
    clock)."""

    permission_classes = [permissions.AllowAny]

    @extend_schema(responses={200: EventSettingsSerializer, 404: bodies.ErrorSerializer})
    def get(self, request, pk: int):
        return Response(selectors.settings_data(services.visible_or_404(request.user, pk)))


class TournamentMoney(APIView):
    """The event's money, for its director and officials: the pools (fees, the house's cut, prize money), the
    Calcutta's lots and sales, each pool's shares by place and flight, the buy-backs, the payouts made, and every
    payee's balance (owed, overpaid) — computed from the stream, so a corrected result re-derives every share.
    Amounts are whole numbers of the currency's minor unit (cents)."""

    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(responses={200: bodies.LedgerSerializer, 403: bodies.ErrorSerializer, 404: bodies.ErrorSerializer})
    def get(self, request, pk: int):
        return Response(selectors.money_data(services.money_visible_or_403(request.user, pk)))


class TournamentCommands(APIView):
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(
        request=bodies.COMMAND_REQUEST, parameters=[IDEMPOTENCY_KEY],
        responses={200: bodies.TournamentCommandAnswerSerializer, 409: bodies.ErrorSerializer, **REFUSALS},
        description="One command to the event, by its ``type``; a refusal's ``code`` says why (e.g. not_entered).",
    )
    def post(self, request, pk: int):
        tournament = services.visible_or_404(request.user, pk)
        data = request.data if isinstance(request.data, dict) else {}
        command, expected = services.read_command(actor=request.user, tournament=tournament, data=data,
                                                  read=bodies.read_command)

        def send() -> tuple[int, dict]:
            new = services.tournament_command(actor=request.user, tournament=tournament, command=command,
                                              expected_version=expected)
            return 200, {"appended": [{"type": e.event_type, "payload": e.payload} for e in new],
                         "version": store.stream_version(stream_id_of(tournament.pk))}

        status_code, body = run_once(actor=str(request.user.pk), key=request.headers.get("Idempotency-Key"),
                                     request={"tournament": pk, "command": data}, command=send)
        return Response(body, status=status_code)


def _match_answer(tournament: Tournament, record) -> dict:
    return {"id": record.stream_id, "tournament": tournament.pk, "players": list(record.player_ids),
            "version": record.version, "published": record.published}


class TournamentMatches(APIView):
    """A match the event holds, added by its director (a match of a slot is created by the event itself)."""

    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(request=bodies.EventMatchSerializer,
                   responses={201: bodies.EventMatchAnswerSerializer, **REFUSALS})
    def post(self, request, pk: int):
        tournament = services.visible_or_404(request.user, pk)
        services.check_may_add_matches(request.user, tournament)
        form = bodies.EventMatchSerializer(data=request.data)
        form.is_valid(raise_exception=True)
        data = dict(form.validated_data)
        player0 = get_object_or_404(Player, pk=data.pop("player0"))
        player1 = get_object_or_404(Player, pk=data.pop("player1"))
        with transaction.atomic():
            record = services.tournament_add_match(actor=request.user, tournament=tournament, player0=player0,
                                                   player1=player1, **data)
        return Response(_match_answer(tournament, record), status=status.HTTP_201_CREATED)


def _mat_text(data: dict) -> str:
    """A match file sent as ``file`` (multipart) or as ``text``; neither: the refusal that says how to send it."""
    text = data.get("text")
    if data.get("file") is not None:
        text = decode_mat_upload(data["file"].read(MAX_MAT_BYTES + 1))
    if not text:
        raise BadCommand(GamesReason.MAT_FILE_FIELD)
    return text


class TournamentMatchImport(APIView):
    """A match the event holds, read from a .mat file by its director."""

    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(request=bodies.EventMatchImportSerializer,
                   responses={201: bodies.EventMatchAnswerSerializer, 202: ImportJobSerializer, **REFUSALS},
                   description="A big record (over 32 kB or 25 games) is judged by a worker, as a member's import "
                               "is: 202 with the job, whose address (Location) tells its status and then the match; "
                               "one at a time per director. The games imported are counted per director and hour "
                               "(429 past them).")
    def post(self, request, pk: int):
        tournament = services.visible_or_404(request.user, pk)
        services.check_may_add_matches(request.user, tournament)
        form = bodies.EventMatchImportSerializer(data=request.data)
        form.is_valid(raise_exception=True)
        data = form.validated_data
        text = _mat_text(data)
        if (queued := big_import_or_charge(request, text, data, tournament_id=tournament.pk)) is not None:
            return queued
        with transaction.atomic():  # players named in a refused file are not kept
            player0, player1 = players_for_import(text, data.get("player0"), data.get("player1"))
            record = services.tournament_import_match(actor=request.user, tournament=tournament, text=text,
                                                      player0=player0, player1=player1)
        return Response(_match_answer(tournament, record), status=status.HTTP_201_CREATED)


class SlotProof(APIView):
    """A slot's match played on another server, reported with its .mat file (tournaments/proofs.py)."""

    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(request=bodies.SlotProofSerializer, responses={201: bodies.SlotProofAnswerSerializer, **REFUSALS},
                   description="For a slot of a round played online, undecided, whose match has not begun here: the "
                               "match file of the match played elsewhere, judged by the engine as any import and "
                               "checked against the slot (its players by their name here or their account's, its "
                               "length, a whole match to its end). From one of the slot's players it waits for the "
                               "other's consent (`waiting`); from the event's director it is the slot's match at "
                               "once. Counted against the sender's hourly import budget (429 past it).")
    def post(self, request, pk: int, slot: str):
        tournament = services.visible_or_404(request.user, pk)
        form = bodies.SlotProofSerializer(data=request.data)
        form.is_valid(raise_exception=True)
        text = _mat_text(form.validated_data)
        try:
            record = proofs.proof_file(actor=request.user, tournament=tournament, slot=slot, text=text)
        except ImportBudgetSpent as spent:
            raise Throttled(wait=spent.retry_after, detail=refusal_text(spent)) from spent
        return Response({"match": record.stream_id, "slot": slot, "waiting": record.awaiting_confirmation},
                        status=status.HTTP_201_CREATED)


class SlotProofConsent(APIView):
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(request=None, responses={200: bodies.SlotProofAnswerSerializer, **REFUSALS},
                   description="The other player of the slot (or the event's director) consents to the match file "
                               "waiting in it: the import is confirmed and becomes the slot's match, its result the "
                               "slot's.")
    def post(self, request, pk: int, slot: str):
        tournament = services.visible_or_404(request.user, pk)
        record = proofs.proof_consent(actor=request.user, tournament=tournament, slot=slot)
        return Response({"match": record.stream_id, "slot": slot, "waiting": False})


class SlotProofDecline(APIView):
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(request=bodies.SlotProofDeclineSerializer,
                   responses={200: bodies.SlotProofDeclinedSerializer, **REFUSALS},
                   description="The other player of the slot (or the event's director) declines the match file "
                               "waiting in it, saying why: it no longer waits, its import is voided, and the slot is "
                               "played, reported or decided as any other.")
    def post(self, request, pk: int, slot: str):
        tournament = services.visible_or_404(request.user, pk)
        form = bodies.SlotProofDeclineSerializer(data=request.data)
        form.is_valid(raise_exception=True)
        declined = proofs.proof_decline(actor=request.user, tournament=tournament, slot=slot,
                                        reason=form.validated_data["reason"])
        return Response({"match": declined.match_id, "slot": slot, "reason": declined.reason})


class MemberChoiceSerializer(serializers.Serializer):
    name = serializers.CharField(max_length=console.MAX_NAME, help_text="the line's name, as the list gives it")
    same_as = serializers.IntegerField(required=False, help_text="the same person: this member (a player id among "
                                                                  "the line's candidates)")
    new_name = serializers.CharField(required=False, allow_blank=True, max_length=console.MAX_NAME * 2,
                                     help_text="a different person: the new player's name, told apart from every "
                                               "member's (a surname, an initial)")

    def validate(self, data):
        if ("same_as" in data) == ("new_name" in data):
            raise serializers.ValidationError("say either same_as (the member it is) or new_name (a new player)")
        return data


class MemberImportSerializer(serializers.Serializer):
    members = serializers.CharField(
        max_length=256 * 1024, trim_whitespace=False,
        help_text="the member list as the console takes it: lines of name, e-mail, club id, language (commas, "
                  "semicolons or tabs; all but the name may be empty)")
    choices = MemberChoiceSerializer(many=True, required=False, max_length=console.MAX_IMPORT_ROWS,
                                     help_text="who the lines asked about are (an answer 409 lists them)")


class MemberSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()


class MemberImportAnswerSerializer(serializers.Serializer):
    entered = MemberSerializer(many=True)
    recognised = MemberSerializer(many=True, help_text="entered by a name confirmed at an earlier import")


class CandidateSerializer(MemberSerializer):
    email = serializers.CharField()
    club_member_id = serializers.CharField()


class NamesakeSerializer(serializers.Serializer):
    line = serializers.IntegerField()
    name = serializers.CharField()
    candidates = CandidateSerializer(many=True, help_text="the club's members of that name: the same person is one")


class NamesakesAnswerSerializer(serializers.Serializer):
    detail = serializers.CharField()
    code = serializers.CharField(help_text="same_person")
    namesakes = NamesakeSerializer(many=True)


class TournamentMemberImport(APIView):
    """The club's member list entered into the event, all of it or none, as the director's console takes it.

    A line that only its name could tell (no e-mail or club id naming a player) and whose name a member of the
    event's club already goes by (case, accents and spacing aside) is never made a new player unasked: the answer
    is 409 ``same_person`` listing those lines with their candidates, nothing imported. Send the list again with
    ``choices``: for each such line the member it is (``same_as``), or ``new_name`` for a new player with a name
    that tells them apart. A name confirmed so is remembered: the next import takes it without asking."""

    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(request=MemberImportSerializer,
                   responses={201: MemberImportAnswerSerializer, 409: NamesakesAnswerSerializer, **REFUSALS})
    def post(self, request, pk: int):
        tournament = services.visible_or_404(request.user, pk)
        console.check_runs(request.user, tournament)
        form = MemberImportSerializer(data=request.data)
        form.is_valid(raise_exception=True)
        choices = {name_key(c["name"]): console.Choice(c.get("same_as"), c.get("new_name", ""))
                   for c in form.validated_data.get("choices", [])}
        try:
            imported = console.console_import(actor=request.user, tournament=tournament,
                                              text=form.validated_data["members"], choices=choices)
        except console.ImportNeedsChoice as asked:
            return Response({
                "detail": _("these lines name members of the club by their name alone: say for each whether it is "
                            "the same person (choices); nothing was imported"),
                "code": asked.code,
                "namesakes": [{"line": n.line, "name": n.name, "candidates": [
                    {"id": c.pk, "name": c.display_name, "email": c.email, "club_member_id": c.club_member_id}
                    for c in n.candidates]} for n in asked.namesakes]}, status=status.HTTP_409_CONFLICT)
        return Response({"entered": [{"id": p.pk, "name": p.display_name} for p in imported.players],
                         "recognised": [{"id": p.pk, "name": p.display_name} for p in imported.recognised]},
                        status=status.HTTP_201_CREATED)


class TournamentLadder(APIView):
    """A ladder's rungs, its open challenges with their deadlines, and its history."""

    permission_classes = [permissions.AllowAny]

    @extend_schema(responses={200: bodies.LadderSerializer, 400: bodies.ErrorSerializer, 404: bodies.ErrorSerializer})
    def get(self, request, pk: int):
        return Response(selectors.ladder_data(services.visible_or_404(request.user, pk)))


class TournamentLeague(APIView):
    """A league's divisions with their tables and who goes up and down, and its rounds' deadlines."""

    permission_classes = [permissions.AllowAny]

    @extend_schema(responses={200: bodies.LeagueSerializer, 400: bodies.ErrorSerializer, 404: bodies.ErrorSerializer})
    def get(self, request, pk: int):
        return Response(selectors.league_data(services.visible_or_404(request.user, pk)))


class TournamentTeams(APIView):
    """A team event's teams, its team matches round by round (each board's match and result), and its table of
    teams with the tie-breaks it is ranked by, in their order."""

    permission_classes = [permissions.AllowAny]

    @extend_schema(responses={200: bodies.TeamsSerializer, 400: bodies.ErrorSerializer, 404: bodies.ErrorSerializer})
    def get(self, request, pk: int):
        return Response(selectors.teams_data(services.visible_or_404(request.user, pk)))
