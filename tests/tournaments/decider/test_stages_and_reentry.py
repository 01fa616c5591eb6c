"""Events in stages (Swiss or round robin -> knockout) and re-entry (buy-back), judged by the decider alone.

No database: the state is folded from typed events, as the stream would be; the results are ``ResultReported``
facts, as the director's paper results are.
"""

from __future__ import annotations

import pytest

from tournaments import commands as c
from tournaments import config, decider, derive
from tournaments import events as ev
from tournaments.formats.core import BYE, DONE, READY, WAITING
from tournaments.refusals import (
    FieldTooSmall, LateEntryClosed, NoOpenPlace, NoReentry, NotDrawn, NotEliminated, NotInEvent, NotPermitted,
    NotStaged, ReentriesUsed, ReentryClosed, ReentryTooLate, StageClosed, StageNotFinished,
)

DIRECTOR = c.Actor(official=True)
PLAYERS = [1, 2, 3, 4, 5, 6, 7, 8]


def state_of(events) -> decider.State:
    state = decider.State()
    for e in events:
        state = decider.evolve(state, e)
    return state


def decide(state, command, by=DIRECTOR):
    return decider.decide(state, c.with_facts(command, by=by))


def refused(state, command, error, by=DIRECTOR):
    with pytest.raises(error) as caught:
        decide(state, command, by)
    assert caught.value.code == error.code and str(caught.value)


def win(state, key, winner):
    """The state after the director's paper result for ``key``: ``winner`` 3-0 in a 3-point match."""
    slot = next(s for s in derive.derive(state).slots if s.key == key)
    loser = next(p for p in slot.players if p != winner)
    return decider.evolve(state, ev.ResultReported(key, winner, loser, slot.length, 0, slot.length))


def play_swiss_round(state, better=min):
    """Every ready Swiss table won by ``better`` of its two players; then the next round paired by the rules."""
    for s in derive.derive(state).slots:
        if s.status == READY:
            state = win(state, s.key, better(s.players))
    if len(state.rounds) < state.config["rounds"]:
        for e in decider.next_swiss_round(state, derive.derive(state)):
            state = decider.evolve(state, e)
    return state


def swiss_event(qualifiers=6, rounds=2, **settings):
    stored = config.checked("swiss", {"rounds": rounds, "qualifiers": qualifiers,
                                      "lengths": {"rounds": {"default": 3}, "main": {"default": 3}}, **settings})
    state = state_of([ev.TournamentConfigured({**stored, "format": "swiss"}),
                      *[ev.PlayerEntered(p, 1) for p in PLAYERS]])
    for e in decide(state, c.Draw(method="manual", seeds=tuple(PLAYERS))):
        state = decider.evolve(state, e)
    return state


def played_swiss(**settings):
    state = swiss_event(**settings)
    for _ in range(state.config["rounds"]):
        state = play_swiss_round(state)
    return state


def closed(state):
    for e in decide(state, c.CloseStage()):
        state = decider.evolve(state, e)
    return state


# -- stages --------------------------------------------------------------------------------------


def test_closing_stage_one_draws_the_knockout_of_the_top_k_by_the_table():
    state = played_swiss()
    table = [r.player for r in derive.derive(state).flights["swiss"]]
    events = decide(state, c.CloseStage())
    assert events == [ev.StageClosed(1, tuple(table)), ev.StageDrawMade(2, tuple(table[:6]), "standings")]
    state = closed(state)
    view = derive.derive(state)
    main = [s for s in view.slots if s.bracket == "main"]
    # six qualifiers in an eight-draw: the table's top two have byes, 3 v 6 and 4 v 5 play
    first = {s.index: s for s in main if s.round == 1}
    assert first[1].players == (table[0], None) and first[1].status == BYE
    assert set(first[2].players) == {table[3], table[4]} and first[2].status == READY
    assert {s.key for s in view.to_create} == {"main:r1:m2", "main:r1:m4"}
    assert list(view.flights) == ["swiss", "main"] and view.winner is None


def test_the_knockout_winner_is_the_events_winner_and_stage_one_stays_as_played():
    state = closed(played_swiss())
    for _ in range(3):
        for s in derive.derive(state).slots:
            if s.bracket == "main" and s.status == READY:
                state = win(state, s.key, min(s.players))
    view = derive.derive(state)
    assert view.winner == 1 and view.champions["main"] == 1
    assert [s.status for s in view.slots if s.bracket == "swiss"] == [DONE] * 8
    assert view.flights["main"][0].player == 1


