"""The games API's bodies: what a request may hold (checked here, at the door) and what every answer holds.

A match command is one serializer per command type; each builds the typed command value the service takes
(:mod:`games.commands`, :mod:`games.engine.commands`). The answers' serializers describe the dictionaries the
selectors shape, so the OpenAPI document declares every field a client reads.
"""

from __future__ import annotations


from drf_spectacular.utils import PolymorphicProxySerializer, extend_schema_field
from rest_framework import serializers

from apikit import ids
from apikit.serializers import ErrorSerializer

from games import limits
from games import clocks
from games.commands import (COMMAND_TYPES, CallMatch, ClaimDisconnect, ClaimNoShow, ClaimTime, ConfirmImport,
                            CorrectResult, PauseClock, PressClock, RecordLateness, ResumeClock, RollDice, SetClock,
                            SetRated, VoidMatch)
from games.engine import commands as engine
from apikit.long_text import LongText
from games.engine.events import KIND_VALUE
from games.engine.match import Phase
from games.errors import BadCommand, Reason
from games.models import MatchSummary
from games.streams import CLOSINGS, DICE_SOURCES


class Text(serializers.CharField):
    """A string, and only a string: DRF's CharField would read 5 as "5"."""

    def to_internal_value(self, data):
        if not isinstance(data, str):
            self.fail("invalid")
        return super().to_internal_value(data)


# each field refusal the serializers say, by its text: DRF keeps a field's refusal as a text, and a command's
# refusal is data (its reason and parameters), as the service's own refusals of the same fields are
_REASON_OF: dict[str, tuple[Reason, dict]] = {}


def _said(reason: Reason, *keys: str, **params) -> dict:
    """The same reason for each of these refusals of a field (its reasons name the field, as the service's do)."""
    return dict.fromkeys(keys, _text(reason, **params))


def _text(reason: Reason, **params) -> str:
    text = reason.value % params
    _REASON_OF[text] = (reason, params)
    return text


class _Pair(serializers.Field):
    """Two whole numbers from ``low`` to ``high`` (a JSON list): refused with one reason that names the field."""

    def __init__(self, *, low: int, high: int, reason: str, **kwargs):
        self.low, self.high = low, high
        super().__init__(error_messages={"invalid": reason}, **kwargs)

    def to_internal_value(self, data):
        if not (isinstance(data, list) and len(data) == 2
                and all(isinstance(d, int) and not isinstance(d, bool) and self.low <= d <= self.high for d in data)):
            self.fail("invalid")
        return tuple(data)

    def to_representation(self, value):
        return list(value)


def _pair_schema(low: int, high: int) -> dict:
    return {"type": "array", "items": {"type": "integer", "minimum": low, "maximum": high}, "minItems": 2,
            "maxItems": 2}


@extend_schema_field(_pair_schema(1, 6))
class Dice(_Pair):
    def __init__(self, **kwargs):
        super().__init__(low=1, high=6, reason=_text(Reason.DICE_FIELD), **kwargs)


@extend_schema_field(_pair_schema(0, limits.MAX_SCORE))
class FinalScore(_Pair):
    def __init__(self, **kwargs):
        super().__init__(low=0, high=limits.MAX_SCORE, reason=_text(Reason.SCORE_FIELD), **kwargs)


class MatchCreateSerializer(serializers.Serializer):
    player0 = serializers.IntegerField(min_value=1, max_value=ids.MAX_ID, help_text="Player id of the first player")
    player1 = serializers.IntegerField(min_value=1, max_value=ids.MAX_ID, help_text="Player id of the second player")
    partner0 = serializers.IntegerField(min_value=1, max_value=ids.MAX_ID, required=False, allow_null=True,
                                        default=None,
                                        help_text="a consultation match: player0's partner (give both partners)")
    partner1 = serializers.IntegerField(min_value=1, max_value=ids.MAX_ID, required=False, allow_null=True,
                                        default=None, help_text="a consultation match: player1's partner; never rated")
    length = serializers.IntegerField(
        min_value=0, max_value=limits.MAX_MATCH_LENGTH,
        help_text=f"Match length (odd, at most {limits.MAX_MATCH_LENGTH}: gnubg's Match ID holds 15 bits), "
                  "or 0 for an unlimited money session")
    published = serializers.BooleanField(default=True)
    rated = serializers.BooleanField(default=True, help_text="false: a friendly, kept out of the ratings "
                                                             "(the command set_rated changes it)")
    crawford = serializers.BooleanField(default=True)
    jacoby = serializers.BooleanField(default=False)
    beavers = serializers.BooleanField(default=False)
    raccoons = serializers.BooleanField(default=False)
    automatic_doubles = serializers.IntegerField(default=0, min_value=0, max_value=limits.MAX_AUTOMATIC_DOUBLES)
    cube_limit = serializers.IntegerField(
        default=0, min_value=0, max_value=limits.MAX_CUBE,
        help_text=f"A power of two; 0 = the platform's highest cube, {limits.MAX_CUBE} (gnubg's Match ID holds no more)")
    dice = serializers.ChoiceField(choices=list(DICE_SOURCES), default="server",
                                   help_text="where every roll comes from, fixed for the match: the server's "
                                             "verifiable dice, or the players' own dice entered from the board")

    def validate(self, attrs):
        return _casual(self, attrs)


