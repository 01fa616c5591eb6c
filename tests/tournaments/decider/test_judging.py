"""A tournament's stream judged again (tournaments/judging.py): the facts the decider decides pass, and each fact
it could never have decided after the ones before it is named by its position, with why."""

from __future__ import annotations

import re
from types import SimpleNamespace

import pytest

from tournaments import events as ev
from tournaments.judging import Inconsistent, judge

A, B, C, D, STRANGER = 11, 12, 13, 14, 99
FIRST = 500  # the stream's first event's log position


def rows(*events):
    return [SimpleNamespace(event_type=e.event_type, payload=e.to_payload(), version=i, global_position=FIRST + i - 1)
            for i, e in enumerate(events, start=1)]


def configured(fmt="single_elimination", **config):
    return ev.TournamentConfigured({"format": fmt, **config})


def entered(*players):
    return [ev.PlayerEntered(p, 1) for p in players]


def played():
    """A four-player knockout drawn, a first-round result on paper and one at the board, a player withdrawn."""
    return [configured(), *entered(A, B, C, D), ev.DrawMade((A, B, C, D), "manual"),
            ev.ResultReported("main:r1:m1", A, D, 5, 2, 5),
            ev.SlotFinished("main:r1:m2", "m-2", 40, C, B, 5, 3),
            ev.PlayerWithdrew(D, "ill")]


def test_a_stream_the_decider_could_have_written_passes():
    facts = judge("tournament-1", rows(*played()))
    assert facts.seeds == [A, B, C, D] and facts.withdrawn == {D: 0}


def test_a_swiss_round_with_a_bye_passes():
    judge("tournament-1", rows(configured("swiss", rounds=3), *entered(A, B, C), ev.DrawMade((A, B, C), "manual"),
                               ev.RoundPaired(1, ((A, B), (C, None)), False)))


def test_a_calcutta_the_decider_could_have_written_passes():
    facts = judge("tournament-1", rows(configured(), *entered(A, B), ev.MoneySet({"entry": 1000}),
                                       ev.LotAdded("Lot", (A,)), ev.LotAdded("Field", (), True),
                                       ev.LotSold("Lot", "Ann", 500), ev.LotBoughtBack("Lot"),
                                       ev.PayoutMade(250, 1_800_000_000, None, "Ann", "cash")))
    assert facts.money.sales["Lot"].bought_back and facts.money.payouts[0].owner == "Ann"


def test_a_jackpot_the_decider_could_have_written_passes():
    facts = judge("tournament-1", rows(configured(), *entered(A, B), ev.JackpotOpened("J", 1000, 2),
                                       ev.JackpotBought("J", A), ev.JackpotLeft("J", A), ev.JackpotBought("J", A),
                                       ev.JackpotBought("J", B), ev.JackpotStarted("J", 7, (A, B))))
    assert facts.money.jackpots["J"].buyers == [A, B] and facts.money.jackpots["J"].event_id == 7


def test_a_player_entered_again_after_withdrawing_passes():
    judge("tournament-1", rows(configured(), *entered(A, B), ev.PlayerWithdrew(A, ""), *entered(A)))


def teams_drawn():
    """A Swiss of two teams of two boards, registered and drawn."""
    return [configured("team_swiss", rounds=2, boards=2), *entered(A, B, C, D),
            ev.TeamRegistered(1, "One", (A, B)), ev.TeamRegistered(2, "Two", (C, D)), ev.DrawMade((A, B, C, D), "manual")]


def test_a_swiss_of_teams_paired_round_by_round_passes():
    facts = judge("tournament-1", rows(*teams_drawn(), ev.TeamRoundPaired(1, ((1, 2),)),
                                       ev.TeamRoundPaired(2, ((2, 1),))))
    assert facts.team_rounds == [((1, 2),), ((2, 1),)]