def test_stage_one_closes_only_when_finished():
    state = swiss_event()
    refused(state, c.CloseStage(), StageNotFinished)  # round 1 undecided
    state = play_swiss_round(state)
    assert len(state.rounds) == 2
    refused(state, c.CloseStage(), StageNotFinished)  # round 2 paired, undecided


def test_a_swiss_with_rounds_left_unpaired_is_not_finished():
    state = swiss_event(auto_pair=False)
    for s in derive.derive(state).slots:
        state = win(state, s.key, min(s.players))
    refused(state, c.CloseStage(), StageNotFinished)


def test_close_stage_refusals():
    refused(played_swiss(), c.CloseStage(), NotPermitted, by=c.Actor(player=1))
    plain = state_of([ev.TournamentConfigured({"format": "swiss", "rounds": 2}), ev.PlayerEntered(1, 1)])
    refused(plain, c.CloseStage(), NotStaged)
    undrawn = state_of([ev.TournamentConfigured({"format": "swiss", "rounds": 2, "qualifiers": 4})])
    refused(undrawn, c.CloseStage(), NotDrawn)
    state = closed(played_swiss())
    refused(state, c.CloseStage(), StageClosed)
    refused(state, c.Enter(player=99), LateEntryClosed)


def test_withdrawn_players_do_not_qualify_and_two_are_needed():
    state = played_swiss(qualifiers=3)
    table = [r.player for r in derive.derive(state).flights["swiss"]]
    state = decider.evolve(state, ev.PlayerWithdrew(table[0]))
    assert decide(state, c.CloseStage())[1].seeds == tuple(table[1:4])
    for p in table[1:]:
        if p != table[-1]:
            state = decider.evolve(state, ev.PlayerWithdrew(p))
    refused(state, c.CloseStage(), FieldTooSmall)


def test_a_round_robin_goes_on_to_a_knockout_too():
    stored = config.checked("round_robin", {"qualifiers": 2})
    state = state_of([ev.TournamentConfigured({**stored, "format": "round_robin"}),
                      *[ev.PlayerEntered(p, 1) for p in (1, 2, 3, 4)], ev.DrawMade((1, 2, 3, 4), "manual")])
    refused(state, c.CloseStage(), StageNotFinished)
    for s in derive.derive(state).slots:
        state = win(state, s.key, min(s.players))
    state = closed(state)
    view = derive.derive(state)
    assert [s.players for s in view.slots if s.bracket == "main"] == [(1, 2)]  # the final of the top two
    assert list(view.flights) == ["rr", "main"]


def test_settings_of_stages_and_reentry():
    assert config.checked("swiss", {"rounds": 7, "qualifiers": 16})["qualifiers"] == 16
    assert config.checked("single_elimination", {"reentry": {"until_round": 2}})["reentry"] == {
        "until_round": 2, "times": 1}
    for fmt, settings in [("single_elimination", {"qualifiers": 4}), ("swiss", {"rounds": 3, "qualifiers": 1}),
                          ("swiss", {"rounds": 3, "reentry": {}}),
                          ("single_elimination", {"reentry": {"until_round": 0}}),
                          ("single_elimination", {"reentry": {"rounds": 1}}),
                          ("single_elimination", {"reentry": {}, "consolation": True})]:
        with pytest.raises(config.SettingsError):
            config.checked(fmt, settings)


def test_the_commands_parse():
    assert c.parse({"type": "close_stage"}) == c.CloseStage()
    assert c.parse({"type": "reenter", "player": 4}) == c.Reenter(player=4)
    assert c.parse({"type": "close_reentry"}) == c.CloseReentry()


# -- re-entry --------------------------------------------------------------------------------------


def knockout_event(**reentry):
    """Six players in a single elimination with re-entry: an eight-draw, seeds 1 and 2 facing open places."""
    stored = config.checked("single_elimination", {"reentry": reentry, "lengths": {"main": {"default": 3}}})
    return state_of([ev.TournamentConfigured({**stored, "format": "single_elimination"}),
                     *[ev.PlayerEntered(p, 1) for p in range(1, 7)], ev.DrawMade(tuple(range(1, 7)), "manual")])


def apply(state, command):
    for e in decide(state, command):
        state = decider.evolve(state, e)
    return state


def test_a_first_round_loser_buys_back_into_the_place_facing_the_lowest_bye_holder():
    state = knockout_event()
    view = derive.derive(state)
    assert [s.status for s in view.slots if s.round == 1] == [WAITING, READY, WAITING, READY]
    state = win(state, "main:r1:m2", 4)  # 4 beats 5
    assert decide(state, c.Reenter(player=5)) == [ev.PlayerReentered(5, "main:r1:m3", 2)]
    state = apply(state, c.Reenter(player=5))
    slot = derive.derive(state).slots[2]
    assert slot.players == (2, 5) and slot.entries == (1, 2) and slot.status == READY
    assert slot.key in {s.key for s in derive.derive(state).to_create}


