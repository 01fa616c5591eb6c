"""The tournament's commands: typed, frozen values the decider judges (``tournaments/decider.py``), each declared once.

Pure Python. A command class is the whole declaration of a command: its ``type``, who may send it
(``director_only``: the decider's :func:`~tournaments.decider.permit` reads it), its name for people (``label``,
what the console says it did), and its fields, each with an :class:`Arg` (its kind, bounds, help text). From
that one declaration come the API's body (``tournaments/serializers.py`` generates one serializer per command,
and drf-spectacular the OpenAPI schema from it) and :func:`parse`, which reads a plain dict (scripts, the
console, the admin, the tests). What only the database knows travels in the command, filled by the service
before it decides: who acts (:class:`Actor`), the players' ratings for a draw by rating, the club's rating
ramp for a result, the draw's random seed, the clock.

A new command is a class here with its ``decide`` (the events it appends), its event in ``tournaments/events.py``
with its ``fold`` (the state it changes), and its test; its ``example`` (a body the API takes on a new event) puts
it in the authorization matrix of ``tests/security``.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, ClassVar

from games.engine import clock

from . import derive
from . import events as ev
from . import money
from .config import MAX_BOARDS, MAX_RESERVES, MAX_ROUNDS
from .formats import teams
from .formats.core import SETTLED, FormatError
from .formats.knockout import bracket_size
from .refusals import (
    AlreadyDrawn, BadCommand, BadDrawMethod, BadMoney, BadPairings, BadRound, BadTeam, NotEntered, NotInEvent, Reason,
    Refused, UnknownCommand,
)

MAX_REASON = 500  # games.limits.MAX_REASON: the same bound as a match's reasons (checked by a test)
DRAW_METHODS = ("random", "rating", "manual", "previous")  # "previous": a league's next season
MAX_TABLE = 999  # a club's room, or a federation's hall
MAX_ID = 2**63 - 1  # a player id: what a bigint column holds
MAX_LIST = 4096  # seeds, pairings: a field of players


def pgettext(context: str, message: str) -> str:
    """A label marked for ``makemessages`` (which finds it by this name) and kept as it is: the console translates
    it where it is shown, with ``django.utils.translation.pgettext`` (this module imports nothing of Django)."""
    return message


# -- how a field is read -------------------------------------------------------------------


@dataclass(frozen=True)
class Arg:
    """One field of a command, declared once: how the API's body types it (``tournaments/serializers.py`` maps
    ``kind`` to a DRF field with these bounds and ``help``) and how :func:`parse` reads it from a dict.

    ``required``: the API's body must carry it (None: when the field has no default). :func:`parse` takes a
    missing field as its default, and leaves what only the event can judge (a winner who is not the slot's, a
    missing score) to the decider, whose refusal names the event's own facts. ``refusal``: the message of a
    malformed value (``error`` its refusal class), when not the kind's own."""

    kind: str  # id, slot, text, winner, score, whole, flag, choice, round, pairings, ids, names
    help: str = ""
    required: bool | None = None
    low: int | None = None
    high: int | None = None
    choices: tuple[str, ...] = ()
    refusal: Reason | None = None  # a malformed value's reason, when not the kind's own
    error: type[Refused] = BadCommand


def arg(kind: str, *, default: Any = dataclasses.MISSING, **spec) -> Any:
    """A command's field with its :class:`Arg` (``default`` as a dataclass field's)."""
    return field(default=default, metadata={"arg": Arg(kind, **spec)})


def args_of(cls) -> list[tuple[dataclasses.Field, Arg]]:
    """The client's fields of a command class, in declaration order (not the service's: ``by``, ``at``…)."""
    return [(f, f.metadata["arg"]) for f in dataclasses.fields(cls) if "arg" in f.metadata]


def has_default(f: dataclasses.Field) -> bool:
    return f.default is not dataclasses.MISSING or f.default_factory is not dataclasses.MISSING


def api_required(f: dataclasses.Field, a: Arg) -> bool:
    return (not has_default(f)) if a.required is None else a.required


@dataclass(frozen=True)
class Rule:
    """A check across fields (a manual draw lists its seeds): ``holds(values)`` on the fields given, else
    refused with ``reason``, named by ``field``. ``api_only``: the API's body refuses it; a dict leaves it to
    the decider, whose refusal names the slot's players."""

    holds: Callable[[dict], bool]
    field: str
    reason: Reason
    api_only: bool = False


def _whole(value) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def is_id(value) -> bool:
    """A player id: a whole number a bigint column holds (a read model stores it)."""
    return _whole(value) and 0 < value < 2**63


def _read_id(value, name: str, a: Arg):
    if not is_id(value):
        raise a.error(a.refusal or Reason.FIELD_PLAYER_ID, field=name)
    return value


def _read_slot(value, name: str, a: Arg):
    if not isinstance(value, str):
        raise a.error(a.refusal or Reason.FIELD_SLOT, field=name)
    return value


def _read_text(value, name: str, a: Arg, default):
    if not isinstance(value, str):
        return default
    if len(value) > MAX_REASON:
        raise a.error(Reason.FIELD_TOO_LONG, field=name, most=MAX_REASON)
    if "\x00" in value:  # the log cannot store it: refused here, with the field named, as any other bad field
        raise a.error(Reason.FIELD_NUL, field=name)
    return value


def _read_winner(value, name: str, a: Arg):
    # any value: the decider says whether it is one of the slot's players, with the players named
    return value if _whole(value) else -1


def _read_score(value, name: str, a: Arg):
    if not (isinstance(value, list) and len(value) == 2 and all(_whole(s) and s >= 0 for s in value)):
        raise a.error(a.refusal or Reason.FIELD_SCORE, field=name)
    return (value[0], value[1])


def _read_whole(value, name: str, a: Arg):
    if not (_whole(value) and (a.low is None or a.low <= value) and (a.high is None or value <= a.high)):
        raise a.error(a.refusal or Reason.FIELD_WHOLE, field=name, low=a.low, high=a.high)
    return value


def _read_flag(value, name: str, a: Arg):
    if not isinstance(value, bool):
        raise a.error(a.refusal or Reason.FIELD_FLAG, field=name)
    return value


def _read_choice(value, name: str, a: Arg):
    if value not in a.choices:
        raise a.error(a.refusal or Reason.FIELD_CHOICE, field=name, choices=", ".join(a.choices))
    return value


