"""Team events (tournaments/formats/teams.py): a round robin of four teams of three boards worked by hand to its
standings, a team match decided before its last board, a drawn one, the tie-breaks in their stated order, and the
line-ups a team may play."""

import pytest

from tournaments.formats import teams as tf
from tournaments.formats.core import FormatError, Reason, Result

THREE = tf.Config(boards=3)
TEAMS = {n: tf.Team(n, (n * 10 + 1, n * 10 + 2, n * 10 + 3)) for n in (1, 2, 3, 4)}  # team 2: players 21, 22, 23


def board(winner: int, loser: int, lost_with: int) -> Result:
    return Result(winner, loser, 7, lost_with)  # 7-point matches


def played(a: int, b: int, *boards: Result) -> tf.TeamMatch:
    return tf.team_match(TEAMS[a], TEAMS[b], (TEAMS[a].members, TEAMS[b].members), dict(enumerate(boards, 1)),
                         THREE)


def test_four_teams_of_three_boards_played_out_worked_by_hand():
    # the Berger tables for four: round 1: 1 v 4, 2 v 3; round 2: 3 v 4, 1 v 2; round 3: 2 v 4, 1 v 3
    assert tf.round_robin([1, 2, 3, 4]) == [[(1, 4), (2, 3)], [(3, 4), (1, 2)], [(2, 4), (1, 3)]]
    matches = [
        played(1, 4, board(11, 41, 3), board(12, 42, 5), board(43, 13, 6)),  # team 1 wins 2-1
        played(2, 3, board(31, 21, 2), board(22, 32, 4), board(33, 23, 0)),  # team 3 wins 2-1
        played(3, 4, board(31, 41, 1), board(32, 42, 1), board(33, 43, 1)),  # team 3 wins 3-0
        played(1, 2, board(21, 11, 6), board(12, 22, 6), board(23, 13, 5)),  # team 2 wins 2-1
        played(2, 4, board(21, 41, 0), board(22, 42, 0), board(43, 23, 6)),  # team 2 wins 2-1
        played(1, 3, board(11, 31, 5), board(32, 12, 5), board(13, 33, 2)),  # team 1 wins 2-1
    ]
    assert [m.winner for m in matches] == [1, 3, 3, 2, 2, 1]
    table = {row.team: row for row in tf.standings([1, 2, 3, 4], matches)}
    # By hand: teams 1, 2 and 3 each won two team matches (4 match points), team 4 none.
    # Board points: team 1 2+1+2 = 5; team 2 1+2+2 = 5; team 3 2+3+1 = 6; team 4 1+0+1 = 2.
    # Team 3 leads on board points. Teams 1 and 2 are still tied: team 2 won their team match, so it is second.
    assert [(r.team, r.rank, r.match_points, r.board_points) for r in tf.standings([1, 2, 3, 4], matches)] == [
        (3, 1, 4, 6), (2, 2, 4, 5), (1, 3, 4, 5), (4, 4, 0, 2)]
    assert (table[2].tiebreaks["head_to_head"], table[1].tiebreaks["head_to_head"]) == (2, 0)
    # Points, by hand: team 1 won 7+7+6 + 6+7+5 + 7+5+7 = 57 and lost 3+5+7 + 7+6+7 + 5+7+2 = 49;
    # team 2 won 2+7+0 + 7+6+7 + 7+7+6 = 49 and lost 7+4+7 + 6+7+5 + 0+0+7 = 43.
    assert (table[1].points_for, table[1].points_against) == (57, 49)
    assert (table[2].points_for, table[2].points_against) == (49, 43)
    assert [(table[t].won, table[t].lost, table[t].played) for t in (1, 2, 3, 4)] == [(2, 1, 3), (2, 1, 3),
                                                                                      (2, 1, 3), (0, 3, 3)]


def test_a_team_match_is_won_with_two_boards_of_three_before_the_third_ends():
    m = tf.team_match(TEAMS[1], TEAMS[2], (TEAMS[1].members, TEAMS[2].members),
                      {1: board(11, 21, 4), 3: board(13, 23, 2)}, THREE)
    assert m.decided and m.winner == 1 and m.board_wins == (2, 0)
    one_each = tf.team_match(TEAMS[1], TEAMS[2], (TEAMS[1].members, TEAMS[2].members),
                             {1: board(11, 21, 4), 2: board(22, 12, 2)}, THREE)
    assert not one_each.decided and one_each.winner is None and one_each.match_points(1) == 0


def test_an_even_number_of_boards_shared_is_a_drawn_team_match():
    two = tf.Config(boards=2)
    a, b = tf.Team(1, (11, 12)), tf.Team(2, (21, 22))
    m = tf.team_match(a, b, (a.members, b.members), {1: board(11, 21, 3), 2: board(22, 12, 3)}, two)
    assert m.decided and m.winner is None and (m.match_points(1), m.match_points(2)) == (1, 1)
    table = tf.standings([1, 2], [m])
    assert [(r.team, r.drawn, r.match_points) for r in table] == [(1, 1, 1), (2, 1, 1)]  # equal throughout: seed


