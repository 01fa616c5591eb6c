"""Swiss pairing by score groups, exact on rematches and forbidden pairings.

Published pairings are facts: ``history`` holds every earlier round as
played (pairings and results) and ``pair_round`` computes the next round
from it. A later correction of a result changes the standings (and the
pairing of rounds not yet published), never a round already played.

Rules of ``pair_round``:

Score and rank
    Score = match wins (a bye is a win) + ``start_points`` (points credited
    to a late entrant; 0 unless given). Rank = score, then seed order (the
    order of ``players``). Withdrawn players (``withdrawn``, or simply left
    out of ``players``) are not paired; late entrants are just listed.

Constraints, from hardest to softest
    1. A forbidden pairing is never made. If no pairing avoids them all,
       ``PairingError`` is raised.
    2. No rematch, whenever some pairing of this round avoids them.
    3. No second bye, whenever possible within 2.
    Whether a pairing exists is decided exactly with a maximum matching
    (Edmonds' blossoms, ``matching.py``), never guessed.

Bye (odd field)
    To the lowest-ranked player who has not had one (``byes_had`` adds to
    the byes found in ``history``) and whose absence leaves the others
    pairable under the constraints; failing that, the lowest-ranked such
    player who has had one. A bye scores a win with 0-0 match points.

Pairing (Dutch-like)
    Repeatedly take the highest-ranked unpaired player P and give them the
    first acceptable opponent in this order: within P's score group of size
    g (unpaired players on P's score), the top of the bottom half (position
    g // 2), then on down the bottom half, then back up the top half; then
    the lower players in rank order (P floats down). "Acceptable" means the
    rest can still be paired under the constraints, so the greedy choice
    never paints the round into a corner. Unconstrained, this is top half
    against bottom half in every score group, with the lowest player of an
    odd group floating down to meet the top of the next group.

The returned list is in table order: pairs by the rank of their
better-placed player, each pair as (better, worse), the bye last as
``(player, None)``; table t of round r is ``swiss:r{r}:t{t}``.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Collection, Iterable, Mapping, Sequence

from .core import FormatError, Lengths, Pairing, PairingError, Reason, Slot
from .matching import maximum_matching, rematch_without
from .standings import as_pairing, standings

__all__ = ["pair_round", "standings", "table_key", "parse_key", "slots", "slot_of", "scores"]


_KEY = re.compile(r"swiss:r(\d{1,6}):t(\d{1,6})")


def table_key(round_no: int, table: int) -> str:
    return f"swiss:r{round_no}:t{table}"


def scores(history: Iterable[Iterable[Pairing]], start_points: Mapping[int, float] | None = None) -> dict[int, float]:
    """Match wins (byes included) plus credited start points, per player seen."""
    score: dict[int, float] = dict(start_points or {})
    for rnd in history:
        for p in map(as_pairing, rnd):
            winner = p.a if p.b is None else (p.result.winner if p.result else None)
            for q in (p.a, p.b):
                if q is not None:
                    score.setdefault(q, 0)
            if winner is not None:
                score[winner] += 1
    return score


def pair_round(
    round_no: int,
    players: Sequence[int],
    history: Sequence[Iterable[Pairing]],
    byes_had: Collection[int] = (),
    forbidden: Iterable[Collection[int]] = (),
    *,
    withdrawn: Collection[int] = (),
    start_points: Mapping[int, float] | None = None,
) -> list[tuple[int, int | None]]:
    """The pairings of round ``round_no`` (1-based; ``history`` holds rounds 1..round_no-1)."""
    if len(history) != round_no - 1:
        raise FormatError(Reason.EARLIER_ROUNDS, round=round_no, earlier=round_no - 1, got=len(history))
    if len(set(players)) != len(players):
        raise FormatError(Reason.LISTED_TWICE)
    rounds = [[as_pairing(p) for p in rnd] for rnd in history]
    met: set[frozenset[int]] = set()
    had_bye = set(byes_had)
    for r, rnd in enumerate(rounds, 1):
        for t, p in enumerate(rnd, 1):
            if p.b is None:
                had_bye.add(p.a)
            elif p.result is None:
                raise FormatError(Reason.NO_RESULT_YET, table=table_key(r, t), a=p.a, b=p.b)
            else:
                met.add(frozenset((p.a, p.b)))
    banned = {frozenset(f) for f in forbidden}
    score = scores(rounds, start_points)
    seed = {p: i for i, p in enumerate(players)}
    out = set(withdrawn)
    active = [p for p in players if p not in out]
    ranked = sorted(active, key=lambda p: (-score.get(p, 0), seed[p]))
    return pair_ranked(round_no, ranked, score, met, had_bye, banned)


def pair_ranked(round_no: int, ranked: Sequence[int], score: Mapping[int, float], met: Collection[frozenset[int]],
                had_bye: Collection[int], banned: Collection[frozenset[int]] = frozenset()) -> list[tuple[int, int | None]]:
    """The pairing of a field already ranked (best first) with its score groups (``score``), the pairs that have
    met and who has had a bye: the constraints and the pairing rules of :func:`pair_round`, for a field ranked
    by other criteria (a Swiss of teams ranks by its table of teams)."""
    ranked = list(ranked)
    banned, met, had_bye = set(banned), set(met), set(had_bye)
    tiers = [(True, True), (True, False), (False, True), (False, False)]
    for no_rematch, fresh_bye in tiers:
        if len(ranked) % 2 == 0 and not fresh_bye:
            continue  # no bye to give: the tier is the same as the one before
        excluded = banned | met if no_rematch else banned
        pairs = _pair(ranked, score, excluded, lambda p: not (fresh_bye and p in had_bye))
        if pairs is not None:
            return pairs
    raise PairingError(Reason.NO_PAIRING, round=round_no, players=len(ranked))


def _pair(ranked: list[int], score, excluded: set[frozenset[int]], may_have_bye) -> list[tuple[int, int | None]] | None:
    n = len(ranked)
    index = {p: i for i, p in enumerate(ranked)}
    # Everyone may meet everyone but the excluded pairs (few: the rounds played, the forbidden pairings), so
    # each player's neighbours are the whole field less those: n set differences, not n * n pair checks.
    apart: list[set[int]] = [{i} for i in range(n)]
    for pair in excluded:
        if len(pair) == 2:
            a, b = pair
            if a in index and b in index:
                apart[index[a]].add(index[b])
                apart[index[b]].add(index[a])
    everyone = set(range(n))
    adj = [everyone - apart[i] for i in range(n)]
    mate = maximum_matching(adj)
    if sum(m != -1 for m in mate) < n - n % 2:
        return None
    alive = [True] * n
    bye = None
    if n % 2:
        for p in reversed(ranked):
            if may_have_bye(p) and rematch_without(adj, mate, alive, [index[p]]):
                bye = p
                break
        else:
            return None
    remaining = [p for p in ranked if p != bye]
    key = [-score.get(p, 0) for p in remaining]  # ascending along ``remaining``: its score groups are runs
    pairs: list[tuple[int, int | None]] = []
    while remaining:
        top = remaining[0]
        for other in _candidates(remaining, key):
            if index[other] in adj[index[top]] and rematch_without(adj, mate, alive, [index[top], index[other]]):
                break
        else:  # unreachable: the current perfect matching always offers top's mate
            raise AssertionError("pairing lost its perfect matching")
        pairs.append((top, other))
        i = remaining.index(other)
        del remaining[i], key[i]
        del remaining[0], key[0]
    if bye is not None:
        pairs.append((bye, None))
    return pairs


def _candidates(remaining: list[int], key: list[float]) -> list[int]:
    """Opponents for ``remaining[0]`` in order of preference (see the module docstring).

    ``key[i]`` is minus the score of ``remaining[i]``, so the top's score group is the run of equal keys at
    the start, found by bisection."""
    size = bisect_right(key, key[0])
    group, lower = remaining[:size], remaining[size:]
    half = size // 2
    return group[half:] + group[half - 1:0:-1] + lower if half else lower


def slots(history: Sequence[Iterable[Pairing]], lengths: Lengths = Lengths()) -> list[Slot]:
    """The played rounds as ``Slot`` objects keyed ``swiss:rR:tT`` (tables in the order given)."""
    return [slot_of(r, t, p, lengths)
            for r, rnd in enumerate(history, 1) for t, p in enumerate(map(as_pairing, rnd), 1)]


def slot_of(round_no: int, table_no: int, p: Pairing, lengths: Lengths = Lengths()) -> Slot:
    """The slot of round ``round_no``'s table ``table_no``, played by pairing ``p``."""
    return Slot(table_key(round_no, table_no), "swiss", round_no, table_no, (p.a, p.b), lengths.of(round_no),
                p.b is None, p.result, sources=("pairing", "bye" if p.b is None else "pairing"))


def parse_key(key: str) -> tuple[int, int] | None:
    """(round, table) of a key :func:`table_key` makes, else None."""
    match = _KEY.fullmatch(key)
    return (int(match[1]), int(match[2])) if match and int(match[1]) and int(match[2]) else None
