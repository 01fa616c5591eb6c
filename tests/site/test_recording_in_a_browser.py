"""The recording screen in a real browser: plays that record themselves, and the board's layout.

A roll with one legal play is recorded without a tap (match_023's 6-6 bear-off, where bench/recording.py stopped
when the screen threw before sending it).
"""

import pytest

from games import commands as match_commands
from games.command_handler import match_command
from games.creation import match_create
from games.loading import match_load
from games.engine.matfile import read_mat
from players.models import Player
from tournaments import services
from tournaments.models import TournamentSlot

from .test_club_night_in_a_browser import shot
from .test_live_in_a_browser import (  # noqa: F401 (fixtures)
    MAT, browser, director, drawn_knockout, frozen_and_unpushed, open_page, replay, tap_dice)


@pytest.fixture
def match_023(director):  # noqa: F811
    record = read_mat(MAT.read_text())
    ada, bruno = Player.objects.create(display_name="Ada"), Player.objects.create(display_name="Bruno")
    match_id = match_create(actor=director, player0=ada, player1=bruno, length=5, dice="board").stream_id
    return match_id, record


def test_a_roll_with_one_legal_play_records_itself(live_server, director, browser, match_023):  # noqa: F811
    match_id, record = match_023
    replay(director, match_id, record.events[1:61])  # up to Ada's 6-6, which bears off 6/off(3) 5/off and nothing else
    tablet = open_page(browser, live_server, login=True, touch=True)
    tablet.goto(f"{live_server.url}/matches/{match_id}/record/")
    tablet.wait_for_selector("#board .point")
    before = match_load(match_id).version

    tap_dice(tablet, 6, 6)  # the roll, then nothing: the only play goes by itself

    tablet.wait_for_selector("text=has one way to play: 6/off 6/off 6/off 5/off, recorded.")
    after = match_load(match_id)
    assert after.version == before + 2 and after.state.turn == 1 and after.state.phase == "roll"
    assert "Bruno to roll or double." in tablet.locator("#status").inner_text()
    assert tablet.errors == []
    shot(tablet, "47-record-forced-play")



def boxes(page, selector: str) -> list[dict]:
    return page.eval_on_selector_all(selector, "els => els.filter(e => e.getClientRects().length).map(e => {"
                                               " const r = e.getBoundingClientRect();"
                                               " return {left: r.left, right: r.right, top: r.top, bottom: r.bottom,"
                                               " w: r.width, h: r.height, text: e.textContent}; })")


def overlapping(these: list[dict], those: list[dict]) -> list[tuple[str, str]]:
    return [(a["text"], b["text"]) for a in these for b in those
            if a["left"] < b["right"] and b["left"] < a["right"] and a["top"] < b["bottom"] and b["top"] < a["bottom"]]


SIZES = ((390, 844), (768, 1024), (1024, 768))


