"""Rules of checker movement, one test per rule, with the rule books' examples."""

import pytest

from games.engine import IllegalMove, Position, Reason, legal_moves, play
from games.engine.board import BAR, OFF

from tests.refusals import refused

from .positions import position, results


def test_start_position_has_two_five_three_five_each_side():
    start = Position.start()
    for side in (start.mine, start.theirs):
        assert (side[24], side[13], side[8], side[6]) == (2, 5, 3, 5)
        assert sum(side) == 15
    assert start.pip_count() == (167, 167)


def test_opening_3_1_has_16_plays_and_2_1_has_15_as_gnubg_counts():
    assert len(legal_moves(Position.start(), (3, 1))) == 16
    assert len(legal_moves(Position.start(), (2, 1))) == 15
    assert "8/5 6/5" in results(legal_moves(Position.start(), (3, 1)))


def test_checker_on_the_bar_enters_before_any_other_moves():
    pos = position({25: 1, 13: 14}, {1: 2})
    for p in legal_moves(pos, (6, 5)):
        assert p.steps[0].from_point == BAR
    with refused(IllegalMove, Reason.NOT_LEGAL, why=Reason.BAR_FIRST):
        play(pos, (6, 5), "13/7 13/8")


def test_die_enters_on_the_opponents_point_of_that_number():
    # die d enters on the opponent's d point, the mover's 25 - d
    pos = position({25: 1}, {1: 15})
    assert {p.steps[0].to_point for p in legal_moves(pos, (2, 2))} == {23}


def test_entering_with_4_3_when_the_4_point_is_closed():
    # the opponent holds its 4 point (the mover's 21): only the 3 enters
    pos = position({25: 1, 13: 14}, {21: 2, 1: 13})
    plays = legal_moves(pos, (4, 3))
    assert plays and all(p.steps[0] == (25, 22, False) for p in plays)
    with refused(IllegalMove, Reason.NOT_LEGAL, move="bar/21", why=Reason.POINT_CLOSED):
        play(pos, (4, 3), "bar/21 13/10")
    assert str(play(pos, (4, 3), "bar/22 13/9")) == "bar/22 13/9"


def test_closed_board_forfeits_the_roll():
    pos = position({25: 1, 13: 14}, {p: 2 for p in range(19, 25)} | {1: 3})
    assert legal_moves(pos, (6, 6)) == []
    assert play(pos, (6, 6), "").position == pos


def test_closed_point_cannot_be_landed_on():
    pos = position({13: 15}, {7: 2, 1: 13})
    assert "13/7" not in results(legal_moves(pos, (6, 1)))


def test_closed_intermediate_point_blocks_a_combined_move():
    # 13/7/1 needs the 7 open; 13/12/6 (the 1 first) is the only way round
    pos = position({13: 1, 2: 14}, {7: 2, 24: 13})
    plays = results(legal_moves(pos, (6, 6)))
    assert not any(m.startswith("13/7") or m.startswith("13/1") for m in plays)
    pos = position({13: 1, 2: 14}, {7: 2, 24: 13})
    assert results(legal_moves(pos, (6, 1))) >= {"13/6"}
    with refused(IllegalMove, Reason.NOT_LEGAL, why=Reason.POINT_CLOSED):
        play(pos, (6, 1), "13/7/6")


def test_a_single_opposing_checker_is_hit_and_goes_to_the_bar():
    pos = position({13: 15}, {7: 1, 24: 14})
    after = play(pos, (6, 5), "13/7* 13/8").position
    assert after.theirs[BAR] == 1 and after.theirs[25 - 7] == 0
    assert str(play(pos, (6, 5), "13/7 13/8")) == "13/8 13/7*"  # the * is optional on input


def test_hit_in_passing_is_written_with_the_intermediate_point():
    pos = position({13: 15}, {7: 1, 24: 14})
    assert "13/7*/2" in results(legal_moves(pos, (6, 5)))


def test_both_dice_must_be_played_when_possible_the_6_3_example():
    # A 6 from 20 or 12; only after 20/14 can the 3 be played (17, 9 and 3 closed).
    pos = position({20: 1, 12: 1, 1: 13}, {17: 2, 9: 2, 3: 2, 24: 9})
    assert results(legal_moves(pos, (6, 3))) == {"20/11"}
    with refused(IllegalMove, Reason.NOT_LEGAL, why=Reason.WHOLE_ROLL):
        play(pos, (6, 3), "12/6")