FORGED = {
    "a round of teams paired out of turn": ([*teams_drawn(), ev.TeamRoundPaired(2, ((1, 2),))], 9,
                                            "round 2 of teams paired after 0 rounds"),
    "a round of teams paired again": ([*teams_drawn(), ev.TeamRoundPaired(1, ((1, 2),)),
                                       ev.TeamRoundPaired(1, ((2, 1),))], 10, "round 1 of teams paired after 1 rounds"),
    "a stranger team paired": ([*teams_drawn(), ev.TeamRoundPaired(1, ((1, 3),))], 9,
                               "paired but not registered: teams [3]"),
    "no settings first": ([*entered(A)], 1, "begins with its settings"),
    "settings twice": ([configured(), configured()], 2, "begins with its settings"),
    "entered twice": ([configured(), *entered(A, B, A)], 4, "player 11 is entered already"),
    "withdrawn while out": ([configured(), *entered(A), ev.PlayerWithdrew(B, "")], 3, "player 12 is not in the event"),
    "drawn twice": ([configured(), *entered(A, B), ev.DrawMade((A, B), "manual"), ev.DrawMade((B, A), "manual")],
                    5, "the draw is made already"),
    "a stranger seeded": ([configured(), *entered(A, B), ev.DrawMade((A, STRANGER), "manual")], 4,
                          "seeded but not entered: [99]"),
    "seeded twice": ([configured(), *entered(A, B), ev.DrawMade((A, A), "manual")], 4, "a player seeded twice"),
    "paired before the draw": ([configured("swiss"), *entered(A, B), ev.RoundPaired(1, ((A, B),), False)], 4,
                               "a round paired before the draw"),
    "paired twice in a round": ([configured("swiss"), *entered(A, B, C), ev.DrawMade((A, B, C), "manual"),
                                 ev.RoundPaired(1, ((A, B), (B, C)), False)], 6, "a player paired twice"),
    "a stranger paired": ([configured("swiss"), *entered(A, B), ev.DrawMade((A, B), "manual"),
                           ev.RoundPaired(1, ((A, STRANGER),), False)], 5, "paired but not entered: [99]"),
    "beat themself": ([*played()[:6], ev.ResultReported("main:r1:m1", A, A, 5, 2, 5)], 7, "beat themself"),
    "a stranger's result": ([*played()[:6], ev.MatchForfeited("main:r1:m1", STRANGER, D, 0, 0, 5)], 7,
                            "a result for players not entered: [99]"),
    "the loser ahead": ([*played()[:6], ev.SlotResultCorrected("main:r1:m1", A, D, 2, 5, 5)], 7,
                        "the winner's 2 points against the loser's 5"),
    "a stranger in a lot": ([configured(), *entered(A, B), ev.LotAdded("Lot", (A, STRANGER))], 4,
                            "in a lot but not entered: [99]"),
    "a lot sold never added": ([configured(), *entered(A), ev.LotSold("Lot", "Ann", 500)], 3,
                               "lot 'Lot' sold but never added"),
    "the field lot bought back": ([configured(), *entered(A), ev.LotAdded("Field", (), True),
                                   ev.LotSold("Field", "Ann", 500), ev.LotBoughtBack("Field")], 5,
                                  "lot 'Field' bought back, but it is unsold or the field's"),
    "bought back twice": ([configured(), *entered(A), ev.LotAdded("Lot", (A,)), ev.LotSold("Lot", "Ann", 500),
                           ev.LotBoughtBack("Lot"), ev.LotBoughtBack("Lot")], 6, "lot 'Lot' bought back twice"),
    "a jackpot's seat for a stranger": ([configured(), *entered(A), ev.JackpotOpened("J", 1000, 2),
                                         ev.JackpotBought("J", STRANGER)], 4,
                                        "player 99 is not in the event, or has a seat of jackpot 'J' already"),
    "a jackpot over its seats": ([configured(), *entered(A, B, C), ev.JackpotOpened("J", 1000, 2),
                                  *(ev.JackpotBought("J", p) for p in (A, B, C))], 8, "jackpot 'J' is full"),
    "a jackpot started half empty": ([configured(), *entered(A), ev.JackpotOpened("J", 1000, 2),
                                      ev.JackpotBought("J", A), ev.JackpotStarted("J", 7, (A,))], 5,
                                     "jackpot 'J' started before it was full"),
    "a seat bought after the start": ([configured(), *entered(A, B, C), ev.JackpotOpened("J", 1000, 2),
                                       ev.JackpotBought("J", A), ev.JackpotBought("J", B),
                                       ev.JackpotStarted("J", 7, (A, B)), ev.JackpotLeft("J", A)], 9,
                                      "jackpot 'J' has started already"),
    "won at the board by a stranger": ([*played()[:6], ev.SlotFinished("main:r1:m2", "m-2", 40, STRANGER, B, 5, 3)],
                                       7, "a result for players not entered: [99]"),
}


@pytest.mark.parametrize("case", FORGED)
def test_a_fact_the_decider_would_never_have_appended_is_named_by_position(case):
    events, version, why = FORGED[case]
    with pytest.raises(Inconsistent, match=re.escape(why)) as refused:
        judge("tournament-1", rows(*events))
    assert refused.value.position == FIRST + version - 1
    assert f"(version {version})" in str(refused.value)