def _read_round(value, name: str, a: Arg):
    if not _whole(value):  # the range is the event's: the decider names it
        raise a.error(a.refusal or Reason.FIELD_ROUND, field=name)
    return value


def _read_pairings(value, name: str, a: Arg):
    if value is None:
        return None
    if not isinstance(value, list):
        raise BadCommand(Reason.PAIRINGS_LIST)
    pairs = []
    for pair in value:
        if not (isinstance(pair, list) and len(pair) == 2 and is_id(pair[0]) and (pair[1] is None or is_id(pair[1]))):
            raise BadPairings(Reason.EACH_PAIRING)
        pairs.append((pair[0], pair[1]))
    return tuple(pairs)


def _read_ids(value, name: str, a: Arg):
    if not (isinstance(value, list) and all(is_id(v) for v in value)
            and (a.low is None or len(value) >= a.low) and (a.high is None or len(value) <= a.high)):
        raise a.error(a.refusal or Reason.FIELD_IDS, field=name)
    return tuple(value)


def _read_names(value, name: str, a: Arg):
    if not (isinstance(value, list) and all(isinstance(v, str) and "\x00" not in v for v in value)
            and (a.high is None or len(value) <= a.high)):
        raise a.error(a.refusal or Reason.FIELD_NAMES, field=name)
    return tuple(value)


READERS: dict[str, Callable] = {
    "id": _read_id, "slot": _read_slot, "winner": _read_winner, "score": _read_score, "whole": _read_whole,
    "flag": _read_flag, "choice": _read_choice, "round": _read_round, "pairings": _read_pairings, "ids": _read_ids,
    "names": _read_names,
}


@dataclass(frozen=True)
class Actor:
    """Who sends the command, as the service found them: ``official`` runs this event (its director or an
    official); ``player`` is the actor's own player, if they have one."""

    official: bool = False
    player: int | None = None


@dataclass(frozen=True)
class TournamentCommand:
    type: ClassVar[str] = ""
    director_only: ClassVar[bool] = True  # who may send it: tournaments.decider.permit
    # what the console says it did ("Done: record the result."), translated there; a command the console does not
    # send has none until its words are in the French catalogue
    label: ClassVar[str] = ""
    rules: ClassVar[tuple[Rule, ...]] = ()
    clocked: ClassVar[bool] = False  # the service fills ``at`` with its clock's reading (the decider reads none)
    example: ClassVar[dict | None] = None  # a body the API takes on a new single elimination event
    # a setting the command sets, by the values of its fields ``keyed_by``: the event's settings view shows it
    # (``GET /api/tournaments/{id}/settings/``) from the settings its event folds into
    setting: ClassVar[str] = ""
    keyed_by: ClassVar[tuple[str, ...]] = ()
    by: Actor = field(default=Actor(), kw_only=True)

    @classmethod
    def done(cls, values: dict) -> str:
        """Its name for people, as the console says it did it (``values``: the command sent)."""
        return cls.label

    @classmethod
    def from_dict(cls, data: dict) -> TournamentCommand:
        """The command a plain dict says, each field read by its :class:`Arg`, then the rules across them."""
        values: dict = {}
        for f, a in args_of(cls):
            if f.name not in data and has_default(f):
                continue
            value = data.get(f.name)
            values[f.name] = _read_text(value, f.name, a, f.default) if a.kind == "text" \
                else READERS[a.kind](value, f.name, a)
        for rule in cls.rules:
            if not rule.api_only and not rule.holds(values):
                raise BadCommand(rule.reason)
        return cls(**values)


# -- the commands ----------------------------------------------------------------------------

PLAYER = "the player's id"
SLOT_HELP = "the slot's key, e.g. \"main:r1:m1\""


@dataclass(frozen=True)
class Enter(TournamentCommand):
    """Enter a player (yourself, or anybody for the director)."""

    type: ClassVar[str] = "enter"
    director_only: ClassVar[bool] = False
    label: ClassVar[str] = pgettext("done", "enter the player")
    player: int = arg("id")


@dataclass(frozen=True)
class CheckIn(TournamentCommand):
    type: ClassVar[str] = "check_in"
    label: ClassVar[str] = pgettext("done", "check in")
    player: int = arg("id")


@dataclass(frozen=True)
class CancelCheckIn(TournamentCommand):
    type: ClassVar[str] = "cancel_check_in"
    player: int = arg("id", help="the entrant whose check-in is undone (before the draw)")


@dataclass(frozen=True)
class Withdraw(TournamentCommand):
    type: ClassVar[str] = "withdraw"
    label: ClassVar[str] = pgettext("done", "withdraw the player")
    player: int = arg("id")
    reason: str = arg("text", default="", help="why, for the event's history")


@dataclass(frozen=True)
class Draw(TournamentCommand):
    type: ClassVar[str] = "draw"
    label: ClassVar[str] = pgettext("done", "draw")
    clocked: ClassVar[bool] = True
    rules: ClassVar[tuple[Rule, ...]] = (
        Rule(lambda v: v.get("method") != "manual" or "seeds" in v, "seeds", Reason.BAD_SEEDS),
        Rule(lambda v: v.get("method") != "previous" or "previous" in v, "previous", Reason.PREVIOUS_ID),
    )
    method: str = arg("choice", default="random", choices=DRAW_METHODS, error=BadDrawMethod,
                      refusal=Reason.METHOD_CHOICE)
    seeds: tuple[int, ...] | None = arg(
        "ids", default=None, high=MAX_LIST, refusal=Reason.BAD_SEEDS,
        help="method manual: every checked-in player once, the first seed first")
    previous: int | None = arg(
        "id", default=None, refusal=Reason.PREVIOUS_ID,
        help="method previous (a league): the league event whose final tables make this season's divisions, with "
             "promotion and relegation")
    # filled by the service: (player, rating) of the entrants for "rating"; a secret random seed for "random"
    ratings: tuple[tuple[int, float], ...] = ()
    entropy: int = 0
    # filled by the service: the clock (a league's round deadlines start from it) and, for "previous", that
    # event's divisions, each in final order, division 1 first
    at: int = 0
    previous_divisions: tuple[tuple[int, ...], ...] = ()