def test_the_board_fits_a_finger_and_keeps_dice_off_the_point_numbers_on_phone_and_tablet(
        live_server, director, browser, match_023):  # noqa: F811
    """Points of 44 px at least on the recording screen (upright on a phone, where twelve points side by side cannot
    be), every control too, nothing wider than the screen; dice never over a point's number, recording or viewing."""
    match_id, record = match_023
    replay(director, match_id, record.events[1:4])  # Ada (light) to play 6-5: the dice on the board
    for width, height in SIZES:
        tablet = open_page(browser, live_server, login=True, touch=True, width=width, height=height)
        tablet.goto(f"{live_server.url}/matches/{match_id}/record/")
        tablet.wait_for_selector("#board .point")
        points = boxes(tablet, "#board g.point")
        assert len(points) == 24 and min(min(p["w"], p["h"]) for p in points) >= 44, (width, points[:2])
        for target in ("#board g.bar", "#board g.tray"):
            assert min(boxes(tablet, target)[0]["w"], boxes(tablet, target)[0]["h"]) >= 44, (width, target)
        controls = boxes(tablet, ".sidecol button:not([hidden]), .sidecol select")
        assert controls and min(min(c["w"], c["h"]) for c in controls) >= 44, (width, controls)
        assert tablet.evaluate("document.documentElement.scrollWidth <= window.innerWidth"), width
        dice, labels = boxes(tablet, "#board rect.die, #board text.dietext"), boxes(tablet, "#board text.label")
        assert len(dice) == 4 and len(labels) == 24 and overlapping(dice, labels) == [], width
        # the numbers read upright and in order: on a phone, 1 to 12 up the left, 13 to 24 down the right
        by_number = {int(b["text"]): b for b in labels}
        if width < 640:
            assert tablet.locator("#board.upright").count() == 1
            assert all(by_number[n]["top"] > by_number[n + 1]["top"] for n in range(1, 12))
            assert all(by_number[n]["top"] < by_number[n + 1]["top"] for n in range(13, 24))
            assert max(b["right"] for b in labels if int(b["text"]) <= 12) < min(b["left"] for b in labels if int(b["text"]) > 12)
            assert all(b["w"] > b["h"] * 0.6 for b in labels if int(b["text"]) >= 10)  # two digits side by side
        else:
            assert tablet.locator("#board.upright").count() == 0
        shot(tablet, f"48-record-{width}x{height}")
        tablet.context.close()

    # upright, a play is tapped as on the tablet: 24/18 by the larger die at once, then on from 18 to 13
    phone = open_page(browser, live_server, login=True, touch=True, width=390, height=844)
    phone.goto(f"{live_server.url}/matches/{match_id}/record/")
    phone.wait_for_selector("#board .point")
    before = match_load(match_id).version
    phone.locator("#board g.point[data-point='24']").tap()
    assert phone.input_value("#move-text") == "24/18"
    phone.locator("#board g.point[data-point='18']").tap()  # on along its way: 18/13
    phone.wait_for_selector("text=Ada played 24/18 18/13.")
    assert match_load(match_id).version == before + 1
    # turned to landscape, the board lies flat again
    phone.set_viewport_size({"width": 844, "height": 390})
    phone.wait_for_selector("#board:not(.upright)")
    assert phone.errors == []

    # the viewer: the same dice, never over a number, at every size
    for width, height in SIZES:
        reader = open_page(browser, live_server, login=False, width=width, height=height)
        reader.goto(f"{live_server.url}/matches/{match_id}/?game=1")
        reader.wait_for_selector("#board .point")
        with_dice = reader.evaluate("JSON.parse(document.getElementById('frames').textContent).findIndex((f) => f.dice)")
        reader.locator("#moves li button").nth(with_dice).click()  # a roll and its play: dice on the board
        dice, labels = boxes(reader, "#board rect.die, #board text.dietext"), boxes(reader, "#board text.label")
        assert len(dice) == 4 and len(labels) == 24 and overlapping(dice, labels) == [], width
        assert reader.errors == []
        reader.context.close()


def test_the_board_and_the_viewer_speak_french_to_a_french_browser(live_server, director, browser, match_023):  # noqa: F811
    match_id, record = match_023
    replay(director, match_id, record.events[1:4])
    reader = browser.new_context(locale="fr-FR", viewport={"width": 1024, "height": 768}).new_page()
    reader.goto(f"{live_server.url}/matches/{match_id}/?game=1")
    reader.wait_for_selector("#board .point")
    assert reader.inner_text("#crawford") == "non" and reader.inner_text("#cube") == "1 (au centre)"
    assert reader.locator("#board .turnmark title").text_content() in ("aux pions clairs de jouer", "aux pions foncés de jouer")
    assert reader.locator("#board g.point title").first.text_content().startswith("case ")
    reader.context.close()
    tablet = open_page(browser, live_server, login=True, touch=True)
    tablet.context.add_cookies([{"name": "django_language", "value": "fr", "url": live_server.url}])
    tablet.goto(f"{live_server.url}/matches/{match_id}/record/")
    tablet.wait_for_selector("#board .point")
    assert tablet.locator("#board g.point[data-point='24']").get_attribute("aria-label") == "case 24"
    assert tablet.locator("#board g.tray").get_attribute("aria-label") == "sortie des pions"
    assert tablet.locator("#board g.bar").get_attribute("aria-label") == "barre"
    assert tablet.errors == []


def within(page, box: dict) -> bool:
    view = page.viewport_size
    return box["left"] >= 0 and box["top"] >= 0 and box["right"] <= view["width"] and box["bottom"] <= view["height"]


