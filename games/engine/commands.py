"""What a player (or the recorder at the board) asks the engine to do.

Commands are requests; :func:`games.engine.match.decide` judges them and
returns the events that record what happened.
"""

from __future__ import annotations

from dataclasses import dataclass


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


@dataclass(frozen=True)
class Roll:
    """Roll (or enter) the dice. For the opening roll ``dice[i]`` is player i's die."""

    player: int | None
    dice: tuple[int, int]
    source: str = "server"


@dataclass(frozen=True)
class Move:
    """Play the rolled dice: gnubg text (``"24/18 13/11*"``) or ``(from, to)`` steps."""

    player: int
    move: object


@dataclass(frozen=True)
class Double:
    player: int


@dataclass(frozen=True)
class Take:
    player: int


@dataclass(frozen=True)
class Drop:
    player: int


@dataclass(frozen=True)
class Beaver:
    player: int


@dataclass(frozen=True)
class Raccoon:
    player: int


@dataclass(frozen=True)
class Resign:
    """Offer to resign a ``single``, ``gammon`` or ``backgammon``."""

    player: int
    kind: str = "single"


@dataclass(frozen=True)
class AcceptResignation:
    player: int


@dataclass(frozen=True)
class DeclineResignation:
    player: int