@dataclass(frozen=True)
class PairRound(TournamentCommand):
    type: ClassVar[str] = "pair_round"
    label: ClassVar[str] = pgettext("done", "pair the next round")
    rules: ClassVar[tuple[Rule, ...]] = (
        Rule(lambda v: all(pair[0] is not None for pair in v.get("pairings") or ()), "pairings", Reason.EACH_PAIRING),
    )
    # None: the next round
    round: int | None = arg("round", default=None, low=1, high=MAX_ROUNDS, error=BadRound,
                            help="the next round (once the previous is finished), or the last one again before it "
                                 "begins")
    # the director's own (None: by the rules)
    pairings: tuple[tuple[int, int | None], ...] | None = arg(
        "pairings", default=None, high=MAX_LIST, help="[player, player], or [player, null] for a bye")


@dataclass(frozen=True)
class Forbid(TournamentCommand):
    type: ClassVar[str] = "forbid"
    rules: ClassVar[tuple[Rule, ...]] = (
        Rule(lambda v: len(set(v.get("players", ()))) == 2, "players", Reason.TWO_PLAYERS_APART),
    )
    players: tuple[int, int] = arg("ids", low=2, high=2, refusal=Reason.TWO_PLAYERS_APART,
                                   help="the two players who must not meet")


@dataclass(frozen=True)
class ResultCommand(TournamentCommand):
    slot: str = arg("slot", help=SLOT_HELP)
    winner: int = arg("winner", help="the winner's player id")
    # (winner's points, loser's points): the API's body requires it; a dict without it is refused by the decider
    score: tuple[int, int] | None = arg("score", default=None, required=True, help="[winner's points, loser's points]")
    rating_ramp: str = "fibs"  # filled by the service: the club's new-player ramp


@dataclass(frozen=True)
class ReportResult(ResultCommand):
    """The director records a result from the scoresheet."""

    type: ClassVar[str] = "report_result"
    label: ClassVar[str] = pgettext("done", "record the result")


@dataclass(frozen=True)
class ConfirmResult(ResultCommand):
    """A player's half of a result both players report; the second that agrees records it."""

    type: ClassVar[str] = "confirm_result"
    director_only: ClassVar[bool] = False


@dataclass(frozen=True)
class CorrectResult(ResultCommand):
    type: ClassVar[str] = "correct_result"
    label: ClassVar[str] = pgettext("done", "correct the result")
    # the API's body requires it; a dict without one is refused by the decider (reason_required)
    reason: str = arg("text", default="", required=True, help="why: shown in the event's history")


@dataclass(frozen=True)
class Forfeit(TournamentCommand):
    """A match decided without being played: named by its ``winner``, or by the player who forfeits (``loser``,
    the absent one; the other wins). One of the two, never both."""

    type: ClassVar[str] = "forfeit"
    label: ClassVar[str] = pgettext("done", "forfeit")
    rules: ClassVar[tuple[Rule, ...]] = (
        Rule(lambda v: ("winner" in v) != ("loser" in v), "non_field_errors", Reason.NAME_THE_WINNER,
             api_only=True),
    )
    slot: str = arg("slot", help=SLOT_HELP)
    winner: int | None = arg("winner", default=None, help="the winner's player id (or give 'loser')")
    reason: str = arg("text", default="no-show", help="why the loser forfeits")
    loser: int | None = arg("winner", default=None, help="the player who forfeits (the absent one): the other wins")


@dataclass(frozen=True)
class KeepMatch(TournamentCommand):
    type: ClassVar[str] = "keep_match"
    slot: str = arg("slot", help=SLOT_HELP)


@dataclass(frozen=True)
class VoidMatch(TournamentCommand):
    type: ClassVar[str] = "void_match"
    label: ClassVar[str] = pgettext("done", "void the match")
    slot: str = arg("slot", help=SLOT_HELP)
    reason: str = arg("text", default="", help="why the slot's match is voided")




@dataclass(frozen=True)
class AssignTable(TournamentCommand):
    type: ClassVar[str] = "assign_table"
    label: ClassVar[str] = pgettext("done", "move to a table")
    slot: str = arg("slot", help=SLOT_HELP)
    table: int = arg("whole", low=1, high=MAX_TABLE, refusal=Reason.TABLE_NUMBER, help="the table the slot's match moves to")


@dataclass(frozen=True)
class SetTableService(TournamentCommand):
    type: ClassVar[str] = "set_table_service"
    table: int = arg("whole", low=1, high=MAX_TABLE, refusal=Reason.TABLE_NUMBER)
    in_service: bool = arg("flag", refusal=Reason.IN_SERVICE,
                           help="false: out of service (no new match is sent there)")

    @classmethod
    def done(cls, values: dict) -> str:
        return pgettext("done", "table back in service") if values.get("in_service") \
            else pgettext("done", "table out of service")


@dataclass(frozen=True)
class IssueChallenge(TournamentCommand):
    """A ladder challenge: the challenger (yourself, or anybody for the director) challenges a player at most
    the ladder's reach above them; its match is created for them, and it is due by the challenge's deadline."""

    type: ClassVar[str] = "issue_challenge"
    director_only: ClassVar[bool] = False
    label: ClassVar[str] = pgettext("done", "issue the challenge")
    clocked: ClassVar[bool] = True
    challenger: int = arg("id")
    defender: int = arg("id")
    at: int = 0  # filled by the service: the clock reading (seconds); the deadline runs from it


@dataclass(frozen=True)
class DeclineChallenge(TournamentCommand):
    """The challenged player (or the director for them) refuses a challenge whose match has not begun: a
    walkover to the challenger, or cancelled, as the ladder's ``refused`` setting says."""

    type: ClassVar[str] = "decline_challenge"
    director_only: ClassVar[bool] = False
    label: ClassVar[str] = pgettext("done", "decline the challenge")
    clocked: ClassVar[bool] = True
    number: int = arg("id", refusal=Reason.CHALLENGE_NUMBER,
                      help="the challenge's number (slot ladder:c{n})")
    reason: str = arg("text", default="", help="why, for the ladder's history")
    at: int = 0


@dataclass(frozen=True)
class ApplyDeadlines(TournamentCommand):
    """Settle what is past its deadline now: ladder challenges (``unplayed``: a walkover or cancelled) and league
    matches of a round past its deadline (``unplayed``: a double loss or void), if their match has not begun.
    Sent by the director, or by the periodic sweep (``tournaments.tasks.sweep_deadlines``) on the system's
    behalf."""

    type: ClassVar[str] = "apply_deadlines"
    label: ClassVar[str] = pgettext("done", "apply deadlines")
    clocked: ClassVar[bool] = True
    at: int = 0