def _casual(form: serializers.Serializer, attrs: dict) -> dict:
    """The games API creates casual matches: a body naming an event is refused, not quietly made casual."""
    if isinstance(form.initial_data, dict) and "tournament" in form.initial_data:
        raise BadCommand(Reason.EVENT_MATCHES)
    return attrs


# -- commands: one serializer per type --------------------------------------------------------------


def _twin(field):
    twin = object.__new__(type(field))
    twin.__dict__.update(field.__dict__)
    return twin


class _Command(serializers.Serializer):
    command_type: str = ""
    expected_version = serializers.IntegerField(
        min_value=1, help_text="the version of the match you are looking at",
        error_messages=_said(Reason.EXPECTED_VERSION, "required", "null", "invalid", "min_value", "max_string_length"))

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        # "type" names the command: one choice per serializer (the OpenAPI document's discriminator)
        fields = {name: field for name, field in cls._declared_fields.items() if name != "type"}
        cls._declared_fields = {"type": serializers.ChoiceField(choices=[cls.command_type]), **fields}

    def get_fields(self):
        # DRF deep-copies the declared fields for every instance, building each field anew (on every move of every
        # match); validating a body changes nothing in a field but what bind() sets on it: a shallow copy will do,
        # its attributes copied as copy.copy would, without copy's generic protocol (most of what it costs)
        return {name: _twin(field) for name, field in self._declared_fields.items()}

    def command(self):
        """The typed command value of the validated body."""
        raise NotImplementedError


class _Seated(_Command):
    player = serializers.IntegerField(
        required=False, allow_null=True, min_value=0, max_value=1,
        help_text="the seat acting, for an official recording at the table; a player acts in their own seat",
        error_messages=_said(Reason.PLAYER_SEAT, "invalid", "min_value", "max_value", "max_string_length"))
    action: type = object

    def command(self):
        return self.action(self.validated_data.get("player"))


class RollCommandSerializer(_Seated):
    command_type = "roll"
    dice = Dice(required=False, allow_null=True,
                help_text="the numbers rolled, read off the board in a board-dice match; absent for the server's dice")

    def command(self):
        dice = self.validated_data.get("dice")
        return RollDice(self.validated_data.get("player"), dice)


class MoveCommandSerializer(_Seated):
    command_type = "move"
    move = Text(allow_blank=True, trim_whitespace=False, max_length=limits.MAX_MOVE_TEXT,
                help_text='the play in gnubg notation, e.g. "24/18 13/11*" ("" when there is no play)',
                error_messages=_said(Reason.MOVE_NOTATION, "required", "null", "invalid")
                | _said(Reason.MOVE_TOO_LONG, "max_length", n=limits.MAX_MOVE_TEXT))

    def command(self):
        return engine.Move(self.validated_data.get("player"), self.validated_data["move"])


class ResignCommandSerializer(_Seated):
    command_type = "resign"
    kind = serializers.ChoiceField(choices=list(KIND_VALUE), default="single", help_text="what is resigned",
                                   error_messages=_said(Reason.RESIGN_KIND, "invalid_choice",
                                                        "null"))

    def command(self):
        return engine.Resign(self.validated_data.get("player"), self.validated_data.get("kind", "single"))


def _seated(name: str, action: type, doc: str) -> type[_Seated]:
    return type(f"{name.title().replace('_', '')}CommandSerializer", (_Seated,),
                {"command_type": name, "action": action, "__doc__": doc})


