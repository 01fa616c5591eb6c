"""Swiss pairing: exact on rematches, forbidden pairings and byes, checked against brute force."""

from __future__ import annotations

import math
import random
from functools import lru_cache

import pytest

from tournaments.formats import FormatError, Pairing, PairingError, Result, swiss
from tournaments.formats.core import Reason

from tests.refusals import refused

# --- a brute-force reference, written from the rules in swiss.py's docstring -----------------


def all_pairings(players: tuple[int, ...]):
    """Every way to pair ``players`` (a bye, None, when odd): [(pairs, bye)]."""

    def perfect(rest):
        if not rest:
            yield ()
            return
        a = rest[0]
        for i in range(1, len(rest)):
            for more in perfect(rest[1:i] + rest[i + 1:]):
                yield ((a, rest[i]),) + more

    if len(players) % 2 == 0:
        return [(pairs, None) for pairs in perfect(players)]
    return [(pairs, bye) for bye in players for pairs in perfect(tuple(p for p in players if p != bye))]


class Reference:
    def __init__(self, players, history, forbidden, start_points=None):
        self.met = {frozenset((p.a, p.b)) for rnd in history for p in rnd if p.b is not None}
        self.had_bye = {p.a for rnd in history for p in rnd if p.b is None}
        self.banned = {frozenset(f) for f in forbidden}
        score = dict.fromkeys(players, 0)
        score.update(start_points or {})
        for rnd in history:
            for p in rnd:
                score[p.a if p.b is None else p.result.winner] += 1
        self.score = score
        seed = {p: i for i, p in enumerate(players)}
        self.ranked = tuple(sorted(players, key=lambda p: (-score[p], seed[p])))

    def tier(self):
        """The first (no_rematch, fresh_bye) tier with any valid pairing, or None."""
        for no_rematch, fresh_bye in [(True, True), (True, False), (False, True), (False, False)]:
            if any(self.valid(pairs, bye, no_rematch, fresh_bye) for pairs, bye in all_pairings(self.ranked)):
                return no_rematch, fresh_bye
        return None

    def valid(self, pairs, bye, no_rematch, fresh_bye):
        if bye is not None and fresh_bye and bye in self.had_bye:
            return False
        return all(self.allowed(a, b, no_rematch) for a, b in pairs)

    def allowed(self, a, b, no_rematch):
        pair = frozenset((a, b))
        return pair not in self.banned and not (no_rematch and pair in self.met)

    def expected(self):
        """The pairing the documented greedy rules produce, with feasibility decided by brute force."""
        no_rematch, fresh_bye = self.tier()

        @lru_cache(maxsize=None)
        def completable(rest: tuple[int, ...]) -> bool:
            if not rest:
                return True
            a = rest[0]
            return any(self.allowed(a, b, no_rematch) and completable(tuple(x for x in rest if x not in (a, b)))
                       for b in rest[1:])

        bye = None
        if len(self.ranked) % 2:
            bye = next(p for p in reversed(self.ranked)
                       if not (fresh_bye and p in self.had_bye) and completable(tuple(x for x in self.ranked if x != p)))
        remaining = [p for p in self.ranked if p != bye]
        pairs = []
        while remaining:
            top = remaining[0]
            group = [p for p in remaining if self.score[p] == self.score[top]]
            half = len(group) // 2
            order = (group[half:] + group[1:half][::-1] if half else []) + remaining[len(group):]
            other = next(q for q in order if self.allowed(top, q, no_rematch)
                         and completable(tuple(x for x in remaining if x not in (top, q))))
            pairs.append((top, other))
            remaining = [p for p in remaining if p not in (top, other)]
        return pairs + ([(bye, None)] if bye is not None else [])


def play(pairs, rng):
    """Results for a round: random winners, random match points."""
    rnd = []
    for a, b in pairs:
        if b is None:
            rnd.append(Pairing(a, None))
        else:
            w, l = (a, b) if rng.random() < 0.5 else (b, a)
            rnd.append(Pairing(a, b, Result(w, l, 5, rng.randrange(5))))
    return rnd


def random_round(players, rng):
    order = players[:]
    rng.shuffle(order)
    pairs = [(order[i], order[i + 1]) for i in range(0, len(order) - 1, 2)]
    if len(order) % 2:
        pairs.append((order[-1], None))
    return play(pairs, rng)


