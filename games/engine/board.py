"""The backgammon position as a value.

A :class:`Position` is seen from the side on roll ("the mover"), as GNU
Backgammon sees it. Each side is a tuple of 26 counts in its *own* numbering:

* index 0: checkers borne off,
* index 1..24: checkers on that point (the mover moves 24 -> 1 and bears off
  past the 1 point; its home board is 1..6),
* index 25: checkers on the bar.

The opponent's point ``q`` is the mover's point ``25 - q``. Handing the dice
over is just swapping the two tuples (:meth:`Position.swap`).
"""

from __future__ import annotations

from operator import mul
from typing import NamedTuple

from .errors import InvalidPosition, Reason

CHECKERS = 15
OFF = 0
BAR = 25

_START_SIDE = (0, 0, 0, 0, 0, 0, 5, 0, 3, 0, 0, 0, 0, 5, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2, 0)


class Position(NamedTuple):
    """A board seen from the player on roll: ``mine`` and ``theirs``."""

    mine: tuple[int, ...]
    theirs: tuple[int, ...]

    @classmethod
    def start(cls) -> Position:
        """The standard start: 2 on the 24-point, 5 on 13, 3 on 8, 5 on 6, each side."""
        return cls(_START_SIDE, _START_SIDE)

    @classmethod
    def from_points(cls, mine: dict[int, int], theirs: dict[int, int]) -> Position:
        """Build from ``{point: count}`` maps (25 = bar); the rest is borne off."""
        return cls(_side_from_map(mine), _side_from_map(theirs)).validated()

    def swap(self) -> Position:
        """The same board seen by the other player (the dice change hands)."""
        return Position(self.theirs, self.mine)

    def validated(self) -> Position:
        """Return self, or raise :class:`InvalidPosition` if no game can reach it."""
        # every answer's Position ID and XGID validate the board: the checks run in C (min, sum, map), not in a
        # Python loop over the points
        for side, counts, checkers in ((self.mine, Reason.MOVER_SIDE, Reason.MOVER_CHECKERS),
                                       (self.theirs, Reason.OPPONENT_SIDE, Reason.OPPONENT_CHECKERS)):
            if len(side) != 26 or min(side) < 0:
                raise InvalidPosition(counts)
            if sum(side) != CHECKERS:
                raise InvalidPosition(checkers, count=sum(side), checkers=CHECKERS)
        # the mover's point p is the opponent's 25 - p: both sides on one point multiply to more than 0
        if any(map(mul, self.mine[1:25], self.theirs[24:0:-1])):
            point = next(p for p in range(1, 25) if self.mine[p] and self.theirs[25 - p])
            raise InvalidPosition(Reason.BOTH_ON_POINT, point=point)
        return self

    def pip_count(self) -> tuple[int, int]:
        """Pips each side needs to bear off: (mover, opponent). The bar counts 25."""
        return pip_count(self)

    def borne_off(self) -> tuple[int, int]:
        return self.mine[OFF], self.theirs[OFF]

    def is_race(self) -> bool:
        """No contact: every mover checker has passed every opponent checker."""
        my_back = max((p for p in range(25, 0, -1) if self.mine[p]), default=0)
        their_back = max((p for p in range(25, 0, -1) if self.theirs[p]), default=0)
        # the opponent's rearmost checker stands on the mover's point 25 - their_back
        return my_back < 25 - their_back

    def signed_points(self) -> list[int]:
        """The 24 points in the mover's numbering, mover > 0, opponent < 0."""
        return [self.mine[p] - self.theirs[25 - p] for p in range(1, 25)]

    def __str__(self) -> str:
        return board_diagram(self)


def pip_count(position: Position) -> tuple[int, int]:
    """Pips each side needs to bear off all its checkers: (mover, opponent).

    The rules' « compte des points »: each checker counts the number of its
    point, a checker on the bar 25. At the start each side needs 167:

    >>> pip_count(Position.start())
    (167, 167)
    """
    return _side_pips(position.mine), _side_pips(position.theirs)


def _side_pips(side: tuple[int, ...]) -> int:
    return sum(map(mul, _POINTS_AND_BAR, side[1:26]))


_POINTS_AND_BAR = range(1, 26)


def may_bear_off(position: Position) -> bool:
    """May the mover bear off? Only once all fifteen checkers are in the home board.

    The rules: « Quand un joueur a amené tous ses pions dans son propre jan
    intérieur, il peut commencer à les sortir » (points 1 to 6 here); a checker
    on the bar or outside the home board forbids it, and a checker hit during
    the bear-off must come home again first.

    >>> may_bear_off(Position.start())
    False
    >>> may_bear_off(Position.from_points({6: 5, 5: 5, 1: 3}, {6: 15}))
    True
    """
    return not any(position.mine[p] for p in range(7, 26))


def _side_from_map(points: dict[int, int]) -> tuple[int, ...]:
    side = [0] * 26
    for point, count in points.items():
        if not 1 <= point <= 25:
            raise InvalidPosition(Reason.OFF_THE_BOARD, point=point)
        side[point] = count
    side[OFF] = CHECKERS - sum(side)
    return tuple(side)


def board_diagram(position: Position) -> str:
    """A one-line text picture: mover's points 24..1 as ``X`` counts / ``O`` counts."""
    cells = []
    for p in range(24, 0, -1):
        n = position.mine[p] - position.theirs[25 - p]
        cells.append(f"{n:+d}" if n else ".")
    return (
        f"bar {position.mine[BAR]}/{position.theirs[BAR]} | "
        + " ".join(cells)
        + f" | off {position.mine[OFF]}/{position.theirs[OFF]}"
    )
