"""Ladders and leagues in the decider: challenges, refusals, deadlines, walkovers, seasons. No database.

The clock enters as data: each command carries the reading the service took (``at``, seconds), so every
deadline here is a plain number; the tests step the clock by hand.
"""

from __future__ import annotations

import random

import pytest

from tournaments import commands as c
from tournaments import decider
from tournaments import events as ev
from tournaments.formats.league import DAY
from tournaments.refusals import (
    ChallengeBegun, ChallengeRefused, NoPreviousSeason, NotLadder, NotPermitted, UnknownChallenge,
)

DIRECTOR = c.Actor(official=True)
T0 = 1_800_000_000


def player(pid):
    return c.Actor(player=pid)


def run(state, command, by=DIRECTOR):
    """Decide and fold, as the service does: returns the new state and the events."""
    new = decider.decide(state, c.with_facts(command, by=by))
    for e in new:
        state = decider.evolve(state, e)
    return state, new


def refused(state, command, error, by=DIRECTOR):
    with pytest.raises(error) as caught:
        decider.decide(state, c.with_facts(command, by=by))
    assert caught.value.code == error.code and str(caught.value)


def ladder_of(n, **config):
    state = decider.State()
    for e in [ev.TournamentConfigured({"format": "ladder", **config}), *[ev.PlayerEntered(p, 1) for p in
                                                                           range(1, n + 1)]]:
        state = decider.evolve(state, e)
    state, _ = run(state, c.Draw(method="manual", seeds=tuple(range(1, n + 1))))
    return state


def rungs(state):
    return list(decider.view_of(state).ladder.rungs)


def finish(state, slot, winner, loser, points=(7, 3)):
    """The slot's match won at the board, as the process manager records it."""
    match_id = f"m-{slot}"
    state = decider.evolve(state, ev.MatchCreated(slot, match_id, (winner, loser), 7))
    return decider.evolve(state, ev.SlotFinished(slot, match_id, 9, winner, loser, *points))


# -- ladder ---------------------------------------------------------------------------------------------


def test_a_challenge_creates_a_slot_with_a_deadline_and_a_win_moves_the_challenger_up():
    state = ladder_of(5, reach=3, challenge_days=10)
    state, new = run(state, c.IssueChallenge(challenger=5, defender=2, at=T0), by=player(5))
    assert new == [ev.ChallengeIssued(1, 5, 2, T0, T0 + 10 * DAY, 7)]
    view = decider.view_of(state)
    assert [s.key for s in view.to_create] == ["ladder:c1"]
    assert decider.deadlines(state) == [{"slot": "ladder:c1", "number": 1, "deadline": T0 + 10 * DAY}]
    state = finish(state, "ladder:c1", 5, 2)
    assert rungs(state) == [1, 5, 2, 3, 4]
    assert decider.deadlines(state) == []


def test_challenges_out_of_reach_twice_open_or_downward_are_refused():
    state = ladder_of(6, reach=2)
    refused(state, c.IssueChallenge(challenger=6, defender=3, at=T0), ChallengeRefused)
    refused(state, c.IssueChallenge(challenger=3, defender=6, at=T0), ChallengeRefused)
    state, _ = run(state, c.IssueChallenge(challenger=6, defender=4, at=T0))
    refused(state, c.IssueChallenge(challenger=5, defender=4, at=T0), ChallengeRefused)  # 4 has one open
    refused(state, c.IssueChallenge(challenger=3, defender=2, at=T0), NotPermitted, by=player(2))


def test_only_a_ladder_takes_challenges():
    state = decider.State()
    for e in [ev.TournamentConfigured({"format": "round_robin"}), ev.PlayerEntered(1, 1), ev.PlayerEntered(2, 1),
              ev.DrawMade((1, 2), "manual")]:
        state = decider.evolve(state, e)
    refused(state, c.IssueChallenge(challenger=2, defender=1), NotLadder)


@pytest.mark.parametrize("rule,expected", [("walkover", [1, 3, 2]), ("cancelled", [1, 2, 3])])
def test_a_refused_challenge_is_a_walkover_or_cancelled_as_the_director_set(rule, expected):
    state = ladder_of(3, refused=rule)
    state, _ = run(state, c.IssueChallenge(challenger=3, defender=2, at=T0), by=player(3))
    refused(state, c.DeclineChallenge(number=1, at=T0 + 5), NotPermitted, by=player(1))
    state, new = run(state, c.DeclineChallenge(number=1, at=T0 + 5, reason="away"), by=player(2))
    assert new[0] == ev.ChallengeDeclined(1, 2, T0 + 5, rule, "away")
    assert rungs(state) == expected
    slot = decider.view_of(state).slots[0]
    assert slot.status == ("done" if rule == "walkover" else "void")
    assert decider.view_of(state).ladder.history[-1].how == ("refused" if rule == "walkover" else "cancelled")
    refused(state, c.DeclineChallenge(number=1, at=T0 + 6), UnknownChallenge, by=player(2))