# --- exhaustive checks on small fields -------------------------------------------------------


@pytest.mark.parametrize("n", range(4, 9))
def test_swiss_events_match_the_brute_force_reference(n):
    """Whole events, rounds 1..n-1: whenever a rematch-free (fresh-bye) pairing exists, it is found."""
    for seed in range(40):
        rng = random.Random(1000 * n + seed)
        players = list(range(1, n + 1))
        forbidden = {frozenset(rng.sample(players, 2)) for _ in range(rng.randrange(3))}
        history = []
        for round_no in range(1, n):
            ref = Reference(players, history, forbidden)
            if ref.tier() is None:
                with pytest.raises(PairingError):
                    swiss.pair_round(round_no, players, history, forbidden=forbidden)
                break
            pairs = swiss.pair_round(round_no, players, history, forbidden=forbidden)
            assert pairs == ref.expected(), (seed, round_no)
            check_round(pairs, players, ref)
            history.append(play(pairs, rng))


@pytest.mark.parametrize("n", range(4, 9))
@pytest.mark.parametrize("rounds", [3, 4, 5, 6])
def test_any_history_matches_the_brute_force_reference(n, rounds):
    """Arbitrary earlier rounds (not Swiss-made, so full of traps for a greedy pairer)."""
    for seed in range(60):
        rng = random.Random(f"{n}-{rounds}-{seed}")
        players = list(range(10, 10 + n))
        history = [random_round(players, rng) for _ in range(rounds - 1)]
        forbidden = {frozenset(rng.sample(players, 2)) for _ in range(rng.randrange(4))}
        ref = Reference(players, history, forbidden)
        if ref.tier() is None:
            with pytest.raises(PairingError):
                swiss.pair_round(rounds, players, history, forbidden=forbidden)
            continue
        pairs = swiss.pair_round(rounds, players, history, forbidden=forbidden)
        assert pairs == ref.expected(), seed
        check_round(pairs, players, ref)


def check_round(pairs, players, ref):
    seen = [p for pair in pairs for p in pair if p is not None]
    assert sorted(seen) == sorted(players)
    assert sum(b is None for _, b in pairs) == len(players) % 2
    assert all(frozenset((a, b)) not in ref.banned for a, b in pairs if b is not None)
    no_rematch, fresh_bye = ref.tier()
    if no_rematch:  # a rematch-free pairing exists, so this one is
        assert all(frozenset((a, b)) not in ref.met for a, b in pairs if b is not None)
    if fresh_bye:
        assert all(a not in ref.had_bye for a, b in pairs if b is None)


# --- whole events on larger fields -----------------------------------------------------------