@dataclass(frozen=True)
class CloseStage(TournamentCommand):
    """Close stage one (a Swiss or round robin with ``qualifiers``): its table is final, and the knockout of its
    top qualifiers is drawn from it (``StageClosed``, ``StageDrawMade``)."""

    type: ClassVar[str] = "close_stage"
    label: ClassVar[str] = pgettext("done", "close stage one")


@dataclass(frozen=True)
class Reenter(TournamentCommand):
    """A buy-back: a player knocked out of the knockout's main bracket, within the event's re-entry rules, takes
    the next first-round place kept open for re-entries (``PlayerReentered``)."""

    type: ClassVar[str] = "reenter"
    label: ClassVar[str] = pgettext("done", "re-enter the player")
    player: int = arg("id")


@dataclass(frozen=True)
class CloseReentry(TournamentCommand):
    """No more re-entries: the places still open become byes (``ReentryClosed``)."""

    type: ClassVar[str] = "close_reentry"
    label: ClassVar[str] = pgettext("done", "close re-entry")


@dataclass(frozen=True)
class SetRated(TournamentCommand):
    """Rated or unrated from now on: the whole event, or one slot's match (a walkover, a friendly)."""

    type: ClassVar[str] = "set_rated"
    rated: bool = arg("flag", help="false: its results stay out of the ratings and the season tables")
    slot: str = arg("slot", default="", refusal=Reason.SLOT_OR_EVENT,
                    help="one slot's key, e.g. \"main:r1:m1\"; none: the whole event")

    @classmethod
    def done(cls, values: dict) -> str:
        return pgettext("done", "make rated") if values.get("rated") else pgettext("done", "make unrated")


def _preset_with_clocks(values: dict) -> bool:
    return (values.get("use") == clock.NONE) == (values.get("preset", "") == "")


def _figures_of_custom(values: dict) -> bool:
    if values.get("preset") != clock.CUSTOM:
        return not any(values.get(f) for f in clock.FIGURES)  # a preset's figures are its own
    return bool(values.get("per_match") or values.get("per_point"))


def _bracket_word(values: dict) -> bool:
    return _BRACKET.fullmatch(values.get("bracket", "")) is not None


_BRACKET = re.compile(r"[a-z0-9_]{0,32}")
_SECONDS = dict(low=0, high=clock.MAX_SECONDS)


@dataclass(frozen=True)
class SetRoundClock(TournamentCommand):
    """Whether a round's matches are played with clocks, and which: ``required`` (each match's clock is set with
    it), ``allowed`` (either player or an official may set it at the start of a game) or ``none``, with the
    preset (a federation's, or ``custom`` with its figures in seconds). For one round, one bracket, a bracket's
    round, or the event's default; a match takes the most particular rule when it is created. A later rule
    replaces the same key's."""

    type: ClassVar[str] = "set_round_clock"
    label: ClassVar[str] = pgettext("done", "set the clocks")
    setting: ClassVar[str] = "clock"
    keyed_by: ClassVar[tuple[str, ...]] = ("bracket", "round")  # keys: tournaments.events.clock_key
    example: ClassVar[dict | None] = {"use": "required", "preset": "us"}
    rules: ClassVar[tuple[Rule, ...]] = (
        Rule(_preset_with_clocks, "preset", Reason.CLOCK_PRESET_NEEDED),
        Rule(_figures_of_custom, "preset", Reason.CLOCK_FIGURES_CUSTOM),
        Rule(_bracket_word, "bracket", Reason.CLOCK_BRACKET),
    )
    use: str = arg("choice", choices=clock.USES, help="required, allowed or none")
    preset: str = arg("choice", default="", choices=clock.PRESET_NAMES,
                      help="us, us_overtime_1, us_overtime_2, us_doubles, uk, aba or custom (none: no preset)")
    round: int | None = arg("whole", default=None, low=1, high=MAX_ROUNDS, error=BadRound,
                            help="the round whose matches it rules; none: every round")
    bracket: str = arg("slot", default="", refusal=Reason.CLOCK_BRACKET, help="the bracket whose matches it rules, e.g. \"main\"; none: every "
                                               "bracket")
    per_match: int = arg("whole", default=0, help="custom: seconds of reserve for the whole match", **_SECONDS)
    per_point: int = arg("whole", default=0, help="custom: seconds of reserve a point of the match", **_SECONDS)
    per_scored: int = arg("whole", default=0, help="custom: seconds less a point already scored", **_SECONDS)
    delay: int = arg("whole", default=0, help="custom: seconds of delay a turn", **_SECONDS)
    overtime: int = arg("whole", default=0, help="custom: the reserve after a first expiry (0: none)", **_SECONDS)

    @property
    def rule(self) -> dict:
        """The rule as the event's settings keep it and its matches are given it (games.clocks.checked_rule)."""
        if self.use == clock.NONE:
            return {"use": clock.NONE}
        figures = {f: getattr(self, f) for f in clock.FIGURES}
        return {"use": self.use, **clock.figures_of(clock.preset_named(self.preset, figures))}

    def decide(self, facts) -> list[ev.TournamentEvent]:
        rule = self.rule
        if facts.config.get(self.setting, {}).get(ev.clock_key(self.bracket, self.round)) == rule:
            return []
        return [ev.RoundClockSet(self.round, self.bracket, rule)]


@dataclass(frozen=True)
class SetRoundOnline(TournamentCommand):
    """Whether a round's matches (or the whole event's: no round) are played online, by their players from their
    own browsers with the server's dice: the disconnect clock (seconds a player may be away before the other may
    claim the match), the start deadline (minutes after the match is created) and how late past it a player who has
    not come loses (minutes). A match takes its round's rule, else the event's, when it is created; a later rule
    replaces the same round's."""

    type: ClassVar[str] = "set_round_online"
    label: ClassVar[str] = pgettext("done", "set online play")
    setting: ClassVar[str] = "online"
    keyed_by: ClassVar[tuple[str, ...]] = ("round",)  # keys: tournaments.events.online_key
    example: ClassVar[dict | None] = {"online": True, "disconnect": 180, "start_within": 60, "late": 20}
    online: bool = arg("flag", help="true: played online; false: at the board")
    round: int | None = arg("whole", default=None, low=1, high=MAX_ROUNDS, error=BadRound,
                            help="the round whose matches it rules; none: every round")
    disconnect: int = arg("whole", default=180, low=1, high=24 * 3600,
                          help="seconds a player may be away before the other may claim the match")
    start_within: int = arg("whole", default=0, low=0, high=7 * 24 * 60,
                            help="minutes after its match is created by which it is due to start")
    late: int = arg("whole", default=20, low=0, high=24 * 60,
                    help="minutes past the start deadline after which a player who has not come loses")

    @property
    def rule(self) -> dict:
        """The rule as the event's settings keep it (its fields); a match is given it in seconds
        (``tournaments.events.online_rule_for``)."""
        if not self.online:
            return {"online": False}
        return {"online": True, "disconnect": self.disconnect, "start_within": self.start_within, "late": self.late}

    def decide(self, facts) -> list[ev.TournamentEvent]:
        rule = self.rule
        if facts.config.get(self.setting, {}).get(ev.online_key(self.round)) == rule:
            return []
        return [ev.RoundOnlineSet(self.round, rule)]


