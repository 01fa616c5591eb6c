"""Game flow, cube, resignation and match rules through decide/evolve."""

import dataclasses

import pytest

from games.engine import CubeNotAvailable, IllegalMove, InvalidAction, MatchOver, NotYourTurn, Position, Reason
from games.engine import commands as c
from games.engine import events as ev
from games.engine.match import DOUBLED, MOVE, OPENING, OVER, RESIGNED, ROLL, decide, evolve

from .positions import position
from tests.refusals import refused

from .table import Table


class Placed(Table):
    """A table put by hand in the middle of a game: no stream to replay."""

    def do(self, command) -> list:
        new = decide(self.state, command)
        for event in new:
            self.state = evolve(self.state, event)
        return new


def placed(length=5, pos=None, turn=0, start=None, **state) -> Placed:
    """A game in progress at ``pos``, ``turn`` to roll; ``state`` overrides MatchState fields."""
    table = Placed(length, **(start or {}))
    table.opening()
    table.state = dataclasses.replace(
        table.state, phase=ROLL, turn=turn, position=pos or Position.start(), dice=None, **state
    )
    return table


RACE_WON_NEXT = position({1: 1}, {24: 15})  # mover bears off its last checker with any roll


# -- opening roll and turns ---------------------------------------------------


def test_opening_roll_higher_die_plays_both_dice():
    t = Table()
    t.opening(2, 5)
    assert (t.state.phase, t.state.turn, t.state.dice) == (MOVE, 1, (5, 2))


def test_opening_roll_ties_roll_again_so_a_game_never_opens_with_a_double():
    t = Table()
    assert t.do(c.Roll(None, (4, 4))) == [ev.OpeningRollTied(4)]
    assert t.state.phase == OPENING
    t.opening(6, 1)
    assert t.state.dice == (6, 1)


def test_turns_alternate():
    t = Table()
    t.opening(3, 1)
    t.move("8/5 6/5")
    assert (t.state.phase, t.state.turn) == (ROLL, 1)
    with refused(NotYourTurn, Reason.NOT_YOUR_ROLL, name="Bob", other="Alice"):
        t.do(c.Roll(0, (3, 3)))
    t.roll(6, 4)
    assert t.state.turn == 1 and t.state.phase == MOVE


def test_move_before_rolling_and_rolling_twice_are_refused():
    t = Table()
    t.opening()
    with refused(InvalidAction, Reason.DICE_ROLLED):
        t.do(c.Roll(0, (1, 2)))
    t.move("8/5 6/5")
    with refused(InvalidAction, Reason.ROLL_FIRST):
        t.do(c.Move(1, "13/10"))


def test_no_legal_play_forfeits_the_roll():
    closed = position({25: 1, 13: 14}, {p: 2 for p in range(19, 25)} | {1: 3})
    t = placed(pos=closed)
    events = t.do(c.Roll(0, (6, 6)))
    assert events == [ev.DiceRolled(0, (6, 6)), ev.CannotMove(0)]
    assert (t.state.turn, t.state.phase) == (1, ROLL)


# -- end of a game -------------------------------------------------------------


@pytest.mark.parametrize(
    "loser, kind, points",
    [
        ({6: 14}, "single", 1),  # the loser has borne off one checker
        ({6: 15}, "gammon", 2),  # none off, none in the winner's home board
        ({20: 15}, "backgammon", 3),  # none off, still in the winner's home board (loser's 20 = winner's 5)
        ({25: 1, 6: 14}, "backgammon", 3),  # none off, one on the bar
    ],
)
def test_game_ends_single_gammon_or_backgammon_times_the_cube(loser, kind, points):
    pos = Position.from_points({1: 1}, loser)
    t = placed(length=7, pos=pos, cube=2, cube_owner=1)
    t.roll(6, 5)
    won = t.move("1/off")[1:]
    assert won[0] == ev.GameWon(1, 0, kind, 2, 2 * points, "bearoff", (2 * points, 0))


def test_game_won_sets_up_the_next_opening_roll():
    t = placed(pos=RACE_WON_NEXT)
    t.roll(2, 1)
    t.move("1/off")
    assert (t.state.phase, t.state.score, t.state.cube, t.state.cube_owner) == (OPENING, (2, 0), 1, None)


