"""Places in a knockout's tables go by the round reached: players knocked out in the same round share the place
(3=, 5=), whatever their seeds; in a Consolation and a Last Chance flight, and in a double elimination, the same.
Derived from the stream's facts alone (pure: run with -p no:django -p tests.pure)."""

from __future__ import annotations

from tournaments import decider, derive
from tournaments import events as ev
from tournaments.formats import places

from .test_decider import fold, knockout

EIGHT = (1, 2, 3, 4, 5, 6, 7, 8)  # player n is seed n


def played(state, pick, *, until=None):
    """Every ready match won by ``pick(players)`` until nothing is left to play (or ``until`` says stop)."""
    for _ in range(64):
        view = derive.derive(state)
        ready = [s for s in view.slots if s.status == "ready" and (until is None or not until(s))]
        if not ready:
            return state
        for s in ready:
            winner = pick(s.players)
            loser = next(p for p in s.players if p != winner)
            state = fold_more(state, ev.ResultReported(s.key, winner, loser, s.length, 0, s.length))
    raise AssertionError("the event did not end")


def fold_more(state, *events):
    for e in events:
        state = decider.evolve(state, e)
    return state


def table(state, flight="main"):
    return [(r.player, r.rank, r.shared) for r in derive.derive(state).flights[flight]]


def test_the_semi_final_losers_share_3rd_and_the_quarter_final_losers_5th_whatever_their_seeds():
    lower_seed_wins = played(fold(*knockout(*EIGHT, lengths={"main": {"default": 3}})), max)
    rows = table(lower_seed_wins)
    assert [rank for _, rank, _ in rows] == [1, 2, 3, 3, 5, 5, 5, 5]
    assert [shared for *_, shared in rows] == [False, False, True, True, True, True, True, True]
    assert {p for p, rank, _ in rows if rank == 3} == {5, 6} and {p for p, rank, _ in rows if rank == 5} == {1, 2, 3, 4}
    # the same results with seeds the other way round give the same places: the seed decides nothing
    upset = played(fold(*knockout(*reversed(EIGHT), lengths={"main": {"default": 3}})), max)
    assert {p: rank for p, rank, _ in table(upset)} == {p: rank for p, rank, _ in rows}


def test_a_bye_holder_out_in_round_two_shares_the_place_of_those_who_won_a_match_to_get_there():
    six = played(fold(*knockout(1, 2, 3, 4, 5, 6, lengths={"main": {"default": 3}})), max)
    # seeds 1 and 2 had byes and lost in the semi-finals to 5 and 6, who had won a round-1 match to get there
    assert {p: rank for p, rank, _ in table(six)} == {6: 1, 5: 2, 1: 3, 2: 3, 3: 5, 4: 5}


def test_while_it_is_played_players_still_in_rank_ahead_of_those_out_in_the_round_they_reached():
    state = fold(*knockout(*EIGHT, lengths={"main": {"default": 3}}))
    state = played(state, min, until=lambda s: s.round > 1 or s.key == "main:r1:m4")  # three quarter-finals won
    ranks = {p: rank for p, rank, _ in table(state)}
    assert ranks[1] == ranks[4] == ranks[2] == 1  # through to the semi-finals
    assert ranks[3] == ranks[6] == 4  # their quarter-final to play: ahead of those knocked out
    assert ranks[8] == ranks[5] == ranks[7] == 6


def test_a_withdrawn_player_ranks_after_those_out_in_the_same_round_who_played_it_out():
    state = fold(*knockout(*EIGHT, lengths={"main": {"default": 3}}), ev.PlayerWithdrew(8))
    rows = {p: (rank, shared) for p, rank, shared in table(played(state, min))}
    assert rows[5] == rows[6] == rows[7] == (5, True)  # knocked out in the quarter-finals, at the board
    assert rows[8] == (8, False)  # withdrew: after them, a place of their own


def test_consolation_and_last_chance_flights_share_places_the_same_way():
    state = fold(*knockout(*EIGHT, consolation=True, last_chance=True,
                           lengths={"main": {"default": 3}, "consolation": {"default": 3},
                                    "last_chance": {"default": 3}}))
    state = played(state, min)
    consolation = [rank for _, rank, _ in table(state, "consolation")]
    assert consolation == [1, 2, 3, 3]  # the four quarter-final losers: 5 v 8 and 6 v 7, then the final
    assert [rank for _, rank, _ in table(state, "last_chance")] == [1, 2, 3]  # three out of the consolation


def test_a_double_elimination_places_those_out_in_the_same_losers_round_together():
    state = played(fold(*knockout(*EIGHT, format="double_elimination")), min)
    rows = table(state, "")
    # champion, grand final loser, losers' final loser, losers' round 3 loser, then round 2's two and round 1's two
    assert [rank for _, rank, _ in rows] == [1, 2, 3, 4, 5, 5, 7, 7]
    assert [p for p, *_ in rows][:2] == [1, 2]


def test_shared_places_skip_the_places_they_cover():
    assert places.shared_places(["a", "b", "c", "c", "d", "d", "d", "d"]) == [1, 2, 3, 3, 5, 5, 5, 5]
    assert places.shared_places([]) == []
