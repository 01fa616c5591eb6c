"""Legal-move cases in the JSON format of GNU Backgammon's oracle files.

A case is a position (mover's frame, signed points), a roll and the complete
set of legal resulting positions as gnubg lists them. :func:`check_cases`
compares the engine's legal set with each case's, as sets of positions.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from .board import BAR, OFF, Position
from .moves import legal_moves


def position_from_json(board: dict) -> Position:
    """``{"points": [24 signed], "bar": [m, o], "off": [m, o]}`` -> :class:`Position`."""
    points = board["points"]
    mine = [0] * 26
    theirs = [0] * 26
    for i, n in enumerate(points):
        if n > 0:
            mine[i + 1] = n
        elif n < 0:
            theirs[24 - i] = -n
    mine[BAR], theirs[BAR] = board["bar"]
    mine[OFF], theirs[OFF] = board["off"]
    return Position(tuple(mine), tuple(theirs))


def position_to_json(position: Position) -> dict:
    return {
        "points": position.signed_points(),
        "bar": [position.mine[BAR], position.theirs[BAR]],
        "off": [position.mine[OFF], position.theirs[OFF]],
    }


@dataclass(frozen=True)
class Disagreement:
    case_id: int
    dice: tuple[int, int]
    position: Position
    missing: frozenset  # gnubg's plays the engine did not find
    extra: frozenset  # the engine's plays gnubg does not allow
    moves: dict  # resulting position -> gnubg's move text, for the report

    def __str__(self) -> str:
        lines = [f"case {self.case_id}: dice {self.dice[0]}-{self.dice[1]} {self.position}"]
        for p in self.missing:
            lines.append(f"  missing {self.moves.get(p, '?')}: {p}")
        for p in self.extra:
            lines.append(f"  extra: {p}")
        return "\n".join(lines)


def read_cases(path: str | Path) -> Iterator[dict]:
    with open(path, encoding="utf-8") as f:
        for line in f:
            if line.strip():
                yield json.loads(line)


def check_case(case: dict) -> Disagreement | None:
    position = position_from_json(case["board"])
    dice = tuple(case["dice"])
    expected = {position_from_json(b): b.get("move", "") for b in case["legal"]}
    got = {play.position for play in legal_moves(position, dice)}
    missing = frozenset(expected) - got
    extra = got - frozenset(expected)
    if not missing and not extra:
        return None
    return Disagreement(case["id"], dice, position, missing, frozenset(extra), expected)


def check_cases(path: str | Path) -> tuple[int, int, list[Disagreement]]:
    """Return (agreeing, total, disagreements) over every case of the file."""
    total = 0
    disagreements = []
    for case in read_cases(path):
        total += 1
        found = check_case(case)
        if found:
            disagreements.append(found)
    return total - len(disagreements), total, disagreements