def test_reentry_refusals():
    state = knockout_event()
    refused(state, c.Reenter(player=5), NotEliminated)  # still in
    refused(state, c.Reenter(player=5), NotPermitted, by=c.Actor(player=5))
    state = win(state, "main:r1:m2", 4)
    state = apply(state, c.Reenter(player=5))
    refused(state, c.Reenter(player=5), NotEliminated)  # in again, on the second entry
    state = win(state, "main:r1:m3", 2)
    refused(state, c.Reenter(player=5), ReentriesUsed)  # once only
    state = win(state, "main:r1:m4", 3)  # 3 beats 6
    state = decider.evolve(state, ev.PlayerWithdrew(6))
    refused(state, c.Reenter(player=6), NotInEvent)
    state = apply(state, c.CloseReentry())
    refused(state, c.Reenter(player=6), ReentryClosed)
    refused(state, c.CloseReentry(), ReentryClosed)
    assert derive.derive(state).slots[0].status == BYE  # seed 1's place, never taken, is a bye now


def test_too_late_and_no_place_left():
    state = knockout_event(until_round=1, times=2)
    state = win(state, "main:r1:m2", 4)
    state = win(state, "main:r1:m4", 3)
    state = apply(state, c.Reenter(player=5))
    state = apply(state, c.Reenter(player=6))  # seed 1's place
    refused(state, c.Reenter(player=5), NotEliminated)
    state = win(state, "main:r1:m1", 1)  # 1 beats 6's second entry
    refused(state, c.Reenter(player=6), NoOpenPlace)
    state = win(state, "main:r1:m3", 2)
    state = win(state, "main:r2:m2", 2)  # 2 beats 3 in round 2
    refused(state, c.Reenter(player=3), ReentryTooLate)


def test_no_reentry_without_the_setting_or_before_the_draw():
    plain = state_of([ev.TournamentConfigured({"format": "single_elimination"}), ev.PlayerEntered(1, 1)])
    refused(plain, c.Reenter(player=1), NoReentry)
    staged = swiss_event(reentry={"until_round": 1})
    refused(staged, c.Reenter(player=1), NoReentry)  # the knockout is not drawn yet


def test_a_staged_events_knockout_takes_reentries():
    state = closed(played_swiss(reentry={"until_round": 1}))
    view = derive.derive(state)
    m2 = next(s for s in view.slots if s.key == "main:r1:m2")
    loser = max(m2.players)
    state = win(state, "main:r1:m2", min(m2.players))
    state = apply(state, c.Reenter(player=loser))
    assert loser in next(s for s in derive.derive(state).slots if s.key == "main:r1:m3").players


# -- a round robin in groups ----------------------------------------------------------------------------


def test_groups_are_dealt_in_snake_order_and_each_plays_its_own_round_robin():
    from tournaments.formats import round_robin

    assert round_robin.groups([1, 2, 3, 4, 5, 6, 7, 8], 2) == [[1, 4, 5, 8], [2, 3, 6, 7]]
    assert round_robin.groups([1, 2, 3, 4, 5, 6, 7], 3) == [[1, 6, 7], [2, 5], [3, 4]]
    stored = config.checked("round_robin", {"groups": 2, "qualifiers": 4})
    state = state_of([ev.TournamentConfigured({**stored, "format": "round_robin"}),
                      *[ev.PlayerEntered(p, 1) for p in PLAYERS], ev.DrawMade(tuple(PLAYERS), "manual")])
    view = derive.derive(state)
    assert list(view.flights) == ["group1", "group2"]
    assert {s.bracket for s in view.slots} == {"group1", "group2"} and len(view.slots) == 12
    assert all(s.key.startswith(("rr:g1:", "rr:g2:")) for s in view.slots)
    assert {p for s in view.slots if s.bracket == "group1" for p in s.players} == {1, 4, 5, 8}