# -- the cube ------------------------------------------------------------------


def test_double_take_gives_the_taker_the_cube_at_twice_the_value():
    t = Table()
    t.opening()
    t.move("8/5 6/5")
    assert t.double() == [ev.DoubleOffered(1, 2)]
    assert t.state.phase == DOUBLED
    t.take()
    assert (t.state.cube, t.state.cube_owner, t.state.phase, t.state.turn) == (2, 0, ROLL, 1)


def test_only_the_owner_may_redouble():
    t = placed(cube=2, cube_owner=1)
    with refused(CubeNotAvailable, Reason.CUBE_OWNED, name="Bob"):
        t.double()


def test_double_only_before_rolling():
    t = placed()
    t.roll(3, 1)
    with refused(CubeNotAvailable, Reason.DOUBLE_BEFORE_ROLLING):
        t.double()


def test_double_out_of_turn_is_refused():
    t = placed()
    with pytest.raises(NotYourTurn):
        t.do(c.Double(1))


def test_double_allowed_even_with_no_legal_move_to_come():
    closed = position({25: 1, 13: 14}, {p: 2 for p in range(19, 25)} | {1: 3})
    t = placed(pos=closed)
    assert t.double() == [ev.DoubleOffered(0, 2)]


def test_drop_loses_the_current_value():
    t = placed(cube=4, cube_owner=0)
    t.double()
    events = t.drop()
    assert events[0] == ev.DoubleDropped(1)
    assert events[1] == ev.GameWon(1, 0, "single", 4, 4, "drop", (4, 0))


def test_no_upper_limit_on_the_cube_unless_set():
    t = placed(length=0, cube=4096, cube_owner=0)
    t.double()
    t.take()
    assert t.state.cube == 8192
    limited = placed(length=0, start={'cube_limit': 8}, cube=8, cube_owner=0)
    with refused(CubeNotAvailable, Reason.CUBE_LIMIT, limit=8):
        limited.double()


def test_answering_your_own_double_is_refused():
    t = placed()
    t.double()
    with pytest.raises(NotYourTurn):
        t.do(c.Take(0))


# -- money options ---------------------------------------------------------------


def test_jacoby_gammon_counts_single_while_the_cube_is_centred():
    pos = Position.from_points({1: 1}, {6: 15})
    t = placed(length=0, pos=pos, start={'jacoby': True})
    t.roll(2, 1)
    assert t.move("1/off")[-1].points == 1
    turned = placed(length=0, pos=pos, start={'jacoby': True}, cube=2, cube_owner=1)
    turned.roll(2, 1)
    assert turned.move("1/off")[-1].points == 4


def test_beaver_taker_redoubles_at_once_and_keeps_the_cube():
    # the beaver is an offer the doubler answers (see test_cube_edge_rules.py)
    t = placed(length=0, start={'beavers': True})
    t.double()
    assert t.do(c.Beaver(1)) == [ev.Beavered(1, 4)]
    assert (t.state.cube_owner, t.state.turn, t.state.phase) == (1, 0, DOUBLED)
    t.do(c.Take(0))
    assert (t.state.cube, t.state.cube_owner, t.state.turn, t.state.phase) == (4, 1, 0, ROLL)


def test_raccoon_doubler_re_redoubles_after_a_beaver():
    t = placed(length=0, start={'beavers': True, 'raccoons': True})
    t.double()
    t.do(c.Beaver(1))
    assert t.do(c.Raccoon(0)) == [ev.Raccooned(0, 8)]
    t.do(c.Take(1))
    assert (t.state.cube, t.state.cube_owner) == (8, 1)  # the cube stays with the beaverer
    t.roll(3, 1)  # the turn goes on


def test_raccoon_needs_raccoons_allowed():
    t = placed(length=0, start={'beavers': True})
    t.double()
    t.do(c.Beaver(1))
    with refused(CubeNotAvailable, Reason.NO_RACCOONS):
        t.do(c.Raccoon(0))


