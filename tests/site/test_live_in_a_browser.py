"""Live pages and the recording screen in a real browser.

One tablet records a match (a GNU Backgammon match replayed up to a roll that cannot be played), a second browser
watches its live board: each submission is on the board, told by its stream (server-sent events through Redis
pub/sub; how soon: bench/recording.py --watch). The recording screen's own checks: touch targets of 44 px at
768x1024 and 1024x768, a tied opening roll asks to roll again, a roll that cannot be played says so, the game's
winner is said between games, the dice pad is empty after each roll, an empty point is refused at once, the cube
never covers the tray's counts, a point made in one tap. Then an event page follows a result without reloading,
keeping the bracket's sideways scroll and the focused link, with no live region over the whole bracket, and
catches up on a result that came while it loaded, before its stream was open.

Headless Debian Chromium driven by Playwright against the live server (threaded WSGI: the push's sync path; the
ASGI path is tests/eventlog/test_live_push.py)."""

from datetime import datetime, timedelta
from pathlib import Path
from urllib.parse import urlparse

import pytest

from eventlog import live, tasks
from games import commands as match_commands
from games.command_handler import match_command
from games.creation import match_create
from games.engine import commands as engine
from games.engine import events as ev
from games.engine.matfile import read_mat
from games.loading import match_load
from players.models import Player
from tests.tournaments.test_running_events import play_to_end
from tournaments import services

from tests.waiting import WAIT_MS, wait_in_page

from .heard import heard, listening
from .test_club_night_in_a_browser import CHROMIUM, SHOTS, shot

MAT = Path(__file__).resolve().parents[1] / "fixtures/gnubg/matches/match_023_5pt.mat"


@pytest.fixture
def director(django_user_model):
    return django_user_model.objects.create_user("dora", password="dora-pass-1234", is_staff=True, is_superuser=True)