def test_a_circle_of_wins_is_decided_by_the_points_difference():
    # 1 beats 2, 2 beats 3, 3 beats 1, each 2-1: 2 match points and 3 board points each, 2 head to head each
    matches = [
        played(1, 2, board(11, 21, 6), board(12, 22, 6), board(23, 13, 0)),
        played(2, 3, board(21, 31, 0), board(22, 32, 0), board(33, 23, 6)),
        played(3, 1, board(31, 11, 5), board(32, 12, 5), board(13, 33, 5)),
    ]
    # By hand, points won - lost per team match:
    #   1 v 2: team 1 7+7+0 - (6+6+7) = -5, team 2 +5;
    #   2 v 3: team 2 7+7+6 - (0+0+7) = +13, team 3 -13;
    #   3 v 1: team 3 7+7+5 - (5+5+7) = +2, team 1 -2.
    # Team 2: +5 +13 = +18; team 1: -5 -2 = -7; team 3: -13 +2 = -11.
    table = tf.standings([1, 2, 3], matches)
    assert [(r.team, r.points_for - r.points_against) for r in table] == [(2, 18), (1, -7), (3, -11)]
    assert {r.tiebreaks["head_to_head"] for r in table} == {2}


def test_line_ups_reserves_and_a_fixed_board_order():
    wbif = tf.Config(boards=5, reserves=1, fixed_order=True)
    team = tf.Team(1, (11, 12, 13, 14, 15, 16))
    assert tf.check_lineup(team, (11, 12, 13, 15, 16), wbif) == (11, 12, 13, 15, 16)  # the reserve in for 14

    def refused(lineup, config=wbif, t=team):
        with pytest.raises(FormatError) as caught:
            tf.check_lineup(t, lineup, config)
        return caught.value.reason

    assert refused((12, 11, 13, 14, 15)) == Reason.LINEUP_ORDER
    assert refused((11, 12, 13, 14, 99)) == Reason.LINEUP_STRANGER
    assert refused((11, 12, 13, 14)) == Reason.LINEUP_BOARDS
    assert tf.check_lineup(TEAMS[1], (13, 11, 12), THREE) == (13, 11, 12)  # free order: a team sets it each match
    with pytest.raises(FormatError) as caught:
        tf.check_teams([TEAMS[1], tf.Team(2, (21, 22))], THREE)
    assert caught.value.reason == Reason.TEAM_SIZE
    with pytest.raises(FormatError) as caught:
        tf.check_teams([TEAMS[1], tf.Team(2, (21, 22, 11))], THREE)
    assert caught.value.reason == Reason.TEAM_MEMBER_TWICE
    with pytest.raises(FormatError) as caught:
        tf.Config(boards=3, to_win=1)
    assert caught.value.reason == Reason.TEAM_TO_WIN
    with pytest.raises(FormatError) as caught:
        played(1, 2, board(11, 22, 3))  # board 1 is 11 v 21
    assert caught.value.reason == Reason.FOREIGN_RESULT


def test_a_round_robin_of_teams_is_its_boards_each_round_waiting_for_the_one_before():
    order = [TEAMS[n] for n in (1, 2, 3, 4)]
    schedule = tf.derive(order, {}, THREE, tf.Lengths(5))
    assert len(schedule.slots) == 3 * 2 * 3 and schedule.winner is None
    first = [s for s in schedule.slots if s.round == 1]
    assert [(s.key, s.players, s.status) for s in first[:3]] == [
        ("team:r1:m1:b1", (11, 41), "ready"), ("team:r1:m1:b2", (12, 42), "ready"), ("team:r1:m1:b3", (13, 43), "ready")]
    assert all(s.status == "waiting" for s in schedule.slots if s.round > 1)
    # round 1's six boards settled: round 2 is played, round 3 still waits
    results = {s.key: Result(s.players[0], s.players[1], 5, 0) for s in first}
    schedule = tf.derive(order, results, THREE, tf.Lengths(5))
    assert {s.status for s in schedule.slots if s.round == 2} == {"ready"}
    assert {s.status for s in schedule.slots if s.round == 3} == {"waiting"}
    assert [(m.a, m.b, m.match.winner) for m in schedule.meetings if m.round == 1] == [(1, 4, 1), (2, 3, 2)]
    assert [r.team for r in schedule.standings][:2] == [1, 2]


def test_a_line_up_set_for_a_round_puts_its_players_on_the_boards_and_a_result_of_another_line_up_is_left_out():
    config = tf.Config(boards=3, reserves=1, fixed_order=True)
    team1 = tf.Team(1, (11, 12, 13, 14))
    order = [team1, TEAMS[2]]
    stale = {"team:r1:m1:b2": Result(12, 22, 5, 0)}
    schedule = tf.derive(order, stale, config, lineups={(1, 1): (11, 13, 14)})
    assert [s.players for s in schedule.slots] == [(11, 21), (13, 22), (14, 23)]
    assert all(s.result is None for s in schedule.slots)
    with pytest.raises(FormatError) as refused:
        tf.derive(order, {}, config, lineups={(1, 1): (13, 11, 14)})
    assert refused.value.reason == Reason.LINEUP_ORDER
