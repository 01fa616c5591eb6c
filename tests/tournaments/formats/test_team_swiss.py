"""A Swiss of teams (tournaments/formats/teams.py): five teams of three boards over three rounds worked by hand,
each round paired from the table of teams by the individual formats' Swiss pairer, no rematch, the bye to the
lowest team without one and scoring a won team match."""

from tournaments.formats import teams as tf
from tournaments.formats.core import Result

THREE = tf.Config(boards=3)
TEAMS = [tf.Team(n, (n * 10 + 1, n * 10 + 2, n * 10 + 3)) for n in (1, 2, 3, 4, 5)]  # team 2: players 21, 22, 23


def boards(schedule: tf.Schedule, round_no: int, winners: dict[tuple[int, int], tuple[int, ...]]) -> dict:
    """Results for a round: for each team match (a, b), the team winning each board, board 1 first (7-0)."""
    out = {}
    for m in schedule.meetings:
        if m.round != round_no or m.b is None:
            continue
        for s, team in zip(m.slots, winners[(m.a, m.b)], strict=True):
            a, b = s.players
            out[s.key] = Result(a, b, 7, 0) if a // 10 == team else Result(b, a, 7, 0)
    return out


def pairs(schedule: tf.Schedule, round_no: int) -> list[tuple[int, int | None]]:
    return [(m.a, m.b) for m in schedule.meetings if m.round == round_no]


def test_five_teams_over_three_rounds_worked_by_hand():
    s = tf.derive_swiss(TEAMS, {}, THREE, rounds=3)
    # round 1, all on 0: the top half of the seed order against the bottom half, the bye to the last seed
    assert pairs(s, 1) == [(1, 3), (2, 4), (5, None)]
    assert {m.round for m in s.meetings} == {1} and s.winner is None
    results = boards(s, 1, {(1, 3): (1, 1, 3), (2, 4): (4, 4, 4)})  # 1 beats 3 2-1, 4 beats 2 3-0
    s = tf.derive_swiss(TEAMS, results, THREE, rounds=3)
    # after round 1: 4 and 1 won (3 and 2 boards), 5 had the bye (a won team match, no boards); 3 won a board
    assert [(r.team, r.match_points, r.board_points) for r in s.standings] == [
        (4, 2, 3), (1, 2, 2), (5, 2, 0), (3, 0, 1), (2, 0, 0)]
    # round 2: the bye to the lowest team without one (2); the group on 2 is 4, 1, 5: 4 meets 1 (the group's lower
    # half), 5 floats down to 3
    assert pairs(s, 2) == [(4, 1), (5, 3), (2, None)]
    results |= boards(s, 2, {(4, 1): (1, 4, 1), (5, 3): (5, 5, 5)})  # 1 beats 4 2-1, 5 beats 3 3-0
    s = tf.derive_swiss(TEAMS, results, THREE, rounds=3)
    # after round 2: 1 on 4 (boards 2+2), 5 on 4 (0+3), 4 on 2 (3+1), 2 on 2 (its bye, no boards), 3 on 0 (1+0)
    assert [(r.team, r.match_points, r.board_points) for r in s.standings] == [
        (1, 4, 4), (5, 4, 3), (4, 2, 4), (2, 2, 0), (3, 0, 1)]
    # round 3: the bye to 3, the lowest without one. 1 v 5 would leave 4 v 2, a rematch, and 1 has met 4: 1 meets
    # 2, and 5 meets 4
    assert pairs(s, 3) == [(1, 2), (5, 4), (3, None)]
    assert s.winner is None
    results |= boards(s, 3, {(1, 2): (1, 1, 1), (5, 4): (4, 5, 4)})  # 1 beats 2 3-0, 4 beats 5 2-1
    s = tf.derive_swiss(TEAMS, results, THREE, rounds=3)
    # final: 1 on 6 (boards 2+2+3 = 7); 4 on 4 (3+1+2 = 6) before 5 on 4 (0+3+1 = 4) by board points;
    # 3 on 2 (its bye; boards 1+0) before 2 on 2 (0+0+0)
    assert [(r.team, r.match_points, r.board_points) for r in s.standings] == [
        (1, 6, 7), (4, 4, 6), (5, 4, 4), (3, 2, 1), (2, 2, 0)]
    assert s.winner == 1
    met = [frozenset(p) for r in (1, 2, 3) for p in pairs(s, r) if None not in p]
    assert len(met) == len(set(met))  # no rematch
    assert sorted(m.a for m in s.meetings if m.b is None) == [2, 3, 5]  # three byes, three teams


