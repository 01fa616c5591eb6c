"""What a player (or the recorder at the board) asks the engine to do.

Commands are requests; :func:`games.engine.match.decide` judges them and
returns the events that record what happened.

``player`` is the seat acting, 0 or 1. A platform around the engine may build
a command before it knows the seat (``player=None``: "whoever sends it") and
fill it in before :func:`~games.engine.match.decide`, which refuses any other
value with :class:`~games.engine.errors.NotYourTurn`.
"""

from __future__ import annotations

from dataclasses import dataclass

from .clock import Preset
from .events import RollSource


@dataclass(frozen=True)
class StartMatch:
    """Start a match to ``length`` points (odd), or a money session (``length=0``).

    ``imported=True`` is for the record of a match played elsewhere: any
    length is accepted then, as online servers play 2-, 4- and 8-point matches.
    """

    players: tuple[str, str]
    length: int
    crawford: bool = True
    jacoby: bool = False
    beavers: bool = False
    raccoons: bool = False
    automatic_doubles: int = 0
    cube_limit: int = 0
    initial_score: tuple[int, int] = (0, 0)
    crawford_done: bool = False
    imported: bool = False
    redoubles: int = 0  # beavers and raccoons after one double (gnubg's `set beavers N`); 0: from the flags


@dataclass(frozen=True)
class Roll:
    """Roll (or enter) the dice. For the opening roll ``dice[i]`` is player i's die."""

    player: int | None
    dice: tuple[int, int]
    source: str = RollSource.SERVER


@dataclass(frozen=True)
class Move:
    """Play the rolled dice: gnubg text (``"24/18 13/11*"``) or ``(from, to)`` steps."""

    player: int | None
    move: object


@dataclass(frozen=True)
class Double:
    """Offer the cube. ``imported``: a double read from a file of a match played
    elsewhere, accepted even when the cube is dead (gnubg reads such files too)."""

    player: int | None
    imported: bool = False


@dataclass(frozen=True)
class Take:
    player: int | None


@dataclass(frozen=True)
class Drop:
    player: int | None


@dataclass(frozen=True)
class Beaver:
    """Redouble at once the double offered to you (and every odd redouble after it)."""

    player: int | None


@dataclass(frozen=True)
class Raccoon:
    """Redouble at once the beaver answering your double (and every even redouble after it)."""

    player: int | None


@dataclass(frozen=True)
class Resign:
    """Offer to resign a ``single``, ``gammon`` or ``backgammon``."""

    player: int | None
    kind: str = "single"


@dataclass(frozen=True)
class AcceptResignation:
    player: int | None


@dataclass(frozen=True)
class DeclineResignation:
    player: int | None


# -- the clock (games/engine/clock.py): ``at`` is the reading, in milliseconds on the platform's time line --------


@dataclass(frozen=True)
class SetClock:
    """Set a clock at the start of a game (before its opening roll), with a preset's figures."""

    preset: Preset
    at: int


@dataclass(frozen=True)
class PressClock:
    """``player`` presses their clock: after moving, doubling, taking, or when they cannot move; at the opening
    roll, the player with the lower die; once a game is over, the player whose clock runs stops both."""

    player: int | None
    at: int
    device_at: int | None = None


@dataclass(frozen=True)
class PauseClock:
    """Both clocks stopped for a director's call."""

    at: int


@dataclass(frozen=True)
class ResumeClock:
    at: int


@dataclass(frozen=True)
class ClaimTime:
    """The running clock's flag has fallen (the opponent or the director says so, or the tablet sees it)."""

    at: int


@dataclass(frozen=True)
class RecordLateness:
    """``player`` is not at the board at reading ``at`` (or arrived then) for a match called at ``called_at``."""

    player: int
    called_at: int
    at: int


@dataclass(frozen=True)
class GiveMatch:
    """A record of a match played elsewhere that ended on time or by lateness (its file says so): the match given
    to ``winner`` for the points they needed. Only a record's import sends it; here the clock decides."""

    winner: int
    reason: str  # one of match_clock.GIVEN_FOR
