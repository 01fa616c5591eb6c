"""A round robin of teams in groups (tournaments/formats/teams.py): the teams dealt by seed in snake order, each group
its own round robin with its own boards and table, the qualifying order (group winners first, then the runners-up…)
and the knockout of the qualifying teams after the groups, its rounds numbered on from theirs."""

from tournaments.formats import teams as tf
from tournaments.formats.core import Result

THREE = tf.Config(boards=3)
TEAMS = [tf.Team(n, (n * 10 + 1, n * 10 + 2, n * 10 + 3)) for n in range(1, 7)]  # team 2: players 21, 22, 23
# the team winning each team match, and how many of its boards (3 or 2: the others' board 3)
GROUP_RESULTS = {
    # group 1 (seeds 1, 4, 5): 4 beats 1 2-1 and 5 3-0; 1 beats 5 3-0. 4 first, 1 second, 5 third
    frozenset((1, 4)): (4, 2), frozenset((4, 5)): (4, 3), frozenset((1, 5)): (1, 3),
    # group 2 (seeds 2, 3, 6): 2 beats 3 3-0 and 6 2-1; 6 beats 3 2-1. 2 first, 6 second, 3 third
    frozenset((2, 3)): (2, 3), frozenset((2, 6)): (2, 2), frozenset((3, 6)): (6, 2),
}


def played(schedule: tf.Schedule, outcomes) -> dict:
    """Every open team match of ``schedule`` played out as ``outcomes`` says (a 7-0 board each)."""
    out = {}
    for m in schedule.meetings:
        if m.b is None or frozenset((m.a, m.b)) not in outcomes:
            continue
        team, boards = outcomes[frozenset((m.a, m.b))]
        for i, s in enumerate(m.slots):
            a, b = s.players
            wins = (a // 10 == team) == (i < boards)
            out[s.key] = Result(a, b, 7, 0) if wins else Result(b, a, 7, 0)
    return out


def test_the_teams_are_dealt_by_seed_in_snake_order_each_group_its_own_boards():
    s = tf.derive_groups(TEAMS, {}, THREE, 2)
    by_group = {}
    for m in s.meetings:
        by_group.setdefault(m.stage, set()).update(t for t in (m.a, m.b) if t is not None)
    assert by_group == {"g1": {1, 4, 5}, "g2": {2, 3, 6}}
    assert {sl.key.split(":")[1] for sl in s.slots} == {"g1", "g2"}
    assert len({sl.key for sl in s.slots}) == len(s.slots) == 2 * 3 * 3  # 3 team matches a group, 3 boards each
    assert all(sl.key.startswith(f"team:{m.stage}:r{m.round}:m{m.index}:b") for m in s.meetings for sl in m.slots)
    # each group of three plays three rounds, a team resting in each
    assert sorted(m.round for m in s.meetings if m.stage == "g1") == [1, 1, 2, 2, 3, 3]
    assert [len(g) for g in s.groups] == [3, 3] and s.winner is None
    # seven teams in three groups: 1 6 7 | 2 5 | 3 4
    seven = [tf.Team(n, (n * 10 + 1, n * 10 + 2, n * 10 + 3)) for n in range(1, 8)]
    assert [[r.team for r in table] for table in tf.derive_groups(seven, {}, THREE, 3).groups] == [
        [1, 6, 7], [2, 5], [3, 4]]


def test_one_group_keeps_the_keys_of_a_round_robin_of_teams():
    assert [sl.key for sl in tf.derive_groups(TEAMS[:4], {}, THREE, 1).slots] == [
        sl.key for sl in tf.derive(TEAMS[:4], {}, THREE).slots]


def test_each_group_has_its_table_and_the_qualifying_order_takes_the_winners_first():
    s = tf.derive_groups(TEAMS, {}, THREE, 2)
    for _ in range(3):  # a round at a time: each waits for the boards of the one before
        s = tf.derive_groups(TEAMS, played(s, GROUP_RESULTS) | {sl.key: sl.result for sl in s.slots if sl.result},
                             THREE, 2)
    assert all(sl.result for sl in s.slots)
    # group 1: 4 on 4 match points (boards 2+3), 1 on 2 (1+3), 5 on 0 (it lost both 3-0)
    assert [(r.rank, r.team, r.match_points, r.board_points) for r in s.groups[0]] == [
        (1, 4, 4, 5), (2, 1, 2, 4), (3, 5, 0, 0)]
    # group 2: 2 on 4 (3+2), 6 on 2 (1+2), 3 on 0 (0+1)
    assert [(r.rank, r.team, r.match_points, r.board_points) for r in s.groups[1]] == [
        (1, 2, 4, 5), (2, 6, 2, 3), (3, 3, 0, 1)]
    # the winners (4 and 2 on 4 match points and 5 boards: group 1's first), the runners-up (1 on 4 boards before
    # 6 on 3), the thirds (3 with a board before 5)
    assert tf.qualifying_order(s.groups) == [4, 2, 1, 6, 3, 5]


def test_the_knockout_of_the_qualifiers_follows_the_groups():
    s = tf.derive_groups(TEAMS, {}, THREE, 2)
    results = {}
    for _ in range(3):
        results |= played(s, GROUP_RESULTS)
        s = tf.derive_groups(TEAMS, results, THREE, 2)
    qualifiers = tf.qualifying_order(s.groups)[:4]  # 4, 2, 1, 6: 4 meets 6, 2 meets 1
    s = tf.derive_groups(TEAMS, results, THREE, 2, qualifiers=qualifiers)
    knockout = [m for m in s.meetings if m.stage == tf.KNOCKOUT]
    assert [(m.round, m.a, m.b) for m in knockout] == [(4, 4, 6), (4, 2, 1)]  # numbered on from the groups' 3
    assert all(sl.key.startswith("team:ko:r4:") and sl.status == "ready" for m in knockout for sl in m.slots)
    results |= played(s, {frozenset((4, 6)): (6, 2), frozenset((1, 2)): (2, 3)})
    s = tf.derive_groups(TEAMS, results, THREE, 2, qualifiers=qualifiers)
    final = [m for m in s.meetings if m.stage == tf.KNOCKOUT and m.round == 5]
    assert [(m.a, m.b) for m in final] == [(6, 2)] and s.winner is None
    results |= played(s, {frozenset((6, 2)): (2, 2)})
    s = tf.derive_groups(TEAMS, results, THREE, 2, qualifiers=qualifiers)
    assert s.winner == 2
    assert [[r.team for r in table] for table in s.groups] == [[4, 1, 5], [2, 6, 3]]  # the groups' tables stand