@dataclass(frozen=True)
class Configure(TournamentCommand):
    """The director's new settings, whole (``tournaments.config.checked`` read them first). Not one of the
    API's command types: the settings are sent as an event's, by ``tournaments.services.tournament_configure``."""

    type: ClassVar[str] = "configure"
    settings: dict = field(default_factory=dict)


@dataclass(frozen=True)
class Publish(TournamentCommand):
    """The event published or hidden. Not one of the API's command types: sent by
    ``tournaments.services.tournament_publish``, which makes the event's matches follow."""

    type: ClassVar[str] = "publish"
    published: bool


# -- the money ------------------------------------------------------------------------------

MAX_MONEY = 10**9  # minor units: ten million in a currency of cents, more than any club's night
MAX_LOT_NAME = 60
CURRENCIES = ("EUR", "USD", "GBP", "CHF", "AUD", "CAD", "DKK", "NOK", "SEK", "JPY", "NZD", "ZAR")
_MONEY = dict(low=0, high=MAX_MONEY)
_PERCENT = dict(low=0, high=100)
_UNIT = dict(low=1, high=MAX_MONEY)
PAYOUT_TABLES = tuple(money.PRESETS)  # one choice set, one name in the schema (settings: ENUM_NAME_OVERRIDES)


@dataclass(frozen=True)
class SetMoney(TournamentCommand):
    """The event's money, whole: its currency, the fees (in minor units: cents), the house's cut (a fixed amount
    or a percentage of each pool's fees rounded to the nearest ``cut_unit``, whichever is greater), the payout
    tables of the main pool, the side pool and the Calcutta (presets: main_consolation 40/25/25/10, flights
    60/30/10, halving, wide, winner_takes_all, 70_30, 40_30_20_10), the unit shares are paid in and the place
    that takes what the rounding leaves. Crawford records the money and computes every share; it takes no
    payment."""

    type: ClassVar[str] = "set_money"
    label: ClassVar[str] = pgettext("done", "set the money")
    example: ClassVar[dict | None] = {"entry": 2000, "cut_fixed": 1000, "cut_percent": 5, "cut_unit": 500}
    currency: str = arg("choice", default="EUR", choices=CURRENCIES, help="the currency's code (ISO 4217)")
    entry: int = arg("whole", default=0, help="the entry fee, into the main pool (minor units)", **_MONEY)
    reentry: int = arg("whole", default=0, help="a re-entry's (buy-back's) fee, into the main pool", **_MONEY)
    side: int = arg("whole", default=0, help="the side pool's fee, for those who enter it", **_MONEY)
    registration: int = arg("whole", default=0, help="a registration fee, kept by the house whole", **_MONEY)
    cut_fixed: int = arg("whole", default=0, help="the house's cut of a pool: at least this", **_MONEY)
    cut_percent: int = arg("whole", default=0, help="the house's cut: this percentage of a pool's fees, if "
                                                     "greater", **_PERCENT)
    cut_unit: int = arg("whole", default=1, help="the percentage's cut is rounded to the nearest multiple of "
                                                 "this", **_UNIT)
    table: str = arg("choice", default="main_consolation", choices=PAYOUT_TABLES, help="the main pool's payout table")
    side_table: str = arg("choice", default="winner_takes_all", choices=PAYOUT_TABLES,
                          help="the side pool's payout table, among its entrants")
    calcutta_table: str = arg("choice", default="70_30", choices=PAYOUT_TABLES,
                              help="the Calcutta's table, paid to the owners of the finishers' lots")
    calcutta_percent: int = arg("whole", default=0, help="the house's percentage of the Calcutta's pool",
                                **_PERCENT)
    unit: int = arg("whole", default=1, help="shares are paid in multiples of this (100: whole euros)", **_UNIT)
    remainder_place: int = arg("whole", default=1, low=1, high=MAX_LIST,
                               help="the Main place that takes what rounding the shares leaves")

    @property
    def money(self) -> dict:
        """The settings as the stream keeps them (``MoneySet``)."""
        return {f.name: getattr(self, f.name) for f, _ in args_of(type(self))}

    def decide(self, facts) -> list[ev.TournamentEvent]:
        if facts.money.settings == self.money:
            return []
        return [ev.MoneySet(self.money)]


def _entrant(facts, player: int) -> None:
    if player not in facts.entered:
        raise NotEntered(Reason.NOT_ENTERED)


@dataclass(frozen=True)
class EnterSidePool(TournamentCommand):
    """A player enters the side pool (or leaves it: ``entered`` false); it pays only among its entrants."""

    type: ClassVar[str] = "enter_side_pool"
    label: ClassVar[str] = pgettext("done", "enter the side pool")
    player: int = arg("id")
    entered: bool = arg("flag", default=True, help="false: out of the side pool again")

    def decide(self, facts) -> list[ev.TournamentEvent]:
        _entrant(facts, self.player)
        if (self.player in facts.money.side_pool) == self.entered:
            return []
        return [ev.SidePoolEntered(self.player, self.entered)]


def _lot_name(name: str) -> str:
    name = name.strip()
    if not 0 < len(name) <= MAX_LOT_NAME:
        raise BadCommand(Reason.LOT_NAME, most=MAX_LOT_NAME)
    return name


