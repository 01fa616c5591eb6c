"""The cube and match-play rules: the cube's edge cases as GNU Backgammon 1.07 judges them.

Each verdict here was checked by hand in gnubg 1.07 (``gnubg -t -q -r``) and is checked again,
through many command sequences, by ``test_gnubg_sequences.py``.
"""

import dataclasses
import doctest
import importlib
import pkgutil

import pytest

import games.engine
from games.engine import (
    CubeNotAvailable,
    InvalidAction,
    NotYourTurn,
    Outcome,
    Position,
    Reason,
    is_crawford_game,
    may_bear_off,
    may_double,
    pip_count,
)
from games.engine import commands as c
from games.engine import events as ev
from games.engine.match import DOUBLED, MOVE, OPENING, RESIGNED, ROLL, decide, evolve

from tests.refusals import refused

from .table import Table


class Placed(Table):
    def do(self, command) -> list:
        new = decide(self.state, command)
        for event in new:
            self.state = evolve(self.state, event)
        self.events.extend(new)
        return new


def placed(length=5, turn=0, start=None, **state) -> Placed:
    table = Placed(length, **(start or {}))
    table.opening()
    table.state = dataclasses.replace(table.state, phase=ROLL, turn=turn, position=Position.start(), dice=None, **state)
    return table


# -- 1. dead cube ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "length, score, cube, owner, turn",
    [
        (1, (0, 0), 1, None, 0),  # any double in a 1-point match
        (5, (4, 4), 1, None, 0),  # double match point
        (5, (4, 1), 1, None, 0),  # the leader post-Crawford at 4-1
        (5, (0, 0), 8, 0, 0),  # cube 8 owned by the doubler at 0-0
        (7, (3, 5), 4, 0, 0),  # needs 4, the cube gives 4
    ],
)
def test_dead_cube_double_is_refused(length, score, cube, owner, turn):
    t = placed(length, turn=turn, score=score, cube=cube, cube_owner=owner, crawford=False, crawford_done=True)
    assert not may_double(t.state, turn)
    assert not t.state.may_double(turn)
    with pytest.raises(CubeNotAvailable) as caught:
        t.do(c.Double(turn))
    assert caught.value.reason in (Reason.DEAD_CUBE, Reason.DEAD_CUBE_ONE_POINT)


def test_dead_cube_message_names_the_points():
    t = placed(1)
    with refused(CubeNotAvailable, Reason.DEAD_CUBE_ONE_POINT, need=1, cube=1) as caught:
        t.double()
    assert str(caught.value) == "the cube is dead: you need 1 point and the cube already gives 1"


def test_live_cube_may_still_be_turned():
    t = placed(5, score=(4, 1), turn=1, crawford=False, crawford_done=True)  # the trailer needs 4
    assert may_double(t.state, 1)
    assert t.do(c.Double(1)) == [ev.DoubleOffered(1, 2)]
    t = placed(5, cube=2, cube_owner=0)  # needs 5, the cube gives 2
    assert t.double() == [ev.DoubleOffered(0, 4)]


def test_dead_cube_in_a_file_from_elsewhere_is_read():
    t = placed(1)
    assert t.do(c.Double(0, imported=True)) == [ev.DoubleOffered(0, 2)]


def test_money_session_has_no_dead_cube():
    t = placed(0, cube=64, cube_owner=0)
    assert t.double() == [ev.DoubleOffered(0, 128)]


# -- 2. resigning while a double is pending -----------------------------------------------------


def test_resign_while_double_pending_is_worth_the_cube_before_the_double():
    t = placed(7, cube=2, cube_owner=0)
    t.double()
    assert t.do(c.Resign(1, "gammon")) == [ev.ResignationOffered(1, "gammon")]
    won = t.do(c.AcceptResignation(0))
    assert won[-1] == ev.GameWon(1, 0, "gammon", 2, 4, "resignation", (4, 0))