DoubleCommandSerializer = _seated("double", engine.Double, "Offer the cube.")
TakeCommandSerializer = _seated("take", engine.Take, "Take the double.")
DropCommandSerializer = _seated("drop", engine.Drop, "Drop the double: the game is lost at the cube's value.")
BeaverCommandSerializer = _seated("beaver", engine.Beaver, "Redouble at once the double offered (money sessions).")
RaccoonCommandSerializer = _seated("raccoon", engine.Raccoon, "Redouble at once the beaver (money sessions).")
AcceptResignationCommandSerializer = _seated("accept_resignation", engine.AcceptResignation,
                                             "Accept the resignation offered: the game ends.")
DeclineResignationCommandSerializer = _seated("decline_resignation", engine.DeclineResignation,
                                              "Decline the resignation offered: play goes on.")


_REASON = (_said(Reason.REASON_REQUIRED, "required", "null", "invalid", "blank")
           | _said(Reason.REASON_TOO_LONG, "max_length", n=limits.MAX_REASON))


class CorrectResultCommandSerializer(_Command):
    """A director sets the match's result."""

    command_type = "correct_result"
    winner = serializers.IntegerField(min_value=0, max_value=1, help_text="the winner's seat",
                                      error_messages=_said(Reason.WINNER_SEAT, "required", "null", "invalid",
                                                           "min_value", "max_value", "max_string_length"))
    score = FinalScore(help_text="the final score by seat; in a match to L points the winner has at most "
                                 f"L - 1 + {limits.MAX_GAME_POINTS}")
    reason = Text(max_length=limits.MAX_REASON, error_messages=_REASON)

    def command(self):
        data = self.validated_data
        return CorrectResult(data["winner"], data["score"], data["reason"])


class VoidCommandSerializer(_Command):
    """A director voids the match: it counts for nothing."""

    command_type = "void"
    reason = Text(max_length=limits.MAX_REASON, error_messages=_REASON)

    def command(self):
        return VoidMatch(self.validated_data["reason"])


class ConfirmImportCommandSerializer(_Command):
    """The other player (or an official) vouches for an imported record."""

    command_type = "confirm_import"

    def command(self):
        return ConfirmImport()


class SetRatedCommandSerializer(_Command):
    """A director marks the match rated or unrated from now on (a friendly, a walkover): the ratings re-derive.
    A match of an event's slot is rated as its event says (the event's command set_rated)."""

    command_type = "set_rated"
    rated = serializers.BooleanField(help_text="false: its result stays out of the ratings")

    def command(self):
        return SetRated(self.validated_data["rated"])


_SECONDS = dict(required=False, allow_null=True, min_value=0, max_value=clocks.MAX_SECONDS)


class SetClockCommandSerializer(_Seated):
    """Set the match's clock at the start of a game (before its opening roll): a federation's preset, or
    ``custom`` with its figures in seconds."""

    command_type = "set_clock"
    preset = serializers.ChoiceField(choices=list(clocks.PRESET_NAMES), required=False,
                                     help_text="us, us_overtime_1, us_overtime_2, us_doubles, uk, aba or custom; "
                                               "left out: the one its round names",
                                     error_messages=_said(Reason.CLOCK_PRESET, "null", "invalid_choice",
                                                          choices=", ".join(clocks.PRESET_NAMES)))
    per_match = serializers.IntegerField(help_text="custom: seconds of reserve for the whole match", **_SECONDS)
    per_point = serializers.IntegerField(help_text="custom: seconds of reserve a point of the match", **_SECONDS)
    per_scored = serializers.IntegerField(help_text="custom: seconds less a point already scored", **_SECONDS)
    delay = serializers.IntegerField(help_text="custom: the delay a turn, in seconds", **_SECONDS)
    overtime = serializers.IntegerField(help_text="custom: the reserve after a first expiry (0: none)", **_SECONDS)

    def command(self):
        data = self.validated_data
        return SetClock(data.get("preset", ""), data.get("per_match"), data.get("per_point"), data.get("per_scored"),
                        data.get("delay"), data.get("overtime"), data.get("player"))


class PressClockCommandSerializer(_Seated):
    """Press your clock: after moving, doubling, taking, or when you cannot move; the lower opening die starts the
    opponent's; once a game is over, the running clock's player stops both."""

    command_type = "press_clock"
    reading = serializers.IntegerField(required=False, allow_null=True, min_value=0,
                                       help_text="the tablet's own clock, milliseconds since 1970: kept for the "
                                                 "record; the server's receipt time is the clock's")

    def command(self):
        return PressClock(self.validated_data.get("player"), self.validated_data.get("reading"))


