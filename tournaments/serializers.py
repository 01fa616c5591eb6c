"""The tournaments API's bodies: one serializer per command type, and every answer's shape.

The command serializers are generated from the commands' own declarations (``tournaments/commands.py``): each
checks the JSON types strictly and builds the decider's typed command; the decider judges the rest.
"""

from __future__ import annotations

from drf_spectacular.utils import PolymorphicProxySerializer
from rest_framework import serializers

from apikit import ids
from apikit.long_text import LongText
from apikit.refusals import refusal_text
from apikit.serializers import ErrorSerializer  # noqa: F401 - the API declares its refusals with it

from games.limits import MAX_MATCH_LENGTH, MAX_REASON, max_final_score

from tournaments.formats.core import SlotStatus

from . import commands as c

class StrictIntegerField(serializers.IntegerField):
    """A JSON number that is a whole number: no strings, floats or booleans read as one."""

    def to_internal_value(self, data):
        if not isinstance(data, int) or isinstance(data, bool):
            self.fail("invalid")
        return super().to_internal_value(data)


class StrictCharField(serializers.CharField):
    def to_internal_value(self, data):
        if not isinstance(data, str):
            self.fail("invalid")
        return super().to_internal_value(data)


def _player_id(**kwargs):
    return StrictIntegerField(min_value=1, max_value=ids.MAX_ID, **kwargs)


def _score(**kwargs):
    return serializers.ListField(
        child=StrictIntegerField(min_value=0, max_value=max_final_score(MAX_MATCH_LENGTH)), min_length=2,
        max_length=2, **kwargs)


def _text(a: c.Arg, **kwargs):
    return StrictCharField(max_length=MAX_REASON if a.kind == "text" else MAX_SLOT, **kwargs)


def _pairings(a: c.Arg, **kwargs):
    return serializers.ListField(
        child=serializers.ListField(child=_player_id(allow_null=True), min_length=2, max_length=2),
        max_length=a.high, **kwargs)


# each kind of a command's field (``tournaments.commands.Arg``) as the API's body types it: strictly (a round of
# "2" or 2.0 is refused, not read as 2), within the field's own bounds
FIELD_OF_KIND = {
    "id": lambda a, **kw: _player_id(**kw),
    "winner": lambda a, **kw: _player_id(**kw),
    "slot": _text,
    "text": _text,
    "score": lambda a, **kw: _score(**kw),
    "whole": lambda a, **kw: StrictIntegerField(min_value=a.low, max_value=a.high, **kw),
    "round": lambda a, **kw: StrictIntegerField(min_value=a.low, max_value=a.high, **kw),
    "flag": lambda a, **kw: serializers.BooleanField(**kw),
    "choice": lambda a, **kw: serializers.ChoiceField(choices=list(a.choices), **kw),
    "pairings": _pairings,
    "ids": lambda a, **kw: serializers.ListField(child=_player_id(), min_length=a.low, max_length=a.high, **kw),
    "names": lambda a, **kw: serializers.ListField(child=StrictCharField(max_length=c.MAX_LOT_NAME),
                                                   max_length=a.high, **kw),
}
MAX_SLOT = 40  # a slot's key


def field_of(f, a: c.Arg) -> serializers.Field:
    """A command's field (a dataclass field with its :class:`~tournaments.commands.Arg`) as the API types it."""
    options: dict = {"help_text": a.help} if a.help else {}
    if not c.api_required(f, a):
        options["required"] = False
        if c.has_default(f) and f.default is not None:
            options["default"] = f.default
            if isinstance(f.default, str) and a.kind in ("text", "slot"):
                options["allow_blank"] = True
    return FIELD_OF_KIND[a.kind](a, **options)


class CommandSerializer(serializers.Serializer):
    """Every command: its ``type``, and the event's version the sender saw (optional)."""

    command: type[c.TournamentCommand] = c.TournamentCommand
    expected_version = StrictIntegerField(
        min_value=0, required=False,
        help_text="the event's version you are looking at; a stale one answers 409 and appends nothing")

    def validate(self, attrs):
        for rule in self.command.rules:
            if not rule.holds(attrs):
                raise serializers.ValidationError({rule.field: refusal_text(c.BadCommand(rule.reason))})
        return attrs

    def to_command(self) -> c.TournamentCommand:
        data = {k: _frozen(v) for k, v in self.validated_data.items() if k not in ("type", "expected_version")}
        return self.command(**data)


def _frozen(value):
    return tuple(_frozen(v) for v in value) if isinstance(value, list) else value


