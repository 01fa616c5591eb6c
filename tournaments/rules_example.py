"""The worked example of the event rules page: a five-player Swiss of three rounds, its table computed by the very
function every event's table is (``formats/standings.py``), each tie-break's sum spelled out from its parts, so
the page can never disagree with the tables it explains."""

from __future__ import annotations

from .formats import Pairing, Result
from .formats.standings import TIEBREAKS, standings

NAMES = {1: "Ann", 2: "Bob", 3: "Cid", 4: "Dan", 5: "Eve"}  # seed order
ROUNDS = (
    (Pairing(1, 2, Result(1, 2, 7, 3)), Pairing(3, 4, Result(3, 4, 7, 5)), Pairing(5, None)),
    (Pairing(1, 3, Result(3, 1, 7, 6)), Pairing(5, 2, Result(5, 2, 7, 0)), Pairing(4, None)),
    (Pairing(3, 5, Result(3, 5, 7, 4)), Pairing(1, 4, Result(4, 1, forfeit=True)), Pairing(2, None)),
)


def _n(x: float) -> str:
    return f"{x:g}"


def worked_example() -> dict:
    """The rounds, the table, and per player the arithmetic of each tie-break (numbers and signs only: the page
    words them in the reader's language)."""
    table = standings(list(NAMES), ROUNDS, TIEBREAKS)
    score = {r.player: r.score for r in table}
    games: dict[int, list[dict]] = {p: [] for p in NAMES}  # each round, from the player's side
    rounds = []
    for number, pairings in enumerate(ROUNDS, 1):
        lines = []
        for p in pairings:
            if p.b is None:
                lines.append({"bye": NAMES[p.a]})
                games[p.a].append({"bye": True, "won": True, "for": 0, "against": 0})
                continue
            r = p.result
            lines.append({"winner": NAMES[r.winner], "loser": NAMES[r.loser], "forfeit": r.forfeit,
                          "score": f"{r.winner_points}–{r.loser_points}"})
            games[r.winner].append({"opponent": r.loser, "won": True, "for": r.winner_points,
                                    "against": r.loser_points})
            games[r.loser].append({"opponent": r.winner, "won": False, "for": r.loser_points,
                                   "against": r.winner_points})
        rounds.append({"number": number, "lines": lines})
    rows = []
    for r in table:
        mine = games[r.player]
        parts = [score[g["opponent"]] if not g.get("bye") else 0 for g in mine]
        ordered = sorted(parts)
        beaten = [score[g["opponent"]] for g in mine if g["won"] and not g.get("bye")]
        buchholz = " + ".join(map(_n, parts)) + f" = {_n(r.tiebreaks['buchholz'])}"
        median = (f"{_n(sum(parts))} − {_n(ordered[-1])} − {_n(ordered[0])} = {_n(r.tiebreaks['median_buchholz'])}"
                  if len(parts) >= 3 else buchholz)
        won = " + ".join(str(g["for"]) for g in mine)
        lost = " + ".join(str(g["against"]) for g in mine)
        rows.append({
            "rank": r.rank, "name": NAMES[r.player], "played": r.played, "wins": r.wins, "losses": r.losses,
            "byes": r.byes, "score": _n(r.score), "tiebreaks": {k: _n(v) for k, v in r.tiebreaks.items()},
            "opponents": [{"name": NAMES[g["opponent"]], "score": _n(score[g["opponent"]]), "won": g["won"]}
                          if not g.get("bye") else {"bye": True} for g in mine],
            "buchholz": buchholz, "median_buchholz": median,
            "sonneborn_berger": (" + ".join(map(_n, beaten)) + " = " if beaten else "")
            + _n(r.tiebreaks["sonneborn_berger"]),
            "points_diff": f"({won}) − ({lost}) = {_n(r.tiebreaks['points_diff'])}",
        })
    return {"rounds": rounds, "rows": rows}