ClaimTimeCommandSerializer = _seated("claim_time", ClaimTime, "The running clock's flag has fallen: the match is "
                                                              "lost on time (refused while time is left).")


def _unseated(name: str, command: type, doc: str) -> type[_Command]:
    return type(f"{name.title().replace('_', '')}CommandSerializer", (_Command,),
                {"command_type": name, "command": lambda self: command(), "__doc__": doc})


PauseClockCommandSerializer = _unseated("pause_clock", PauseClock, "A director's call: both clocks stand still.")
ResumeClockCommandSerializer = _unseated("resume_clock", ResumeClock, "The clock that ran runs again.")
CallMatchCommandSerializer = _unseated("call_match", CallMatch, "The director calls the match to its board: "
                                                                "lateness counts from now.")


class RecordLatenessCommandSerializer(_Command):
    """A player not at the board: the penalty points due since the match was called (one each full 5 minutes;
    past half the match length, the opponent wins the match)."""

    command_type = "record_lateness"
    player = serializers.IntegerField(min_value=0, max_value=1, help_text="the seat of the player who is late",
                                      error_messages=_said(Reason.PLAYER_SEAT, "required", "null", "invalid",
                                                           "min_value", "max_value", "max_string_length"))

    def command(self):
        return RecordLateness(self.validated_data["player"])


class _OnlineClaim(_Command):
    absent = serializers.IntegerField(required=False, allow_null=True, min_value=0, max_value=1,
                                      help_text="the seat of the player who is away: an official names it; a player "
                                                "claims against the other seat",
                                      error_messages=_said(Reason.ABSENT_SEAT, "invalid", "min_value", "max_value",
                                                           "max_string_length"))
    action: type = object

    def command(self):
        return self.action(self.validated_data.get("absent"))


class ClaimDisconnectCommandSerializer(_OnlineClaim):
    """An online match under way: the opponent has been away longer than its disconnect clock, and the player who
    stays claims the match (refused while they are here or the clock runs)."""

    command_type = "claim_disconnect"
    action = ClaimDisconnect


class ClaimNoShowCommandSerializer(_OnlineClaim):
    """An online match not begun: the opponent has not come by its start deadline and the lateness its event
    allows, and the player who came claims the match."""

    command_type = "claim_no_show"
    action = ClaimNoShow


COMMAND_SERIALIZERS: dict[str, type[_Command]] = {
    s.command_type: s for s in (
        RollCommandSerializer, MoveCommandSerializer, DoubleCommandSerializer, TakeCommandSerializer,
        DropCommandSerializer, BeaverCommandSerializer, RaccoonCommandSerializer, ResignCommandSerializer,
        AcceptResignationCommandSerializer, DeclineResignationCommandSerializer, CorrectResultCommandSerializer,
        VoidCommandSerializer, ConfirmImportCommandSerializer, SetRatedCommandSerializer, SetClockCommandSerializer,
        PressClockCommandSerializer, ClaimTimeCommandSerializer, PauseClockCommandSerializer,
        ResumeClockCommandSerializer, CallMatchCommandSerializer, RecordLatenessCommandSerializer,
        ClaimDisconnectCommandSerializer, ClaimNoShowCommandSerializer,
    )
}
assert tuple(COMMAND_SERIALIZERS) == COMMAND_TYPES, "one serializer per command type, in the same order"

def typed_command(body) -> tuple:
    """The typed command of a command's JSON body (built by its type's serializer) and the version it was sent for.

    Refused with :class:`~games.errors.BadCommand` (HTTP 400, ``bad_command``), as the service refuses what it
    cannot take, with reasons that name the fields."""
    if not isinstance(body, dict):
        raise BadCommand(Reason.COMMAND_OBJECT)
    kind = body.get("type")
    form_class = COMMAND_SERIALIZERS.get(kind) if isinstance(kind, str) else None
    if form_class is None:
        raise BadCommand(Reason.UNKNOWN_COMMAND_TYPE, type=repr(kind), types=", ".join(COMMAND_SERIALIZERS))
    form = form_class(data=body)
    if not form.is_valid():  # refused as the service refuses a command: one reason, the code clients know
        raise _refused([_fault(field, problems) for field, problems in _flat(form.errors)])
    return form.command(), form.validated_data["expected_version"]


