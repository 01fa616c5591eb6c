"""Re-entry (buy-back) into a single elimination's Main: open places, the order they fill, the entry marks."""

import pytest

from tournaments.formats import single_elimination as se
from tournaments.formats.core import BYE, DONE, READY, WAITING, FormatError, Lengths, Result

SIX = [1, 2, 3, 4, 5, 6]  # six in an eight-draw: seeds 1 and 2 face places kept open


def derive(results=(), **reentry):
    config = se.Config(lengths=Lengths(3), reentry=se.Reentry(**reentry))
    return se.derive(SIX, {k: Result(*r) for k, r in dict(results).items()}, config)


def test_the_byes_are_places_kept_open_and_their_holders_wait():
    bracket = derive()
    assert [s.status for s in bracket.round("main", 1)] == [WAITING, READY, WAITING, READY]
    assert bracket.slot("main:r1:m1").sources == ("seed 1", "open for re-entry")
    assert se.reentry_places(6) == ["main:r1:m3", "main:r1:m1"]  # seed 2's place first


def test_a_field_that_fills_its_draw_keeps_no_place():
    assert se.reentry_places(8) == []
    assert len(se.reentry_places(17)) == 15  # a 32-draw: seeds 1 to 15 wait for re-entrants


def test_closing_turns_the_open_places_into_byes():
    bracket = derive(closed=True)
    assert [s.status for s in bracket.round("main", 1)] == [BYE, READY, BYE, READY]


def test_a_reentrant_takes_the_place_and_carries_the_entry_mark_down_the_bracket():
    results = {"main:r1:m2": (5, 4, 3, 1), "main:r1:m3": (4, 2, 3, 0)}  # 4 lost to 5, re-entered, beat seed 2
    bracket = derive(results, entries=((4, "main:r1:m3"),), closed=True)
    slot = bracket.slot("main:r1:m3")
    assert slot.players == (2, 4) and slot.entries == (1, 2) and slot.sources[1] == "re-entry 2"
    assert bracket.slot("main:r1:m2").entries == (1, 1)  # the first entry, lost
    nxt = bracket.slot("main:r2:m2")
    assert 4 in nxt.players and nxt.entries[nxt.players.index(4)] == 2
    assert se.eliminated_in(bracket, 4) is None  # still in on the second entry
    assert se.eliminated_in(bracket, 2) == 1
    assert se.eliminated_in(bracket, 5) is None


def test_a_reentrant_who_loses_again_is_out_in_the_round_they_lost():
    results = {"main:r1:m2": (5, 4, 3, 1), "main:r1:m3": (2, 4, 3, 0)}
    bracket = derive(results, entries=((4, "main:r1:m3"),))
    assert se.eliminated_in(bracket, 4) == 1
    assert bracket.slot("main:r1:m3").status == DONE


def test_the_whole_bracket_finishes_with_a_reentrant_champion():
    results = {"main:r1:m2": (5, 4, 3, 1), "main:r1:m3": (4, 2, 3, 0), "main:r1:m4": (3, 6, 3, 2),
               "main:r2:m1": (5, 1, 3, 0), "main:r2:m2": (4, 3, 3, 1), "main:r3:m1": (4, 5, 3, 2)}
    bracket = derive(results, entries=((4, "main:r1:m3"),), closed=True)
    assert bracket.winner == 4
    assert bracket.slot("main:r3:m1").entries[bracket.slot("main:r3:m1").players.index(4)] == 2


def test_reentry_and_a_consolation_are_not_combined():
    with pytest.raises(FormatError):
        se.Config(consolation=Lengths(), reentry=se.Reentry())
    with pytest.raises(FormatError):
        se.Reentry(until_round=0)


def test_a_correction_that_puts_the_reentrant_back_in_leaves_the_reentry_without_ground():
    corrected = {"main:r1:m2": (5, 4, 3, 1), "main:r1:m3": (5, 2, 3, 0)}  # 5 beat 4 after all
    bracket = derive(corrected, entries=((5, "main:r1:m3"),))
    slot = bracket.slot("main:r1:m3")
    assert slot.players == (2, None) and slot.status == WAITING and slot.sources[1] == "open for re-entry"
    assert "main:r1:m3" in bracket.ignored  # the re-entry's result no longer applies
    assert derive(corrected, entries=((5, "main:r1:m3"),), closed=True).slot("main:r1:m3").status == BYE
