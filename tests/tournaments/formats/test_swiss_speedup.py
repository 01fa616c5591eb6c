"""The faster Swiss pairing pairs exactly as the pairing it replaced.

``old_swiss`` is the pairing of commit 33a6107 kept verbatim; the brute-force comparisons of
``test_swiss.py`` cover fields up to 8 players, these cover larger ones, with the situations that make
the exact search work: rematches that must be avoided late in an event, forbidden pairings (club mates),
odd fields and byes, withdrawals, late entrants with start points, and arbitrary earlier rounds.
"""

from __future__ import annotations

import random

import pytest

from tournaments.formats import Pairing, PairingError, Result, swiss

from . import old_swiss


def coin(pairs, rng):
    return [Pairing(a, b, None if b is None else Result(*((a, b) if rng.random() < 0.5 else (b, a)))) for a, b in pairs]


def both(round_no, players, history, **kw):
    """The new pairing, after checking it equals the old one (or that both refuse)."""
    try:
        expected = old_swiss.pair_round(round_no, players, history, **kw)
    except PairingError:
        with pytest.raises(PairingError):
            swiss.pair_round(round_no, players, history, **kw)
        return None
    assert swiss.pair_round(round_no, players, history, **kw) == expected
    return expected


# (players, rounds, clubs of k forbid club mates, withdrawals): from tight fields where rematches and
# second byes become unavoidable to fields of a few hundred
EVENTS = [(9, 8, 0, 0), (10, 9, 0, 0), (11, 10, 3, 0), (12, 11, 0, 1), (13, 9, 4, 2), (16, 12, 0, 0),
          (17, 9, 3, 1), (20, 9, 5, 0), (24, 9, 0, 3), (31, 9, 3, 0), (33, 9, 8, 2), (48, 9, 0, 0),
          (64, 9, 4, 4), (101, 9, 3, 5), (128, 9, 0, 0), (257, 7, 4, 6)]


@pytest.mark.parametrize("n,rounds,club,withdraw", EVENTS)
@pytest.mark.parametrize("seed", range(3))
def test_whole_events_pair_as_before(n, rounds, club, withdraw, seed):
    rng = random.Random(f"{n}-{rounds}-{seed}")
    players = [100 + i for i in range(n)]
    forbidden = ({frozenset((a, b)) for a in players for b in players if a < b and (a - 100) // club == (b - 100) // club}
                 if club else set())
    forbidden |= {frozenset(rng.sample(players, 2)) for _ in range(rng.randrange(n // 4 + 1))}
    withdrawn: set[int] = set()
    late = set(rng.sample(players, n // 10))
    history = []
    for round_no in range(1, rounds + 1):
        if withdraw and round_no > 1 and rng.random() < 0.4:
            withdrawn |= set(rng.sample(players, 1))
        field = [p for p in players if p not in late or round_no > 2]  # late entrants come in at round 3
        start = {p: 1.0 for p in late} if round_no > 2 else None
        pairs = both(round_no, field, history, forbidden=forbidden, withdrawn=withdrawn, start_points=start,
                     byes_had=players[:1])
        if pairs is None:
            return
        history.append(coin(pairs, rng))


def random_round(players, rng):
    order = players[:]
    rng.shuffle(order)
    pairs = [(order[i], order[i + 1]) for i in range(0, len(order) - 1, 2)]
    if len(order) % 2:
        pairs.append((order[-1], None))
    return coin(pairs, rng)


@pytest.mark.parametrize("n", [9, 10, 14, 15, 22, 40, 75])
@pytest.mark.parametrize("seed", range(8))
def test_arbitrary_earlier_rounds_pair_as_before(n, seed):
    """Earlier rounds not made by the Swiss rules: many rematch traps for the greedy choice."""
    rng = random.Random(f"any-{n}-{seed}")
    players = list(range(1, n + 1))
    rounds = rng.randrange(2, n)
    history = [random_round(players, rng) for _ in range(rounds - 1)]
    forbidden = {frozenset(rng.sample(players, 2)) for _ in range(rng.randrange(n))}
    both(rounds, players, history, forbidden=forbidden)


def test_a_thousand_player_field_pairs_four_rounds_without_a_rematch():
    """The field of bench/tournaments.py (its timings are printed there, not asserted in a test)."""
    rng = random.Random(13)
    players = list(range(1, 1001))
    history = []
    for round_no in range(1, 5):
        pairs = swiss.pair_round(round_no, players, history)
        history.append(coin(pairs, rng))
    met = [frozenset(p) for rnd in history for p in ((q.a, q.b) for q in rnd)]
    assert len(met) == len(set(met)) == 4 * 500  # no rematch where none is needed
