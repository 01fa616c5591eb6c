"""A knockout of teams (tournaments/formats/teams.py): the seeded bracket, a team match's even split decided by the
points over all the boards and then by board 1, the winners going on and the final's winner the event's."""

from tournaments.formats import teams as tf
from tournaments.formats.core import Result

TWO = tf.Config(boards=2)
TEAMS = [tf.Team(n, (n * 10 + 1, n * 10 + 2)) for n in (1, 2, 3, 4)]  # team 3: players 31, 32


def test_four_teams_of_two_boards_to_the_final_worked_by_hand():
    s = tf.derive_knockout(TEAMS, {}, TWO)
    assert [(m.round, m.a, m.b) for m in s.meetings] == [(1, 1, 4), (1, 2, 3)]  # seeds 1 and 2 apart
    results = {
        # 1 v 4 shared 1-1; team 1's points 5 + 7 = 12 against 7 + 0 = 7: team 1 goes on
        "team:r1:m1:b1": Result(41, 11, 7, 5), "team:r1:m1:b2": Result(12, 42, 7, 0),
        # 2 v 3 shared 1-1 and the points equal (3 + 7 = 10 each): team 3 won board 1, team 3 goes on
        "team:r1:m2:b1": Result(31, 21, 7, 3), "team:r1:m2:b2": Result(22, 32, 7, 3),
    }
    s = tf.derive_knockout(TEAMS, results, TWO)
    semis = [m for m in s.meetings if m.round == 1]
    assert [(m.match.winner, m.through) for m in semis] == [(None, 1), (None, 3)]
    assert [(m.round, m.a, m.b) for m in s.meetings if m.round == 2] == [(2, 1, 3)] and s.winner is None
    assert {sl.status for sl in s.slots if sl.round == 2} == {"ready"}
    results |= {"team:r2:m1:b1": Result(11, 31, 7, 2), "team:r2:m1:b2": Result(12, 32, 7, 6)}  # team 1 wins 2-0
    s = tf.derive_knockout(TEAMS, results, TWO)
    assert s.winner == 1


def test_three_teams_the_top_seed_has_the_bye_and_the_final_waits_for_the_semi_final():
    s = tf.derive_knockout(TEAMS[:3], {}, TWO)
    assert [(m.round, m.a, m.b, m.through) for m in s.meetings] == [(1, 1, None, 1), (1, 2, 3, None)]
    one = {"team:r1:m2:b1": Result(21, 31, 7, 1)}
    assert {m.round for m in tf.derive_knockout(TEAMS[:3], one, TWO).meetings} == {1}
    both = one | {"team:r1:m2:b2": Result(22, 32, 7, 1)}
    s = tf.derive_knockout(TEAMS[:3], both, TWO)
    assert [(m.a, m.b) for m in s.meetings if m.round == 2] == [(1, 2)]


def test_an_even_split_goes_to_the_points_then_to_board_1():
    a, b = TEAMS[0], TEAMS[1]
    split = tf.team_match(a, b, (a.members, b.members), {1: Result(21, 11, 7, 6), 2: Result(12, 22, 7, 0)}, TWO)
    assert split.winner is None and tf.goes_through(split) == 1  # 6 + 7 against 7 + 0
    level = tf.team_match(a, b, (a.members, b.members), {1: Result(21, 11, 7, 0), 2: Result(12, 22, 7, 0)}, TWO)
    assert tf.goes_through(level) == 2  # 7 all: board 1's winner
    open_ = tf.team_match(a, b, (a.members, b.members), {1: Result(21, 11, 7, 0)}, TWO)
    assert tf.goes_through(open_) is None
