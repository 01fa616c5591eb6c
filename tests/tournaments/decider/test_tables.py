"""Tables, alone (no database): the process manager's choice for new matches, the director's moves and closed
tables, each refusal with its code; a table is free again once its match is decided."""

from __future__ import annotations

import pytest

from tournaments import commands as c
from tournaments import decider, refusals
from tournaments import events as ev

from .test_decider import A, B, C, D, decide, fold, knockout, refused

PLAYER = c.Actor(official=False, player=A)


def with_matches(*extra):
    return fold(*knockout(A, B, C, D), ev.MatchCreated("main:r1:m1", "m1", (A, D), 3),
                ev.MatchCreated("main:r1:m2", "m2", (B, C), 3), *extra)


def test_new_matches_take_the_lowest_free_tables_in_service():
    state = with_matches(ev.TableService(1, False))
    assigned = decider.tables_for_new_matches(state, ["main:r1:m1", "main:r1:m2"])
    assert assigned == [ev.TableAssigned("main:r1:m1", 2), ev.TableAssigned("main:r1:m2", 3)]


def test_a_slot_whose_match_is_replaced_keeps_its_table():
    state = with_matches(ev.TableAssigned("main:r1:m1", 4))
    assert decider.tables_for_new_matches(state, ["main:r1:m1"]) == []


def test_the_director_moves_a_match_to_a_free_table_only():
    state = with_matches(ev.TableAssigned("main:r1:m1", 1), ev.TableAssigned("main:r1:m2", 2), ev.TableService(5, False))
    assert decide(state, c.AssignTable(slot="main:r1:m1", table=3)) == [ev.TableAssigned("main:r1:m1", 3, True)]
    assert decide(state, c.AssignTable(slot="main:r1:m1", table=1)) == []  # where it is already
    assert refused(state, c.AssignTable(slot="main:r1:m1", table=2), refusals.TableTaken).code == "table_taken"
    refused(state, c.AssignTable(slot="main:r1:m1", table=5), refusals.TableOutOfService)
    refused(state, c.AssignTable(slot="main:r2:m1", table=7), refusals.NoMatch)
    refused(state, c.AssignTable(slot="main:r1:m1", table=3), refusals.NotPermitted, by=PLAYER)


def test_a_decided_match_frees_its_table():
    state = with_matches(ev.TableAssigned("main:r1:m1", 1),
                         ev.ResultReported("main:r1:m1", A, D, 3, 0, 3))
    assert decide(state, c.AssignTable(slot="main:r1:m2", table=1)) == [ev.TableAssigned("main:r1:m2", 1, True)]
    finished = with_matches(ev.TableAssigned("main:r1:m1", 1), ev.SlotFinished("main:r1:m1", "m1", 9, A, D, 3, 1))
    assert decider.tables_for_new_matches(finished, ["main:r1:m2"]) == [ev.TableAssigned("main:r1:m2", 1)]


def test_tables_go_out_of_service_and_back():
    state = with_matches()
    assert decide(state, c.SetTableService(table=3, in_service=False)) == [ev.TableService(3, False)]
    closed = decider.evolve(state, ev.TableService(3, False))
    assert closed.out_of_service == {3}
    assert decide(closed, c.SetTableService(table=3, in_service=False)) == []
    assert decide(closed, c.SetTableService(table=3, in_service=True)) == [ev.TableService(3, True)]


def test_a_check_in_is_cancelled_before_the_draw_only():
    state = fold(ev.TournamentConfigured({"format": "single_elimination"}), ev.PlayerEntered(A, 1),
                 ev.PlayerCheckedIn(A))
    assert decide(state, c.CancelCheckIn(player=A)) == [ev.PlayerCheckInCancelled(A)]
    assert decider.evolve(state, ev.PlayerCheckInCancelled(A)).checked_in == set()
    refused(state, c.CancelCheckIn(player=B), refusals.NotEntered)
    refused(with_matches(), c.CancelCheckIn(player=A), refusals.CheckInClosed)


@pytest.mark.parametrize("data, why", [
    ({"type": "assign_table", "slot": "main:r1:m1", "table": 0}, refusals.Reason.TABLE_NUMBER),
    ({"type": "assign_table", "slot": "main:r1:m1"}, refusals.Reason.TABLE_NUMBER),
    ({"type": "set_table_service", "table": 2, "in_service": "no"}, refusals.Reason.IN_SERVICE),
])
def test_table_commands_are_read_strictly(data, why):
    with pytest.raises(refusals.BadCommand) as malformed:
        c.parse(data)
    assert malformed.value.reason is why


def test_the_tables_round_trip_through_their_payloads():
    for e in (ev.TableAssigned("main:r1:m1", 3, True), ev.TableService(2, False), ev.PlayerCheckInCancelled(A)):
        assert ev.from_payload(e.event_type, e.to_payload()) == e
