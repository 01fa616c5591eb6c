"""A club night in a real browser: the director runs it from the admin, a match is recorded at the board
by clicks, the bracket, standings and ratings move, the viewer steps through the match.

Headless Debian Chromium driven by Playwright, against the running app (live server) with a live Celery
worker on the real broker. Screenshots of every page go to var/screenshots/.
"""

import re
import time
from pathlib import Path
from urllib.parse import urlparse

import pytest
from playwright.sync_api import expect

from players.models import Player
from tests.waiting import WAIT, WAIT_MS, wait_in_page

SHOTS = Path(__file__).resolve().parents[2] / "var" / "screenshots"
CHROMIUM = "/usr/bin/chromium"
NAMES = ["Ada", "Bruno", "Chloé", "Dimitri", "Eva", "Farid", "Greta", "Hugo"]


@pytest.fixture
def browser_page(live_server, monkeypatch):
    # Playwright's sync API keeps an event loop on this thread; the test's own ORM calls are still sync
    monkeypatch.setenv("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
    if not Path(CHROMIUM).exists():
        pytest.skip("Debian's chromium is not installed (make test installs it)")
    from playwright.sync_api import sync_playwright

    SHOTS.mkdir(parents=True, exist_ok=True)
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=[
            "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
            "--no-first-run", "--disable-sync"])
        page = browser.new_page(viewport={"width": 1100, "height": 900})
        page.set_default_timeout(WAIT_MS)
        page.console_errors, page.foreign_hosts, page.without_csp = [], set(), set()
        # a page whose answer lacks the Content-Security-Policy; a CSP violation shows as a console error
        page.on("response", lambda r: page.without_csp.add(r.url)
                if r.request.resource_type == "document" and "content-security-policy" not in r.headers else None)
        app_host = urlparse(live_server.url).netloc
        page.on("console", lambda m: page.console_errors.append(f"{m.text} ({page.url})") if m.type == "error" else None)
        page.on("pageerror", lambda e: page.console_errors.append(str(e)))
        page.on("response", lambda r: page.console_errors.append(f"HTTP {r.status} {r.url}") if r.status >= 400 else None)
        page.on("request", lambda r: page.foreign_hosts.add(urlparse(r.url).netloc)
                if urlparse(r.url).netloc not in (app_host, "") and not r.url.startswith("data:") else None)
        yield page
        browser.close()
        # the test's ORM calls ran while Playwright's event loop was running: Django gave them connections
        # of their own (asgiref's context-local storage), which nothing else would close
        from django.db import connections

        connections.close_all()


def shot(page, name: str) -> None:
    page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=True)


def reload_until(page, check, timeout: float = WAIT):
    """Reload ``page`` until ``check()`` holds (the worker's work shown); fail after ``timeout`` seconds."""
    deadline = time.monotonic() + timeout
    while not check():
        if time.monotonic() > deadline:
            raise AssertionError(f"{page.url} never showed what was expected in {timeout} s")
        page.wait_for_timeout(500)
        page.reload()


