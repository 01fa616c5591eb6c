"""One slot computed alone (``derive.slot_of``) is the slot the whole event's derivation gives: in Swiss events
played at random — results on paper and at the board, forfeits, corrections, withdrawals, byes, voided matches,
late entries — for every slot and for keys that name none; other formats go through the whole derivation."""

from __future__ import annotations

import random

import pytest

from tournaments import commands as c
from tournaments import decider, derive
from tournaments import events as ev
from tournaments.refusals import Refused

DIRECTOR = c.Actor(official=True)


def _apply(state, events):
    for e in events:
        state = decider.evolve(state, e)
    return state


def _try(state, command):
    try:
        return _apply(state, decider.decide(state, c.with_facts(command, by=DIRECTOR)))
    except Refused:
        return state


def _same_slots(state) -> int:
    whole = derive.derive(state, tables=False).slots
    for slot in whole:
        assert derive.slot_of(state, slot.key) == slot, slot.key
    rounds = len(state.rounds)
    for missing in (f"swiss:r{rounds + 1}:t1", "swiss:r1:t999", "swiss:r0:t1", "swiss:r1:t0", "swiss:rx:t1",
                    "main:r1:m1", ""):
        assert derive.slot_of(state, missing) is None
    return len(whole)


def _event(seed: int) -> list:
    rnd = random.Random(seed)
    players = list(range(100, 100 + rnd.randint(5, 14)))
    state = _apply(decider.State(), [ev.TournamentConfigured({"format": "swiss", "rounds": 4,
                                                               "late_entry_until_round": 2,
                                                               "lengths": {"rounds": {"default": 5,
                                                                                      "rounds": {"3": 7}}}})])
    for p in players:
        state = _try(state, c.Enter(player=p))
    state = _try(state, c.Draw(method="manual", seeds=tuple(players)))
    states, matches = [state], 0
    for _round in range(4):
        for slot in derive.derive(state, tables=False).slots:
            if slot.status != "ready":
                continue
            a, b = slot.players
            roll = rnd.random()
            if roll < 0.35:
                state = _try(state, c.ReportResult(slot=slot.key, winner=rnd.choice((a, b)), score=(slot.length, 1)))
            elif roll < 0.6:  # a match at the board: created, started, won
                matches += 1
                match_id, winner = f"m{matches}", rnd.choice((a, b))
                state = _apply(state, [ev.MatchCreated(slot.key, match_id, (a, b), slot.length),
                                       ev.SlotMatchStarted(slot.key, match_id, 3)])
                if rnd.random() < 0.8:
                    state = _apply(state, [ev.SlotFinished(slot.key, match_id, 40, winner, b if winner == a else a,
                                                           slot.length, 2)])
                else:  # voided, a paper result instead
                    state = _apply(state, [ev.SlotMatchVoided(slot.key, match_id, 5, "wrong players")])
            elif roll < 0.7:
                state = _try(state, c.Forfeit(slot=slot.key, loser=rnd.choice((a, b)), reason="no-show"))
            states.append(state)
        done = [s for s in derive.derive(state, tables=False).slots if s.result is not None and not s.bye]
        for slot in rnd.sample(done, min(2, len(done))):
            state = _try(state, c.CorrectResult(slot=slot.key, winner=slot.result.loser,
                                                score=(slot.length, 0), reason="misread"))
        if rnd.random() < 0.4:
            state = _try(state, c.Withdraw(player=rnd.choice(players), reason="left"))
        if rnd.random() < 0.3:
            state = _try(state, c.Enter(player=500 + _round))
        states.append(state)
        for slot in derive.derive(state, tables=False).slots:  # what the round left open, settled on paper
            if slot.status == "ready":
                a, b = slot.players
                state = _try(state, c.ReportResult(slot=slot.key, winner=a, score=(slot.length, 0)))
        state = _try(state, c.PairRound())
        states.append(state)
    return states


@pytest.mark.parametrize("seed", range(12))
def test_a_swiss_slot_alone_is_the_slot_of_the_whole_derivation(seed):
    states = _event(seed)
    assert sum(_same_slots(state) for state in states) > 0
    assert len(states[-1].rounds) >= 2  # the events went on past their first round


def test_a_knockout_slot_goes_through_the_whole_derivation():
    players = (1, 2, 3, 4, 5)
    state = _apply(decider.State(), [ev.TournamentConfigured({"format": "single_elimination"}),
                                     *[ev.PlayerEntered(p, 1) for p in players], ev.DrawMade(players, "manual")])
    for slot in derive.derive(state).slots:
        assert derive.slot_of(state, slot.key) == slot
    assert derive.slot_of(state, "swiss:r1:t1") is None and derive.slot_of(state, "main:r9:m1") is None
