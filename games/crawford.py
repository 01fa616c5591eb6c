"""Which game of a match was the Crawford game, worked out from the recorded scores alone.

A second, independent reading of the rule the engine applies: the first game
after a player first reaches length - 1 is the Crawford game; the games after it
are post-Crawford. The projection stores these flags; tests hold them to the
engine's own judgement.
"""

from __future__ import annotations

from dataclasses import dataclass


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


def game_flags(rows) -> list[GameFlags]:
    """Per game of a match stream (rows with ``event_type`` and ``payload``): its Crawford flags and result."""
    length, rule, crawford_played = 0, True, False
    score = (0, 0)
    games: dict[int, GameFlags] = {}

    def open_game(number: int) -> GameFlags:
        nonlocal crawford_played
        if number not in games:
            crawford = rule and length > 1 and not crawford_played and length - 1 in score
            games[number] = GameFlags(number, score, crawford, post_crawford=crawford_played)
            crawford_played = crawford_played or crawford
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
            games[p["game"]] = GameFlags(
                flags.game, flags.score_before, flags.crawford, flags.post_crawford, True,
                p["winner"], p["points"], p["kind"], p["reason"],
            )
            score = tuple(p["score"])
    return [games[g] for g in sorted(games)]