@pytest.mark.parametrize("n", [2, 3, 5, 6, 9, 10, 11, 12, 15, 16, 17, 24, 31, 32, 33, 48, 63, 64])
def test_full_events(n):
    rng = random.Random(n)
    players = [500 + i for i in range(n)]
    clubs = {p: i // 3 for i, p in enumerate(players)}  # club mates never meet
    forbidden = {frozenset((a, b)) for a in players for b in players if a < b and clubs[a] == clubs[b]} if n > 6 else set()
    rounds = min(n - 1, math.ceil(math.log2(n)) + 2)
    history = []
    for round_no in range(1, rounds + 1):
        pairs = swiss.pair_round(round_no, players, history, forbidden=forbidden)
        assert pairs == swiss.pair_round(round_no, players, history, forbidden=forbidden)  # deterministic
        history.append(play(pairs, rng))
    met = [frozenset((p.a, p.b)) for rnd in history for p in rnd if p.b is not None]
    assert len(met) == len(set(met)), "a rematch"
    assert not set(met) & forbidden
    byes = [p.a for rnd in history for p in rnd if p.b is None]
    assert len(byes) == (rounds if n % 2 else 0) and len(set(byes)) == len(byes)
    table = swiss.standings(players, history, ["buchholz", "median_buchholz", "sonneborn_berger", "points_diff"])
    for line in table:
        assert line.played == rounds  # one pairing per round, a bye a won match like the others
        assert line.wins + line.losses == rounds
        assert line.score == line.wins
    assert [line.rank for line in table] == list(range(1, n + 1))
    assert sum(line.wins for line in table) == sum(len(rnd) for rnd in history)


def test_first_rounds_are_top_half_against_bottom_half():
    players = list(range(1, 9))
    assert swiss.pair_round(1, players, []) == [(1, 5), (2, 6), (3, 7), (4, 8)]
    r1 = [Pairing(a, b, Result(a, b)) for a, b in [(1, 5), (2, 6), (3, 7), (4, 8)]]
    assert swiss.pair_round(2, players, [r1]) == [(1, 3), (2, 4), (5, 7), (6, 8)]


def test_an_odd_group_floats_its_lowest_player_down():
    players = list(range(1, 7))
    r1 = [Pairing(1, 4, Result(1, 4)), Pairing(2, 5, Result(2, 5)), Pairing(3, 6, Result(6, 3))]
    # Scores: 1, 2, 6 on one win; 3, 4, 5 on none. 1 v 2; 6 floats down, 3 would be a rematch: 6 v 4.
    assert swiss.pair_round(2, players, [r1]) == [(1, 2), (6, 4), (3, 5)]


def test_bye_goes_to_the_lowest_ranked_player_without_one():
    players = list(range(1, 6))
    r1 = swiss.pair_round(1, players, [])
    assert r1 == [(1, 3), (2, 4), (5, None)]
    h = [[Pairing(1, 3, Result(1, 3)), Pairing(2, 4, Result(2, 4)), Pairing(5, None)]]
    r2 = swiss.pair_round(2, players, h)
    assert r2[-1] == (4, None)  # 3 and 4 have no win; 4 ranks lower; 5 (a win by bye) had one
    assert swiss.pair_round(2, players, h, byes_had={4})[-1] == (3, None)


def test_late_entrants_and_withdrawals():
    players = [1, 2, 3, 4]
    h = [[Pairing(1, 3, Result(1, 3)), Pairing(2, 4, Result(4, 2))]]
    pairs = swiss.pair_round(2, players + [9], h, withdrawn={2}, start_points={9: 1})
    assert all(2 not in pair for pair in pairs)
    assert (1, 4) in pairs and (9, 3) in pairs  # 9 entered on one point, ranks below 1 and 4
    h.append([Pairing(1, 4, Result(1, 4)), Pairing(9, 3, Result(9, 3))])
    table = swiss.standings(players + [9], h, ["buchholz"], start_points={9: 1})
    by = {line.player: line for line in table}
    assert by[9].score == 2 and by[9].wins == 1 and by[9].played == 1
    assert by[2].played == 1 and by[2].losses == 1  # withdrawn, still in the table
    assert [line.player for line in table][:2] == [1, 9]


def test_forbidden_pairings_that_cannot_be_avoided_raise():
    with refused(PairingError, Reason.NO_PAIRING, round=1, players=2):
        swiss.pair_round(1, [1, 2], [], forbidden={frozenset((1, 2))})
    with pytest.raises(PairingError):
        swiss.pair_round(1, [1, 2, 3, 4], [], forbidden={frozenset((1, x)) for x in (2, 3, 4)})


def test_a_rematch_only_when_unavoidable():
    players = [1, 2]
    h = [[Pairing(1, 2, Result(1, 2))]]
    assert swiss.pair_round(2, players, h) == [(1, 2)]


def test_bad_history_is_refused():
    with refused(FormatError, Reason.EARLIER_ROUNDS, round=3, earlier=2, got=0):
        swiss.pair_round(3, [1, 2], [])
    with refused(FormatError, Reason.NO_RESULT_YET):
        swiss.pair_round(2, [1, 2, 3, 4], [[Pairing(1, 3), Pairing(2, 4, Result(2, 4))]])
    # Plain tuples are accepted for pairings.
    assert swiss.pair_round(2, [1, 2, 3, 4], [[(1, 3, Result(1, 3)), (2, 4, Result(2, 4))]]) == [(1, 2), (3, 4)]


def test_slots_keys():
    h = [[Pairing(1, 3, Result(1, 3)), Pairing(2, None)]]
    slots = swiss.slots(h)
    assert [s.key for s in slots] == ["swiss:r1:t1", "swiss:r1:t2"]
    assert [s.status for s in slots] == ["done", "bye"] and slots[1].winner == 2
