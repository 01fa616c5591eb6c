"""The facts a match stream records, as frozen dataclasses.

Players are 0 and 1 (the order of ``MatchStarted.players``). Dice are given
as the two numbers rolled; ``source`` says where they came from (``server``
for the server's generator, ``physical`` for dice read off a board,
``imported`` for a file) and does not change the rules.

:func:`to_dict` / :func:`from_dict` turn an event into JSON-ready data and
back: ``{"type": "DiceRolled", "player": 0, "dice": [3, 1], ...}``.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Union

SINGLE, GAMMON, BACKGAMMON = "single", "gammon", "backgammon"
KIND_VALUE = {SINGLE: 1, GAMMON: 2, BACKGAMMON: 3}


@dataclass(frozen=True)
class MatchStarted:
    """A match to ``length`` points (0: an unlimited money session) begins.

    The money options (Jacoby, beavers, raccoons, automatic doubles) are off in
    match play. ``cube_limit`` 0 means no upper limit. ``initial_score`` and
    ``crawford_done`` let a match recorded elsewhere start mid-way.
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
class OpeningRollTied:
    """Both players rolled ``die`` for the opening: they roll again."""

    die: int
    source: str = "server"


@dataclass(frozen=True)
class AutomaticDouble:
    """Equal opening dice doubled the centred cube (money sessions only)."""

    cube: int


@dataclass(frozen=True)
class GameStarted:
    """The opening roll: ``dice[i]`` is player i's die; the higher plays both."""

    game: int
    dice: tuple[int, int]
    source: str = "server"


@dataclass(frozen=True)
class DiceRolled:
    player: int
    dice: tuple[int, int]
    source: str = "server"


@dataclass(frozen=True)
class CheckersMoved:
    """A legal play: gnubg text and the single-die steps ``(from, to)``, 25 bar, 0 off."""

    player: int
    move: str
    steps: tuple[tuple[int, int], ...]


@dataclass(frozen=True)
class CannotMove:
    """The roll has no legal play and is forfeited."""

    player: int


@dataclass(frozen=True)
class DoubleOffered:
    player: int
    cube: int


@dataclass(frozen=True)
class DoubleTaken:
    player: int
    cube: int


@dataclass(frozen=True)
class DoubleDropped:
    player: int


@dataclass(frozen=True)
class Beavered:
    """The taker redoubled at once and keeps the cube at ``cube``."""

    player: int
    cube: int


@dataclass(frozen=True)
class Raccooned:
    """The original doubler re-redoubled after a beaver and keeps the cube."""

    player: int
    cube: int


@dataclass(frozen=True)
class ResignationOffered:
    player: int
    kind: str


@dataclass(frozen=True)
class ResignationAccepted:
    player: int


@dataclass(frozen=True)
class ResignationDeclined:
    player: int


@dataclass(frozen=True)
class GameWon:
    """``reason`` is ``bearoff``, ``drop`` or ``resignation``; ``score`` is after the game."""

    game: int
    winner: int
    kind: str
    cube: int
    points: int
    reason: str
    score: tuple[int, int]


@dataclass(frozen=True)
class MatchWon:
    winner: int
    score: tuple[int, int]


Event = Union[
    MatchStarted,
    OpeningRollTied,
    AutomaticDouble,
    GameStarted,
    DiceRolled,
    CheckersMoved,
    CannotMove,
    DoubleOffered,
    DoubleTaken,
    DoubleDropped,
    Beavered,
    Raccooned,
    ResignationOffered,
    ResignationAccepted,
    ResignationDeclined,
    GameWon,
    MatchWon,
]

EVENT_TYPES: dict[str, type] = {cls.__name__: cls for cls in Event.__args__}


def to_dict(event) -> dict:
    data = dataclasses.asdict(event)
    data["type"] = type(event).__name__
    return _lists(data)


def from_dict(data: dict):
    """Rebuild an event from :func:`to_dict`'s output (lists become tuples)."""
    data = dict(data)
    cls = EVENT_TYPES.get(data.pop("type", None))
    if cls is None:
        raise ValueError(f"unknown event type in {data!r}")
    return cls(**{k: _tuples(v) for k, v in data.items()})


def _lists(value):
    if isinstance(value, (list, tuple)):
        return [_lists(v) for v in value]
    if isinstance(value, dict):
        return {k: _lists(v) for k, v in value.items()}
    return value


def _tuples(value):
    if isinstance(value, list):
        return tuple(_tuples(v) for v in value)
    return value