def test_resign_while_double_pending_declined_leaves_the_double_pending():
    t = placed(7)
    t.double()
    t.do(c.Resign(1, "single"))
    t.do(c.DeclineResignation(0))
    assert (t.state.phase, t.state.answerer) == (DOUBLED, 1)
    assert t.take()[0] == ev.DoubleTaken(1, 2)


def test_resign_while_double_pending_only_by_the_player_doubled():
    t = placed(7)
    t.double()
    with pytest.raises(NotYourTurn):
        t.do(c.Resign(0, "single"))


# -- 3. a declined resignation ------------------------------------------------------------------


def test_declined_resignation_cannot_be_offered_again_at_same_or_lower_level():
    t = placed(7)
    t.do(c.Resign(0, "gammon"))
    t.do(c.DeclineResignation(1))
    for kind in ("single", "gammon"):
        with refused(InvalidAction, Reason.DECLINED_GAMMON, name="Bob"):
            t.do(c.Resign(0, kind))
    t.do(c.Resign(0, "backgammon"))  # a higher offer is new
    assert t.state.phase == RESIGNED


def test_declined_resignation_may_be_offered_again_after_the_next_action():
    t = placed(7)
    t.do(c.Resign(0, "single"))
    t.do(c.DeclineResignation(1))
    t.roll(3, 1)  # gnubg clears the declined offer with the next record (its roll or move)
    assert t.state.phase == MOVE
    t.do(c.Resign(0, "single"))
    assert t.state.phase == RESIGNED


# -- 4. beaver and raccoon ----------------------------------------------------------------------


def money(redoubles=2, **state):
    options = {"beavers": True, "raccoons": redoubles >= 2, "redoubles": redoubles}
    return placed(0, start=options, **state)


def test_beaver_is_answered_by_the_doubler_take():
    t = money()
    t.double()
    assert t.do(c.Beaver(1)) == [ev.Beavered(1, 4)]
    assert (t.state.phase, t.state.answerer) == (DOUBLED, 0)
    assert t.do(c.Take(0)) == [ev.DoubleTaken(0, 4)]
    assert (t.state.cube, t.state.cube_owner, t.state.turn, t.state.phase) == (4, 1, 0, ROLL)


def test_beaver_dropped_wins_the_beaverer_the_taken_double():
    t = money(cube=2, cube_owner=0)
    t.double()
    t.do(c.Beaver(1))
    events = t.do(c.Drop(0))
    assert events == [ev.DoubleDropped(0), ev.GameWon(1, 1, "single", 4, 4, "drop", (0, 4))]


def test_raccoon_leaves_the_cube_with_the_beaverer():
    t = money()
    t.double()
    t.do(c.Beaver(1))
    assert t.do(c.Raccoon(0)) == [ev.Raccooned(0, 8)]
    assert (t.state.phase, t.state.answerer) == (DOUBLED, 1)
    t.do(c.Take(1))
    assert (t.state.cube, t.state.cube_owner, t.state.turn, t.state.phase) == (8, 1, 0, ROLL)


def test_raccoon_dropped_loses_the_value_of_the_beaver():
    t = money()
    t.double()
    t.do(c.Beaver(1))
    t.do(c.Raccoon(0))
    assert t.do(c.Drop(1))[-1] == ev.GameWon(1, 0, "single", 4, 4, "drop", (4, 0))


def test_beavers_option_bounds_the_redoubles():
    one = money(redoubles=1)
    one.double()
    one.do(c.Beaver(1))
    with refused(CubeNotAvailable, Reason.NO_RACCOONS):
        one.do(c.Raccoon(0))
    three = money(redoubles=3)
    three.double()
    three.do(c.Beaver(1))
    three.do(c.Raccoon(0))
    assert three.do(c.Beaver(1)) == [ev.Beavered(1, 16)]
    with refused(CubeNotAvailable, Reason.REDOUBLES_USED, allowed=3):
        three.do(c.Raccoon(0))
    three.do(c.Take(0))
    assert (three.state.cube, three.state.cube_owner) == (16, 1)