def test_if_only_one_die_can_be_played_the_higher_must_be():
    # either die alone from 13, never both: 13/7/2 and 13/8/2 end on a closed point
    pos = position({13: 1, 1: 14}, {2: 2, 24: 13})
    assert results(legal_moves(pos, (6, 5))) == {"13/7"}
    with refused(IllegalMove, Reason.NOT_LEGAL, why=Reason.HIGHER_DIE):
        play(pos, (6, 5), "13/8")


def test_lower_die_when_the_higher_cannot_be_played():
    pos = position({13: 1, 1: 14}, {7: 2, 2: 2, 3: 2, 24: 9})
    assert results(legal_moves(pos, (6, 5))) == {"13/8"}


def test_doubles_are_played_four_times():
    plays = legal_moves(Position.start(), (6, 6))
    assert all(len(p.steps) == 4 for p in plays)
    assert "24/18(2) 13/7(2)" in results(plays)


def test_doubles_played_as_many_times_as_possible():
    # a lone back checker, 5-5 with points 15 and 10 ... closed after two moves
    pos = position({24: 1, 1: 14}, {9: 2, 4: 2, 23: 11})
    plays = legal_moves(pos, (5, 5))
    assert results(plays) == {"24/14"}
    assert len(plays[0].steps) == 2


def test_bearing_off_needs_all_fifteen_checkers_home():
    pos = position({9: 1, 6: 14}, {24: 15})
    assert not any(s.to_point == OFF for p in legal_moves(pos, (2, 1)) for s in p.steps)
    assert "9/off" in results(legal_moves(pos, (6, 3)))  # 9/6 brings it home, then the 6 bears off
    with refused(IllegalMove, Reason.NOT_LEGAL, why=Reason.HOME_BOARD_FIRST):
        play(pos, (6, 5), "6/off 6/1")


def test_bearing_off_is_lost_again_when_a_checker_is_hit():
    pos = position({25: 1, 6: 14}, {24: 15})
    plays = legal_moves(pos, (6, 1))
    assert plays and not any(s.to_point == OFF for p in plays for s in p.steps)


def test_6_5_bears_off_the_two_farthest_checkers():
    pos = position({4: 1, 3: 1}, {24: 15})
    assert results(legal_moves(pos, (6, 5))) == {"4/off 3/off"}


def test_a_larger_die_bears_off_from_lower_only_when_no_checker_is_higher():
    pos = position({5: 1, 2: 1}, {24: 15})
    with refused(IllegalMove, Reason.NOT_LEGAL, why=Reason.BEAR_OFF_FROM_HIGHEST):
        play(pos, (6, 1), "2/off 5/4")
    assert "5/off 2/1" in results(legal_moves(pos, (6, 1)))


def test_moving_inside_the_home_board_instead_of_bearing_off_is_allowed():
    pos = position({6: 2, 5: 13}, {24: 15})
    assert "6/4 6/off" in results(legal_moves(pos, (6, 2)))
    assert "6/off 5/3" in results(legal_moves(pos, (6, 2)))
    assert "6/4(2)" not in results(legal_moves(pos, (6, 2)))
    assert "6/2 6/4" not in results(legal_moves(pos, (4, 2)))
    assert "6/2 6/4" in results(legal_moves(pos, (4, 2))) or "6/4 6/2" in results(legal_moves(pos, (4, 2)))


def test_the_same_play_written_many_ways_is_recognised():
    start = Position.start()
    for text in ("24/13", "24/18 18/13", "24/18/13", "18/13 24/18", "24/18 13/18"[:5] + " 18/13"):
        assert play(start, (6, 5), text).position == play(start, (6, 5), "24/13").position


def test_illegal_text_is_refused_with_a_reason():
    start = Position.start()
    with refused(IllegalMove, Reason.NOT_LEGAL, why=Reason.NO_CHECKER_ON_POINT):
        play(start, (3, 1), "22/19 6/5")
    with refused(IllegalMove, Reason.NOT_LEGAL, move="13/8", why=Reason.NO_DIE_MOVES_PIPS):
        play(start, (3, 1), "13/8")
    with refused(IllegalMove, Reason.MUST_PLAY, d1=3, d2=1):
        play(start, (3, 1), "")
