"""The blossom matching against brute force on every small graph we can throw at it."""

from __future__ import annotations

import itertools
import random
from functools import lru_cache

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tournaments.formats.matching import maximum_matching, rematch_without


def brute_max(n: int, edges: frozenset[tuple[int, int]], vertices: frozenset[int]) -> int:
    @lru_cache(maxsize=None)
    def best(rest: frozenset[int]) -> int:
        if len(rest) < 2:
            return 0
        v = min(rest)
        without = best(rest - {v})
        with_v = max((1 + best(rest - {v, u}) for u in rest if (min(u, v), max(u, v)) in edges), default=0)
        return max(without, with_v)

    return best(vertices)


def graph(n: int, edges) -> list[set[int]]:
    adj = [set() for _ in range(n)]
    for a, b in edges:
        adj[a].add(b)
        adj[b].add(a)
    return adj


def check_matching(adj, mate, alive=None):
    for v, m in enumerate(mate):
        if m != -1:
            assert mate[m] == v and m in adj[v]
            assert alive is None or (alive[v] and alive[m])


edge_sets = st.integers(2, 10).flatmap(
    lambda n: st.tuples(st.just(n), st.sets(st.tuples(st.integers(0, n - 1), st.integers(0, n - 1))
                                            .filter(lambda e: e[0] < e[1])))
)


@settings(max_examples=300, deadline=None)
@given(edge_sets)
def test_maximum_matching_is_maximum(case):
    n, edges = case
    adj = graph(n, edges)
    mate = maximum_matching(adj)
    check_matching(adj, mate)
    assert sum(m != -1 for m in mate) // 2 == brute_max(n, frozenset(edges), frozenset(range(n)))


@pytest.mark.parametrize("seed", range(40))
def test_rematch_without_decides_exactly_whether_the_rest_is_still_perfect(seed):
    rng = random.Random(seed)
    n = rng.choice([4, 5, 6, 7, 8, 9, 10])
    edges = frozenset(e for e in itertools.combinations(range(n), 2) if rng.random() < rng.choice([0.3, 0.5, 0.7]))
    adj = graph(n, edges)
    mate = maximum_matching(adj)
    if sum(m != -1 for m in mate) < n - n % 2:
        return  # only used on graphs with a (near-)perfect matching
    everyone = frozenset(range(n))
    if n % 2:
        gone_sets = [[v] for v in range(n)]
    else:
        gone_sets = [list(e) for e in sorted(edges)]
    for gone in gone_sets:
        m, alive = mate[:], [True] * n
        ok = rematch_without(adj, m, alive, gone)
        rest = everyone - set(gone)
        assert ok == (brute_max(n, edges, rest) * 2 == len(rest)), gone
        if ok:
            check_matching(adj, m, alive)
            assert all(m[v] != -1 for v in rest)
        else:
            assert m == mate and alive == [True] * n  # left as it was