@dataclass(frozen=True)
class AddLot(TournamentCommand):
    """A lot of the Calcutta, before its auction: one player, a pair (``players``), or the field (``field``:
    everyone in no other lot)."""

    type: ClassVar[str] = "add_lot"
    label: ClassVar[str] = pgettext("done", "add the lot")
    example: ClassVar[dict | None] = {"name": "The field", "field": True}
    name: str = arg("text", help="the lot's name, as the auctioneer calls it")
    players: tuple[int, ...] = arg("ids", default=(), low=0, high=2, refusal=Reason.LOT_PLAYERS,
                                   help="one player or a pair (none for the field)")
    field: bool = arg("flag", default=False, help="the field lot: every entrant in no other lot")

    def decide(self, facts) -> list[ev.TournamentEvent]:
        name = _lot_name(self.name)
        lots = facts.money.lots
        if name in lots:
            raise BadMoney(Reason.LOT_NAME_TAKEN, lot=name)
        if self.field == bool(self.players) or len(set(self.players)) != len(self.players):
            raise BadMoney(Reason.LOT_PLAYERS)
        if self.field and any(lot.field for lot in lots.values()):
            raise BadMoney(Reason.ONE_FIELD_LOT)
        for p in self.players:
            _entrant(facts, p)
            taken = next((lot.name for lot in lots.values() if p in lot.players), None)
            if taken is not None:
                raise BadMoney(Reason.LOT_PLAYER_TAKEN, player=p, lot=taken)
        return [ev.LotAdded(name, tuple(self.players), self.field)]


def _lot(facts, name: str) -> money.Lot:
    lot = facts.money.lots.get(name.strip())
    if lot is None:
        raise BadMoney(Reason.UNKNOWN_LOT, lot=name)
    return lot


MAX_SYNDICATE = 20  # members of a syndicate


def _members(syndicate: str, owner: str, members) -> tuple[str, ...]:
    """A syndicate's members, each named once, its bidder among them (listed first when left out of the list)."""
    names = tuple(dict.fromkeys(m.strip() for m in members if m.strip()))
    if not syndicate:
        if names:
            raise BadMoney(Reason.SYNDICATE_MEMBERS, owner=owner, most=MAX_SYNDICATE)
        return ()
    if owner not in names:
        names = (owner, *names)
    if len(names) > MAX_SYNDICATE or any(len(m) > MAX_LOT_NAME for m in names):
        raise BadMoney(Reason.SYNDICATE_MEMBERS, owner=owner, most=MAX_SYNDICATE)
    return names


@dataclass(frozen=True)
class SellLot(TournamentCommand):
    """A lot sold at the auction: to ``owner`` (the bidder) for ``price`` (minor units). Selling it again corrects
    the sale, until its players buy back. A syndicate's bid names the syndicate and its ``members``: the bidder is
    one of them (added to the list when left out) and is the lot's owner, the one payee of its return; how the
    members share it is theirs to settle."""

    type: ClassVar[str] = "sell_lot"
    label: ClassVar[str] = pgettext("done", "sell the lot")
    lot: str = arg("text", help="the lot's name")
    owner: str = arg("text", help="who bought it: the bidder")
    price: int = arg("whole", help="the winning bid (minor units)", **_MONEY)
    syndicate: str = arg("text", default="", help="the syndicate the bidder bought for, if any")
    members: tuple[str, ...] = arg("names", default=(), high=MAX_SYNDICATE,
                                   help="the syndicate's members (the bidder among them, added when left out)")

    def decide(self, facts) -> list[ev.TournamentEvent]:
        lot = _lot(facts, self.lot)
        owner = self.owner.strip()
        if not 0 < len(owner) <= MAX_LOT_NAME:
            raise BadMoney(Reason.OWNER_NEEDED)
        sale = facts.money.sales.get(lot.name)
        if sale is not None and sale.bought_back:
            raise BadMoney(Reason.LOT_BOUGHT_BACK, lot=lot.name)
        syndicate = self.syndicate.strip()
        if len(syndicate) > MAX_LOT_NAME:
            raise BadMoney(Reason.SYNDICATE_MEMBERS, owner=owner, most=MAX_SYNDICATE)
        members = _members(syndicate, owner, self.members)
        return [ev.LotSold(lot.name, owner, self.price, syndicate, members)]


@dataclass(frozen=True)
class BuyBack(TournamentCommand):
    """The players of a bought lot buy back half of it: they pay its owner half the price and share its return
    50/50. Not the field lot's players."""

    type: ClassVar[str] = "buy_back"
    label: ClassVar[str] = pgettext("done", "buy back half")
    lot: str = arg("text", help="the lot's name")

    def decide(self, facts) -> list[ev.TournamentEvent]:
        lot = _lot(facts, self.lot)
        if not money.may_buy_back(lot):
            raise BadMoney(Reason.FIELD_LOT_NO_BUY_BACK)
        sale = facts.money.sales.get(lot.name)
        if sale is None:
            raise BadMoney(Reason.LOT_NOT_SOLD, lot=lot.name)
        if sale.bought_back:
            raise BadMoney(Reason.LOT_BOUGHT_BACK, lot=lot.name)
        return [ev.LotBoughtBack(lot.name)]


@dataclass(frozen=True)
class RecordPayout(TournamentCommand):
    """Money paid out, as it was handed over: to a player (``player``) or a lot's owner (``owner``), the amount in
    minor units. What was paid is never changed by a later correction: the ledger shows the difference as owed
    or overpaid."""

    type: ClassVar[str] = "record_payout"
    label: ClassVar[str] = pgettext("done", "record the payout")
    clocked: ClassVar[bool] = True
    rules: ClassVar[tuple[Rule, ...]] = (
        Rule(lambda v: (v.get("player") is None) != (v.get("owner", "").strip() == ""), "player", Reason.PAYEE_ONE),
    )
    amount: int = arg("whole", low=1, high=MAX_MONEY, help="what was paid (minor units)")
    player: int | None = arg("id", default=None, help="the player paid (or give 'owner')")
    owner: str = arg("text", default="", help="the lot's owner paid, as the sale names them")
    note: str = arg("text", default="", help="how: cash, transfer...")
    at: int = 0  # filled by the service: when it was recorded

    def decide(self, facts) -> list[ev.TournamentEvent]:
        if not facts.money.recorded:
            raise BadMoney(Reason.NO_MONEY)
        owner = self.owner.strip()
        if (self.player is None) == (owner == ""):
            raise BadCommand(Reason.PAYEE_ONE)
        if self.player is not None and self.player not in facts.entered:
            raise BadMoney(Reason.UNKNOWN_PAYEE, payee=self.player)
        if owner and owner not in {s.owner for s in facts.money.sales.values()}:
            raise BadMoney(Reason.UNKNOWN_PAYEE, payee=owner)
        return [ev.PayoutMade(self.amount, self.at, self.player, owner, self.note)]


