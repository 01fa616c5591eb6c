"""Rated or unrated, in the decider alone: the event's setting, the director's later change of the
whole event or of one slot (a slot's own setting wins), and the refusals."""

from __future__ import annotations

import pytest

from tournaments import commands as c
from tournaments import decider
from tournaments import events as ev
from tournaments.refusals import NotPermitted, Reason, TournamentError, TournamentRefusal

from .test_decider import DIRECTOR, A, B, C, D, fold, knockout


def test_an_event_is_rated_unless_its_setting_or_a_later_change_says_otherwise():
    assert fold(*knockout(A, B, C, D)).event_rated
    unrated = fold(*knockout(A, B, C, D, rated=False))
    assert not unrated.event_rated and not unrated.slot_rated("main:r1:m1")
    decided = decider.decide(unrated, c.SetRated(rated=True, by=DIRECTOR))
    assert decided == [ev.RatedSet(True, "")]
    assert decider.evolve(unrated, decided[0]).event_rated


def test_one_slot_is_made_unrated_and_its_own_setting_wins_over_the_events():
    state = fold(*knockout(A, B, C, D))
    [friendly] = decider.decide(state, c.SetRated(rated=False, slot="main:r1:m2", by=DIRECTOR))
    state = decider.evolve(state, friendly)
    assert not state.slot_rated("main:r1:m2") and state.slot_rated("main:r1:m1")
    state = decider.evolve(state, ev.RatedSet(False))  # the whole event unrated; then the slot rated by itself
    state = decider.evolve(state, ev.RatedSet(True, "main:r1:m1"))
    assert state.slot_rated("main:r1:m1") and not state.slot_rated("main:r2:m1")


def test_refusals():
    state = fold(*knockout(A, B, C, D))
    with pytest.raises(TournamentError) as unknown:
        decider.decide(state, c.SetRated(rated=False, slot="main:r7:m1", by=DIRECTOR))
    assert unknown.value.code == TournamentRefusal.UNKNOWN_SLOT
    with pytest.raises(NotPermitted):
        decider.decide(state, c.SetRated(rated=False, by=c.Actor(player=A)))
    with pytest.raises(TournamentError) as malformed:
        c.parse({"type": "set_rated", "rated": "no"})
    assert (malformed.value.reason, malformed.value.params) == (Reason.FIELD_FLAG, {"field": "rated"})
    assert str(malformed.value) == "'rated' is true or false"
    assert c.parse({"type": "set_rated", "rated": False}) == c.SetRated(rated=False)