def serializer_of(command: type[c.TournamentCommand]) -> type[CommandSerializer]:
    """The API's body of a command, from its declaration: one field per :class:`~tournaments.commands.Arg`; the
    class's docstring is its description in the OpenAPI document, its name the schema's component."""
    fields = {"type": serializers.ChoiceField(choices=[command.type])}
    fields.update({f.name: field_of(f, a) for f, a in c.args_of(command)})
    doc = command.__doc__ or ""
    if doc.startswith(f"{command.__name__}("):  # the signature dataclasses write for a class without a docstring
        doc = ""
    return type(f"{command.__name__}Serializer", (CommandSerializer,),
                {"command": command, "__doc__": doc, "__module__": __name__, **fields})


COMMAND_SERIALIZERS: dict[str, type[CommandSerializer]] = {kind: serializer_of(cls) for kind, cls in c.COMMANDS.items()}

COMMAND_REQUEST = PolymorphicProxySerializer(
    component_name="TournamentCommand", resource_type_field_name="type",
    serializers={kind: s for kind, s in COMMAND_SERIALIZERS.items()},
)


def read_command(command: type[c.TournamentCommand], data: dict) -> tuple[c.TournamentCommand, int | None]:
    """A command of the API's body, and the version its sender saw; a malformed body is a 400 naming its fields."""
    form = COMMAND_SERIALIZERS[command.type](data=data)
    form.is_valid(raise_exception=True)
    return form.to_command(), form.validated_data.get("expected_version")


# -- answers -----------------------------------------------------------------------------------


class AppendedEventSerializer(serializers.Serializer):
    type = serializers.CharField()
    payload = serializers.DictField()


class TournamentCommandAnswerSerializer(serializers.Serializer):
    appended = AppendedEventSerializer(many=True)
    version = serializers.IntegerField(help_text="the event's version after the command")


class TournamentRowSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    club_id = serializers.IntegerField(allow_null=True)
    starts_on = serializers.DateField(allow_null=True)


class EntrySerializer(serializers.Serializer):
    player_id = serializers.IntegerField()
    name = serializers.CharField()


class SlotSerializer(serializers.Serializer):
    key = serializers.CharField()
    bracket = serializers.CharField()
    round = serializers.IntegerField()
    index = serializers.IntegerField()
    players = serializers.ListField(child=serializers.IntegerField(allow_null=True))
    names = serializers.ListField(child=serializers.CharField(allow_null=True))
    status = serializers.ChoiceField(choices=[s.value for s in SlotStatus])
    length = serializers.IntegerField()
    match_id = serializers.CharField(allow_null=True)
    winner = serializers.IntegerField(allow_null=True)
    score = serializers.ListField(child=serializers.IntegerField())
    forfeit = serializers.BooleanField()
    table = serializers.IntegerField(allow_null=True, help_text="the table the slot's match is played at")
    entries = serializers.ListField(child=serializers.IntegerField(min_value=1), min_length=2, max_length=2,
                                    help_text="per side, which entry of its player: 1, or 2, 3… for a re-entry")
    open_place = serializers.BooleanField(help_text="the second side is a first-round place kept for re-entries")


class StandingSerializer(serializers.Serializer):
    rank = serializers.IntegerField()
    player_id = serializers.IntegerField()
    name = serializers.CharField()
    played = serializers.IntegerField(help_text="wins + losses: in a Swiss a bye is a won match, so it is counted")
    wins = serializers.IntegerField(help_text="matches won, byes included in a Swiss (a round robin's rest rounds "
                                              "count for nothing)")
    losses = serializers.IntegerField()
    byes = serializers.IntegerField(help_text="byes had; in a Swiss each is one of the wins, with 0-0 match points")
    points_for = serializers.IntegerField()
    points_against = serializers.IntegerField()
    score = serializers.FloatField()
    tiebreaks = serializers.DictField(child=serializers.FloatField())
    flight = serializers.CharField(allow_blank=True)
    forfeits = serializers.IntegerField()
    shared = serializers.BooleanField(help_text="others hold the same rank: players knocked out in the same round of "
                                                "a knockout share their place (3=); the table lists them by wins, "
                                                "then seed")
    place = serializers.CharField(help_text="the place as the tables show it, in the reader's language: '3', or "
                                            "'3=' when shared")
    withdrawn = serializers.BooleanField()


class FlaggedSerializer(serializers.Serializer):
    slot = serializers.CharField()
    match_id = serializers.CharField()
    match_players = serializers.ListField(child=serializers.IntegerField())
    slot_players = serializers.ListField(child=serializers.IntegerField())
    started = serializers.BooleanField()
    finished = serializers.BooleanField()


