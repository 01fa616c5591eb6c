"""Re-entry until round 2 in a sparse draw (17 players in a 32-draw, 15 places kept open): a round-2 match is
played while re-entry is open, and its loser re-enters. Judged by the decider alone, as the director's commands
and paper results would be."""

from __future__ import annotations

from tournaments import commands as c
from tournaments import config, decider, derive
from tournaments import events as ev
from tournaments.formats import single_elimination
from tournaments.formats.core import READY, WAITING

from .test_stages_and_reentry import apply, decide, state_of, win

FIELD = tuple(range(1, 18))  # player n is seed n


def seventeen(until_round: int, times: int = 1):
    stored = config.checked("single_elimination", {"reentry": {"until_round": until_round, "times": times},
                                                   "lengths": {"main": {"default": 3}}})
    return state_of([ev.TournamentConfigured({**stored, "format": "single_elimination"}),
                     *[ev.PlayerEntered(p, 1) for p in FIELD], ev.DrawMade(FIELD, "manual")])


def status(state, key: str):
    return next(s for s in derive.derive(state).slots if s.key == key)


def test_a_round_two_loser_re_enters_a_seventeen_player_thirty_two_draw():
    state = seventeen(until_round=2)
    assert [s.key for s in derive.derive(state).slots if s.status == READY] == ["main:r1:m2"]  # 16 v 17
    state = win(state, "main:r1:m2", 16)
    # the first re-entry takes a place of a round-2 match's section (seeds 8 and 9), not seed 15's
    assert decide(state, c.Reenter(player=17)) == [ev.PlayerReentered(17, "main:r1:m4", 2)]
    state = apply(state, c.Reenter(player=17))
    state = win(state, "main:r1:m4", 17)  # 17's second entry beats seed 9
    assert decide(state, c.Reenter(player=9)) == [ev.PlayerReentered(9, "main:r1:m3", 2)]
    state = apply(state, c.Reenter(player=9))
    state = win(state, "main:r1:m3", 8)  # seed 8 beats 9's second entry

    # both feeders decided: that round-2 match is played while the other bye holders still wait
    second_round = status(state, "main:r2:m2")
    assert second_round.players == (8, 17) and second_round.status == READY
    assert status(state, "main:r2:m1").status == WAITING  # seed 1 waits for the place facing them
    state = win(state, "main:r2:m2", 17)

    # seed 8, knocked out in round 2, re-enters: the next section's place, and plays on from round 1
    assert decide(state, c.Reenter(player=8)) == [ev.PlayerReentered(8, "main:r1:m12", 2)]
    state = apply(state, c.Reenter(player=8))
    again = status(state, "main:r1:m12")
    assert again.players == (10, 8) and again.entries == (1, 2) and again.status == READY
    assert again.key in {s.key for s in derive.derive(state).to_create}


def test_the_places_fill_a_round_two_section_at_a_time_and_a_round_at_a_time_for_round_one():
    assert single_elimination.reentry_places(17, until_round=2)[:4] == [
        "main:r1:m4", "main:r1:m3", "main:r1:m12", "main:r1:m11"]  # seeds 9, 8, then 10, 7
    assert single_elimination.reentry_places(17, until_round=2)[-1] == "main:r1:m1"  # seed 1 keeps a bye longest
    assert single_elimination.reentry_places(17)[:3] == ["main:r1:m10", "main:r1:m14", "main:r1:m6"]  # 15, 14, 13
    # where each round-2 section has one place at most, the order is the same as for round 1
    assert single_elimination.reentry_places(14, until_round=2) == single_elimination.reentry_places(14)
