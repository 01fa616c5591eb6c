"""Playing structures to the end with simulated results, for the tests."""

from __future__ import annotations

import random
from collections import Counter

from tournaments.formats import Result


def lower_seed_wins(entrants):
    rank = {p: i for i, p in enumerate(entrants)}

    def choose(slot):
        a, b = slot.players
        return (a, b) if rank[a] < rank[b] else (b, a)

    return choose


def random_winner(seed: int):
    rng = random.Random(seed)

    def choose(slot):
        a, b = slot.players
        return (a, b) if rng.random() < 0.5 else (b, a)

    return choose


def play_out(derive, entrants, config, choose, results=None, limit=500):
    """Derive, record a result for every ready slot, repeat until nothing is ready."""
    results = dict(results or {})
    for _ in range(limit):
        structure = derive(entrants, results, config)
        ready = [s for s in structure.slots if s.status == "ready"]
        if not ready:
            return structure, results
        for slot in ready:
            winner, loser = choose(slot)
            results[slot.key] = Result(winner, loser, 7, (len(results) * 5) % 7)
    raise AssertionError("the structure never completed")


def losses(slots, bracket=None):
    return Counter(s.loser for s in slots if s.loser is not None and (bracket is None or s.bracket in bracket))


def matches(slots, bracket=None):
    """Matches actually played (a result), per player."""
    count = Counter()
    for s in slots:
        if s.result is not None and (bracket is None or s.bracket in bracket):
            count.update(s.players)
    return count
