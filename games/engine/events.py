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
import functools
from dataclasses import dataclass
from enum import StrEnum
from typing import NamedTuple, Union


class RollSource(StrEnum):
    """Where a roll's numbers came from (an event's ``source``)."""

    SERVER = "server"  # drawn by the platform
    PHYSICAL = "physical"  # read off dice rolled at the board

SINGLE, GAMMON, BACKGAMMON = "single", "gammon", "backgammon"
KIND_VALUE = {SINGLE: 1, GAMMON: 2, BACKGAMMON: 3}


class Outcome(NamedTuple):
    """How a finished game ended: ``winner`` (0 or 1), ``kind`` and the ``points`` scored.

    >>> Outcome(0, GAMMON, 4)  # a gammon with the cube on 2
    Outcome(winner=0, kind='gammon', points=4)
    """

    winner: int
    kind: str
    points: int


@dataclass(frozen=True)
class MatchStarted:
    """A match to ``length`` points (0: an unlimited money session) begins.

    The money options (Jacoby, beavers, raccoons, automatic doubles) are off in
    match play. ``redoubles`` bounds the beavers and raccoons that may follow a
    double (gnubg's ``set beavers N``); 0 reads the flags: 1 with beavers, 2
    with raccoons. ``cube_limit`` 0 means no upper limit. ``initial_score`` and
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
    redoubles: int = 0

    @property
    def redoubles_allowed(self) -> int:
        return max(self.redoubles, 2 if self.raccoons else 1 if self.beavers else 0)


@dataclass(frozen=True)
class OpeningRollTied:
    """Both players rolled ``die`` for the opening: they roll again."""

    die: int
    source: str = RollSource.SERVER


@dataclass(frozen=True)
class AutomaticDouble:
    """Equal opening dice doubled the centred cube (money sessions only)."""

    cube: int


@dataclass(frozen=True)
class GameStarted:
    """The opening roll: ``dice[i]`` is player i's die; the higher plays both."""

    game: int
    dice: tuple[int, int]
    source: str = RollSource.SERVER


@dataclass(frozen=True)
class DiceRolled:
    player: int
    dice: tuple[int, int]
    source: str = RollSource.SERVER


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
    """The player doubled redoubled at once, offering ``cube``; the doubler must answer.

    ``taken`` is for streams of schema 1, when a beaver could not be answered:
    the cube stood at ``cube`` with the beaverer at once (see :func:`upcast`).
    """

    player: int
    cube: int
    taken: bool = False


@dataclass(frozen=True)
class Raccooned:
    """The doubler redoubled a beaver at once, offering ``cube``; the cube stays with the beaverer.

    ``taken`` is for streams of schema 1, when the raccooner got the cube at once.
    """

    player: int
    cube: int
    taken: bool = False


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
    """``reason`` is ``bearoff``, ``drop``, ``resignation``, ``time`` (a flag fell: the match given, ``points``
    what the winner needed) or ``late`` (penalty points past half the match); ``score`` is after the game."""

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


# -- the clock (games/engine/clock.py): every reading ``at`` in milliseconds on the platform's time line --------


@dataclass(frozen=True)
class ClockSet:
    """A clock set at the start of a game: its preset's figures and each player's reserve."""

    preset: str
    per_point: int
    per_scored: int
    delay: int
    overtime: int
    reserves: tuple[int, int]
    at: int
    per_match: int = 0


@dataclass(frozen=True)
class ClockPressed:
    """``player`` pressed their clock: it stops and the opponent's starts (between games: both stand still).
    ``device_at``: the pressing device's own reading, kept for the record (the clock runs on ``at``)."""

    player: int
    at: int
    device_at: int | None = None


@dataclass(frozen=True)
class ClockPaused:
    at: int


@dataclass(frozen=True)
class ClockResumed:
    at: int


@dataclass(frozen=True)
class OvertimeGiven:
    """``player``'s reserve ran out at ``at`` for the first time; the preset's overtime is their reserve now."""

    player: int
    at: int


@dataclass(frozen=True)
class FlagFell:
    """``player``'s reserve ran out at ``at``: they lose the match (the ``GameWon`` that follows, reason "time")."""

    player: int
    at: int


@dataclass(frozen=True)
class LatePenalty:
    """``player`` was not at the board: ``points`` more penalty points to the opponent (lateness, at ``at``)."""

    player: int
    points: int
    at: int


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
    ClockSet,
    ClockPressed,
    ClockPaused,
    ClockResumed,
    OvertimeGiven,
    FlagFell,
    LatePenalty,
]

EVENT_TYPES: dict[str, type] = {cls.__name__: cls for cls in Event.__args__}

# The schema of each event's payload, stored beside it (eventlog's ``schema_version``).
# Beavered/Raccooned 2: the beaver and the raccoon are offers answered by take or drop.
SCHEMA_VERSION: dict[str, int] = {name: 1 for name in EVENT_TYPES} | {"Beavered": 2, "Raccooned": 2}


def upcast(event_type: str, payload: dict, schema_version: int) -> dict:
    """A stored payload brought to the current schema of its type; stored rows are never edited.

    Schema 1 of ``Beavered``/``Raccooned`` recorded a redouble that was final at
    once (the cube with the redoubler, no answer): it reads as ``taken``. A
    schema 2 payload always carries ``taken``, so one written without its
    version (stored as 1 by default) is still read as what it is.
    """
    if event_type in ("Beavered", "Raccooned") and schema_version < 2 and "taken" not in payload:
        return {**payload, "taken": True}
    return payload


def to_dict(event) -> dict:
    # every command turns its events into payloads: no event nests another dataclass, and every leaf is
    # immutable, so each field read with tuples made lists is what dataclasses.asdict (a deep copy) would give
    cls = type(event)
    data = {name: _lists(getattr(event, name)) for name in _field_names(cls)}
    data["type"] = cls.__name__
    return data


@functools.cache
def _field_names(cls) -> tuple[str, ...]:
    return tuple(field.name for field in dataclasses.fields(cls))


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
