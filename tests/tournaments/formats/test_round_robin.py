"""Round robin: Berger tables, cycles, byes, withdrawals and the table."""

from __future__ import annotations

from collections import Counter
from itertools import combinations

import pytest

from tournaments.formats import FormatError, Result
from tournaments.formats.round_robin import Config, berger, derive

from .sim import lower_seed_wins, play_out, random_winner


def test_berger_tables_are_the_published_ones():
    assert [berger(4, r) for r in (1, 2, 3)] == [[(1, 4), (2, 3)], [(3, 4), (1, 2)], [(2, 4), (3, 1)]]
    # FIDE Handbook C.05 annex 1, six players (colours aside).
    assert [berger(6, r) for r in range(1, 6)] == [
        [(1, 6), (2, 5), (3, 4)],
        [(4, 6), (5, 3), (1, 2)],
        [(2, 6), (3, 1), (4, 5)],
        [(5, 6), (1, 4), (2, 3)],
        [(3, 6), (4, 2), (5, 1)],
    ]
    with pytest.raises(FormatError):
        berger(5, 1)


@pytest.mark.parametrize("numbers", range(2, 66, 2))
def test_berger_tables_meet_everyone_once(numbers):
    pairs = [frozenset(p) for r in range(1, numbers) for p in berger(numbers, r)]
    assert Counter(pairs) == Counter(frozenset(p) for p in combinations(range(1, numbers + 1), 2))
    for r in range(1, numbers):
        assert sorted(x for p in berger(numbers, r) for x in p) == list(range(1, numbers + 1))


@pytest.mark.parametrize("cycles", [1, 2])
@pytest.mark.parametrize("n", [2, 3, 4, 5, 6, 7, 8, 9, 12, 15, 16, 17, 24, 31, 32, 33, 64])
def test_everyone_meets_everyone_once_per_cycle(n, cycles):
    players = [300 + i for i in range(n)]
    schedule, results = play_out(derive, players, Config(cycles=cycles, tiebreaks=("buchholz",)), random_winner(n))
    slots = schedule.slots
    assert all(s.status in ("done", "bye") for s in slots)
    met = Counter(frozenset(s.players) for s in slots if s.result)
    assert met == {frozenset(p): cycles for p in combinations(players, 2)}
    rounds = (n - 1 + n % 2) * cycles
    assert max(s.round for s in slots) == rounds
    for line in schedule.standings:
        assert line.played == (n - 1) * cycles
        assert line.byes == (n % 2) * cycles
        assert line.wins + line.losses == line.played
    for r in range(1, rounds + 1):
        seen = [p for s in schedule.round(r) for p in s.players if p is not None]
        assert sorted(seen) == sorted(players)
    if cycles == 2:  # the second cycle repeats the first, round by round, table by table
        per = rounds // 2
        for s in slots:
            if s.round <= per:
                twin = schedule.slot(s.key.replace(":c1:", ":c2:"))
                assert twin.players == s.players and twin.round == s.round + per
    assert schedule.winner == schedule.standings[0].player


@pytest.mark.parametrize("n", [3, 4, 7, 10])
def test_lower_seed_always_wins_ranks_by_seed(n):
    players = list(range(1, n + 1))
    schedule, _ = play_out(derive, players, Config(), lower_seed_wins(players))
    assert [line.player for line in schedule.standings] == players
    assert [line.wins for line in schedule.standings] == list(range(n - 1, -1, -1))
    assert schedule.winner == 1


def test_keys_tables_and_byes():
    schedule = derive([11, 12, 13, 14, 15], {})
    r1 = schedule.round(1)
    # Berger 6 round 1 is 1-6, 2-5, 3-4; number 6 is the dummy, so seed 1 rests, at the last table.
    assert [(s.key, s.players, s.status) for s in r1] == [
        ("rr:c1:r1:t1", (12, 15), "ready"),
        ("rr:c1:r1:t2", (13, 14), "ready"),
        ("rr:c1:r1:t3", (11, None), "bye"),
    ]
    assert len(schedule.slots) == 15 and schedule.winner is None


def test_a_withdrawn_player_forfeits_what_is_left():
    players = [1, 2, 3, 4]
    played = {"rr:c1:r1:t1": Result(1, 4), "rr:c1:r1:t2": Result(3, 2)}
    schedule = derive(players, played, Config(withdrawn=frozenset({4})))
    rest = [s for s in schedule.slots if 4 in s.players and s.key not in played]
    assert rest and all(s.status == "done" and s.result.forfeit and s.result.loser == 4 for s in rest)
    assert schedule.slot("rr:c1:r1:t1").result == Result(1, 4)  # a recorded result stands
    line = {s.player: s for s in schedule.standings}[4]
    assert line.losses == 3 and line.played == 3
    both = derive(players, {}, Config(withdrawn=frozenset({2, 3})))
    assert both.slot("rr:c1:r1:t2").result == Result(2, 3, forfeit=True)  # the better seed is credited


def test_lengths_and_ignored_results():
    from tournaments.formats import Lengths

    schedule = derive([1, 2, 3, 4], {"rr:c1:r1:t1": Result(2, 3), "rr:c9:r1:t1": Result(1, 2)},
                      Config(lengths=Lengths(5, final=7), cycles=2))
    assert [s.length for s in schedule.slots if s.round == 6] == [7, 7]
    assert {s.length for s in schedule.slots if s.round < 6} == {5}
    assert schedule.ignored == ("rr:c1:r1:t1", "rr:c9:r1:t1")