# -- jackpots ---------------------------------------------------------------------------------
# A jackpot is a fixed-size side event of the night with its own buy-in: its seats are bought by the night's
# players, and once full it is played as a knockout among its buyers. The formats library has one bracket per
# event (with its consolation and last chance), so the knockout is an event of its own, linked both ways in the
# log (``JackpotStarted`` in the night, ``JackpotOf`` in the jackpot's event: ``tournaments/jackpots.py``); its
# finishes pay its pool in the night's ledger. A buyer may leave, and have their buy-in back, until it starts (so
# does one who withdraws from the night); once started its seats and buy-ins are final.

MAX_JACKPOT_SIZE = 64
MAX_JACKPOT_LENGTH = 25
JACKPOT_TABLES = ("winner_takes_all", "70_30", "40_30_20_10", "halving", "wide")  # a knockout's places alone


def _jackpot(facts, name: str, *, open_: bool = False):
    jackpot = facts.money.jackpots.get(name.strip())
    if jackpot is None:
        raise BadMoney(Reason.UNKNOWN_JACKPOT, jackpot=name)
    if open_ and jackpot.event_id is not None:
        raise BadMoney(Reason.JACKPOT_STARTED, jackpot=jackpot.name)
    return jackpot


@dataclass(frozen=True)
class OpenJackpot(TournamentCommand):
    """A jackpot of the night: ``size`` seats at ``buy_in`` each (minor units), the house's cut of its pool (a
    fixed amount or a percentage rounded as the pools' cut, whichever is greater), paid by ``table`` to the places
    of its own knockout among its buyers, played to ``length`` points."""

    type: ClassVar[str] = "open_jackpot"
    label: ClassVar[str] = pgettext("done", "open the jackpot")
    example: ClassVar[dict | None] = {"name": "Jackpot 1", "buy_in": 2000, "size": 8}
    name: str = arg("text", help="the jackpot's name")
    buy_in: int = arg("whole", low=1, high=MAX_MONEY, help="a seat's buy-in (minor units)")
    size: int = arg("whole", low=2, high=MAX_JACKPOT_SIZE, help="its seats: it starts when they are all bought")
    table: str = arg("choice", default="winner_takes_all", choices=JACKPOT_TABLES,
                     help="how its pool pays its knockout's places")
    cut_fixed: int = arg("whole", default=0, help="the house's cut of its pool: at least this", **_MONEY)
    cut_percent: int = arg("whole", default=0, help="the house's cut: this percentage of its buy-ins, if greater",
                           **_PERCENT)
    length: int = arg("whole", default=5, low=1, high=MAX_JACKPOT_LENGTH, help="its matches' length (odd)")

    def decide(self, facts) -> list[ev.TournamentEvent]:
        name = self.name.strip()
        if not 0 < len(name) <= MAX_LOT_NAME:
            raise BadMoney(Reason.JACKPOT_NAME, most=MAX_LOT_NAME)
        if name in facts.money.jackpots:
            raise BadMoney(Reason.JACKPOT_NAME_TAKEN, jackpot=name)
        if self.length % 2 == 0:
            raise BadMoney(Reason.JACKPOT_LENGTH, most=MAX_JACKPOT_LENGTH)
        return [ev.JackpotOpened(name, self.buy_in, self.size, self.table, self.cut_fixed, self.cut_percent,
                                 self.length)]


@dataclass(frozen=True)
class BuyJackpot(TournamentCommand):
    """A player of the night buys a seat of a jackpot: refused when it is full or started, to a player who is not
    in the night, and a second time."""

    type: ClassVar[str] = "buy_jackpot"
    label: ClassVar[str] = pgettext("done", "buy into the jackpot")
    jackpot: str = arg("text", help="the jackpot's name")
    player: int = arg("id")

    def decide(self, facts) -> list[ev.TournamentEvent]:
        jackpot = _jackpot(facts, self.jackpot, open_=True)
        _entrant(facts, self.player)
        if self.player in facts.withdrawn:
            raise NotInEvent(Reason.NOT_IN_EVENT)
        if self.player in jackpot.buyers:
            raise BadMoney(Reason.JACKPOT_BOUGHT_ALREADY, player=self.player, jackpot=jackpot.name)
        if jackpot.full:
            raise BadMoney(Reason.JACKPOT_FULL, jackpot=jackpot.name, size=jackpot.size)
        return [ev.JackpotBought(jackpot.name, self.player)]


@dataclass(frozen=True)
class LeaveJackpot(TournamentCommand):
    """A buyer leaves a jackpot before it starts, and has their buy-in back: the seat is free again."""

    type: ClassVar[str] = "leave_jackpot"
    label: ClassVar[str] = pgettext("done", "refund the jackpot's seat")
    jackpot: str = arg("text", help="the jackpot's name")
    player: int = arg("id")

    def decide(self, facts) -> list[ev.TournamentEvent]:
        jackpot = _jackpot(facts, self.jackpot, open_=True)
        if self.player not in jackpot.buyers:
            raise BadMoney(Reason.NOT_IN_JACKPOT, player=self.player, jackpot=jackpot.name)
        return [ev.JackpotLeft(jackpot.name, self.player)]


@dataclass(frozen=True)
class StartJackpot(TournamentCommand):
    """A full jackpot starts: its knockout among its buyers is drawn at random as an event of its own, whose
    finishes pay its pool (the service makes that event: ``tournaments/jackpots.py``)."""

    type: ClassVar[str] = "start_jackpot"
    label: ClassVar[str] = pgettext("done", "start the jackpot")
    jackpot: str = arg("text", help="the jackpot's name")
    event_id: int = 0  # filled by the service: the jackpot's own event, made for it

    def decide(self, facts) -> list[ev.TournamentEvent]:
        jackpot = _jackpot(facts, self.jackpot, open_=True)
        if not jackpot.full:
            raise BadMoney(Reason.JACKPOT_NOT_FULL, jackpot=jackpot.name, buyers=len(jackpot.buyers),
                           size=jackpot.size)
        if not self.event_id:
            raise BadMoney(Reason.JACKPOT_EVENT)
        return [ev.JackpotStarted(jackpot.name, self.event_id, tuple(jackpot.buyers))]


def jackpots_left_by(facts, player: int) -> list[ev.TournamentEvent]:
    """A player withdrawing from the night leaves the jackpots not started yet, their buy-ins handed back."""
    return [ev.JackpotLeft(j.name, player, withdrew=True) for j in facts.money.jackpots.values()
            if j.event_id is None and player in j.buyers]


