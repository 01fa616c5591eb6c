"""The recording screen is the clock at the board: a 3-point match on a tablet with the US clock, each turn's press
made with the play (no tap more), and a flag falling: the match is won on time.

The server's time is the test's (``games.clocks.now``, moved by the test, never waited for); the screen counts down
between answers by its own timer, from the figures each answer gives."""

from __future__ import annotations

import pytest

from eventlog.models import Event
from games import clocks
from games.creation import match_create
from games.loading import match_load
from players.models import Player

from .test_club_night_in_a_browser import shot
from .test_live_in_a_browser import browser, director, open_page, tap_dice  # noqa: F401 (fixtures)

MINUTE = 60_000


@pytest.fixture
def server_time(monkeypatch):
    clock = {"at": 1_800_000_000_000}
    monkeypatch.setattr(clocks, "now", lambda: clock["at"])
    return clock


def presses(match_id: str) -> int:
    return Event.objects.filter(stream_id=match_id, event_type="ClockPressed").count()


def test_a_match_on_the_tablet_with_a_us_clock_is_won_on_time(live_server, director, browser, server_time):  # noqa: F811
    ada, bruno = Player.objects.create(display_name="Ada"), Player.objects.create(display_name="Bruno")
    match_id = match_create(actor=director, player0=ada, player1=bruno, length=3, dice="board").stream_id
    tablet = open_page(browser, live_server, login=True, touch=True)
    tablet.goto(f"{live_server.url}/matches/{match_id}/record/")
    tablet.wait_for_selector("#board .point")
    assert tablet.locator("#clock").is_hidden()

    tablet.select_option("#clock-preset", "us")
    tablet.locator("#set-clock").tap()  # 2 minutes a point: 6:00 each
    tablet.wait_for_selector("#clock:not([hidden])")
    assert [tablet.locator(f"#clock-{seat} .clock-time").inner_text() for seat in (0, 1)] == ["6:00", "6:00"]
    assert tablet.locator("#clock-set").is_hidden()

    spectator = open_page(browser, live_server, login=False)
    spectator.goto(f"{live_server.url}/matches/{match_id}/live/")
    spectator.wait_for_selector("#clock:not([hidden])")
    assert spectator.locator("#clock0").inner_text() == "Ada 6:00"

    tap_dice(tablet, 3, 1)  # Ada's 3 against Bruno's 1: Bruno's press starts Ada's clock, made by the screen
    tablet.wait_for_selector("#clock-0.running")
    assert presses(match_id) == 1
    spectator.wait_for_selector("#clock0.running")  # the spectator's board follows the clocks
    server_time["at"] += 20_000  # Ada thinks 20 s: her 12 s of delay, then 8 s of her reserve
    tablet.locator("#board g.point[data-point='5']").tap()  # the point made in one tap: 8/5 6/5
    tablet.wait_for_selector("#clock-1.running")
    assert presses(match_id) == 2  # the play's own press: no tap more
    assert tablet.locator("#clock-0 .clock-time").inner_text() == "5:52"
    shot(tablet, "60-record-clock-running")

    server_time["at"] += 12_000 + 6 * MINUTE  # Bruno's delay and all his reserve
    tablet.reload()  # the screen reads the server's figures: Bruno's flag has fallen, and it says so itself
    tablet.wait_for_selector("text=Ada wins the match.")
    record = match_load(match_id)
    assert record.state.phase == "over" and record.state.winner == 0 and record.state.last_game.reason == "time"
    assert tablet.locator("#clock-1 .clock-time").inner_text() == "0:00"
    spectator.wait_for_selector("#status:has-text('Ada wins the match. (on time)')")
    assert spectator.locator("#clock1").inner_text() == "Bruno 0:00"
    assert tablet.errors == [] and spectator.errors == []


def test_an_events_round_with_clocks_required_the_console_sees_them_run_and_the_flag_decides_the_slot(
        live_server, director, browser, server_time):  # noqa: F811
    """The director requires the US clock for the event; its match begins with the clock set (the tablet offers no
    choice), the console and a spectator's live board show the clocks running, and the flag that falls gives the
    slot, and the event, to its winner."""
    from tournaments import services
    from tournaments.selectors import tournament_data

    from ..tournaments.test_running_events import settle

    event = services.tournament_create(actor=director, name="Clocked final", format="single_elimination",
                                       settings={"lengths": {"main": {"default": 3}}, "dice": "board"})
    services.tournament_command(actor=director, tournament=event,
                                command={"type": "set_round_clock", "use": "required", "preset": "us"})
    ada, bruno = Player.objects.create(display_name="Ada"), Player.objects.create(display_name="Bruno")
    for p in (ada, bruno):
        services.tournament_command(actor=director, tournament=event, command={"type": "enter", "player": p.pk})
    services.tournament_command(actor=director, tournament=event,
                                command={"type": "draw", "method": "manual", "seeds": [ada.pk, bruno.pk]})
    settle(event)
    match_id = services.tournament_facts(event).matches["main:r1:m1"]["match_id"]

    tablet = open_page(browser, live_server, login=True, touch=True)
    tablet.goto(f"{live_server.url}/matches/{match_id}/record/")
    tablet.wait_for_selector("#clock:not([hidden])")  # set with the match
    assert [tablet.locator(f"#clock-{seat} .clock-time").inner_text() for seat in (0, 1)] == ["6:00", "6:00"]
    assert tablet.locator("#clock-set").is_hidden()
    spectator = open_page(browser, live_server, login=False)
    spectator.goto(f"{live_server.url}/matches/{match_id}/live/")
    spectator.wait_for_selector("#clock:not([hidden])")
    tap_dice(tablet, 3, 1)
    tablet.wait_for_selector("#clock-0.running")
    spectator.wait_for_selector("#clock0.running")
    server_time["at"] += 20_000
    tablet.locator("#board g.point[data-point='5']").tap()
    tablet.wait_for_selector("#clock-1.running")

    console = open_page(browser, live_server, login=True)
    console.goto(f"{live_server.url}/events/{event.pk}/run/")
    console.wait_for_selector("td.clock span.running")
    assert console.locator("td.clock").first.inner_text().startswith("Ada 5:52 · Bruno 6:00 ◀")
    assert "Every match of the event" in console.locator("#clocks").inner_text()

    server_time["at"] += 12_000 + 6 * MINUTE  # Bruno's delay and all his reserve
    tablet.reload()
    tablet.wait_for_selector("text=Ada wins the match.")
    spectator.wait_for_selector("#status:has-text('Ada wins the match. (on time)')")
    settle(event)
    data = tournament_data(event)
    slot = next(s for s in data["slots"] if s["key"] == "main:r1:m1")
    assert slot["winner"] == ada.pk and data["winner"] == ada.pk
    assert tablet.errors == [] and console.errors == [] and spectator.errors == []
