"""A straightforward Swiss pairing (the one the faster pairing replaced), kept verbatim as a reference.

``test_swiss_speedup.py`` checks that the faster ``swiss.pair_round`` returns exactly what this one returns.
Below: ``matching.py`` of that commit (the blossom search, the greedy start, ``rematch_without``), then
``pair_round``, ``_pair`` and ``_candidates`` of its ``swiss.py``, unchanged but for the imports.
"""

# ruff: noqa
from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping, Sequence, Set

from tournaments.formats.core import FormatError, Pairing, PairingError
from tournaments.formats.standings import as_pairing
from tournaments.formats.swiss import scores, table_key


def augment(adj: Sequence[Set[int]], mate: list[int], root: int, alive: Sequence[bool]) -> bool:
    """Look for an augmenting path from the exposed vertex ``root`` among ``alive`` vertices.

    If there is one, flip it in ``mate`` (one more matched pair) and return
    True. By Berge's lemma, False means no maximum matching covers ``root``
    in addition to the vertices covered now.
    """
    n = len(adj)
    base = list(range(n))
    parent = [-1] * n
    used = [False] * n
    used[root] = True
    queue = [root]

    def lca(a: int, b: int) -> int:
        seen = [False] * n
        while True:
            a = base[a]
            seen[a] = True
            if mate[a] == -1:
                break
            a = parent[mate[a]]
        while True:
            b = base[b]
            if seen[b]:
                return b
            b = parent[mate[b]]

    def mark(v: int, b: int, child: int, blossom: list[bool]) -> None:
        while base[v] != b:
            blossom[base[v]] = blossom[base[mate[v]]] = True
            parent[v] = child
            child = mate[v]
            v = parent[mate[v]]

    head = 0
    while head < len(queue):
        v = queue[head]
        head += 1
        for to in adj[v]:
            if not alive[to] or base[v] == base[to] or mate[v] == to:
                continue
            if to == root or (mate[to] != -1 and parent[mate[to]] != -1):
                # An odd cycle: contract it into a blossom around its base.
                b = lca(v, to)
                blossom = [False] * n
                mark(v, b, to, blossom)
                mark(to, b, v, blossom)
                for i in range(n):
                    if blossom[base[i]]:
                        base[i] = b
                        if not used[i]:
                            used[i] = True
                            queue.append(i)
            elif parent[to] == -1:
                parent[to] = v
                if mate[to] == -1:
                    while to != -1:  # flip the path back to the root
                        prev = parent[to]
                        nxt = mate[prev]
                        mate[to], mate[prev] = prev, to
                        to = nxt
                    return True
                used[mate[to]] = True
                queue.append(mate[to])
    return False


def maximum_matching(adj: Sequence[Set[int]], alive: Sequence[bool] | None = None) -> list[int]:
    """A maximum matching of the graph restricted to ``alive`` vertices, as a ``mate`` list."""
    n = len(adj)
    alive = [True] * n if alive is None else list(alive)
    mate = [-1] * n
    for v in range(n):  # a greedy start saves most searches
        if alive[v] and mate[v] == -1:
            for to in sorted(adj[v]):
                if alive[to] and mate[to] == -1:
                    mate[v], mate[to] = to, v
                    break
    for v in range(n):
        if alive[v] and mate[v] == -1:
            augment(adj, mate, v, alive)
    return mate


def rematch_without(adj: Sequence[Set[int]], mate: list[int], alive: list[bool], gone: Sequence[int]) -> bool:
    """Drop the ``gone`` vertices and try to keep every other alive vertex matched.

    ``mate`` must match every alive vertex except possibly those in
    ``gone``. On success ``mate`` and ``alive`` are updated (the gone vertices
    are no longer alive) and True is returned; on failure both are left as
    they were. Each freed partner is repaired with one augmenting search: the
    matching stays maximum, so it is perfect on the rest iff the searches
    succeed.
    """
    saved_mate, saved_alive = mate[:], alive[:]
    freed = []
    for g in gone:
        alive[g] = False
    for g in gone:
        partner = mate[g]
        mate[g] = -1
        if partner != -1 and partner not in gone:
            mate[partner] = -1
            freed.append(partner)
    for v in freed:
        if mate[v] == -1 and not augment(adj, mate, v, alive):
            mate[:], alive[:] = saved_mate, saved_alive
            return False
    return True


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
        raise FormatError(f"round {round_no} needs the {round_no - 1} earlier rounds, got {len(history)}")
    if len(set(players)) != len(players):
        raise FormatError("a player is listed twice")
    rounds = [[as_pairing(p) for p in rnd] for rnd in history]
    met: set[frozenset[int]] = set()
    had_bye = set(byes_had)
    for r, rnd in enumerate(rounds, 1):
        for t, p in enumerate(rnd, 1):
            if p.b is None:
                had_bye.add(p.a)
            elif p.result is None:
                raise FormatError(f"{table_key(r, t)} ({p.a} v {p.b}) has no result yet")
            else:
                met.add(frozenset((p.a, p.b)))
    banned = {frozenset(f) for f in forbidden}
    score = scores(rounds, start_points)
    seed = {p: i for i, p in enumerate(players)}
    out = set(withdrawn)
    active = [p for p in players if p not in out]
    ranked = sorted(active, key=lambda p: (-score.get(p, 0), seed[p]))

    tiers = [(True, True), (True, False), (False, True), (False, False)]
    for no_rematch, fresh_bye in tiers:
        if len(ranked) % 2 == 0 and not fresh_bye:
            continue  # no bye to give: the tier is the same as the one before

        def allowed(a: int, b: int) -> bool:
            pair = frozenset((a, b))
            return pair not in banned and not (no_rematch and pair in met)

        pairs = _pair(ranked, score, allowed, lambda p: not (fresh_bye and p in had_bye))
        if pairs is not None:
            return pairs
    raise PairingError(f"round {round_no}: no pairing of {len(ranked)} players avoids the forbidden pairings")


def _pair(ranked: list[int], score, allowed, may_have_bye) -> list[tuple[int, int | None]] | None:
    n = len(ranked)
    index = {p: i for i, p in enumerate(ranked)}
    adj = [{j for j in range(n) if j != i and allowed(ranked[i], ranked[j])} for i in range(n)]
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
    pairs: list[tuple[int, int | None]] = []
    while remaining:
        top = remaining[0]
        for other in _candidates(remaining, score):
            if index[other] in adj[index[top]] and rematch_without(adj, mate, alive, [index[top], index[other]]):
                break
        else:  # unreachable: the current perfect matching always offers top's mate
            raise AssertionError("pairing lost its perfect matching")
        pairs.append((top, other))
        remaining = [p for p in remaining if p not in (top, other)]
    if bye is not None:
        pairs.append((bye, None))
    return pairs


def _candidates(remaining: list[int], score) -> list[int]:
    """Opponents for ``remaining[0]`` in order of preference (see the module docstring)."""
    top = remaining[0]
    group = [p for p in remaining if score.get(p, 0) == score.get(top, 0)]
    lower = remaining[len(group):]
    half = len(group) // 2
    return group[half:] + group[half - 1:0:-1] + lower if half else lower