# -- team events ------------------------------------------------------------------------------

MAX_TEAM_NAME = 60
TEAM_FORMATS = ("team_round_robin", "team_swiss", "team_knockout")  # tournaments.stream.TEAM_FORMATS


def _team_event(facts) -> None:
    if facts.format not in TEAM_FORMATS:
        raise BadTeam(Reason.NOT_TEAM_EVENT)


@dataclass(frozen=True)
class RegisterTeam(TournamentCommand):
    """A team of a team event, before the draw: its name, its players in board order (board 1 first: as many as
    the event's ``boards``) and its reserves (at most the event's ``reserves``). Each of them is entered in the
    event with it; the teams are numbered 1, 2… in the order they register."""

    type: ClassVar[str] = "register_team"
    label: ClassVar[str] = pgettext("done", "register the team")
    name: str = arg("text", help="the team's name (its club's, its country's)")
    players: tuple[int, ...] = arg("ids", low=1, high=MAX_BOARDS, help="its players in board order, board 1 first")
    reserves: tuple[int, ...] = arg("ids", default=(), low=0, high=MAX_RESERVES,
                                    help="its reserves, who may come in for a player of a team match")

    def decide(self, facts) -> list[ev.TournamentEvent]:
        _team_event(facts)
        if facts.drawn:
            raise AlreadyDrawn(Reason.ALREADY_DRAWN)
        name = self.name.strip()
        if not 0 < len(name) <= MAX_TEAM_NAME:
            raise BadTeam(Reason.TEAM_NAME, most=MAX_TEAM_NAME)
        if any(t["name"].casefold() == name.casefold() for t in facts.teams.values()):
            raise BadTeam(Reason.TEAM_NAME_TAKEN, team=name)
        config = derive.team_config(facts.config)
        members = tuple(self.players) + tuple(self.reserves)
        if (len(self.players) != config.boards or len(self.reserves) > config.reserves
                or len(set(members)) != len(members)):
            raise BadTeam(Reason.TEAM_PLAYERS, boards=config.boards, reserves=config.reserves)
        for player in members:
            taken = next((t["name"] for t in facts.teams.values() if player in t["members"]), None)
            if taken is not None:
                raise BadTeam(Reason.TEAM_PLAYER_TAKEN, player=player, team=taken)
        entered = [ev.PlayerEntered(p, 1) for p in members if p not in facts.active]
        return [ev.TeamRegistered(max(facts.teams, default=0) + 1, name, members), *entered]


@dataclass(frozen=True)
class SetLineup(TournamentCommand):
    """The players a team puts on its boards for its team match of a round, board 1 first: members of the team (a
    reserve in for a player), and with the board order fixed for the event in the order the team listed them.
    Before any board of that team match has begun: a board whose match nobody has started is played again with
    the new line-up."""

    type: ClassVar[str] = "set_lineup"
    label: ClassVar[str] = pgettext("done", "set the line-up")
    team: int = arg("whole", low=1, high=MAX_LIST, help="the team's number (1 for the first registered)")
    round: int = arg("round", help="the round of its team match")
    players: tuple[int, ...] = arg("ids", low=1, high=MAX_BOARDS, help="its players for that match, board 1 first")

    def decide(self, facts) -> list[ev.TournamentEvent]:
        _team_event(facts)
        team = facts.teams.get(self.team)
        if team is None:
            raise BadTeam(Reason.UNKNOWN_TEAM, team=self.team)
        config = derive.team_config(facts.config)
        try:
            lineup = teams.check_lineup(teams.Team(self.team, team["members"]), self.players, config)
        except FormatError as refused:
            raise BadTeam(refused.reason or str(refused), **refused.params) from None
        # a Swiss of teams plays its rounds; a round robin (and a knockout, fewer) at most a round robin's, and a
        # knockout after the round robin's groups numbers its rounds on from theirs
        rounds = facts.config.get("rounds", 0) if facts.format == "team_swiss" else len(teams.round_robin(list(facts.teams)))
        if facts.config.get("qualifiers") and facts.format == "team_round_robin":
            rounds += bracket_size(facts.config["qualifiers"]).bit_length() - 1
        if not 1 <= self.round <= rounds:
            raise BadTeam(Reason.NO_TEAM_MATCH, team=self.team, round=self.round)
        if facts.drawn:
            meeting = next((m for m in derive.derive(facts, tables=False).teams.meetings
                            if m.round == self.round and self.team in (m.a, m.b)), None)
            if meeting is None or meeting.b is None:
                raise BadTeam(Reason.NO_TEAM_MATCH, team=self.team, round=self.round)
            if any(s.status in SETTLED or _begun(facts, s.key) for s in meeting.slots):
                raise BadTeam(Reason.LINEUP_BEGUN, team=self.team, round=self.round)
        if facts.lineups.get((self.round, self.team), teams.default_lineup(
                teams.Team(self.team, team["members"]), config)) == lineup:
            return []
        return [ev.LineupSet(self.round, self.team, lineup)]


def _begun(facts, slot: str) -> bool:
    link = facts.matches.get(slot)
    outcome = facts.outcomes.get(link["match_id"]) if link else None
    return outcome is not None and outcome.started and not outcome.voided


def _command_classes(root: type[TournamentCommand]):
    for sub in root.__subclasses__():
        if sub.type and sub not in (Configure, Publish):
            yield sub
        yield from _command_classes(sub)


# every command type, found by its declaration (a new class here is a new command of the API, its schema, the
# console's words and parse)
COMMANDS: dict[str, type[TournamentCommand]] = {c.type: c for c in _command_classes(TournamentCommand)}
COMMAND_TYPES = tuple(COMMANDS)


def command_class(kind) -> type[TournamentCommand]:
    cls = COMMANDS.get(kind) if isinstance(kind, str) else None
    if cls is None:
        raise UnknownCommand(Reason.UNKNOWN_COMMAND_TYPE, type=repr(str(kind)[:40]), types=", ".join(COMMANDS))
    return cls


def parse(data: Any) -> TournamentCommand:
    """A command from a JSON object with a ``type`` (and ``expected_version``, ignored here: the service's)."""
    if not isinstance(data, dict):
        raise BadCommand(Reason.COMMAND_OBJECT)
    return command_class(data.get("type")).from_dict(data)


def with_facts(command: TournamentCommand, **facts) -> TournamentCommand:
    """The command with what the service looked up (never taken from the client)."""
    return dataclasses.replace(command, **facts)
