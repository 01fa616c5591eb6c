"""Which game of a match was the Crawford game, worked out from the recorded scores alone.

A second, independent reading of the rule the engine applies: the first game
in which exactly one player stands at length - 1 is the Crawford game; the
games after it are post-Crawford. The projection stores these flags; tests hold them to the
engine's own judgement.

The reading can stop after any event and resume later from a small
:class:`Carry` and the flags of the games already read, so the projection
folds only the events it has not seen.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace


@dataclass(frozen=True)
class GameFlags:
    game: int
    score_before: tuple[int, int]
    crawford: bool
    post_crawford: bool
    finished: bool = False
    winner: int | None = None
    points: int = 0
    kind: str = ""
    reason: str = ""


@dataclass(frozen=True)
class Carry:
    """What the reading carries from one game to the next: the match's terms and where it stands."""

    length: int = 0
    rule: bool = True  # the match is played with the Crawford rule
    crawford_played: bool = False
    score: tuple[int, int] = (0, 0)


def read_flags(rows, carry: Carry = Carry(), known: Mapping[int, GameFlags] | None = None) -> tuple[Carry, dict[int, GameFlags]]:
    """Resume the reading with ``rows`` (``event_type``, ``payload``): return the new carry and the games they touched.

    ``known`` holds the flags already read of any game the rows name: a game won
    in these rows may have started before them.
    """
    length, rule, crawford_played, score = carry.length, carry.rule, carry.crawford_played, carry.score
    games = dict(known or {})
    touched: dict[int, GameFlags] = {}

    def open_game(number: int) -> GameFlags:
        nonlocal crawford_played
        if number not in games:
            # exactly one side at length - 1: a match resumed at double match point has no Crawford game
            crawford = rule and length > 1 and not crawford_played and (score[0] == length - 1) != (score[1] == length - 1)
            games[number] = GameFlags(number, score, crawford, post_crawford=crawford_played)
            crawford_played = crawford_played or crawford
        touched[number] = games[number]
        return games[number]

    for row in rows:
        kind, p = row.event_type, row.payload
        if kind == "MatchStarted":
            length, rule = p["length"], p.get("crawford", True)
            score = tuple(p.get("initial_score", (0, 0)))
            crawford_played = p.get("crawford_done", False)
        elif kind == "GameStarted":
            open_game(p["game"])
        elif kind == "GameWon":
            flags = open_game(p["game"])
            games[p["game"]] = touched[p["game"]] = replace(
                flags, finished=True, winner=p["winner"], points=p["points"], kind=p["kind"], reason=p["reason"],
            )
            score = tuple(p["score"])
    return Carry(length, rule, crawford_played, score), touched


def game_flags(rows: Iterable) -> list[GameFlags]:
    """Per game of a match stream (rows with ``event_type`` and ``payload``): its Crawford flags and result."""
    _, games = read_flags(rows)
    return [games[g] for g in sorted(games)]