class StagesSerializer(serializers.Serializer):
    """A staged event (a Swiss or round robin, then a knockout of its top ``qualifiers``); empty for one stage."""

    first = serializers.ChoiceField(choices=["swiss", "rr"], required=False, help_text="stage one's slots' bracket")
    groups = serializers.IntegerField(required=False, help_text="a round robin in groups: how many")
    qualifiers = serializers.IntegerField(required=False)
    closed = serializers.BooleanField(required=False, help_text="stage one closed, the knockout drawn")
    table = serializers.ListField(child=serializers.IntegerField(), required=False,
                                  help_text="stage one's final table when it closed, best first")
    seeds = serializers.ListField(child=serializers.IntegerField(), required=False,
                                  help_text="the knockout's seeds, 1 first")


class ReentryMadeSerializer(serializers.Serializer):
    player = serializers.IntegerField()
    place = serializers.CharField(help_text="the first-round slot the re-entry took")
    entry = serializers.IntegerField(help_text="2 for a first re-entry, 3 for a second…")


class ReentrySerializer(serializers.Serializer):
    """The knockout's re-entry (buy-back) rules and state; empty when the event offers none."""

    until_round = serializers.IntegerField(required=False, help_text="the last round whose losers may re-enter")
    times = serializers.IntegerField(required=False, help_text="re-entries one player may make")
    closed = serializers.BooleanField(required=False)
    open = serializers.ListField(child=serializers.CharField(), required=False,
                                 help_text="first-round places still open, in the order re-entries take them")
    made = ReentryMadeSerializer(many=True, required=False)
    eligible = serializers.ListField(child=serializers.IntegerField(), required=False,
                                     help_text="players who may re-enter now")


class TournamentSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    club = serializers.IntegerField(allow_null=True)
    director = serializers.IntegerField(allow_null=True)
    format = serializers.CharField(allow_null=True)
    version = serializers.IntegerField()
    entries = EntrySerializer(many=True)
    checked_in = serializers.ListField(child=serializers.IntegerField())
    withdrawn = serializers.ListField(child=serializers.IntegerField())
    drawn = serializers.BooleanField()
    winner = serializers.IntegerField(allow_null=True)
    champions = serializers.DictField(child=serializers.IntegerField(allow_null=True),
                                      help_text="flight -> its champion")
    flagged = FlaggedSerializer(many=True)
    slots = SlotSerializer(many=True)
    standings = StandingSerializer(many=True)
    stages = StagesSerializer()
    reentry = ReentrySerializer()


class EventMatchSerializer(serializers.Serializer):
    """A match the director adds to the event by hand (not a slot's: the draw's matches are created for it)."""

    player0 = _player_id(help_text="player id of the first player")
    player1 = _player_id(help_text="player id of the second player")
    length = StrictIntegerField(min_value=0, max_value=MAX_MATCH_LENGTH, help_text="odd, or 0 for a money session")
    published = serializers.BooleanField(default=True, help_text="and only while the event is")
    crawford = serializers.BooleanField(default=True)
    jacoby = serializers.BooleanField(default=False)
    beavers = serializers.BooleanField(default=False)
    raccoons = serializers.BooleanField(default=False)
    automatic_doubles = StrictIntegerField(default=0, min_value=0)
    cube_limit = StrictIntegerField(default=0, min_value=0)
    dice = serializers.ChoiceField(choices=["server", "board"], default="server")


class EventMatchImportSerializer(serializers.Serializer):
    file = serializers.FileField(required=False)
    text = LongText(required=False, trim_whitespace=False)
    player0 = serializers.IntegerField(required=False)
    player1 = serializers.IntegerField(required=False)


class EventMatchAnswerSerializer(serializers.Serializer):
    id = serializers.CharField(help_text="the match's stream id: GET /api/matches/{id}/ for its state")
    tournament = serializers.IntegerField()
    players = serializers.ListField(child=serializers.IntegerField())
    version = serializers.IntegerField()
    published = serializers.BooleanField()


class SlotProofSerializer(serializers.Serializer):
    file = serializers.FileField(required=False, help_text="the .mat file of the match played elsewhere (multipart)")
    text = LongText(required=False, trim_whitespace=False, help_text="or its content")


class SlotProofAnswerSerializer(serializers.Serializer):
    match = serializers.CharField(help_text="the imported match's stream id: GET /api/matches/{id}/ for its record")
    slot = serializers.CharField()
    waiting = serializers.BooleanField(help_text="true: it waits for the other player's consent; false: it is the "
                                                 "slot's match")


class SlotProofDeclineSerializer(serializers.Serializer):
    reason = serializers.CharField(max_length=500, help_text="why the file is not the slot's match (kept in the log)")