def _fault(field: str, problems: list) -> BadCommand:
    said = " ".join(map(str, problems))
    if said in _REASON_OF:
        reason, params = _REASON_OF[said]
        return BadCommand(reason, **params)
    return BadCommand(said if f"'{field}'" in said else f"'{field}': {said}")  # DRF's own reasons, in its words


def _refused(faults: list[BadCommand]) -> BadCommand:
    """One refusal for the body: its one fault, or each in turn."""
    first, *rest = faults
    if not rest:
        return first
    return BadCommand(Reason.FIELDS, first=first, rest=_refused(rest))


def _flat(errors, prefix=""):
    for field, problems in errors.items():
        if isinstance(problems, dict):
            yield from _flat(problems, f"{prefix}{field}.")
        else:
            yield prefix + field, [p for p in problems if not isinstance(p, (dict, list))] or ["is not valid"]


CommandSerializer = PolymorphicProxySerializer(
    component_name="MatchCommand", serializers=COMMAND_SERIALIZERS, resource_type_field_name="type",
)


class MatchImportSerializer(serializers.Serializer):
    file = serializers.FileField(required=False)
    text = LongText(required=False, trim_whitespace=False)
    player0 = serializers.IntegerField(min_value=1, max_value=ids.MAX_ID, required=False)
    player1 = serializers.IntegerField(min_value=1, max_value=ids.MAX_ID, required=False)

    def validate(self, attrs):
        return _casual(self, attrs)


# -- answers ----------------------------------------------------------------------------------------


class ImportJobSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    status = serializers.ChoiceField(choices=["queued", "running", "done", "failed"])
    games = serializers.IntegerField()
    games_done = serializers.IntegerField(help_text="how many of them the worker has done so far")
    percent = serializers.IntegerField(help_text="0 to 100: 100 once done")
    match = serializers.CharField(allow_null=True, help_text="the imported match, once done")
    tournament = serializers.IntegerField(allow_null=True, help_text="the event imported into (its director's "
                                                                     "import); null for a casual match")
    refusal = serializers.JSONField(allow_null=True, help_text="once failed: {detail, code, ...} as a small "
                                                               "import is answered")
    created_at = serializers.DateTimeField()
    finished_at = serializers.DateTimeField(allow_null=True)


class ExportJobSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    status = serializers.ChoiceField(choices=["queued", "running", "done"])
    match = serializers.CharField()
    version = serializers.IntegerField(help_text="the match's version the file is written of")
    games = serializers.IntegerField()
    games_done = serializers.IntegerField(help_text="how many of them the worker has done so far")
    percent = serializers.IntegerField(help_text="0 to 100: 100 once done")
    file = serializers.CharField(help_text="the .mat file's address: served from there once done")
    claimed_at = serializers.DateTimeField()
    finished_at = serializers.DateTimeField(allow_null=True)


class MatchSummarySerializer(serializers.ModelSerializer):
    id = serializers.CharField(source="stream_id")
    match_id = serializers.CharField(allow_null=True, help_text="gnubg's Match ID; null where gnubg cannot write one")

    def to_representation(self, instance):
        data = super().to_representation(instance)
        data["match_id"] = data.get("match_id") or None  # as the match's own state shows it: null where gnubg cannot write one
        return data

    class Meta:
        model = MatchSummary
        exclude = ["stream_id"]


class EventSerializer(serializers.Serializer):
    version = serializers.IntegerField()
    global_position = serializers.IntegerField()
    type = serializers.CharField(source="event_type")
    schema_version = serializers.IntegerField()
    payload = serializers.JSONField()
    recorded_at = serializers.DateTimeField()


class _Seat(serializers.Serializer):
    seat = serializers.IntegerField()
    player_id = serializers.IntegerField(allow_null=True)
    name = serializers.CharField(help_text="a consultation match names both players of the side: \"Ada & Bruno\"")
    partner_id = serializers.IntegerField(allow_null=True, help_text="a consultation match: the side's second player")


class _Options(serializers.Serializer):
    """Empty before the match has started."""

    crawford = serializers.BooleanField(required=False)
    jacoby = serializers.BooleanField(required=False)
    beavers = serializers.BooleanField(required=False)
    raccoons = serializers.BooleanField(required=False)
    automatic_doubles = serializers.IntegerField(required=False)
    cube_limit = serializers.IntegerField(required=False)