def test_a_round_waits_for_every_board_of_the_round_before():
    s = tf.derive_swiss(TEAMS[:4], {}, THREE, rounds=2)
    first = boards(s, 1, {(1, 3): (1, 1, 1), (2, 4): (2, 2, 2)})
    one_left = dict(list(first.items())[:-1])
    s = tf.derive_swiss(TEAMS[:4], one_left, THREE, rounds=2)
    assert {m.round for m in s.meetings} == {1}  # round 2 is not paired while a board of round 1 is open
    s = tf.derive_swiss(TEAMS[:4], first, THREE, rounds=2)
    assert pairs(s, 2) == [(1, 2), (3, 4)] and all(sl.status == "ready" for sl in s.slots if sl.round == 2)


def test_a_paired_round_stands_when_an_earlier_board_is_corrected():
    s = tf.derive_swiss(TEAMS, {}, THREE, rounds=3)
    results = boards(s, 1, {(1, 3): (1, 1, 3), (2, 4): (4, 4, 4)})
    s = tf.derive_swiss(TEAMS, results, THREE, rounds=3)
    paired = [tuple(pairs(s, 1)), tuple(pairs(s, 2))]
    assert paired[1] == ((4, 1), (5, 3), (2, None))
    round_two = boards(s, 2, {(4, 1): (1, 4, 1), (5, 3): (5, 5, 5)})
    played = results | {k: v for k, v in list(round_two.items())[:1]}  # one board of round 2 played
    # round 1's board 2 of 1 v 3 corrected: team 3 won it, and so the team match 2-1
    key = next(m.slots[1].key for m in s.meetings if (m.round, m.a) == (1, 1))
    a, b = next(m.slots[1].players for m in s.meetings if (m.round, m.a) == (1, 1))
    corrected = played | {key: Result(b, a, 7, 0)}
    # paired again from the corrected table, round 2 would be another round: 4 and 3 lead on 2 match points
    assert pairs(tf.derive_swiss(TEAMS, corrected, THREE, rounds=3), 2) != list(paired[1])
    s = tf.derive_swiss(TEAMS, corrected, THREE, rounds=3, paired=paired)
    assert tuple(pairs(s, 2)) == paired[1]  # as paired
    first = next(iter(round_two))
    assert next(sl for sl in s.slots if sl.key == first).result == round_two[first]  # its result stands
    # the table is the corrected one: 4 (3 boards), 3 (2), 5 (the bye) on 2 match points; 1 lost, with a board
    assert [(r.team, r.match_points) for r in s.standings][:2] == [(4, 2), (3, 2)]
    assert {r.team: r.match_points for r in s.standings}[1] == 0
    assert {m.round for m in s.meetings} == {1, 2}  # round 3 waits for round 2's boards


def test_the_round_after_the_paired_ones_is_paired_from_the_corrected_table():
    s = tf.derive_swiss(TEAMS, {}, THREE, rounds=3)
    results = boards(s, 1, {(1, 3): (1, 1, 3), (2, 4): (4, 4, 4)})
    s = tf.derive_swiss(TEAMS, results, THREE, rounds=3)
    paired = [tuple(pairs(s, 1)), tuple(pairs(s, 2))]
    results |= boards(s, 2, {(4, 1): (1, 4, 1), (5, 3): (5, 5, 5)})
    assert pairs(tf.derive_swiss(TEAMS, results, THREE, rounds=3, paired=paired), 3) == [(1, 2), (5, 4), (3, None)]
    # round 1's board 2 of 1 v 3 corrected: team 3 won that team match 2-1
    board = next(m.slots[1] for m in s.meetings if (m.round, m.a) == (1, 1))
    results[board.key] = Result(board.players[1], board.players[0], 7, 0)
    s = tf.derive_swiss(TEAMS, results, THREE, rounds=3, paired=paired)
    assert tuple(pairs(s, 2)) == paired[1]
    # 5 (its bye, then 3-0 over 3: boards 0+3) leads on 4 match points; 1 (beaten by 3, then beat 4: 1+2) is on 2
    # with 4 (3+1) and 2 (its bye); 3 (2+0) on 2 as well
    assert [(r.team, r.match_points, r.board_points) for r in s.standings] == [
        (5, 4, 3), (4, 2, 4), (1, 2, 3), (3, 2, 2), (2, 2, 0)]
    # round 3 from that table: the bye to 3, lowest without one; the leader 5 first, against 4 (1 v 5 would leave
    # 4 v 2, a rematch)
    assert pairs(s, 3) == [(5, 4), (1, 2), (3, None)]