class SlotProofDeclinedSerializer(serializers.Serializer):
    match = serializers.CharField(help_text="the declined file's match: voided")
    slot = serializers.CharField()
    reason = serializers.CharField()


# -- ladders and leagues -----------------------------------------------------------------------


class RungSerializer(serializers.Serializer):
    rung = serializers.IntegerField()
    player_id = serializers.IntegerField()
    name = serializers.CharField()
    played = serializers.IntegerField()
    wins = serializers.IntegerField()
    losses = serializers.IntegerField()
    challengeable = serializers.BooleanField(help_text="free of open challenges")


class ChallengeSerializer(serializers.Serializer):
    number = serializers.IntegerField()
    slot = serializers.CharField()
    challenger = serializers.IntegerField()
    defender = serializers.IntegerField()
    names = serializers.ListField(child=serializers.CharField())
    issued_at = serializers.DateTimeField()
    deadline = serializers.DateTimeField()
    match_id = serializers.CharField(allow_null=True)


class LadderMoveSerializer(serializers.Serializer):
    step = serializers.IntegerField()
    kind = serializers.ChoiceField(choices=["challenge", "join", "leave"])
    number = serializers.IntegerField(allow_null=True)
    how = serializers.CharField(allow_blank=True, help_text="played, walkover, refused, lapsed, cancelled, withdrawal")
    text = serializers.CharField()
    player = serializers.IntegerField()
    opponent = serializers.IntegerField(allow_null=True)
    winner = serializers.IntegerField(allow_null=True)
    rungs = serializers.ListField(child=serializers.IntegerField(), help_text="[player's rung before, after]")
    score = serializers.ListField(child=serializers.IntegerField(), allow_null=True)


class LadderSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    version = serializers.IntegerField()
    reach = serializers.IntegerField()
    on_win = serializers.CharField()
    challenge_days = serializers.IntegerField()
    refused = serializers.CharField()
    unplayed = serializers.CharField()
    rungs = RungSerializer(many=True)
    open = ChallengeSerializer(many=True)
    history = LadderMoveSerializer(many=True)


class DivisionRowSerializer(serializers.Serializer):
    rank = serializers.IntegerField()
    player_id = serializers.IntegerField()
    name = serializers.CharField()
    played = serializers.IntegerField()
    wins = serializers.IntegerField()
    losses = serializers.IntegerField()
    points_for = serializers.IntegerField()
    points_against = serializers.IntegerField()
    zone = serializers.ChoiceField(choices=["promoted", "relegated", ""], allow_blank=True)


class DivisionSerializer(serializers.Serializer):
    number = serializers.IntegerField()
    name = serializers.CharField()
    finished = serializers.BooleanField()
    rows = DivisionRowSerializer(many=True)


class RoundDeadlineSerializer(serializers.Serializer):
    round = serializers.IntegerField()
    deadline = serializers.DateTimeField()
    open = serializers.IntegerField(help_text="matches of the round still to play")


class LeagueSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    version = serializers.IntegerField()
    previous = serializers.IntegerField(allow_null=True, help_text="the league event this season follows")
    promote = serializers.IntegerField()
    relegate = serializers.IntegerField()
    round_days = serializers.IntegerField()
    unplayed = serializers.CharField()
    starts_at = serializers.DateTimeField(allow_null=True)
    winner = serializers.IntegerField(allow_null=True)
    divisions = DivisionSerializer(many=True)
    rounds = RoundDeadlineSerializer(many=True)


class PoolSerializer(serializers.Serializer):
    fees = serializers.IntegerField()
    cut = serializers.IntegerField(help_text="the house's")
    prize_money = serializers.IntegerField()


