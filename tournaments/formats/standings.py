"""Tables for Swiss and round-robin events, with selectable tie-breaks.

Players are ranked by score (match wins, plus points credited on a late
entry), then by each tie-break in the order given, then by seed order (the
order of ``players``): ranks are 1..n with no ties.

Withdrawn players (``withdrawn``) are ranked after every player still in,
among themselves by the same order: a player who left is never placed above
one who played the event out, whatever their score when they left. Their
results still count for their opponents (score and tie-breaks), and the
matches they forfeited on leaving are losses like any forfeit.

What counts (``bye_is_win`` is True for Swiss, False for round robin):

- A bye counts as a won match (one point of score) with 0 match points for
  and against when ``bye_is_win``: it is counted in ``played`` and ``wins``,
  so played = wins + losses on every line, and ``Standing.byes`` says how
  many of those wins were byes. Otherwise (a round robin's rest round) it
  counts for nothing: neither played nor won, only ``byes``.
- A forfeit counts like a played match: a win for one, a loss for the
  other, with the points recorded in the ``Result`` (usually 0-0), and the
  opponent counts in the tie-breaks like any other.
- Pairings without a result yet are ignored.

Tie-breaks (``TIEBREAKS``), computed from opponents' final scores:

``buchholz``
    Sum of the scores of the player's opponents. A bye contributes 0 (no
    opponent), so a bye holder is not pushed up by a phantom opponent.
``median_buchholz``
    Buchholz without the highest and the lowest contribution (a Swiss bye
    is a contribution of 0, so it is usually the one dropped); with fewer
    than three contributions, plain Buchholz.
``sonneborn_berger``
    Neustadtl: sum of the scores of the opponents the player beat
    (backgammon has no draws, so the half-of-drawn term is always 0).
    Byes contribute 0.
``points_diff``
    Match points won minus match points lost over all results.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping, Sequence

from .core import FormatError, Pairing, Reason, Standing

TIEBREAKS = ("buchholz", "median_buchholz", "sonneborn_berger", "points_diff")


def as_pairing(p) -> Pairing:
    """Accept a ``Pairing`` or a plain ``(a, b)`` / ``(a, b, result)`` tuple."""
    return p if isinstance(p, Pairing) else Pairing(*p)


def standings(
    players: Sequence[int],
    rounds: Iterable[Iterable[Pairing]],
    tiebreaks: Sequence[str] = (),
    *,
    start_points: Mapping[int, float] | None = None,
    bye_is_win: bool = True,
    withdrawn: Collection[int] = (),
) -> list[Standing]:
    """The table after ``rounds`` (each a list of pairings), best first."""
    unknown = [t for t in tiebreaks if t not in TIEBREAKS]
    if unknown:
        raise FormatError(Reason.UNKNOWN_TIEBREAK, tiebreak=repr(unknown[0]), choices=", ".join(TIEBREAKS))
    seed = {p: i for i, p in enumerate(players)}
    if len(seed) != len(players):
        raise FormatError(Reason.LISTED_TWICE)
    start = dict(start_points or {})
    stats = {p: {"played": 0, "wins": 0, "losses": 0, "byes": 0, "for": 0, "against": 0} for p in players}
    games: dict[int, list[tuple[int | None, bool]]] = {p: [] for p in players}  # (opponent or None for a bye, won)
    for rnd in rounds:
        for pairing in map(as_pairing, rnd):
            for p in (pairing.a, pairing.b):
                if p is not None and p not in seed:
                    raise FormatError(Reason.PAIRED_NOT_LISTED, player=p)
            if pairing.b is None:
                stats[pairing.a]["byes"] += 1
                if bye_is_win:
                    stats[pairing.a]["played"] += 1
                    stats[pairing.a]["wins"] += 1
                    games[pairing.a].append((None, True))
                continue
            r = pairing.result
            if r is None:
                continue
            for p, won in ((r.winner, True), (r.loser, False)):
                s = stats[p]
                s["played"] += 1
                s["wins" if won else "losses"] += 1
                s["for"] += r.winner_points if won else r.loser_points
                s["against"] += r.loser_points if won else r.winner_points
                games[p].append((r.loser if won else r.winner, won))
    score = {p: stats[p]["wins"] + start.get(p, 0) for p in players}

    def tiebreak(name: str, p: int) -> float:
        contributions = [score[o] if o is not None else 0 for o, _ in games[p]]
        if name == "buchholz":
            return sum(contributions)
        if name == "median_buchholz":
            if len(contributions) < 3:
                return sum(contributions)
            return sum(contributions) - max(contributions) - min(contributions)
        if name == "sonneborn_berger":
            return sum(score[o] for o, won in games[p] if won and o is not None)
        return stats[p]["for"] - stats[p]["against"]  # points_diff

    values = {p: {t: tiebreak(t, p) for t in tiebreaks} for p in players}
    left = frozenset(withdrawn)
    order = sorted(players, key=lambda p: (p in left, -score[p], *(-values[p][t] for t in tiebreaks), seed[p]))
    return [
        Standing(
            player=p, rank=rank, played=stats[p]["played"], wins=stats[p]["wins"], losses=stats[p]["losses"],
            points_for=stats[p]["for"], points_against=stats[p]["against"], tiebreaks=values[p],
            score=score[p], byes=stats[p]["byes"],
        )
        for rank, p in enumerate(order, 1)
    ]
