"""Results in a real browser: two tablets on one match, a result reported on paper while the match was being
played, a correction with its reason; then the player page, the home page and the viewer show what happened.

Headless Debian Chromium driven by Playwright against the live server. The second tablet's clock is Playwright's,
so the test decides when its screen looks at the match again instead of racing it."""

import re
from pathlib import Path
from urllib.parse import urlparse

import pytest

from eventlog import projections
from players.models import Player
from tests.properties.events import play_to_end
from tests.waiting import WAIT_MS
from tournaments import services

from .test_club_night_in_a_browser import CHROMIUM, SHOTS, shot

NAMES = ["Ada", "Bruno", "Chloé", "Dimitri"]


@pytest.fixture
def director(django_user_model):
    return django_user_model.objects.create_user("dora", password="dora-pass-1234", is_staff=True, is_superuser=True)


@pytest.fixture
def tablets(live_server, director, monkeypatch):
    """Two browser contexts (two tablets), each logged in as the director."""
    monkeypatch.setenv("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
    if not Path(CHROMIUM).exists():
        pytest.skip("Debian's chromium is not installed (make test installs it)")
    from playwright.sync_api import sync_playwright

    SHOTS.mkdir(parents=True, exist_ok=True)
    app_host = urlparse(live_server.url).netloc
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=[
            "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
            "--no-first-run", "--disable-sync"])
        pages = []
        for frozen in (False, True):
            context = browser.new_context(viewport={"width": 1100, "height": 900})
            if frozen:
                context.clock.install()  # its timers run only when the test says so
                # and it hears no push (games/static/crawford/follow.js): it stays behind until its fallback polls
                context.route("**/follow/", lambda route: route.abort())
            page = context.new_page()
            page.set_default_timeout(WAIT_MS)  # a busy machine: every wait still ends on its event
            page.console_errors, page.foreign_hosts = [], set()
            # a 409 is the expected answer to the tablet that was behind: the console's note of it is not an error
            page.on("console", lambda m, page=page: page.console_errors.append(m.text)
                    if m.type == "error" and "409" not in m.text and "404" not in m.text
                    and "/follow/" not in m.location.get("url", "") + m.text and "ERR_FAILED" not in m.text else None)
            page.on("pageerror", lambda e, page=page: page.console_errors.append(str(e)))
            # (and the viewer asks for a match's gnubg analysis, which no worker made here: 404 "not analysed")
            page.on("response", lambda r, page=page: page.console_errors.append(f"HTTP {r.status} {r.url}")
                    if r.status >= 400 and r.status != 409 and not (r.status == 404 and r.url.endswith("/analysis/"))
                    else None)
            page.on("request", lambda r, page=page: page.foreign_hosts.add(urlparse(r.url).netloc)
                    if urlparse(r.url).netloc not in (app_host, "") and not r.url.startswith("data:") else None)
            page.goto(f"{live_server.url}/accounts/login/")
            page.fill("#id_username", "dora")
            page.fill("#id_password", "dora-pass-1234")
            page.click("button[type=submit]")
            page.wait_for_load_state()
            pages.append(page)
        yield pages
        browser.close()
        from django.db import connections

        connections.close_all()


def settle(event) -> None:
    for _ in range(10):
        projections.run_all()
        if not services.tournament_advance(event):
            projections.run_all()
            return


