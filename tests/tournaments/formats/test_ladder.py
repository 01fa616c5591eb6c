"""The challenge ladder: reach, moves on a win, walkovers, joins and leaves, corrections; fields of 2 to 40."""

from __future__ import annotations

import random

import pytest

from tournaments.formats import FormatError, Result
from tournaments.formats.core import Reason
from tournaments.formats.ladder import (
    SWAP, Challenge, Config, Join, Leave, Settle, derive, key_of, refusal_to_challenge, rung_of,
)


def test_a_challenger_who_wins_takes_the_defenders_rung_and_those_between_move_down():
    c = Challenge(1, challenger=5, defender=2)
    ladder = derive([1, 2, 3, 4, 5], [c], [Settle(1)], {key_of(1): Result(5, 2, 7, 3)})
    assert ladder.rungs == (1, 5, 2, 3, 4)
    move = ladder.history[-1]
    assert (move.rung_before, move.rung_after, move.opponent_rung_before, move.opponent_rung_after) == (5, 2, 2, 3)
    assert ladder.standings[1].player == 5 and ladder.standings[1].wins == 1 and ladder.standings[2].losses == 1


def test_swap_exchanges_the_two_rungs_only():
    c = Challenge(1, challenger=5, defender=2)
    ladder = derive([1, 2, 3, 4, 5], [c], [Settle(1)], {key_of(1): Result(5, 2, 7, 3)}, Config(on_win=SWAP))
    assert ladder.rungs == (1, 5, 3, 4, 2)


def test_a_defender_who_wins_keeps_the_ladder_as_it_was():
    ladder = derive([1, 2, 3], [Challenge(1, 3, 1)], [Settle(1)], {key_of(1): Result(1, 3, 7, 0)})
    assert ladder.rungs == (1, 2, 3)
    assert ladder.history[-1].winner == 1


def test_an_open_challenge_is_a_ready_slot_and_a_cancelled_one_is_void():
    ladder = derive([1, 2, 3, 4], [Challenge(1, 2, 1), Challenge(2, 4, 3)], [Settle(2, "cancelled")], {})
    assert [s.status for s in ladder.slots] == ["ready", "void"]
    assert [c.number for c in ladder.open] == [1]
    assert ladder.rungs == (1, 2, 3, 4)


def test_a_walkover_to_the_challenger_moves_them_up():
    ladder = derive([1, 2, 3], [Challenge(1, 3, 2)], [Settle(1, "refused")], {key_of(1): Result(3, 2, forfeit=True)})
    assert ladder.rungs == (1, 3, 2)
    assert ladder.history[-1].how == "refused"


def test_reach_and_one_open_challenge_each():
    rungs = [10, 20, 30, 40, 50]
    assert refusal_to_challenge(rungs, [], 50, 20, 3) is None
    too_far = refusal_to_challenge(rungs, [], 50, 20, 2)
    assert (too_far.reason, too_far.params) == (Reason.RUNGS, {"reach": 2})
    assert str(too_far) == "a player may challenge at most 2 rungs above them"
    assert refusal_to_challenge(rungs, [], 20, 50, 3).reason is Reason.CHALLENGE_UP
    busy = refusal_to_challenge(rungs, [Challenge(1, 40, 30)], 50, 40, 3)
    assert (busy.reason, busy.params) == (Reason.CHALLENGE_OPEN, {"player": 40})
    stranger = refusal_to_challenge(rungs, [], 60, 50, 3)
    assert (stranger.reason, stranger.params) == (Reason.NOT_ON_LADDER, {"player": 60})
    assert refusal_to_challenge(rungs, [], 50, 50, 3).reason is Reason.CHALLENGE_THEMSELF
    with pytest.raises(FormatError):
        Config(reach=0)


def test_joiners_go_to_the_bottom_and_leavers_lift_those_below():
    ladder = derive([1, 2, 3], [], [Join(4), Leave(2)], {})
    assert ladder.rungs == (1, 3, 4)
    assert [m.kind for m in ladder.history] == ["join", "leave"]