def test_a_challenge_whose_match_began_is_not_declined_nor_lapsed():
    state = ladder_of(3, challenge_days=1)
    state, _ = run(state, c.IssueChallenge(challenger=3, defender=2, at=T0))
    state = decider.evolve(state, ev.MatchCreated("ladder:c1", "m1", (3, 2), 7))
    state = decider.evolve(state, ev.SlotMatchStarted("ladder:c1", "m1", 2))
    refused(state, c.DeclineChallenge(number=1, at=T0), ChallengeBegun, by=player(2))
    _, new = run(state, c.ApplyDeadlines(at=T0 + 2 * DAY))
    assert new == []


@pytest.mark.parametrize("rule,expected", [("walkover", [1, 3, 2]), ("cancelled", [1, 2, 3])])
def test_an_unplayed_challenge_lapses_at_its_deadline_not_before(rule, expected):
    state = ladder_of(3, challenge_days=7, unplayed=rule)
    state, _ = run(state, c.IssueChallenge(challenger=3, defender=2, at=T0))
    _, new = run(state, c.ApplyDeadlines(at=T0 + 7 * DAY - 1))
    assert new == []
    state, new = run(state, c.ApplyDeadlines(at=T0 + 7 * DAY))
    assert new[0] == ev.ChallengeLapsed(1, T0 + 7 * DAY, rule)
    assert rungs(state) == expected
    _, again = run(state, c.ApplyDeadlines(at=T0 + 30 * DAY))
    assert again == []  # settled once


def test_joins_and_withdrawals_after_the_draw():
    state = ladder_of(3)
    state, _ = run(state, c.Enter(player=4), by=player(4))
    assert rungs(state) == [1, 2, 3, 4]
    state, _ = run(state, c.IssueChallenge(challenger=4, defender=3, at=T0))
    state, _ = run(state, c.Withdraw(player=3))
    assert rungs(state) == [1, 2, 4]
    assert decider.view_of(state).slots[0].result.winner == 4  # a walkover for who stayed


def test_a_correction_re_derives_the_ladder_from_that_challenge_on():
    state = ladder_of(4)
    state, _ = run(state, c.IssueChallenge(challenger=4, defender=3, at=T0))
    state = finish(state, "ladder:c1", 4, 3)
    state, _ = run(state, c.IssueChallenge(challenger=3, defender=2, at=T0))
    state = finish(state, "ladder:c2", 3, 2)
    assert rungs(state) == [1, 3, 2, 4]  # 3, down to rung 4 after c1, challenged 2 from there and won
    state, _ = run(state, c.CorrectResult(slot="ladder:c1", winner=3, score=(7, 2), reason="scoresheet"))
    assert rungs(state) == [1, 3, 2, 4]
    state, _ = run(state, c.CorrectResult(slot="ladder:c2", winner=2, score=(7, 2), reason="scoresheet"))
    assert rungs(state) == [1, 2, 3, 4]


@pytest.mark.parametrize("n", range(2, 41))
def test_ladders_of_2_to_40_players_through_the_decider(n):
    """Property: random legal challenges on fields of 2 to 40, played, refused, lapsed at deadlines; the
    decider refuses exactly what the rules refuse, and the ladder stays a permutation of the field."""
    rng = random.Random(1000 + n)
    reach = rng.randint(1, 3)
    state = ladder_of(n, reach=reach, challenge_days=3, refused=rng.choice(["walkover", "cancelled"]))
    clock = T0
    for _ in range(2 * n):
        clock += DAY
        ladder = decider.view_of(state).ladder
        order = list(ladder.rungs)
        a = rng.choice(order)
        b = rng.choice(order)
        gap = order.index(a) - order.index(b)
        busy = {p for ch in ladder.open for p in (ch.challenger, ch.defender)}
        if not (1 <= gap <= reach) or a in busy or b in busy:
            refused(state, c.IssueChallenge(challenger=a, defender=b, at=clock), ChallengeRefused, by=player(a))
        else:
            state, new = run(state, c.IssueChallenge(challenger=a, defender=b, at=clock), by=player(a))
            number = new[0].number
            what = rng.random()
            if what < 0.6:
                winner = rng.choice([a, b])
                state = finish(state, f"ladder:c{number}", winner, b if winner == a else a)
                expected = order if winner == b else order[:order.index(b)] + [a] + [
                    p for p in order[order.index(b):] if p != a]
                assert rungs(state) == expected
            elif what < 0.8:
                state, _ = run(state, c.DeclineChallenge(number=number, at=clock), by=player(b))
        state, _ = run(state, c.ApplyDeadlines(at=clock))
        assert sorted(rungs(state)) == list(range(1, n + 1))
    state, _ = run(state, c.ApplyDeadlines(at=clock + 10 * DAY))
    assert decider.view_of(state).ladder.open == ()
    assert all(s.status in ("done", "void") for s in decider.view_of(state).slots)