class _Cube(serializers.Serializer):
    value = serializers.IntegerField()
    owner = serializers.IntegerField(allow_null=True, help_text="the owner's seat; null while centred")


class _Resignation(serializers.Serializer):
    player = serializers.IntegerField()
    kind = serializers.ChoiceField(choices=list(KIND_VALUE))


class _LastGame(serializers.Serializer):
    game = serializers.IntegerField()
    winner = serializers.IntegerField()
    points = serializers.IntegerField()
    kind = serializers.CharField(help_text="single, gammon or backgammon")
    cube = serializers.IntegerField(help_text="the cube's value the game was won on")
    reason = serializers.CharField(help_text="bearoff, drop or resignation")


class _Board(serializers.Serializer):
    points = serializers.ListField(child=serializers.IntegerField(),
                                   help_text="points 1-24 in player 0's numbering: positive = player 0's checkers, "
                                             "negative = player 1's")
    bar = serializers.ListField(child=serializers.IntegerField(), help_text="checkers on the bar, by seat")
    off = serializers.ListField(child=serializers.IntegerField(), help_text="checkers borne off, by seat")


class _ImportWarning(serializers.Serializer):
    line = serializers.IntegerField()
    reason = serializers.CharField()


class _ClockRule(serializers.Serializer):
    use = serializers.ChoiceField(choices=list(clocks.USES), help_text="required: set with the match; allowed: set "
                                  "at the start of a game with this preset; none: no clock")
    preset = serializers.CharField(required=False, help_text="its preset (absent where no clock is used)")
    per_match = serializers.IntegerField(required=False, help_text="custom: seconds of reserve for the match")
    per_point = serializers.IntegerField(required=False, help_text="custom: seconds of reserve a point")
    per_scored = serializers.IntegerField(required=False, help_text="custom: seconds less a point already scored")
    delay = serializers.IntegerField(required=False, help_text="custom: the delay a turn, in seconds")
    overtime = serializers.IntegerField(required=False, help_text="custom: the reserve after a first expiry")


class _Clock(serializers.Serializer):
    preset = serializers.CharField()
    delay = serializers.IntegerField(help_text="the delay a turn, milliseconds")
    overtime = serializers.IntegerField(help_text="the reserve after a first expiry, milliseconds (0: none)")
    reserves = serializers.ListField(child=serializers.IntegerField(), help_text="milliseconds left, by seat")
    delay_left = serializers.IntegerField(help_text="what is left of the running turn's delay, milliseconds")
    running = serializers.IntegerField(allow_null=True, help_text="whose clock runs (null: both stand still)")
    paused = serializers.BooleanField()
    at = serializers.IntegerField(help_text="the server's reading these figures are at, milliseconds since 1970")
    fallen = serializers.BooleanField(help_text="the running clock's flag has fallen: claim_time ends the match")
    overtime_used = serializers.ListField(child=serializers.BooleanField())
    late = serializers.ListField(child=serializers.IntegerField(), help_text="lateness penalty points given, by seat")
    called_at = serializers.IntegerField(allow_null=True, help_text="when the director called the match")


class _Closed(serializers.Serializer):
    how = serializers.ChoiceField(choices=list(CLOSINGS))
    winner = serializers.IntegerField()
    score = serializers.ListField(child=serializers.IntegerField(), allow_null=True)
    summary = serializers.CharField()


class _Correction(serializers.Serializer):
    winner = serializers.IntegerField(allow_null=True)
    score = serializers.ListField(child=serializers.IntegerField())
    reason = serializers.CharField()


class _Online(serializers.Serializer):
    disconnect = serializers.IntegerField(help_text="seconds a player may be away before the other may claim")
    start_by = serializers.IntegerField(help_text="the start deadline, the server's milliseconds since 1970")
    late = serializers.IntegerField(help_text="seconds past the deadline after which a player not come loses")
    challenge = serializers.IntegerField(required=False, help_text="the challenge it was accepted from")