def test_a_leaver_loses_an_open_challenge_by_walkover_and_nobody_moves_for_it():
    ladder = derive([1, 2, 3], [Challenge(1, 3, 2)], [Leave(2)], {})
    assert ladder.rungs == (1, 3)
    slot = ladder.slots[0]
    assert slot.result == Result(3, 2, forfeit=True) and ladder.history[0].how == "withdrawal"


def test_a_correction_re_derives_from_the_moment_the_challenge_was_decided():
    challenges = [Challenge(1, 3, 2), Challenge(2, 2, 1)]
    happenings = [Settle(1), Settle(2)]
    first = derive([1, 2, 3], challenges, happenings, {key_of(1): Result(3, 2, 7, 1), key_of(2): Result(2, 1, 7, 5)})
    assert first.rungs == (2, 1, 3)  # 3 up to rung 2, then 2 (now on rung 3 — still within reach) beats 1
    corrected = derive([1, 2, 3], challenges, happenings,
                       {key_of(1): Result(2, 3, 7, 1), key_of(2): Result(2, 1, 7, 5)})
    assert corrected.rungs == (2, 1, 3)
    corrected = derive([1, 2, 3], challenges, happenings,
                       {key_of(1): Result(3, 2, 7, 1), key_of(2): Result(1, 2, 7, 5)})
    assert corrected.rungs == (1, 3, 2)


def test_a_settlement_whose_result_was_voided_leaves_the_challenge_open():
    ladder = derive([1, 2], [Challenge(1, 2, 1)], [Settle(1)], {})
    assert ladder.rungs == (1, 2) and [c.number for c in ladder.open] == [1]


@pytest.mark.parametrize("n", range(2, 41))
def test_random_seasons_keep_every_player_on_one_rung(n):
    """Property: on fields of 2 to 40, any run of legal challenges, results, walkovers, cancellations, joins
    and leaves keeps the ladder a permutation of who is on it, each win moving exactly as the rule says."""
    rng = random.Random(n)
    players = list(range(1, n + 1))
    reach = rng.randint(1, 4)
    challenges, happenings, results = [], [], {}
    rungs = list(players)
    next_player = n + 1
    for number in range(1, 4 * n):
        ladder = derive(players, challenges, happenings, results, Config(reach=reach))
        assert list(ladder.rungs) == rungs
        assert sorted(ladder.rungs) == sorted(set(ladder.rungs))
        roll = rng.random()
        if roll < 0.05:
            happenings.append(Join(next_player))
            rungs.append(next_player)
            next_player += 1
            continue
        if roll < 0.08 and len(rungs) > 2:
            leaver = rng.choice(rungs)
            happenings.append(Leave(leaver))
            rungs.remove(leaver)
            continue
        candidates = [(a, b) for a in rungs for b in rungs
                      if refusal_to_challenge(rungs, ladder.open, a, b, reach) is None]
        if not candidates:
            continue
        a, b = rng.choice(candidates)
        assert 1 <= rung_of(rungs, a) - rung_of(rungs, b) <= reach
        challenges.append(Challenge(number, a, b))
        kind = rng.choice(["played", "played", "refused", "lapsed", "cancelled"])
        if kind == "cancelled":
            happenings.append(Settle(number, "cancelled"))
            continue
        winner = rng.choice([a, b]) if kind == "played" else a
        results[key_of(number)] = Result(winner, b if winner == a else a, forfeit=kind != "played")
        happenings.append(Settle(number, kind))
        if winner == a:
            rungs.remove(a)
            rungs.insert(rungs.index(b), a)
    final = derive(players, challenges, happenings, results, Config(reach=reach))
    assert list(final.rungs) == rungs
    assert not final.open
    assert sum(r.wins for r in final.standings) <= len(results)
