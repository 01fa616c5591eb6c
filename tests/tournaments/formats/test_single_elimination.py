"""Single elimination, Consolation and Last Chance: structure, feeding and corrections."""

from __future__ import annotations

import os
import subprocess
import sys
from dataclasses import replace
from pathlib import Path

import pytest

from tournaments.formats import Lengths, Result
from tournaments.formats.knockout import bracket_order, bracket_size
from tournaments.formats.single_elimination import Config, derive

from .sim import losses, lower_seed_wins, matches, play_out, random_winner

FLIGHTS = Config(consolation=Lengths(5), last_chance=Lengths(3))
PROGRESSIVE = replace(FLIGHTS, consolation_feeds=2)
ROOT = Path(__file__).resolve().parents[3]


def entrants(n: int) -> list[int]:
    return [100 + i for i in range(1, n + 1)]  # ids unlike seeds, so a mix-up shows


def seed_of(player: int) -> int:
    return player - 100


def test_bracket_order_is_the_usual_recursive_order():
    assert bracket_order(2) == [1, 2]
    assert bracket_order(4) == [1, 4, 2, 3]
    assert bracket_order(8) == [1, 8, 4, 5, 2, 7, 3, 6]
    assert bracket_order(16) == [1, 16, 8, 9, 4, 13, 5, 12, 2, 15, 7, 10, 3, 14, 6, 11]


