"""Match commands as typed values: what a service is asked to do, read and checked at the door (the API).

The rules' own commands are the engine's (:mod:`games.engine.commands`): a move, a double, a take… built with
``player=None`` when the sender does not say whose they are (the service settles the seat). The platform's
commands, which no rule of backgammon judges, are here: a roll (the server's dice or the board's), a director's
correction or void, the confirmation of an imported record, and an online match's forfeits.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TypeAlias

from games.engine import commands as engine


@dataclass(frozen=True)
class RollDice:
    """Roll: ``dice`` read off the board (two numbers 1-6) in a board-dice match, None for the server's dice."""

    player: int | None = None
    dice: tuple[int, int] | None = None


@dataclass(frozen=True)
class CorrectResult:
    """A director sets the match's result: ``score`` is the final score by seat."""

    winner: int
    score: tuple[int, int]
    reason: str


@dataclass(frozen=True)
class VoidMatch:
    """A director voids the match: it counts for nothing."""

    reason: str


@dataclass(frozen=True)
class SetRated:
    """A director marks the match rated or unrated from now on (a friendly, a walkover): the ratings re-derive."""

    rated: bool


@dataclass(frozen=True)
class ConfirmImport:
    """The other player (or an official) vouches for an imported record, which then counts for the ratings."""


# -- the clock (games/clocks.py): the server's receipt time is the reading the engine judges ----------------------


@dataclass(frozen=True)
class SetClock:
    """Set the match's clock at the start of a game: a preset (games.engine.clock.PRESETS) or ``custom`` with its
    figures in seconds; no preset: the one its event's round names (``MatchRecord.clock_rule``)."""

    preset: str = ""
    per_match: int | None = None
    per_point: int | None = None
    per_scored: int | None = None
    delay: int | None = None
    overtime: int | None = None
    player: int | None = None  # who asks: either player at the board, or an official


@dataclass(frozen=True)
class PressClock:
    """Press ``player``'s clock; ``reading`` is the tablet's own clock (milliseconds since 1970), kept beside the
    server's receipt time."""

    player: int | None = None
    reading: int | None = None


@dataclass(frozen=True)
class ClaimTime:
    """The running clock's flag has fallen: said by a player, the recorder or an official."""

    player: int | None = None


@dataclass(frozen=True)
class PauseClock:
    """A director's call: both clocks stand still."""


@dataclass(frozen=True)
class ResumeClock:
    """The director's call is over: the clock that ran runs again."""


@dataclass(frozen=True)
class CallMatch:
    """The director calls the match to its board: lateness counts from now."""


@dataclass(frozen=True)
class RecordLateness:
    """``player`` is not at the board: the penalty points due since the match was called."""

    player: int


# -- online play (games/online.py): forfeits claimed by the player who stays, judged on the server's readings ------


@dataclass(frozen=True)
class ClaimDisconnect:
    """The opponent has been away longer than the match's disconnect clock: the player who stays claims the match
    (an official names the seat ``absent``)."""

    absent: int | None = None


@dataclass(frozen=True)
class ClaimNoShow:
    """The opponent has not come by the match's start deadline and its lateness: the player who came claims the
    match (an official names the seat ``absent``)."""

    absent: int | None = None


ONLINE_CLAIMS = (ClaimDisconnect, ClaimNoShow)

CLOCK_COMMANDS = (SetClock, PressClock, ClaimTime, PauseClock, ResumeClock, CallMatch, RecordLateness)

MatchCommand: TypeAlias = (
    RollDice | engine.Move | engine.Double | engine.Take | engine.Drop | engine.Beaver | engine.Raccoon
    | engine.Resign | engine.AcceptResignation | engine.DeclineResignation | CorrectResult | VoidMatch | ConfirmImport
    | SetRated | SetClock | PressClock | ClaimTime | PauseClock | ResumeClock | CallMatch | RecordLateness
    | ClaimDisconnect | ClaimNoShow
)

# the API's name of each command type (the "type" of a command's JSON body)
COMMAND_CLASSES: dict[str, type] = {
    "roll": RollDice,
    "move": engine.Move,
    "double": engine.Double,
    "take": engine.Take,
    "drop": engine.Drop,
    "beaver": engine.Beaver,
    "raccoon": engine.Raccoon,
    "resign": engine.Resign,
    "accept_resignation": engine.AcceptResignation,
    "decline_resignation": engine.DeclineResignation,
    "correct_result": CorrectResult,
    "void": VoidMatch,
    "confirm_import": ConfirmImport,
    "set_rated": SetRated,
    "set_clock": SetClock,
    "press_clock": PressClock,
    "claim_time": ClaimTime,
    "pause_clock": PauseClock,
    "resume_clock": ResumeClock,
    "call_match": CallMatch,
    "record_lateness": RecordLateness,
    "claim_disconnect": ClaimDisconnect,
    "claim_no_show": ClaimNoShow,
}
COMMAND_TYPES = tuple(COMMAND_CLASSES)
TYPE_OF = {cls: name for name, cls in COMMAND_CLASSES.items()}
# the commands only an event's director or an official may send
DIRECTOR_COMMANDS = (CorrectResult, VoidMatch, SetRated, PauseClock, ResumeClock, CallMatch, RecordLateness)
