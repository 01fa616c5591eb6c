"""Tie-breaks on a small event worked out by hand."""

from __future__ import annotations

import pytest

from tournaments.formats import FormatError, Pairing, Result, standings
from tournaments.formats.core import Reason

from tests.refusals import refused

HISTORY = [
    [Pairing(1, 2, Result(1, 2, 7, 3)), Pairing(3, 4, Result(3, 4, 7, 5)), Pairing(5, None)],
    [Pairing(1, 3, Result(3, 1, 7, 6)), Pairing(5, 2, Result(5, 2, 7, 0)), Pairing(4, None)],
    [Pairing(3, 5, Result(3, 5, 7, 4)), Pairing(1, 4, Result(4, 1, forfeit=True)), Pairing(2, None)],
]
ALL = ["buchholz", "median_buchholz", "sonneborn_berger", "points_diff"]


def test_every_tiebreak_by_hand():
    table = {s.player: s for s in standings([1, 2, 3, 4, 5], HISTORY, ALL)}
    assert {p: s.score for p, s in table.items()} == {1: 1, 2: 1, 3: 3, 4: 2, 5: 2}
    # Buchholz: opponents' scores, a bye counts 0.
    assert {p: s.tiebreaks["buchholz"] for p, s in table.items()} == {1: 6, 2: 3, 3: 5, 4: 4, 5: 4}
    # Median: without the highest and the lowest of the three.
    assert {p: s.tiebreaks["median_buchholz"] for p, s in table.items()} == {1: 2, 2: 1, 3: 2, 4: 1, 5: 1}
    # Sonneborn-Berger: scores of the opponents beaten (4's forfeit win over 1 counts).
    assert {p: s.tiebreaks["sonneborn_berger"] for p, s in table.items()} == {1: 1, 2: 0, 3: 5, 4: 1, 5: 1}
    assert {p: s.tiebreaks["points_diff"] for p, s in table.items()} == {1: 3, 2: -11, 3: 6, 4: -2, 5: 4}
    four = table[4]
    assert (four.played, four.wins, four.losses, four.byes, four.points_for, four.points_against) == (3, 2, 1, 1, 5, 7)


def test_a_swiss_bye_is_a_won_match_so_played_is_wins_plus_losses():
    """Player 2 lost twice and had a bye: played 3 (the bye one of them), won 1 (the bye), lost 2 - never
    "played 2, won 1, lost 2"."""
    table = {s.player: s for s in standings([1, 2, 3, 4, 5], HISTORY, ALL)}
    two = table[2]
    assert (two.played, two.wins, two.losses, two.byes, two.score) == (3, 1, 2, 1, 1)
    assert (two.points_for, two.points_against) == (3, 14)  # the bye: 0-0 in match points
    assert all(s.played == s.wins + s.losses for s in table.values())


@pytest.mark.parametrize(("tiebreaks", "order"), [
    ([], [3, 4, 5, 1, 2]),  # ties fall to seed order
    (["buchholz", "points_diff"], [3, 5, 4, 1, 2]),
    (["sonneborn_berger"], [3, 4, 5, 1, 2]),
    (["median_buchholz"], [3, 4, 5, 1, 2]),
    (["points_diff"], [3, 5, 4, 1, 2]),
])
def test_tiebreaks_apply_in_the_order_given(tiebreaks, order):
    table = standings([1, 2, 3, 4, 5], HISTORY, tiebreaks)
    assert [s.player for s in table] == order
    assert [s.rank for s in table] == [1, 2, 3, 4, 5]


def test_byes_count_for_nothing_when_asked_and_unplayed_pairings_are_skipped():
    table = {s.player: s for s in standings([1, 2, 3], [[Pairing(1, 2), Pairing(3, None)]], bye_is_win=False)}
    assert table[3].wins == 0 and table[3].byes == 1 and table[3].played == 0 and table[1].played == 0


def test_bad_input():
    with refused(FormatError, Reason.UNKNOWN_TIEBREAK, tiebreak="'koya'"):
        standings([1, 2], [], ["koya"])
    with refused(FormatError, Reason.PAIRED_NOT_LISTED):
        standings([1, 2], [[Pairing(1, 3, Result(1, 3))]])


def test_withdrawn_players_come_after_every_player_still_in_whatever_their_score():
    """Player 3 (the leader on score) left: ranked last, below 2 with no win; 1 and 2 keep their order, and 3's
    results still count in their tie-breaks."""
    rounds = [[Pairing(1, 2, Result(1, 2, 7, 1)), Pairing(3, 4, Result(3, 4, 7, 0))],
              [Pairing(3, 1, Result(3, 1, 7, 2)), Pairing(2, 4, Result(4, 2, 7, 6))]]
    kept = standings([1, 2, 3, 4], rounds, ("buchholz",))
    table = standings([1, 2, 3, 4], rounds, ("buchholz",), withdrawn={3})
    assert [s.player for s in kept] == [3, 1, 4, 2]
    assert [s.player for s in table] == [1, 4, 2, 3] and [s.rank for s in table] == [1, 2, 3, 4]
    assert {s.player: s.tiebreaks for s in table} == {s.player: s.tiebreaks for s in kept}
