"""The league: divisions, deadlines, the unplayed rule, walkovers, promotion and relegation; fields of 2 to 40."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from tournaments.formats import FormatError, Result
from tournaments.formats.league import (
    DAY, Config, deadline, derive, divisions_for, next_season, split, zones,
)


def test_divisions_are_as_even_as_possible_with_the_extra_players_on_top():
    assert divisions_for(9, 4) == [3, 3, 3]
    assert divisions_for(10, 4) == [4, 3, 3]
    assert divisions_for(2, 8) == [2]
    assert divisions_for(3, 2) == [3]  # never a division of one
    assert split([1, 2, 3, 4, 5], 3) == [(1, 2, 3), (4, 5)]
    with pytest.raises(FormatError):
        divisions_for(5, 1)


def test_round_deadlines_are_whole_periods_after_the_start():
    assert deadline(1000, 7, 1) == 1000 + 7 * DAY
    assert deadline(1000, 7, 3) == 1000 + 21 * DAY


def test_each_division_is_its_own_round_robin_with_prefixed_keys():
    league = derive([(1, 2, 3, 4), (5, 6, 7)], {})
    d1, d2 = league.divisions
    assert len(d1.slots) == 6 and len(d2.slots) == 3 + 3  # three players: one rest (bye) per round
    assert all(s.key.startswith("d1:rr:") for s in d1.slots) and all(s.bracket == "d2" for s in d2.slots)
    assert d1.promoted == () and d1.relegated == (4,) and d2.promoted == (5,) and d2.relegated == ()


def test_a_walkover_counts_as_a_win_and_a_double_loss_as_two_losses():
    league = derive([(1, 2, 3, 4)], {"d1:rr:c1:r1:t1": Result(1, 4, forfeit=True)},
                    unplayed=frozenset({"d1:rr:c1:r1:t2"}))
    d = league.divisions[0]
    row = {r.player: r for r in d.standings}
    assert (row[1].wins, row[4].losses) == (1, 1)
    assert (row[2].losses, row[3].losses, row[2].played, row[3].wins) == (1, 1, 1, 0)
    assert {s.key: s.status for s in d.slots}["d1:rr:c1:r1:t2"] == "void"


def test_the_void_rule_counts_an_unplayed_match_for_nothing():
    d = derive([(1, 2, 3, 4)], {}, unplayed=frozenset({"d1:rr:c1:r1:t2"}), config=Config(unplayed="void")).divisions[0]
    assert all(r.played == 0 and r.losses == 0 for r in d.standings)


def test_a_result_recorded_after_the_deadline_stands():
    d = derive([(1, 2)], {"d1:rr:c1:r1:t1": Result(2, 1, 7, 2)}, unplayed=frozenset({"d1:rr:c1:r1:t1"})).divisions[0]
    assert d.slots[0].status == "done" and d.standings[0].player == 2 and d.finished


def test_next_season_promotes_the_top_and_relegates_the_bottom():
    final = [(1, 2, 3, 4), (5, 6, 7, 8), (9, 10, 11, 12)]
    entrants = list(range(1, 13))
    assert next_season(final, entrants, promote=1, relegate=1) == [
        (1, 2, 3, 5), (4, 6, 7, 9), (8, 10, 11, 12)]
    assert next_season(final, entrants, promote=2, relegate=2) == [(1, 2, 5, 6), (3, 4, 9, 10), (7, 8, 11, 12)]


def test_next_season_leaves_out_who_did_not_enter_and_puts_newcomers_at_the_bottom():
    final = [(1, 2, 3), (4, 5, 6)]
    assert next_season(final, [1, 2, 4, 5, 6, 99], promote=1, relegate=1) == [(1, 2, 4), (5, 6, 99)]


def test_zones_never_send_a_player_both_ways():
    assert zones(3, 2, 2, promote=2, relegate=2) == (2, 0)
    assert zones(1, 1, 6, 2, 2) == (0, 0)


@pytest.mark.parametrize("n", range(2, 41))
def test_seasons_of_2_to_40_players(n):
    """Property: a first season and the next one on every field size from 2 to 40: every pair of a division
    meets once; deadlines settle every unplayed match; the next season keeps every returning player, moves
    exactly the promoted and relegated ones one division, and the division sizes add up."""
    rng = random.Random(n)
    size, promote, relegate = rng.randint(2, 8), rng.randint(0, 2), rng.randint(0, 2)
    players = list(range(1, n + 1))
    divisions = split(players, size)
    assert sum(len(d) for d in divisions) == n and all(len(d) >= 2 for d in divisions)
    config = Config(promote=promote, relegate=relegate, unplayed=rng.choice(["double_loss", "void"]))
    league = derive(divisions, {}, config=config)
    for d in league.divisions:
        pairs = Counter(frozenset(s.players) for s in d.slots if not s.bye)
        assert all(v == 1 for v in pairs.values()) and len(pairs) == len(d.players) * (len(d.players) - 1) // 2
    results, unplayed = {}, set()
    for d in league.divisions:
        for s in d.slots:
            if s.bye:
                continue
            roll = rng.random()
            a, b = s.players
            if roll < 0.1:
                unplayed.add(s.key)  # the deadline passed: the unplayed rule
            elif roll < 0.2:
                results[s.key] = Result(a, b, forfeit=True)  # a walkover
            else:
                winner = rng.choice([a, b])
                results[s.key] = Result(winner, b if winner == a else a, 7, rng.randint(0, 6))
    league = derive(divisions, results, frozenset(unplayed), config)
    assert all(d.finished for d in league.divisions)
    assert league.winner == league.divisions[0].standings[0].player
    for d in league.divisions:
        rows = {r.player: r for r in d.standings}
        for p in d.players:
            mine = [s for s in d.slots if p in s.players and not s.bye]
            assert rows[p].wins == sum(1 for s in mine if s.result and s.result.winner == p)
            lost = sum(1 for s in mine if s.result and s.result.loser == p)
            if config.unplayed == "double_loss":
                lost += sum(1 for s in mine if s.status == "void")
            assert rows[p].losses == lost
    final = [tuple(r.player for r in d.standings) for d in league.divisions]
    returning = [p for p in players if rng.random() > 0.1] + [n + 1, n + 2]
    new = next_season(final, returning, promote, relegate)
    assert sorted(p for d in new for p in d) == sorted(returning)
    where_before = {p: i for i, d in enumerate(final) for p in d}
    where_now = {p: i for i, d in enumerate(new) for p in d}
    for i, d in enumerate(league.divisions):
        for p in d.players:
            if p not in where_now:
                continue
            expected = i - 1 if p in d.promoted else i + 1 if p in d.relegated else i
            if len(new) == len(final):  # (a division every player of which left is dropped)
                assert where_now[p] == expected
                assert abs(where_now[p] - where_before[p]) <= 1
    assert where_now[n + 1] == len(new) - 1