@pytest.fixture
def browser(live_server, monkeypatch):
    monkeypatch.setenv("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
    if not Path(CHROMIUM).exists():
        pytest.skip("Debian's chromium is not installed (make test installs it)")
    from playwright.sync_api import sync_playwright

    SHOTS.mkdir(parents=True, exist_ok=True)
    with sync_playwright() as p:
        chromium = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox", "--disable-gpu"])
        yield chromium
        chromium.close()
    from django.db import connections

    connections.close_all()


def open_page(browser, live_server, *, login: bool, width=1024, height=768, touch=False):
    context = browser.new_context(viewport={"width": width, "height": height}, has_touch=touch)
    page = context.new_page()
    page.set_default_timeout(WAIT_MS)
    page.errors, page.polls, page.follows = [], [], []
    app = urlparse(live_server.url).netloc
    page.on("pageerror", lambda e: page.errors.append(str(e)))
    page.submissions = []
    page.on("requestfinished", lambda r: page.submissions.append(r.timing["startTime"])
            if r.method == "POST" and r.url.endswith("/commands/") else None)
    page.on("request", lambda r: page.errors.append(f"foreign {r.url}") if urlparse(r.url).netloc not in (app, "")
            and not r.url.startswith("data:") else None)
    page.on("request", lambda r: page.follows.append(r.url) if r.url.endswith("/follow/") else None)
    page.on("request", lambda r: page.polls.append(r.url) if "partial=1" in r.url or "/api/matches/" in r.url
            and r.method == "GET" else None)
    if login:
        page.goto(f"{live_server.url}/accounts/login/")
        page.fill("#id_username", "dora")
        page.fill("#id_password", "dora-pass-1234")
        page.click("button[type=submit]")
        page.wait_for_load_state()
    return page


def frozen_and_unpushed(page) -> None:
    """From before the page opens, it hears no push (its stream refused) and runs no timer of its own (its clock
    paused): whatever it fetches, neither a poll nor a push made it ask."""
    page.context.route("**/follow/", lambda route: route.abort())
    page.context.clock.install()
    page.clock.pause_at(datetime.now() + timedelta(seconds=1))


def replay(director, match_id: str, events) -> None:
    """The file's actions as commands, through the service (the board's dice)."""
    for event in events:
        if isinstance(event, ev.GameStarted) or isinstance(event, ev.DiceRolled):
            command = match_commands.RollDice(dice=tuple(event.dice))
        elif isinstance(event, ev.CheckersMoved):
            command = engine.Move(None, event.move)
        elif isinstance(event, ev.DoubleOffered):
            command = engine.Double(None)
        elif isinstance(event, ev.DoubleTaken):
            command = engine.Take(None)
        else:
            continue  # what the engine appends by itself (CannotMove, GameWon)
        record = match_load(match_id)
        match_command(actor=director, stream_id=match_id, command=command, expected_version=record.version)


def tap_dice(page, a: int, b: int) -> None:
    page.locator(f".die-key[data-die='{a}']").tap()
    page.locator(f".die-key[data-die='{b}']").tap()


def shown_to_the_watcher(watcher, version_after: int, act) -> None:
    """Do ``act`` on the tablet: the watcher's live board (``listening``) shows ``version_after``, and its stream
    told it so: pushed, not only polled. How soon is a figure of bench/recording.py --watch, not of a test (a busy
    machine answers late, and a test must not fail for that)."""
    act()
    watcher.wait_for_function("(v) => +document.body.dataset.version >= v", arg=version_after)
    heard(watcher, version_after, "the tablet's submission")


def sizes(page, selector: str) -> list[dict]:
    return page.eval_on_selector_all(selector, "els => els.filter(e => e.getClientRects().length)"
                                               ".map(e => { const r = e.getBoundingClientRect(); "
                                               "return {w: r.width, h: r.height, id: e.id || e.textContent}; })")


def test_a_tablet_records_and_a_big_screen_follows_by_the_push(live_server, director, browser):
    url = live_server.url
    record = read_mat(MAT.read_text())
    alice, bob = Player.objects.create(display_name="Alice"), Player.objects.create(display_name="Bob")
    match_id = match_create(actor=director, player0=alice, player1=bob, length=5, dice="board").stream_id
    replay(director, match_id, record.events[1:67])  # up to Bob's 5-1, which cannot be played
    tablet = open_page(browser, live_server, login=True, touch=True)
    watcher = open_page(browser, live_server, login=False, width=1280, height=800)
    listening(watcher)
    tablet.goto(f"{url}/matches/{match_id}/record/")
    tablet.wait_for_selector("#board .point")
    watcher.goto(f"{url}/matches/{match_id}/live/")
    watcher.wait_for_selector("#board .point")
    version = first = match_load(match_id).version
    assert watcher.locator("body").get_attribute("data-version") == str(version)
    assert "Bob" in watcher.locator("#who1").inner_text() and "dark checkers" in watcher.locator("#who1").inner_text()
    assert watcher.locator("#board .turnmark").count() == 1  # whose turn

    # touch targets: 44 px at least, landscape and portrait
    for width, height in ((1024, 768), (768, 1024)):
        tablet.set_viewport_size({"width": width, "height": height})
        points = sizes(tablet, "#board g.point")
        assert len(points) == 24 and min(p["w"] for p in points) >= 44, (width, min(p["w"] for p in points))
        controls = sizes(tablet, ".sidecol button:not([hidden]), .sidecol select")
        assert controls and min(min(c["w"], c["h"]) for c in controls) >= 44, (width, controls)
        shot(tablet, f"40-record-{width}x{height}")
    tablet.set_viewport_size({"width": 1024, "height": 768})

    # the cube (Bob owns it at 2) never covers the tray's off counts
    overlap = tablet.evaluate("""() => {
        const box = (e) => e.getBoundingClientRect();
        const cube = box(document.querySelector('#board rect.cube'));
        return Array.from(document.querySelectorAll('#board .offcount')).some((t) => { const b = box(t);
            return b.left < cube.right && cube.left < b.right && b.top < cube.bottom && cube.top < b.bottom; });
    }""")
    assert overlap is False

    # Bob's 5-1 cannot be played: the tablet says so, the big screen is told and shows it
    shown_to_the_watcher(watcher, version + 2, lambda: tap_dice(tablet, 5, 1))
    tablet.wait_for_selector("text=Bob rolled 5-1 and cannot move")
    assert tablet.locator("#dice-chosen").inner_text() == "" and tablet.input_value("#die1") == ""
    shot(tablet, "41-record-cannot-move")

    # Alice's 5-2: an empty point is refused at once (nothing sent), then her play, seen on the big screen
    version = match_load(match_id).version
    shown_to_the_watcher(watcher, version + 1, lambda: tap_dice(tablet, 5, 2))
    tablet.wait_for_selector("#play:not([hidden])")
    sent = len(tablet.polls)
    empty = tablet.evaluate("""() => Array.from(document.querySelectorAll('#board g.point'))
        .find((g) => !g.querySelector('circle') && !g.classList.contains('target')).dataset.point""")
    tablet.locator(f"#board g.point[data-point='{empty}']").tap()
    assert "no checker" in tablet.locator("#status").inner_text() and tablet.input_value("#move-text") == ""
    assert "error" in tablet.locator("#status").get_attribute("class") and len(tablet.polls) == sent
    version = match_load(match_id).version
    # 5/3 5/off: the checker on 5 goes by the larger die (5/off) at once; the next tap on 5 plays the 2
    shown_to_the_watcher(watcher, version + 1, lambda: (
        tablet.locator("#board g.point[data-point='5']").tap(), tablet.locator("#board g.point[data-point='5']").tap()))
    assert match_load(match_id).state.game == 1
    shot(watcher, "42-live-board")

    # to the end of game 1 through the service: the tablet says who won it while game 2 waits
    replay(director, match_id, record.events[71:120])
    tablet.reload()
    tablet.wait_for_selector("text=won game 1")
    watcher.wait_for_function("(v) => +document.body.dataset.version >= v", arg=match_load(match_id).version)
    shot(tablet, "43-record-between-games")

    # a tied opening roll: roll again; then a point made with one tap, the big screen following
    version = match_load(match_id).version
    tap_dice(tablet, 4, 4)
    tablet.wait_for_selector("text=Both rolled 4: roll again.")
    assert tablet.locator("#dice-pad").is_visible() and tablet.locator("#dice-chosen").inner_text() == ""
    shown_to_the_watcher(watcher, version + 2, lambda: tap_dice(tablet, 3, 1))
    version = match_load(match_id).version
    mover = match_load(match_id).state.turn
    five = "5" if mover == 0 else "20"  # the mover's 5-point, in the board's (Alice's) numbering
    shown_to_the_watcher(watcher, version + 1,
                            lambda: tablet.locator(f"#board g.point[data-point='{five}']").tap())
    assert match_load(match_id).state.phase == "roll"
    shot(watcher, "44-live-board-point-made")
    # pushed: each change above was told by the watcher's stream (shown_to_the_watcher); a count of its polls would
    # count the fallback's too, which asks while a stream is down, as on a busy machine it may be for a while
    assert len(watcher.follows) >= 1 and match_load(match_id).version > first
    # the viewer of game 1: a roll and its play one step, a move list to jump with, the offered cube, the cube the
    # game was won on in its last frame, which colour is whose
    watcher.goto(f"{url}/matches/{match_id}/?game=1")
    watcher.wait_for_selector("#moves li")
    frames = watcher.evaluate("JSON.parse(document.getElementById('frames').textContent)")
    assert any(f["text"].startswith("Alice plays ") and " with " in f["text"] and f["dice"] for f in frames)
    assert not any(f["text"].endswith(("rolls 5-2", "rolls 6-4")) for f in frames[:-1])
    assert watcher.locator("#moves li").count() == len(frames)
    assert "Alice plays the light checkers" in watcher.locator(".colour-key").inner_text()
    offered = next(k for k, f in enumerate(frames) if f["offered"])
    watcher.locator("#moves li button").nth(offered).click()
    assert watcher.inner_text("#step") == f"{offered + 1} / {len(frames)}"
    assert watcher.locator("#board rect.cube.offered").count() == 1
    shot(watcher, "46-viewer-offered-cube")
    watcher.click("#last")
    assert frames[-1]["text"].startswith("Alice wins") or frames[-1]["text"].startswith("Bob wins")
    assert watcher.inner_text("#cube").startswith(str(record.events[119].cube))
    assert watcher.locator("form.jump input[name=game]").count() == 1
    # the match goes on while the viewer is open: the reader is told, the board stays where they are
    assert watcher.locator("#moved-on").is_hidden()
    record_now = match_load(match_id)
    match_command(actor=director, stream_id=match_id, command=match_commands.RollDice(dice=(6, 5)),
                  expected_version=record_now.version)
    watcher.wait_for_selector("#moved-on:not([hidden])")
    assert watcher.inner_text("#step") == f"{len(frames)} / {len(frames)}"
    for page in (tablet, watcher):
        assert page.errors == []


def settle(event) -> None:
    for _ in range(10):
        tasks.project_all()  # as the worker does: the projections run, and the event pages are told
        if not services.tournament_advance(event):
            tasks.project_all()
            return


# Read in one evaluation: Playwright's eval_on_selector finds the element, then runs the function on it in a
# second call, and a push swapping the live part in between leaves it a detached node, whose scrollLeft is 0
BRACKET_SCROLL = "document.querySelector('#live .bracket').scrollLeft"


def drawn_knockout(director, name: str, size: int):
    """A published single elimination of ``size`` new players, drawn in seed order, its projections settled."""
    players = [Player.objects.create(display_name=f"Player {i}") for i in range(size)]
    event = services.tournament_create(actor=director, name=name, format="single_elimination",
                                       settings={"lengths": {"main": {"default": 3}}, "dice": "board"})
    event.published = True
    event.save(update_fields=["published"])
    for p in players:
        services.tournament_command(actor=director, tournament=event, command={"type": "enter", "player": p.pk})
    services.tournament_command(actor=director, tournament=event,
                                command={"type": "draw", "method": "manual", "seeds": [p.pk for p in players]})
    settle(event)
    return event


def test_an_event_page_follows_a_result_and_keeps_the_readers_place(live_server, director, browser):
    url = live_server.url
    event = drawn_knockout(director, "Live night", 8)
    page = open_page(browser, live_server, login=False, width=420, height=800)
    listening(page)
    released, held = [], []  # the page's stream, held until the idle check is done: no push, no error, so no
    page.route("**/follow/", lambda route: route.continue_() if released else held.append(route))  # fallback timer
    page.clock.install()  # the page's timers, moved on by the test: 6 s of them take no 6 s
    page.goto(f"{url}/events/{event.pk}/")
    page.wait_for_selector(".bracket .match")
    assert page.locator("#live").get_attribute("aria-live") is None  # not the whole bracket re-read
    page.eval_on_selector(".bracket", "b => { b.scrollLeft = 120; }")
    scrolled = page.evaluate(BRACKET_SCROLL)
    assert scrolled > 0, "the bracket is wider than the page here"
    link = page.locator("#live a[href^='/players/']").first
    href = link.get_attribute("href")
    link.focus()
    # the live part's fetches, counted as the page starts them
    page.evaluate("""() => { window.asked = 0; const fetch = window.fetch; window.fetch = (...args) => {
        if (String(args[0]).includes("partial=1")) window.asked += 1; return fetch(...args); }; }""")
    page.clock.run_for(6_000)  # longer than the old 5 s poll: nothing is fetched while nothing happens
    assert page.evaluate("window.asked") == 0

    # a result comes in as several pushes (the match's projections, then the event's next round), each one a swap
    # of the live part: the bracket's scroll is noted as each swap leaves it, before the browser paints again
    page.evaluate("""() => { window.swaps = []; new MutationObserver(() => window.swaps.push(
        document.querySelector('#live .bracket').scrollLeft)).observe(document.getElementById('live'),
                                                                      {childList: true}); }""")
    wait_in_page(page, lambda: held, what="the page to ask for its stream")
    released.append(True)
    for route in held:
        route.continue_()
    facts = services.tournament_facts(event)
    play_to_end(director, facts.matches["main:r1:m1"]["match_id"], winner_seat=0)
    settle(event)
    page.wait_for_selector(".match[data-slot='main:r1:m1'][data-status='done']")
    assert page.evaluate(BRACKET_SCROLL) == scrolled
    # the pushes that follow the one that showed the result: the last one heard, and every fetch swapped in
    heard(page, live.projected_position(), "the event's projections, settled")
    wait_in_page(page, lambda: page.evaluate("window.asked === window.swaps.length"), what="every fetch swapped in")
    swaps = page.evaluate("window.swaps")
    assert swaps and set(swaps) == {scrolled}, swaps
    assert page.evaluate(BRACKET_SCROLL) == scrolled
    assert page.evaluate("document.activeElement.getAttribute('href')") == href
    assert page.locator("#live-news").inner_text() == "A result came in."
    shot(page, "45-event-page-followed")
    assert page.follows and page.errors == []


def test_an_event_page_catches_up_on_a_result_that_came_while_it_loaded(live_server, director, browser):
    """A result projected after the server built the page and before the page's stream was open is told to nobody:
    the page must still show it, comparing the stream's first number with where the page was built (as the
    console does), not taking that first number as where it already stands."""
    event = drawn_knockout(director, "Late push", 4)
    page = open_page(browser, live_server, login=False)
    held = []  # the page's stream, held back: the page is loaded and its stream not yet open
    page.route("**/follow/", lambda route: held.append(route))
    page.goto(f"{live_server.url}/events/{event.pk}/")
    page.wait_for_selector(".bracket .match[data-slot='main:r1:m1']")
    wait_in_page(page, lambda: held, what="the page to ask for its stream")
    assert page.locator(".match[data-slot='main:r1:m1'][data-status='done']").count() == 0

    play_to_end(director, services.tournament_facts(event).matches["main:r1:m1"]["match_id"], winner_seat=0)
    settle(event)  # every push of it is published now, while the page is not yet listening
    held[0].continue_()
    page.wait_for_selector(".match[data-slot='main:r1:m1'][data-status='done']")
    assert page.errors == []


def test_the_live_board_back_online_shows_at_once_what_was_recorded_meanwhile(live_server, director, browser, api):
    """The big screen shares the recording screen's following (follow.js): back online, it asks for the match at
    once (no timer and no push able to make it ask here) and draws what was recorded while it was offline."""
    alice, bob = Player.objects.create(display_name="Alice"), Player.objects.create(display_name="Bob")
    match_id = match_create(actor=director, player0=alice, player1=bob, length=5, dice="board").stream_id
    replay(director, match_id, read_mat(MAT.read_text()).events[1:4])  # Alice to play 6-5
    watcher = open_page(browser, live_server, login=False, width=1280, height=800)
    frozen_and_unpushed(watcher)
    watcher.goto(f"{live_server.url}/matches/{match_id}/live/")
    watcher.wait_for_selector("#board .point")
    before = match_load(match_id).version
    assert watcher.locator("body").get_attribute("data-version") == str(before)

    watcher.context.set_offline(True)
    watcher.wait_for_function("() => !navigator.onLine")
    played = api(director).post(f"/api/matches/{match_id}/commands/", {"type": "move", "move": "24/18 18/13",
                                                                        "expected_version": before},
                                format="json", HTTP_IDEMPOTENCY_KEY="the-tablet")
    assert played.status_code == 200, played.content
    state = f"{live_server.url}/api/matches/{match_id}/"
    with watcher.expect_request(lambda r: r.url == state and r.method == "GET"):
        watcher.context.set_offline(False)
    watcher.wait_for_function("(v) => +document.body.dataset.version > v", arg=before)
    assert watcher.inner_text("#status") == "Bob to roll."
    assert watcher.errors == []


def test_the_viewer_whose_stream_was_refused_hears_the_match_again_once_back_online(live_server, director, browser,
                                                                                   api):
    """The move-by-move viewer shares the following (follow.js). A stream refused outright (a proxy's 502 while a
    live node restarts, or the 503 of too many streams) is closed for good by the browser: back online, the page
    opens a new one, which tells it the match moved on while it was away."""
    alice, bob = Player.objects.create(display_name="Alice"), Player.objects.create(display_name="Bob")
    match_id = match_create(actor=director, player0=alice, player1=bob, length=5, dice="board").stream_id
    replay(director, match_id, read_mat(MAT.read_text()).events[1:4])  # Alice to play 6-5
    reader = open_page(browser, live_server, login=False)
    refused = {"now": True}
    reader.context.route("**/follow/", lambda route: route.fulfill(status=502, body="Bad gateway")
                         if refused["now"] else route.continue_())
    with reader.expect_response(lambda r: r.url.endswith("/follow/") and r.status == 502):
        reader.goto(f"{live_server.url}/matches/{match_id}/")
    reader.wait_for_selector("#board .point")
    assert reader.locator("#moved-on").is_hidden()

    reader.context.set_offline(True)
    reader.wait_for_function("() => !navigator.onLine")
    before = match_load(match_id).version
    played = api(director).post(f"/api/matches/{match_id}/commands/", {"type": "move", "move": "24/18 18/13",
                                                                        "expected_version": before},
                                format="json", HTTP_IDEMPOTENCY_KEY="the-tablet")
    assert played.status_code == 200, played.content
    refused["now"] = False
    with reader.expect_response(lambda r: r.url.endswith("/follow/") and r.status == 200):
        reader.context.set_offline(False)
    reader.wait_for_selector("#moved-on:not([hidden])")
    assert reader.errors == []