def test_a_turn_is_entered_on_a_phone_or_tablet_without_scrolling(live_server, director, browser, match_023):  # noqa: F811
    """The dice, the play, its undo and the message line with the whole board, all on the screen as it
    opens (no scroll on each turn: a tap that needed one would have scrolled), every target 44 px at least, nothing
    over the board."""
    _, record = match_023
    for width, height in SIZES:
        ada, bruno = Player.objects.create(display_name="Ada"), Player.objects.create(display_name="Bruno")
        match_id = match_create(actor=director, player0=ada, player1=bruno, length=5, dice="board").stream_id
        replay(director, match_id, record.events[1:5])  # Ada has played her 6-5: Bruno's roll, from the board's dice
        tablet = open_page(browser, live_server, login=True, touch=True, width=width, height=height)
        tablet.goto(f"{live_server.url}/matches/{match_id}/record/")
        tablet.wait_for_selector("#board .point")
        board, keys, status = boxes(tablet, "#board")[0], boxes(tablet, ".die-key"), boxes(tablet, "#status")
        assert tablet.evaluate("window.scrollY") == 0 and within(tablet, board), (width, board)
        assert len(keys) == 6 and min(min(k["w"], k["h"]) for k in keys) >= 44, (width, keys)
        assert all(within(tablet, b) for b in keys + status), (width, keys, status)
        assert overlapping(keys + status, [board]) == [], width
        shot(tablet, f"49-record-roll-{width}x{height}")

        tap_dice(tablet, 3, 1)  # Bruno's 3-1, then a checker of his: the play and its undo come
        tablet.wait_for_selector("#play:not([hidden])")
        tablet.locator("#board g.point[aria-label='point 8']").tap()
        tablet.wait_for_selector("#undo:not([hidden])")
        board, buttons, status = boxes(tablet, "#board")[0], boxes(tablet, "#play, #undo"), boxes(tablet, "#status")
        assert tablet.evaluate("window.scrollY") == 0 and within(tablet, board), (width, board)
        assert len(buttons) == 2 and min(min(b["w"], b["h"]) for b in buttons) >= 44, (width, buttons)
        assert all(within(tablet, b) for b in buttons + status), (width, buttons, status)
        assert overlapping(buttons + status, [board]) == [], width
        shot(tablet, f"49-record-play-{width}x{height}")
        assert tablet.errors == []
        tablet.context.close()


# the message line's box, the window's, and whether the line is what a finger or an eye finds at its middle (not
# under the board or another part of the page)
MESSAGE_LINE = """() => {
    const line = document.getElementById('status'), r = line.getBoundingClientRect();
    const middle = document.elementFromPoint((r.left + r.right) / 2, (r.top + r.bottom) / 2);
    return {top: r.top, bottom: r.bottom, left: r.left, right: r.right, height: r.height,
            innerHeight: window.innerHeight, innerWidth: window.innerWidth, scrollY: window.scrollY,
            seen: !!middle && line.contains(middle), error: line.classList.contains('error'), text: line.textContent};
}"""


def message_line_on_screen(page, size, told: str, *, scrolled=False) -> dict:
    page.wait_for_function("(t) => document.getElementById('status').textContent.includes(t)", arg=told)
    line = page.evaluate(MESSAGE_LINE)
    assert line["error"] and line["height"] > 0 and page.locator("#status").is_visible(), (size, line)
    assert 0 <= line["top"] and line["bottom"] <= line["innerHeight"], (size, line)
    assert 0 <= line["left"] and line["right"] <= line["innerWidth"] and line["seen"], (size, line)
    assert scrolled or line["scrollY"] == 0, (size, line)
    return line