class MatchStateSerializer(serializers.Serializer):
    """The live state of a match, folded from its stream (:func:`games.selectors.match_state_data`)."""

    id = serializers.CharField()
    version = serializers.IntegerField()
    players = _Seat(many=True)
    tournament_id = serializers.IntegerField(allow_null=True)
    length = serializers.IntegerField(help_text="0 for a money session")
    options = _Options()
    score = serializers.ListField(child=serializers.IntegerField())
    game = serializers.IntegerField()
    phase = serializers.ChoiceField(choices=list(Phase))
    turn = serializers.IntegerField()
    dice = serializers.ListField(child=serializers.IntegerField(), allow_null=True)
    cube = _Cube()
    crawford = serializers.BooleanField(help_text="the current (or next) game is the Crawford game")
    crawford_games = serializers.ListField(child=serializers.IntegerField())
    resignation = _Resignation(allow_null=True)
    last_game = _LastGame(allow_null=True, help_text="the game last won (null before the first ends)")
    position_id = serializers.CharField()
    match_id = serializers.CharField(allow_null=True)
    xgid = serializers.CharField(allow_null=True)
    pips = serializers.ListField(child=serializers.IntegerField())
    board = _Board()
    legal_moves = serializers.ListField(child=serializers.CharField())
    legal_positions = serializers.ListField(
        child=serializers.CharField(), help_text="each legal play's resulting position (same order as legal_moves): "
        "the mover's 26 checker counts then the opponent's, index 0 borne off and 25 the bar, one base-36 digit each")
    may_double = serializers.BooleanField()
    answerer = serializers.IntegerField(allow_null=True)
    import_warnings = _ImportWarning(many=True)
    dice_source = serializers.CharField(allow_null=True, help_text="where the match's rolls come from, as created "
                                        "(the same choices as the creation's 'dice'); null for a match older than "
                                        "the rule")
    awaiting_confirmation = serializers.BooleanField()
    finished = serializers.BooleanField()
    winner = serializers.IntegerField(allow_null=True)
    voided = serializers.CharField(allow_null=True, help_text="the void's reason; null unless voided")
    over_because = serializers.CharField(allow_null=True)
    closed = _Closed(allow_null=True)
    correction = _Correction(allow_null=True)
    clock = _Clock(allow_null=True, help_text="the match's clock at the server's reading 'at' (null: no clock)")
    clock_rule = _ClockRule(allow_null=True, help_text="its round's clock rule (null: any clock may be set)")
    online = _Online(allow_null=True, help_text="played online (null: at the board): its disconnect clock "
                                                "(seconds), start deadline (milliseconds) and lateness (seconds)")


class _Appended(serializers.Serializer):
    type = serializers.CharField()
    payload = serializers.JSONField()


class MatchCommandAnswerSerializer(serializers.Serializer):
    appended = _Appended(many=True, help_text="the events the command appended")
    state = MatchStateSerializer(help_text="the match as the command left it")


class StaleAnswerSerializer(ErrorSerializer):
    """The command was sent for a version the match has left: what happened since, and the state now."""

    current_version = serializers.IntegerField()
    sent_version = serializers.IntegerField(required=False)
    state = MatchStateSerializer(required=False)


class GameRowSerializer(serializers.Serializer):
    """One game of a match: the score it started at, its Crawford flags, its result (read model)."""

    game = serializers.IntegerField()
    score0_before = serializers.IntegerField()
    score1_before = serializers.IntegerField()
    crawford = serializers.BooleanField(help_text="the Crawford game: played without the cube")
    post_crawford = serializers.BooleanField()
    finished = serializers.BooleanField()
    winner = serializers.IntegerField(allow_null=True)
    points = serializers.IntegerField()
    kind = serializers.CharField(help_text="single, gammon or backgammon; blank until the game is won")
    reason = serializers.CharField(help_text="how it was won (bearoff, drop, resignation); blank until then")


class _ServerRoll(serializers.Serializer):
    version = serializers.IntegerField(allow_null=True)
    dice = serializers.ListField(child=serializers.IntegerField())


class _BoardRoll(_ServerRoll):
    source = serializers.CharField(allow_null=True)


class DiceProofSerializer(serializers.Serializer):
    """One game's dice proof: the seed's commitment, the seed once revealed, whether every server roll checks out."""

    game = serializers.IntegerField()
    commitment = serializers.CharField(allow_null=True)
    seed = serializers.CharField(allow_null=True, help_text="revealed once the game has ended")
    rolls = serializers.IntegerField(help_text="server rolls in the game")
    server_rolls = _ServerRoll(many=True)
    board_rolls = _BoardRoll(many=True)
    verified = serializers.BooleanField(allow_null=True, help_text="null while the game goes on or without "
                                                                   "server rolls")
    problem = serializers.CharField()