def test_automatic_doubles_on_equal_opening_dice_up_to_the_limit():
    t = Table(length=0, automatic_doubles=2)
    assert t.do(c.Roll(None, (3, 3))) == [ev.OpeningRollTied(3), ev.AutomaticDouble(2)]
    assert t.do(c.Roll(None, (5, 5))) == [ev.OpeningRollTied(5), ev.AutomaticDouble(4)]
    assert t.do(c.Roll(None, (2, 2))) == [ev.OpeningRollTied(2)]
    t.opening(6, 2)
    assert (t.state.cube, t.state.cube_owner) == (4, None)


def test_money_options_are_never_used_in_match_play():
    for option in ({"jacoby": True}, {"beavers": True}, {"automatic_doubles": 1}):
        with refused(InvalidAction, Reason.MONEY_OPTIONS):
            Table(length=5, **option)
    t = placed(length=5)
    t.double()
    with refused(CubeNotAvailable, Reason.NO_BEAVERS):
        t.do(c.Beaver(1))


# -- resignation -------------------------------------------------------------------


def test_resignation_accepted_ends_the_game_for_its_value_times_the_cube():
    t = placed(cube=2, cube_owner=0)
    t.do(c.Resign(0, "gammon"))
    assert t.state.phase == RESIGNED
    events = t.do(c.AcceptResignation(1))
    assert events[-1] == ev.GameWon(1, 1, "gammon", 2, 4, "resignation", (0, 4))


def test_resignation_declined_play_continues():
    t = placed()
    t.roll(3, 1)
    t.do(c.Resign(1, "single"))
    t.do(c.DeclineResignation(0))
    assert t.state.phase == MOVE
    t.move("8/5 6/5")


def test_resignation_answered_by_the_resigner_is_refused():
    t = placed()
    t.do(c.Resign(0, "backgammon"))
    with pytest.raises(NotYourTurn):
        t.do(c.AcceptResignation(0))


# -- match play ----------------------------------------------------------------------


def test_match_length_must_be_odd_when_created_here():
    with refused(InvalidAction, Reason.EVEN_LENGTH, length=4):
        Table(length=4)
    assert Table(length=4, imported=True).state.length == 4


def test_scores_add_and_the_match_ends_at_the_length():
    t = placed(length=3, pos=RACE_WON_NEXT, cube=2, cube_owner=1, score=(1, 0))
    t.roll(2, 1)
    events = t.move("1/off")
    assert events[-1] == ev.MatchWon(0, (5, 0))
    assert t.state.phase == OVER
    with refused(MatchOver, Reason.MATCH_IS_OVER, name="Alice", a=5, b=0):
        t.do(c.Roll(None, (3, 1)))


def test_crawford_game_follows_the_first_time_a_player_reaches_length_minus_one():
    t = placed(length=5, pos=RACE_WON_NEXT, score=(2, 0))
    assert not t.state.crawford
    t.roll(2, 1)
    t.move("1/off")  # gammon: 2 + 2 = 4 = 5 - 1
    assert t.state.score == (4, 0) and t.state.crawford
    t.opening()
    t.first_play()
    assert t.state.crawford_games == (2,)
    with refused(CubeNotAvailable, Reason.CRAWFORD_GAME):
        t.do(c.Double(t.state.turn))


def test_post_crawford_games_have_the_cube_again():
    t = placed(length=5, pos=RACE_WON_NEXT, score=(4, 0), crawford=True)
    t.roll(2, 1)
    t.move("1/off")  # Alice still needs a point? no: she wins the match
    assert t.state.phase == OVER
    t = placed(length=5, pos=RACE_WON_NEXT, turn=1, score=(4, 0), crawford=True)
    t.roll(2, 1)
    t.move("1/off")  # Bob wins the Crawford game
    assert t.state.crawford_done and not t.state.crawford
    t.opening()
    t.first_play()
    assert t.double()  # post-Crawford: doubling is allowed


def test_crawford_rule_can_be_switched_off():
    t = placed(length=5, pos=RACE_WON_NEXT, score=(2, 0), start={"crawford": False})
    t.roll(2, 1)
    t.move("1/off")
    assert t.state.score == (4, 0) and not t.state.crawford
    t.opening()
    t.first_play()
    assert t.double()


def test_one_point_match_has_no_crawford_game():
    t = Table(length=1)
    assert not t.state.crawford