def test_the_message_line_is_on_the_screen_when_a_press_is_refused(live_server, director, browser):  # noqa: F811
    """A player recording their own match at its table, at 1024x768 landscape, 768x1024 portrait and on a phone:
    the "your match" banner and the table's number above everything used to push the board's message line below
    the fold, where a refusal went unseen. Refusals of three kinds (another tablet was first, a tap the rules
    forbid, a typed play the server refuses) are each on the screen without scrolling, read out (a polite live
    region), and still on the screen with the page scrolled down to the cube and resignation buttons."""
    for width, height in SIZES:
        event = drawn_knockout(director, f"Thursday {width}", 4)
        match_id = services.tournament_facts(event).matches["main:r1:m1"]["match_id"]
        seat = TournamentSlot.objects.get(match_id=match_id)
        Player.objects.filter(user=director).update(user=None)
        Player.objects.filter(pk=seat.player_a).update(user=director)  # the recorder plays it: the banner shows
        tablet = open_page(browser, live_server, login=True, touch=True, width=width, height=height)
        frozen_and_unpushed(tablet)  # the other tablet's roll reaches this one only through its own press
        tablet.goto(f"{live_server.url}/matches/{match_id}/record/")
        tablet.wait_for_selector("#board .point")
        assert tablet.locator(".your-match").count() == 1 and tablet.locator(".table-no").count() == 1
        assert tablet.locator("#status").get_attribute("aria-live") == "polite"
        size = (width, height)

        record = match_load(match_id)
        match_command(actor=director, stream_id=match_id, command=match_commands.RollDice(dice=(3, 1)),
                      expected_version=record.version)
        tap_dice(tablet, 5, 2)  # one press behind: the other tablet entered 3-1
        message_line_on_screen(tablet, size, "The other tablet already entered the opening roll 3-1")
        tablet.wait_for_selector("#play:not([hidden])")

        empty = tablet.evaluate("""() => Array.from(document.querySelectorAll('#board g.point'))
            .find((g) => !g.querySelector('circle') && !g.classList.contains('target')).dataset.point""")
        tablet.locator(f"#board g.point[data-point='{empty}']").tap()  # no checker there, no play makes it
        message_line_on_screen(tablet, size, "no play makes that point")

        # a play typed by hand that the dice do not allow: the server's engine refuses it, with its reason
        type_and_play = ("(m) => { document.getElementById('move-text').value = m;"
                         " document.getElementById('play').click(); }")
        tablet.evaluate(type_and_play, "13/9 13/11")
        message_line_on_screen(tablet, size, "13/9")
        shot(tablet, f"50-record-refused-{width}x{height}")

        tablet.evaluate("document.getElementById('resign').scrollIntoView({block: 'end'})")
        tablet.evaluate(type_and_play, "24/20 24/22")
        message_line_on_screen(tablet, size, "24/20", scrolled=True)
        assert match_load(match_id).version == record.version + 1  # nothing refused was recorded
        assert tablet.errors == []
        tablet.context.close()


def test_a_tablet_back_online_shows_at_once_what_the_other_tablet_recorded_meanwhile(
        live_server, director, browser, api, match_023):  # noqa: F811
    """A tablet that lost the network while the other tablet recorded a play asks for the match as soon as it is
    back online, not at its next poll or its stream's next retry: the state's request follows the browser's
    online event with no timer and no push able to make it, and the board shows the play."""
    match_id, record = match_023
    replay(director, match_id, record.events[1:4])  # Ada to play 6-5
    tablet = open_page(browser, live_server, login=True, touch=True)
    frozen_and_unpushed(tablet)
    tablet.goto(f"{live_server.url}/matches/{match_id}/record/")
    tablet.wait_for_selector("#board .point")
    assert "Ada plays 6-5" in tablet.inner_text("#status")

    tablet.context.set_offline(True)
    tablet.wait_for_function("() => !navigator.onLine")
    now = match_load(match_id).version
    played = api(director).post(f"/api/matches/{match_id}/commands/", {"type": "move", "move": "24/18 18/13",
                                                                        "expected_version": now},
                                format="json", HTTP_IDEMPOTENCY_KEY="the-other-tablet")
    assert played.status_code == 200, played.content
    state = f"{live_server.url}/api/matches/{match_id}/"
    with tablet.expect_request(lambda r: r.url == state and r.method == "GET"):
        tablet.context.set_offline(False)
    tablet.wait_for_function("() => document.getElementById('status').textContent.includes('Bruno to roll')")
    assert tablet.locator("#board g.point[data-point='24'] title").text_content() == "point 24: 1"
    assert tablet.locator("#board g.point[data-point='13'] title").text_content() == "point 13: 6"
    assert tablet.errors == []