@pytest.mark.worker
def test_a_director_runs_a_club_night_and_a_match_is_recorded_at_the_board(live_worker, live_server, browser_page,
                                                                             django_user_model):
    page, url = browser_page, live_server.url
    django_user_model.objects.create_user("dora", password="dora-pass-1234", is_staff=True, is_superuser=True)
    for name in NAMES:
        Player.objects.create(display_name=name)

    # the director logs in and creates the event in the admin
    page.goto(f"{url}/admin/login/")
    page.fill("#id_username", "dora")
    page.fill("#id_password", "dora-pass-1234")
    page.click("input[type=submit]")
    page.goto(f"{url}/admin/tournaments/tournament/add/")
    page.fill("#id_name", "Thursday club night")
    page.select_option("#id_format", "single_elimination")
    page.fill("#id_length", "3")
    page.select_option("#id_dice", "board")  # the club plays with its own dice, entered at the board
    shot(page, "01-admin-new-event")
    page.click("input[name=_save]")
    page.click("text=Run this event")
    run_url = page.url

    # entries, one-click check-in, the draw
    for name in NAMES:
        page.select_option("select[name=player]", label=name)
        page.click("button[value=enter]")
    for name in NAMES:
        page.click(f"button[aria-label='Check in {name}']")
    expect(page.locator("text=✓")).to_have_count(8)  # the presses answered, one after the other, without a page load
    shot(page, "02-admin-checked-in")
    page.click("button[value=draw]")
    reload_until(page, lambda: page.locator("a:text('record')").count() == 4)
    shot(page, "03-admin-draw-made")

    # a first-round match recorded at the board: dice from the board, taps, then a resignation
    page.locator("a:text('record')").first.click()
    page.wait_for_selector("#board .point")
    shot(page, "04-record-start")
    page.select_option("#die1", "3")
    page.select_option("#die2", "1")
    page.click("#enter-dice")
    page.wait_for_selector("#play:not([hidden])")
    mover_first = page.locator("#status").inner_text()
    # a tapped checker goes at once by the larger die; Undo takes it back; the last die's checker is sent at once
    page.click("#board .point:has(text.label:text-is('8'))")
    assert page.input_value("#move-text") == "8/5"
    page.click("#undo")
    assert page.input_value("#move-text") == ""
    page.click("#board .point:has(text.label:text-is('8'))")
    shot(page, "05-record-composed")
    page.click("#board .point:has(text.label:text-is('6'))")
    page.wait_for_selector("#enter-dice:not([hidden])")
    assert page.locator("#roll").is_hidden()  # no server roll in a match whose dice come from the board
    assert "to roll or double" in page.locator("#status").inner_text()
    page.fill("#move-text", "")  # nothing to type now: it is the other player's roll
    page.select_option("#resign-kind", "backgammon")
    page.click("#resign")
    page.wait_for_selector("#accept:not([hidden])")
    page.click("#accept")
    page.wait_for_selector("text=wins the match")
    winner = re.search(r"(\w+) wins the match", page.locator("#status").inner_text()).group(1)
    assert winner in mover_first
    shot(page, "06-record-finished")

    # the bracket shows the winner advanced to round 2
    page.goto(url + "/")
    page.click("text=Thursday club night")
    event_url = page.url
    reload_until(page, lambda: page.locator(".bracket .round").nth(1).locator(f"text={winner}").count() == 1)
    shot(page, "07-event-bracket")
    standings = page.locator("table").first.inner_text()
    assert re.search(rf"{winner}\s+1\s+1\s+0", standings)

    # the winner's rating went up from 1500
    page.click(f"table >> text={winner}")
    reload_until(page, lambda: page.locator("#rating").inner_text() != "1500.00")
    assert float(page.locator("#rating").inner_text()) > 1500
    shot(page, "08-player")
    page.goto(f"{url}/ratings/")
    assert winner in page.locator("table").inner_text()
    shot(page, "09-ratings")

    # the match viewer steps through the match, with buttons and arrow keys
    page.goto(event_url)
    page.locator(".bracket .match a:text('viewer')").first.click()
    page.wait_for_selector("#board .point")
    last = page.locator("#text").inner_text()
    assert "wins the match" in last
    page.click("#prev")
    assert page.locator("#text").inner_text() != last
    page.keyboard.press("Home")
    assert "match" in page.locator("#text").inner_text()
    page.keyboard.press("ArrowRight")
    assert "Game 1" in page.locator("#text").inner_text()
    assert page.locator("#posid").inner_text() == "4HPwATDgc/ABMA"
    page.keyboard.press("ArrowRight")
    assert "plays 8/5 6/5" in page.locator("#text").inner_text()
    shot(page, "10-viewer")
    page.goto(run_url)
    shot(page, "11-admin-after")

    assert page.console_errors == []  # a script or style the Content-Security-Policy refused would be here
    assert page.foreign_hosts == set()
    assert page.without_csp == set()


def test_members_who_are_not_staff_log_in_on_the_site_to_record_and_to_run(live_server, browser_page,
                                                                            django_user_model):
    """A player records their own match from a tablet; the event's director, who is not staff, runs it."""
    from eventlog import projections
    from tournaments import services

    page, url = browser_page, live_server.url
    director = django_user_model.objects.create_user("ines", password="ines-pass-1234")
    seats = []
    for name in ("Jonas", "Katia"):
        user = django_user_model.objects.create_user(name.lower(), password=f"{name.lower()}-pass-1234")
        seats.append(Player.objects.create(display_name=name, user=user))
    event = services.tournament_create(actor=director, name="Friday ladder", format="single_elimination",
                                       settings={"lengths": {"main": {"default": 1}}, "dice": "board"})
    for player in seats:
        services.tournament_command(actor=director, tournament=event, command={"type": "enter", "player": player.pk})
        services.tournament_command(actor=director, tournament=event, command={"type": "check_in", "player": player.pk})
    services.tournament_command(actor=director, tournament=event, command={"type": "draw", "method": "random"})
    services.tournament_advance(event)
    projections.run_all()
    match_id = services.tournament_facts(event).matches["main:r1:m1"]["match_id"]

    # Jonas opens his match's recording screen: the site's login page first, then back to the board
    page.goto(f"{url}/matches/{match_id}/record/")
    assert "/accounts/login/" in page.url
    shot(page, "12-site-login")
    page.fill("#id_username", "jonas")
    page.fill("#id_password", "jonas-pass-1234")
    page.click("button[type=submit]")
    page.wait_for_selector("#board .point")
    assert page.url.endswith(f"/matches/{match_id}/record/")
    page.select_option("#die1", "3")
    page.select_option("#die2", "1")
    page.click("#enter-dice")
    from eventlog.models import Event

    rolled = Event.objects.filter(stream_id=match_id, event_type="GameStarted", metadata__actor=seats[0].user_id)
    wait_in_page(page, rolled.exists, what="the roll, recorded under Jonas's own name")
    assert sorted(rolled.get().payload["dice"]) == [1, 3]
    page.click("button:text('Log out')")
    page.wait_for_selector("text=Log in")

    # Ines, the director, is not staff: the event page offers her the run page, which opens after the login
    page.goto(f"{url}/events/{event.pk}/")
    assert page.locator("text=Run this event").count() == 0
    page.click("text=Log in")
    page.fill("#id_username", "ines")
    page.fill("#id_password", "ines-pass-1234")
    page.click("button[type=submit]")
    page.wait_for_url(f"{url}/events/{event.pk}/")
    page.click("text=Run this event")
    page.wait_for_selector("h1:text('Run Friday ladder')")
    shot(page, "13-run-page-non-staff-director")
    assert page.locator("a:text('record')").count() == 1

    assert page.console_errors == []
    assert page.foreign_hosts == set()