def test_beaver_only_by_the_player_answering():
    t = money()
    t.double()
    with pytest.raises(NotYourTurn):
        t.do(c.Beaver(0))


def test_old_beaver_events_replay_as_recorded():
    # schema 1: a beaver could not be answered; the cube stood at 4 with the beaverer at once
    old = ev.upcast("Beavered", {"player": 1, "cube": 4}, 1)
    t = money()
    t.double()
    state = evolve(t.state, ev.from_dict({"type": "Beavered", **old}))
    assert (state.phase, state.cube, state.cube_owner) == (ROLL, 4, 1)
    raccoon = ev.from_dict({"type": "Raccooned", **ev.upcast("Raccooned", {"player": 0, "cube": 8}, 1)})
    state = evolve(state, raccoon)
    assert (state.phase, state.cube, state.cube_owner) == (ROLL, 8, 0)
    assert ev.upcast("Beavered", {"player": 1, "cube": 4}, ev.SCHEMA_VERSION["Beavered"]) == {"player": 1, "cube": 4}


# -- 5. Jacoby and resignation ------------------------------------------------------------------


def test_jacoby_resigned_gammon_with_centred_cube_counts_single():
    t = placed(0, start={"jacoby": True})
    t.do(c.Resign(0, "gammon"))
    assert t.do(c.AcceptResignation(1))[-1].points == 1
    assert "scores these doubled" in games.engine.match.__doc__


# -- 6. no cube limit ---------------------------------------------------------------------------


def test_no_cube_limit_unless_set():
    t = placed(0, cube=4096, cube_owner=0)
    t.double()
    t.take()
    assert t.state.cube == 8192
    t = placed(51, cube=4, cube_owner=0)  # match play: only the dead cube stops it
    assert t.double() == [ev.DoubleOffered(0, 8)]
    limited = placed(0, start={"cube_limit": 8}, cube=8, cube_owner=0)
    with refused(CubeNotAvailable, Reason.CUBE_LIMIT, limit=8):
        limited.double()


# -- 7. N-1 to N-1 --------------------------------------------------------------------------------


def test_match_starting_at_double_match_point_has_no_crawford_game():
    t = Table(5, initial_score=(4, 4), imported=True)
    assert not t.state.crawford and not is_crawford_game(t.state)
    t.opening()
    assert t.state.crawford_games == ()
    assert Table(5, initial_score=(4, 2), imported=True).state.crawford


# -- the engine's face ----------------------------------------------------------------------------


def test_pip_count_takes_a_position():
    assert pip_count(Position.start()) == (167, 167)


def test_outcome_of_a_finished_game():
    t = placed(7, cube=2, cube_owner=1)
    t.do(c.Resign(0, "gammon"))
    t.do(c.AcceptResignation(1))
    assert t.state.outcome == Outcome(1, "gammon", 4)
    assert t.state.phase == OPENING


def test_may_bear_off_needs_every_checker_home():
    assert not may_bear_off(Position.start())
    home = Position.from_points({6: 5, 1: 2}, {6: 15})
    assert may_bear_off(home)


@pytest.mark.parametrize(
    "module",
    ["games.engine"] + sorted(
        m.name for m in pkgutil.iter_modules(games.engine.__path__, "games.engine.") if m.name != "games.engine.__main__"
    ),
)
def test_engine_doctests_pass(module):
    """The engine's docstring examples run with the suite (as ``pytest --doctest-modules games/engine`` does)."""
    result = doctest.testmod(importlib.import_module(module))
    assert result.failed == 0


def test_the_predicates_state_their_rule_with_an_example():
    for predicate in (may_double, is_crawford_game, may_bear_off, pip_count):
        finder = doctest.DocTestFinder()
        assert any(t.examples for t in finder.find(predicate)), predicate.__name__
        assert "«" in predicate.__doc__ or predicate is pip_count  # quoted from the rules texts