def test_two_tablets_a_paper_result_and_a_correction_then_every_page_agrees(live_server, director, tablets):
    url = live_server.url
    a, b = tablets
    players = [Player.objects.create(display_name=n) for n in NAMES]
    event = services.tournament_create(actor=director, name="Tuesday ladder", format="single_elimination",
                                       settings={"lengths": {"main": {"default": 3}}, "dice": "board"})
    event.published = True
    event.save(update_fields=["published"])
    for p in players:
        services.tournament_command(actor=director, tournament=event, command={"type": "enter", "player": p.pk})
    services.tournament_command(actor=director, tournament=event,
                                command={"type": "draw", "method": "manual", "seeds": [p.pk for p in players]})
    settle(event)
    facts = services.tournament_facts(event)
    m1, m2 = facts.matches["main:r1:m1"]["match_id"], facts.matches["main:r1:m2"]["match_id"]  # Ada–Dimitri, Bruno–Chloé

    # two tablets on Ada–Dimitri: A enters the opening roll, B (behind) enters it too
    for page in (a, b):
        page.goto(f"{url}/matches/{m1}/record/")
        page.wait_for_selector("#board .point")
    for page in (a, b):
        page.select_option("#die1", "3")
        page.select_option("#die2", "1")
    a.click("#enter-dice")
    a.wait_for_selector("#play:not([hidden])")
    b.click("#enter-dice")
    b.wait_for_selector("text=The other tablet already entered the opening roll 3-1; the screen is updated.")
    assert b.locator("#play").is_visible()  # B's screen moved on to the move, as A's
    shot(b, "20-second-tablet-told")
    # A plays; B's screen follows the match on its own
    a.fill("#move-text", "8/5 6/5")
    a.click("#play")
    a.wait_for_selector("#enter-dice:not([hidden])")
    b.clock.run_for(3500)
    b.wait_for_selector("#enter-dice:not([hidden])")
    assert "Dimitri to roll or double" in b.locator("#status").inner_text()
    # A doubles; B, before it looks again, presses Double too: it is told, and shows the take or drop
    a.click("#double")
    a.wait_for_selector("#take:not([hidden])")
    b.click("#double")
    b.wait_for_selector("text=The other tablet already recorded Dimitri's double to 2; the screen is updated.")
    assert b.locator("#take").is_visible() and not b.locator("#double").is_visible()
    shot(b, "21-stale-double-told")

    # the director reports Ada–Dimitri on paper from the console, choosing the winner and giving the score
    a.goto(f"{url}/events/{event.pk}/run/")
    row = a.locator("#results tr:has(input[name=slot][value='main:r1:m1'])")
    row.locator("select[name=winner]").select_option(label="Dimitri")
    row.locator("input[name=winner_points]").fill("3")
    row.locator("input[name=loser_points]").fill("1")
    row.locator("button[value=report_result]").click()
    a.wait_for_selector("text=Done: record the result.")
    # the tablet still on the match learns it is over, and offers nothing more to record
    b.clock.run_for(3500)
    b.wait_for_selector("text=result reported on paper: Dimitri wins 3-1")
    for button in ("#roll", "#enter-dice", "#take", "#drop", "#double", "#resign"):
        assert not b.locator(button).is_visible()
    shot(b, "22-tablet-after-paper-result")

    # Bruno–Chloé is played at the board (Bruno wins), then corrected on the console with a reason
    play_to_end(director, m2, winner_seat=0)
    settle(event)
    a.reload()
    row = a.locator("#results tr:has(input[name=slot][value='main:r1:m2'])")
    row.locator("select[name=winner]").select_option(label="Chloé")
    row.locator("input[name=winner_points]").fill("3")
    row.locator("input[name=loser_points]").fill("2")
    row.locator("input[name=reason]").fill("scoresheet signed by both")
    row.locator("button[value=correct_result]").click()
    a.wait_for_selector("text=Done: correct the result.")
    settle(event)
    a.reload()
    assert "reason: scoresheet signed by both" in a.locator(".history").inner_text()
    shot(a, "23-console-history")

    # the home page: both matches show their results, neither as "game 0"
    a.goto(url + "/")
    rows = {m: a.locator("tr", has=a.locator(f"a[href='/matches/{m}/']")).inner_text() for m in (m1, m2)}
    assert "result reported on paper" in rows[m1] and "1–3" in rows[m1] and "game" not in rows[m1]
    assert "result set by the director" in rows[m2] and "2–3" in rows[m2]
    shot(a, "24-home")

    # the viewer: the result, and no "Record at the board"
    for m, said in ((m1, "Dimitri won 3–1 (reported on paper)"),
                    (m2, "Chloé won 3–2 (result set by the director: scoresheet signed by both)")):
        a.goto(f"{url}/matches/{m}/")
        a.wait_for_selector("#board .point")
        assert said in a.locator("main, body").first.inner_text()
        assert a.locator("text=Record at the board").count() == 0
    shot(a, "25-viewer-corrected")

    # the player pages: each rated match names its opponent and date, and every link opens
    for player in players:
        a.goto(f"{url}/players/{player.pk}/")
        table = a.locator("table").last
        text = table.inner_text()
        if player.display_name in ("Ada", "Bruno"):
            assert "lost" in text and "Tuesday ladder" in text
        if player.display_name == "Bruno":
            # "25 Nov. 2026": the month as the language abbreviates it
            assert "Chloé" in text and re.search(r"\d{1,2} \w+\.? \d{4}", text)
        hrefs = [h for h in table.locator("a").evaluate_all("els => els.map(e => e.getAttribute('href'))")]
        for href in hrefs:
            assert a.request.get(url + href).status == 200, href
    shot(a, "26-player-page")
    a.goto(f"{url}/players/{players[2].pk}/")  # Chloé, the corrected winner
    assert a.locator("#rating").count() == 1, (a.url, a.content()[:3000])
    assert float(a.locator("#rating").inner_text()) > 1500, a.content()[:3000]

    for page in (a, b):
        assert page.console_errors == []
        assert page.foreign_hosts == set()
