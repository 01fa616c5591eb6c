"""gnubg-style move text, read and written."""

import pytest

from games.engine import NotationError, Position, format_move, parse_move, play
from games.engine.events import DiceRolled, GameWon, MatchStarted, from_dict, to_dict
from games.engine.moves import Step
from games.engine.notation import format_mat_move

from tests.refusals import refused


@pytest.mark.parametrize(
    "text, steps",
    [
        ("24/18 13/11*", [(24, 18, False), (13, 11, True)]),
        ("bar/22", [(25, 22, False)]),
        ("6/off", [(6, 0, False)]),
        ("8/5(2)", [(8, 5, False), (8, 5, False)]),
        ("13/7*/1", [(13, 7, True), (7, 1, False)]),
        ("25/20 3/0", [(25, 20, False), (3, 0, False)]),  # .mat numbering
        ("6/1*(4)", [(6, 1, True)] + [(6, 1, False)] * 3),
    ],
)
def test_parse_gnubg_move_text(text, steps):
    assert parse_move(text) == tuple(Step(*s) for s in steps)


@pytest.mark.parametrize(
    "steps, text",
    [
        ([(24, 18, False), (13, 11, True)], "24/18 13/11*"),
        ([(25, 22, False), (6, 0, False)], "bar/22 6/off"),
        ([(8, 5, False), (8, 5, False), (6, 5, False), (6, 5, False)], "8/5(2) 6/5(2)"),
        ([(13, 7, True), (7, 1, False)], "13/7*/1"),
        ([(24, 18, False), (18, 13, False)], "24/13"),  # no hit in passing: one path
        ([(12, 11, False), (12, 11, False), (11, 10, False), (9, 8, False)], "12/10 12/11 9/8"),
    ],
)
def test_format_like_gnubg(steps, text):
    assert format_move(steps) == text


def test_mat_moves_are_single_dice_with_bar_25_and_off_0():
    assert format_mat_move([(25, 20, False), (13, 7, True), (3, 0, False)]) == "25/20 13/7* 3/0"


@pytest.mark.parametrize("bad", ["24-18", "13/", "bar/off/x", "8/5(x)", "5/8", "26/20"])
def test_unreadable_text_is_refused(bad):
    with pytest.raises(NotationError):
        parse_move(bad)


def test_star_on_a_point_without_a_blot_is_refused():
    from games.engine import IllegalMove, Reason

    with refused(IllegalMove, Reason.NOT_LEGAL, move="8/5*", why=Reason.NO_BLOT_TO_HIT) as caught:
        play(Position.start(), (3, 1), "8/5* 6/5")
    assert caught.value.params["why"].params == {"point": 5}


@pytest.mark.parametrize(
    "event",
    [
        MatchStarted(("A", "B"), 7),
        DiceRolled(1, (6, 6), "physical"),
        GameWon(3, 0, "gammon", 4, 8, "bearoff", (9, 2)),
    ],
)
def test_events_round_trip_through_json_data(event):
    data = to_dict(event)
    assert data["type"] == type(event).__name__
    assert from_dict(data) == event