def test_the_group_winners_then_the_runners_up_go_on_crossed():
    stored = config.checked("round_robin", {"groups": 2, "qualifiers": 4})
    state = state_of([ev.TournamentConfigured({**stored, "format": "round_robin"}),
                      *[ev.PlayerEntered(p, 1) for p in PLAYERS], ev.DrawMade(tuple(PLAYERS), "manual")])
    for s in derive.derive(state).slots:
        state = win(state, s.key, min(s.players))
    # group A (1 4 5 8): 1, 4; group B (2 3 6 7): 2, 3 -> seeds A1 B1 A2 B2: A1 v B2, B1 v A2
    assert decide(state, c.CloseStage())[1].seeds == (1, 2, 4, 3)
    state = closed(state)
    view = derive.derive(state)
    assert [set(s.players) for s in view.slots if s.bracket == "main" and s.round == 1] == [{1, 3}, {2, 4}]
    assert view.champions["group1"] == 1 and view.winner is None


def test_group_settings_and_a_field_too_small_for_them():
    with pytest.raises(config.SettingsError):
        config.checked("swiss", {"rounds": 3, "groups": 2})
    stored = config.checked("round_robin", {"groups": 3})
    state = state_of([ev.TournamentConfigured({**stored, "format": "round_robin"}),
                      *[ev.PlayerEntered(p, 1) for p in (1, 2, 3, 4, 5)]])
    refused(state, c.Draw(method="manual", seeds=(1, 2, 3, 4, 5)), FieldTooSmall)


def test_a_staged_knockout_may_have_its_consolation():
    state = closed(played_swiss(consolation=True))
    brackets = {s.bracket for s in derive.derive(state).slots}
    assert brackets == {"swiss", "main", "consolation"}


def test_a_second_buy_back_is_entry_three():
    state = knockout_event(times=2)
    state = win(state, "main:r1:m2", 4)
    state = apply(state, c.Reenter(player=5))
    state = win(state, "main:r1:m3", 2)
    assert decide(state, c.Reenter(player=5)) == [ev.PlayerReentered(5, "main:r1:m1", 3)]
    state = apply(state, c.Reenter(player=5))
    third = derive.derive(state).slots[0]
    assert third.players == (1, 5) and third.entries == (1, 3)
    state = win(state, "main:r1:m1", 1)
    refused(state, c.Reenter(player=5), ReentriesUsed)


def test_with_no_bye_to_keep_no_reentry_is_possible():
    stored = config.checked("single_elimination", {"reentry": {"until_round": 1}})
    state = state_of([ev.TournamentConfigured({**stored, "format": "single_elimination"}),
                      *[ev.PlayerEntered(p, 1) for p in (1, 2, 3, 4)], ev.DrawMade((1, 2, 3, 4), "manual")])
    state = win(state, "main:r1:m1", 1)
    refused(state, c.Reenter(player=4), NoOpenPlace)


def test_the_places_are_taken_from_the_lowest_bye_holder_up():
    from tournaments.formats import single_elimination as se

    # nine in a sixteen-draw: seeds 1 to 7 have byes, 8 v 9 plays; 1 16 8 9 4 13 5 12 2 15 7 10…
    places = se.reentry_places(9)
    assert places == ["main:r1:m6", "main:r1:m8", "main:r1:m4", "main:r1:m3", "main:r1:m7", "main:r1:m5",
                      "main:r1:m1"]  # seeds 7, 6, 5, 4, 3, 2, 1


def test_what_the_read_model_says_of_the_stages_and_the_reentry():
    from tournaments import stages

    state = knockout_event()
    assert stages.stages_of(state) == {}
    state = win(state, "main:r1:m2", 4)
    state = win(state, "main:r1:m4", 3)
    summary = stages.reentry_of(state, derive.derive(state))
    assert summary["open"] == ["main:r1:m3", "main:r1:m1"] and summary["eligible"] == [5, 6]
    state = apply(state, c.Reenter(player=5))
    state = apply(state, c.CloseReentry())
    summary = stages.reentry_of(state, derive.derive(state))
    assert summary == {"until_round": 1, "times": 1, "closed": True, "open": [],
                       "made": [{"player": 5, "place": "main:r1:m3", "entry": 2}], "eligible": []}
    staged = closed(played_swiss())
    assert stages.stages_of(staged)["seeds"] == list(staged.stage_seeds) and stages.stages_of(staged)["closed"]


def test_a_correction_gives_a_groundless_reentrys_place_back():
    state = knockout_event()
    state = win(state, "main:r1:m2", 4)
    state = apply(state, c.Reenter(player=5))
    state = decider.evolve(state, ev.SlotResultCorrected("main:r1:m2", 5, 4, 3, 0, 3, reason="score sheet"))
    assert decider.open_places(state) == ["main:r1:m3", "main:r1:m1"]
    assert decide(state, c.Reenter(player=4)) == [ev.PlayerReentered(4, "main:r1:m3", 2)]
