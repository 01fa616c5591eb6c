"""The recording screen in a real browser (issue 17, item 6): plays that record themselves, and the board's layout.

A roll with one legal play is recorded without a tap (match_023's 6-6 bear-off, where bench/recording.py stopped
when the screen threw before sending it).
"""

import pytest

from games import services as matches
from games.engine.matfile import read_mat
from players.models import Player

from .test_club_night_in_a_browser import shot
from .test_live_in_a_browser import MAT, browser, director, open_page, replay, tap_dice  # noqa: F401 (fixtures)


@pytest.fixture
def match_023(director):  # noqa: F811
    record = read_mat(MAT.read_text())
    ada, bruno = Player.objects.create(display_name="Ada"), Player.objects.create(display_name="Bruno")
    match_id = matches.match_create(actor=director, player0=ada, player1=bruno, length=5, dice="board").stream_id
    return match_id, record


def test_a_roll_with_one_legal_play_records_itself(live_server, director, browser, match_023):  # noqa: F811
    match_id, record = match_023
    replay(director, match_id, record.events[1:61])  # up to Ada's 6-6, which bears off 6/off(3) 5/off and nothing else
    tablet = open_page(browser, live_server, login=True, touch=True)
    tablet.goto(f"{live_server.url}/matches/{match_id}/record/")
    tablet.wait_for_selector("#board .point")
    before = matches.match_load(match_id).version

    tap_dice(tablet, 6, 6)  # the roll, then nothing: the only play goes by itself

    tablet.wait_for_selector("text=has one way to play: 6/off 6/off 6/off 5/off, recorded.", timeout=5_000)
    after = matches.match_load(match_id)
    assert after.version == before + 2 and after.state.turn == 1 and after.state.phase == "roll"
    assert "Bruno to roll or double." in tablet.locator("#status").inner_text()
    assert tablet.errors == []
    shot(tablet, "47-record-forced-play")

