"""Maximum-cardinality matching in general graphs (Edmonds' blossom algorithm).

Swiss pairing needs exact answers to "can the remaining players still all be
paired without a rematch?"; bipartite tricks do not apply (any two players may
meet), hence blossoms. Vertices are ``0..n-1``; ``adj[v]`` is the set of
neighbours of ``v``. ``mate[v]`` is ``v``'s partner or -1.

The search is the classic O(V^3) one (one BFS per exposed root, blossoms
contracted through a ``base`` array), small enough to check by hand and by
brute force (``tests/tournaments/formats/test_matching.py``).
"""

from __future__ import annotations

from collections.abc import Sequence, Set


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
    # A greedy start saves most searches: each vertex takes its lowest free neighbour. Every neighbour below
    # ``v`` is matched by then (it would have taken ``v``), so the scan starts above ``v``: on the dense graphs
    # of a Swiss field the first free vertex up is nearly always a neighbour, no sorting of ``adj[v]`` needed.
    for v in range(n):
        if alive[v] and mate[v] == -1:
            near = adj[v]
            for to in range(v + 1, n):
                if mate[to] == -1 and alive[to] and to in near:
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
        if mate[v] == -1 and not (_short_augment(adj, mate, v, alive) or augment(adj, mate, v, alive)):
            mate[:], alive[:] = saved_mate, saved_alive
            return False
    return True


def _short_augment(adj: Sequence[Set[int]], mate: list[int], root: int, alive: Sequence[bool]) -> bool:
    """An augmenting path of one or three edges from the exposed ``root``, flipped if found.

    Any augmenting path keeps the matching maximum (Berge), so when a short one exists the full blossom
    search is not needed; on a Swiss field, where few pairs are excluded, there nearly always is one (the
    other freed vertex is a neighbour, or a neighbour's mate is). False only means "none this short": the
    caller then runs ``augment``, which decides.
    """
    exposed = [v for v in range(len(adj)) if mate[v] == -1 and alive[v] and v != root]
    near = adj[root]
    for t in exposed:
        if t in near:
            mate[root], mate[t] = t, root
            return True
    for u in near:
        w = mate[u]
        if w == -1 or w == root or not alive[u]:
            continue
        far = adj[w]
        for t in exposed:
            if t in far and t != u:
                mate[root], mate[u], mate[w], mate[t] = u, root, t, w
                return True
    return False