# -- league ---------------------------------------------------------------------------------------------


def league_of(n, at=T0, **config):
    state = decider.State()
    for e in [ev.TournamentConfigured({"format": "league", **config}), *[ev.PlayerEntered(p, 1) for p in
                                                                           range(1, n + 1)]]:
        state = decider.evolve(state, e)
    state, new = run(state, c.Draw(method="manual", seeds=tuple(range(1, n + 1)), at=at))
    return state, new


def test_the_draw_makes_divisions_and_starts_the_clock():
    state, new = league_of(10, division_size=4, round_days=7)
    assert new[1] == ev.DivisionsMade(((1, 2, 3, 4), (5, 6, 7), (8, 9, 10)), T0, 7, None)
    view = decider.view_of(state)
    assert set(view.flights) == {"d1", "d2", "d3"}
    assert len(view.to_create) == 6 + 3 + 3  # every match of every round is due from the start
    assert decider.deadlines(state)[0] == {"round": 1, "deadline": T0 + 7 * DAY}


@pytest.mark.parametrize("rule", ["double_loss", "void"])
def test_round_deadlines_settle_the_unplayed_matches_by_the_rule(rule):
    state, _ = league_of(4, division_size=4, round_days=7, unplayed=rule)
    state = finish(state, "d1:rr:c1:r1:t1", 1, 4)
    state = decider.evolve(state, ev.MatchForfeited("d1:rr:c1:r1:t2", 2, 3, 0, 0, 7, "no-show"))  # a walkover
    _, new = run(state, c.ApplyDeadlines(at=T0 + 7 * DAY - 1))
    assert new == []
    state, new = run(state, c.ApplyDeadlines(at=T0 + 14 * DAY))  # rounds 1 and 2 are due; round 1 is all played
    assert [e.slot for e in new] == ["d1:rr:c1:r2:t1", "d1:rr:c1:r2:t2"]
    rows = {r.player: r for r in decider.view_of(state).flights["d1"]}
    assert rows[2].wins == 1 and rows[3].losses == 1 + (rule == "double_loss")
    assert rows[1].losses == (1 if rule == "double_loss" else 0)


def test_a_next_season_is_made_from_the_previous_tables_with_promotion_and_relegation():
    state = decider.State()
    for e in [ev.TournamentConfigured({"format": "league", "promote": 1, "relegate": 1}),
              *[ev.PlayerEntered(p, 1) for p in (1, 2, 3, 4, 5, 6, 7)]]:
        state = decider.evolve(state, e)
    refused(state, c.Draw(method="previous", previous=9, at=T0), NoPreviousSeason)
    final = ((3, 1, 2), (6, 4, 5))  # last season's tables, best first
    state, new = run(state, c.Draw(method="previous", previous=9, previous_divisions=final, at=T0))
    assert new[1].divisions == ((3, 1, 6), (2, 4, 5, 7)) and new[1].previous == 9


@pytest.mark.parametrize("n", range(2, 41))
def test_leagues_of_2_to_40_players_play_out_and_promote(n):
    """Property: a season on fields of 2 to 40 with played matches, walkovers and deadlines, then the next
    season from its tables: everybody plays or is settled, and the next divisions move P up and R down."""
    rng = random.Random(2000 + n)
    size = rng.randint(2, 8)
    state, _ = league_of(n, division_size=size, round_days=7, promote=1, relegate=1)
    view = decider.view_of(state)
    for s in view.slots:
        if s.bye:
            continue
        a, b = s.players
        roll = rng.random()
        if roll < 0.7:
            state = finish(state, s.key, *((a, b) if rng.random() < 0.5 else (b, a)))
        elif roll < 0.85:
            state, _ = run(state, c.Forfeit(slot=s.key, winner=a))
    state, _ = run(state, c.ApplyDeadlines(at=T0 + 400 * DAY))
    view = decider.view_of(state)
    assert all(s.status in ("done", "bye", "void") for s in view.slots)
    season = view.league
    assert view.winner == season.divisions[0].standings[0].player
    final = tuple(tuple(r.player for r in d.standings) for d in season.divisions)
    nxt = decider.State()
    for e in [ev.TournamentConfigured({"format": "league", "promote": 1, "relegate": 1}),
              *[ev.PlayerEntered(p, 1) for p in range(1, n + 1)]]:
        nxt = decider.evolve(nxt, e)
    nxt, new = run(nxt, c.Draw(method="previous", previous=1, previous_divisions=final, at=T0 + 401 * DAY))
    divisions = new[1].divisions
    assert sorted(p for d in divisions for p in d) == list(range(1, n + 1))
    where = {p: i for i, d in enumerate(divisions) for p in d}
    for i, d in enumerate(season.divisions):
        for p in d.promoted:
            assert where[p] == i - 1
        for p in d.relegated:
            assert where[p] == i + 1
