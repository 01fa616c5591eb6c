"""A team event's rounds and stages, decided alone (no database): a Swiss of teams records round 1 with its draw and
each later round once, when the view first pairs it (an event drawn before pairings were recorded gets its rounds
recorded as they derive); a round robin of teams in groups refuses a draw too small for its groups, and closing it
seeds its knockout by the groups' qualifying order."""

from __future__ import annotations

from tournaments import commands as c
from tournaments import decider, derive, refusals
from tournaments import events as ev

DIRECTOR = c.Actor(official=True)


def fold(*events) -> decider.State:
    state = decider.State()
    for e in events:
        state = decider.evolve(state, e)
    return state


def registered(fmt: str, teams: int, **config) -> list:
    """``teams`` teams of two boards (team n: players n1, n2) registered for an event of ``fmt``."""
    out = [ev.TournamentConfigured({"format": fmt, "boards": 2, **config})]
    for n in range(1, teams + 1):
        out += [ev.PlayerEntered(n * 10 + 1, 1), ev.PlayerEntered(n * 10 + 2, 1),
                ev.TeamRegistered(n, f"Team {n}", (n * 10 + 1, n * 10 + 2))]
    return out


def draw(state, seeds) -> list:
    return decider.decide(state, c.with_facts(c.Draw(method="manual", seeds=tuple(seeds)), by=DIRECTOR))


def every_board_to_the_first_team(state) -> list:
    """Every board ready to play won by its first-listed player, the first-listed team's (7-0): each team match
    won 2-0 by its first-listed team."""
    return [ev.ResultReported(s.key, s.players[0], s.players[1], 7, 0, 7) for s in derive.derive(state).slots
            if s.status == "ready"]


def test_a_swiss_of_teams_records_each_round_once():
    state = fold(*registered("team_swiss", 4, rounds=3))
    events = draw(state, [1, 2, 3, 4])
    assert events[1] == ev.TeamRoundPaired(1, ((1, 3), (2, 4)))
    state = fold(*registered("team_swiss", 4, rounds=3), *events)
    assert decider.team_rounds_to_record(state, derive.derive(state)) == []  # round 2 waits for round 1
    state = fold(*registered("team_swiss", 4, rounds=3), *events, *every_board_to_the_first_team(state))
    round_two = decider.team_rounds_to_record(state, derive.derive(state))
    assert [e.round for e in round_two] == [2] and decider.needs_advance(state, derive.derive(state))
    state = decider.evolve(state, round_two[0])
    assert decider.team_rounds_to_record(state, derive.derive(state)) == []


def test_an_event_drawn_before_pairings_were_recorded_derives_as_it_did_and_records_them():
    drawn = [*registered("team_swiss", 4, rounds=3), ev.DrawMade((11, 12, 21, 22, 31, 32, 41, 42), "manual")]
    state = fold(*drawn)
    legacy = fold(*drawn, *every_board_to_the_first_team(state))
    view = derive.derive(legacy)
    recorded = decider.team_rounds_to_record(legacy, view)
    assert [e.round for e in recorded] == [1, 2]  # both rounds it shows, as they derive
    state = fold(*drawn, *every_board_to_the_first_team(state), *recorded)
    assert [s.key for s in derive.derive(state).slots] == [s.key for s in view.slots]
    assert [(m.round, m.a, m.b) for m in derive.derive(state).teams.meetings] == [
        (m.round, m.a, m.b) for m in view.teams.meetings]


def test_a_round_robin_of_teams_in_groups_needs_two_teams_a_group():
    state = fold(*registered("team_round_robin", 3, groups=2))
    try:
        draw(state, [1, 2, 3])
    except refusals.FieldTooSmall as refused:
        assert refused.reason.name == "TEAMS_GROUPS_FIELD" and refused.params == {"groups": 2, "teams": 4}
    else:
        raise AssertionError("drawn")


def test_closing_the_groups_seeds_the_knockout_by_the_qualifying_order():
    state = fold(*registered("team_round_robin", 4, groups=2, qualifiers=2))
    events = draw(state, [1, 2, 3, 4])  # group A: 1 and 4, group B: 2 and 3
    state = fold(*registered("team_round_robin", 4, groups=2, qualifiers=2), *events)
    try:
        decider.decide(state, c.with_facts(c.CloseStage(), by=DIRECTOR))
    except refusals.StageNotFinished:
        pass
    else:
        raise AssertionError("closed before its boards were played")
    state = fold(*registered("team_round_robin", 4, groups=2, qualifiers=2), *events,
                 *every_board_to_the_first_team(state))
    closed = decider.decide(state, c.with_facts(c.CloseStage(), by=DIRECTOR))
    # 1 and 2 won their groups 2-0; the winners are level on everything but the group, group A's first; then the
    # runners-up 4 and 3, the same
    assert closed == [ev.StageClosed(1, (1, 2, 4, 3)), ev.StageDrawMade(2, (1, 2), "standings")]