class LedgerSerializer(serializers.Serializer):
    """An event's money (amounts in the currency's minor unit). A payee is a ``player`` (id) or a lot's ``owner``
    (a name), with its ``name``."""

    id = serializers.IntegerField()
    name = serializers.CharField()
    recorded = serializers.BooleanField(help_text="false: the event records no money")
    version = serializers.IntegerField(help_text="the event's version the ledger was computed at")
    currency = serializers.CharField(required=False)
    unit = serializers.IntegerField(required=False, help_text="shares are paid in multiples of this")
    final = serializers.BooleanField(required=False, help_text="every flight has its champion: the shares are final")
    open_flights = serializers.ListField(child=serializers.CharField(), required=False)
    settings = serializers.DictField(required=False, help_text="the director's set_money")
    entries = serializers.IntegerField(required=False)
    reentries = serializers.IntegerField(required=False)
    side_entrants = serializers.ListField(child=serializers.IntegerField(), required=False)
    pools = serializers.DictField(child=PoolSerializer(), required=False, help_text="main, side, calcutta")
    registration = serializers.IntegerField(required=False)
    house = serializers.IntegerField(required=False, help_text="what the house keeps: cuts and registration fees")
    lots = serializers.ListField(child=serializers.DictField(), required=False,
                                 help_text="each lot: its players, its owner (the bidder), the price, a syndicate "
                                           "and its members (the bidder among them), bought back or not")
    jackpots = serializers.ListField(child=serializers.DictField(), required=False,
                                     help_text="each jackpot: buy-in, seats, table, the house's cut, its buyers, "
                                               "its own event once started, its pool (fees, cut, prize_money)")
    open_jackpots = serializers.ListField(child=serializers.CharField(), required=False,
                                          help_text="the jackpots started and not finished: the shares wait for them")
    field_lot_players = serializers.ListField(child=serializers.IntegerField(), required=False)
    buy_backs = serializers.ListField(child=serializers.DictField(), required=False,
                                      help_text="what each player of a bought-back lot pays its owner")
    shares = serializers.ListField(child=serializers.DictField(), required=False,
                                   help_text="per pool (main, side, calcutta, jackpot with its name) and payee")
    unawarded = serializers.DictField(child=serializers.IntegerField(), required=False,
                                      help_text="per pool: prizes of places nobody reached")
    payouts = serializers.ListField(child=serializers.DictField(), required=False, help_text="the payouts made")
    balances = serializers.ListField(child=serializers.DictField(), required=False,
                                     help_text="per payee: share, paid, owed, overpaid")


class TeamMemberSerializer(serializers.Serializer):
    player_id = serializers.IntegerField()
    name = serializers.CharField(allow_blank=True)
    reserve = serializers.BooleanField(help_text="listed after the boards: comes in for a player")


class TeamSerializer(serializers.Serializer):
    number = serializers.IntegerField()
    name = serializers.CharField()
    members = TeamMemberSerializer(many=True, help_text="board order, then the reserves")


class TeamBoardSerializer(serializers.Serializer):
    board = serializers.IntegerField()
    slot = serializers.CharField()
    players = serializers.ListField(child=serializers.IntegerField())
    names = serializers.ListField(child=serializers.CharField(allow_blank=True))
    status = serializers.CharField()
    winner = serializers.IntegerField(allow_null=True)
    score = serializers.ListField(child=serializers.IntegerField(), allow_null=True)
    match_id = serializers.CharField(allow_null=True)


class TeamMatchSerializer(serializers.Serializer):
    index = serializers.IntegerField()
    teams = serializers.ListField(child=serializers.IntegerField(allow_null=True), help_text="[team, team or null: rests]")
    names = serializers.ListField(child=serializers.CharField(allow_blank=True))
    rests = serializers.BooleanField()
    boards = TeamBoardSerializer(many=True)
    board_wins = serializers.ListField(child=serializers.IntegerField())
    decided = serializers.BooleanField()
    winner = serializers.IntegerField(allow_null=True, help_text="null: undecided, or a drawn team match")


class TeamRoundSerializer(serializers.Serializer):
    round = serializers.IntegerField()
    matches = TeamMatchSerializer(many=True)


class TeamStandingSerializer(serializers.Serializer):
    rank = serializers.IntegerField()
    team = serializers.IntegerField()
    name = serializers.CharField()
    played = serializers.IntegerField()
    won = serializers.IntegerField()
    drawn = serializers.IntegerField()
    lost = serializers.IntegerField()
    match_points = serializers.IntegerField()
    board_points = serializers.IntegerField()
    points_for = serializers.IntegerField()
    points_against = serializers.IntegerField()
    head_to_head = serializers.IntegerField()


class TeamTiebreakSerializer(serializers.Serializer):
    key = serializers.CharField()
    name = serializers.CharField()
    description = serializers.CharField()


class TeamsSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    version = serializers.IntegerField()
    drawn = serializers.BooleanField()
    boards = serializers.IntegerField()
    reserves = serializers.IntegerField()
    fixed_order = serializers.BooleanField()
    to_win = serializers.IntegerField(help_text="boards that win a team match")
    tie_rule = serializers.CharField()
    tiebreaks = TeamTiebreakSerializer(many=True, help_text="the table's criteria, in the order they rank")
    teams = TeamSerializer(many=True)
    rounds = TeamRoundSerializer(many=True)
    standings = TeamStandingSerializer(many=True)
    winner = serializers.IntegerField(allow_null=True)