@pytest.mark.parametrize("size", [2, 4, 8, 16, 32, 64])
def test_seeds_meet_only_when_they_should(size):
    order = bracket_order(size)
    assert sorted(order) == list(range(1, size + 1))
    assert all(order[i] + order[i + 1] == size + 1 for i in range(0, size, 2))
    # Seeds 1 and 2 in opposite halves, 1-4 in different quarters.
    assert order.index(1) < size // 2 <= order.index(2)
    if size >= 4:
        quarters = {order.index(s) // (size // 4) for s in (1, 2, 3, 4)}
        assert quarters == {0, 1, 2, 3}


@pytest.mark.parametrize("n", range(2, 65))
def test_main_byes_go_to_the_top_seeds_and_seed_one_wins(n):
    players = entrants(n)
    bracket = derive(players, {})
    size = bracket_size(n)
    first = bracket.round("main", 1)
    assert len(first) == size // 2
    byes = {s.winner for s in first if s.status == "bye"}
    assert byes == set(players[: size - n])
    assert all(s.status in ("bye", "ready") for s in first)
    final, results = play_out(derive, players, Config(), lower_seed_wins(players))
    assert final.winner == players[0] == final.champions["main"]
    assert sum(1 for s in final.slots if s.result) == n - 1
    assert sorted(final.eliminated["main"]) == players[1:]
    rounds_lost = [s.round for s in final.slots for p in final.eliminated["main"] if s.loser == p]
    assert rounds_lost == sorted(rounds_lost)  # order of elimination: by round
    # Seeds 1 and 2 start in opposite halves of the draw.
    if n >= 3:
        where = {p: s.index for s in first for p in s.players if p is not None}
        assert where[players[0]] <= len(first) // 2 < where[players[1]]


def _expected_consolation_field(main_slots, feeds):
    """Who should enter the Consolation, computed straight from the Main results."""
    rounds = max(s.round for s in main_slots)
    first = [s for s in main_slots if s.round == 1]
    second = [s for s in main_slots if s.round == 2]
    field = {s.loser for s in first if s.loser is not None}
    if rounds >= 3:
        bye_holders = {s.winner for s in first if s.status == "bye"}
        if feeds >= 2:
            field |= {s.loser for s in second}
        else:
            field |= {s.loser for s in second if s.loser in bye_holders}
    return field


@pytest.mark.parametrize("config", [FLIGHTS, PROGRESSIVE], ids=["consolation", "progressive"])
@pytest.mark.parametrize("n", range(2, 65))
def test_flights_are_fed_by_exactly_the_right_losers(n, config):
    players = entrants(n)
    final, results = play_out(derive, players, config, random_winner(n))
    slots = final.slots
    assert all(s.status in ("done", "bye") for s in slots)
    assert final.ignored == ()
    main = [s for s in slots if s.bracket == "main"]
    cons = [s for s in slots if s.bracket == "consolation"]
    last = [s for s in slots if s.bracket == "last_chance"]
    # Main: n-1 matches, everyone but the winner loses exactly once.
    assert sum(1 for s in main if s.result) == n - 1
    assert losses(main) == {p: 1 for p in players if p != final.winner}
    if n == 2:
        assert cons == [] and last == []
        return
    feeds = config.consolation_feeds
    field = _expected_consolation_field(main, feeds)
    assert set(final.fields["consolation"]) == field
    played = matches(cons)
    assert sum(1 for s in cons if s.result) == len(field) - 1
    assert final.champions["consolation"] in field
    assert losses(cons) == {p: 1 for p in field if p != final.champions["consolation"]}
    # No Main rematch in the Consolation: never with first-match losers only; with progressive
    # entry not in the rounds where entrants arrive (they could meet again later on).
    met = {frozenset(s.players) for s in main if s.result}
    effective = min(feeds, max(s.round for s in main) - 1)
    for s in cons:
        if s.result and (effective == 1 or s.round <= 2):
            assert frozenset(s.players) not in met, s
    # Last Chance: a fresh draw of everybody who lost in the Consolation.
    lc_field = {s.loser for s in cons if s.loser is not None}
    if len(lc_field) >= 2:
        assert set(final.fields["last_chance"]) == lc_field
        assert sum(1 for s in last if s.result) == len(lc_field) - 1
        assert final.champions["last_chance"] in lc_field
    else:
        assert last == [] and final.champions["last_chance"] is None
    assert set(played) <= field


@pytest.mark.parametrize("config", [FLIGHTS, PROGRESSIVE], ids=["consolation", "progressive"])
def test_lower_seed_wins_every_flight_the_best_seed_of_each_field_wins(config):
    for n in range(3, 65):
        players = entrants(n)
        final, _ = play_out(derive, players, config, lower_seed_wins(players))
        assert final.winner == players[0]
        for flight in ("consolation", "last_chance"):
            field = final.fields[flight]
            assert final.champions[flight] == (min(field) if len(field) >= 2 or flight == "consolation" else None)


def test_lower_seed_wins_every_flight_sixteen():
    players = list(range(1, 17))
    final, _ = play_out(derive, players, FLIGHTS, lower_seed_wins(players))
    assert final.champions == {"main": 1, "consolation": 9, "last_chance": 10}
    assert set(final.fields["consolation"]) == set(range(9, 17))
    assert set(final.fields["last_chance"]) == set(range(10, 17))
    # Order of elimination: by round, then by slot.
    assert final.eliminated["main"] == (16, 9, 13, 12, 15, 10, 14, 11, 8, 5, 7, 6, 4, 3, 2)
    assert final.eliminated["consolation"] == (16, 13, 15, 14, 12, 11, 10)


def test_lower_seed_wins_progressive_sixteen():
    players = list(range(1, 17))
    final, _ = play_out(derive, players, PROGRESSIVE, lower_seed_wins(players))
    assert final.champions == {"main": 1, "consolation": 5, "last_chance": 6}
    assert set(final.fields["consolation"]) == set(range(5, 17))
    assert set(final.fields["last_chance"]) == set(range(6, 17))
    # Main round-2 losers meet the Consolation round-1 winners in Consolation round 2.
    second = final.round("consolation", 2)
    assert {s.players[1] for s in second} == {5, 6, 7, 8}
    assert {s.players[0] for s in second} == {9, 10, 11, 12}
    # Far half: the loser of main:r2:m1 (seed 8, beaten by 1) meets the winner of the last round-1 slot.
    assert final.slot("consolation:r2:m4").sources[1] == "loser main:r2:m1"


def test_last_chance_draw_order_default_and_chosen():
    players = list(range(1, 17))
    final, results = play_out(derive, players, FLIGHTS, lower_seed_wins(players))
    # Default: went further in the Consolation first (lost in round 3: 10), then by seed.
    first = final.round("last_chance", 1)
    assert first[0].players[0] == 10
    chosen = derive(players, results, replace(FLIGHTS, last_chance_order=(16, 15)))
    first = chosen.round("last_chance", 1)
    assert first[0].players == (16, None)  # seed 1 of the draw, with the bye
    where = {p: s.index for s in first for p in s.players if p is not None}
    assert where[15] > len(first) // 2  # seed 2 of the draw: the other half
    assert first[3].players[0] == 10  # then the default order: 10 is seed 3 (3 v 6 in the last slot)


def test_last_chance_waits_for_the_whole_consolation():
    players = list(range(1, 9))
    main_only = {}
    for slot in derive(players, {}, FLIGHTS).round("main", 1):
        a, b = slot.players
        main_only[slot.key] = Result(min(a, b), max(a, b))
    bracket = derive(players, main_only, FLIGHTS)
    assert bracket.awaiting_draw == ("last_chance",)
    assert [s.key for s in bracket.slots if s.bracket == "last_chance"] == []
    assert {s.status for s in bracket.round("consolation", 1)} == {"ready"}


def test_a_bye_holder_who_loses_in_round_two_takes_their_place_in_consolation_round_one():
    players = list(range(1, 13))  # 16 draw: seeds 1-4 have byes
    results = {}
    for slot in derive(players, {}, FLIGHTS).round("main", 1):
        if slot.status == "ready":
            a, b = slot.players
            results[slot.key] = Result(min(a, b), max(a, b))
    bracket = derive(players, results, FLIGHTS)
    # main:r1:m3 was seed 4's bye; main:r2:m2 is 4 v 5. Until it is played, consolation:r1:m2 waits.
    assert bracket.slot("main:r2:m2").players == (4, 5)
    assert bracket.slot("consolation:r1:m2").status == "waiting"
    upset = {**results, "main:r2:m2": Result(5, 4)}
    bracket = derive(players, upset, FLIGHTS)
    slot = bracket.slot("consolation:r1:m2")
    assert slot.players == (4, 12) and slot.status == "ready"  # 12 lost to 5, not to 4: no rematch
    kept = {**results, "main:r2:m2": Result(4, 5)}
    slot = derive(players, kept, FLIGHTS).slot("consolation:r1:m2")
    assert slot.players == (None, 12) and slot.status == "bye" and slot.winner == 12


def test_statuses_and_lengths():
    players = list(range(1, 7))
    config = Config(lengths=Lengths(7, rounds={1: 5}, final=9), consolation=Lengths(3, final=5))
    bracket = derive(players, {}, config)
    assert [s.length for s in bracket.slots if s.bracket == "main"] == [5, 5, 5, 5, 7, 7, 9]
    assert {s.length for s in bracket.slots if s.bracket == "consolation"} == {3, 5}
    assert bracket.slot("consolation:r2:m1").length == 5
    assert bracket.slot("main:r1:m1").status == "bye"
    assert bracket.slot("main:r1:m2").status == "ready"
    assert bracket.slot("main:r2:m1").status == "waiting"
    assert bracket.slot("main:r2:m1").players == (1, None)
    done = derive(players, {"main:r1:m2": Result(4, 5)}, config)
    assert done.slot("main:r1:m2").status == "done"
    assert done.slot("main:r2:m1").players == (1, 4) and done.slot("main:r2:m1").status == "ready"
    assert done.slot("main:r1:m2").feeds == ("main:r2:m1", "consolation:r1:m1")


def test_correcting_an_early_result_changes_only_what_depends_on_it():
    players = list(range(1, 9))
    first = {s.key: Result(min(s.players), max(s.players)) for s in derive(players, {}).round("main", 1)}
    before = derive(players, first)
    after = derive(players, {**first, "main:r1:m1": Result(8, 1)})
    assert before.slot("main:r2:m1").players == (1, 4)
    assert after.slot("main:r2:m1").players == (8, 4)
    changed = {s.key for s, t in zip(before.slots, after.slots) if s != t}
    assert changed == {"main:r1:m1", "main:r2:m1"}


def test_a_correction_after_the_event_reopens_the_path_and_flags_stale_results():
    players = list(range(1, 9))
    final, results = play_out(derive, players, FLIGHTS, lower_seed_wins(players))
    assert final.winner == 1
    corrected = derive(players, {**results, "main:r1:m1": Result(8, 1)}, FLIGHTS)
    assert corrected.slot("main:r2:m1").players == (8, 4)
    assert corrected.slot("main:r2:m1").status == "ready"  # the recorded 1 v 4 no longer applies
    assert corrected.slot("main:r3:m1").status == "waiting"
    assert corrected.winner is None
    assert "main:r2:m1" in corrected.ignored and "main:r3:m1" in corrected.ignored
    # 1 now drops into the Consolation in 8's place: its first match there is stale too.
    assert corrected.slot("consolation:r1:m1").players == (1, 5)
    assert "consolation:r1:m1" in corrected.ignored
    # The other half of the Main is untouched.
    for key in ("main:r1:m3", "main:r1:m4", "main:r2:m2", "consolation:r1:m2"):
        assert corrected.slot(key) == final.slot(key)
    assert corrected.awaiting_draw == ("last_chance",)


def test_withdrawn_players_forfeit_and_skip_the_last_chance():
    players = list(range(1, 9))
    config = replace(FLIGHTS, withdrawn=frozenset({3}))
    bracket = derive(players, {}, config)
    slot = bracket.slot("main:r1:m4")  # 3 v 6
    assert slot.status == "done" and slot.result == Result(6, 3, forfeit=True)
    final, results = play_out(derive, players, config, lower_seed_wins(players))
    assert 3 in final.fields["consolation"]
    lost = [s for s in final.slots if s.bracket == "consolation" and s.loser == 3]
    assert lost and lost[0].result.forfeit and "consolation:r1:m2" not in results
    assert 3 not in final.fields["last_chance"]
    assert all(s.status in ("done", "bye") for s in final.slots)


def test_unknown_keys_and_mismatched_results_are_ignored():
    players = list(range(1, 5))
    bracket = derive(players, {"main:r1:m1": Result(2, 3), "main:r9:m1": Result(1, 2)})
    assert bracket.slot("main:r1:m1").status == "ready"
    assert bracket.ignored == ("main:r1:m1", "main:r9:m1")


def test_tiny_fields():
    assert derive([], {}).slots == ()
    lone = derive([7], {})
    assert lone.winner == 7 and lone.slots[0].status == "bye"
    two = derive([7, 9], {"main:r1:m1": Result(9, 7)}, FLIGHTS)
    assert two.winner == 9 and [s.key for s in two.slots] == ["main:r1:m1"]


def test_the_package_imports_no_django():
    code = (
        "import sys, tournaments.formats; "
        "bad = [m for m in sys.modules if m.split('.')[0] in ('django', 'rest_framework', 'celery')]; "
        "assert not bad, bad"
    )
    env = {k: v for k, v in os.environ.items() if k != "DJANGO_SETTINGS_MODULE"}
    subprocess.run([sys.executable, "-c", code], check=True, cwd=ROOT, env=env)
