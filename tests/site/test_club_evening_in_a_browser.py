"""A club's evening in one browser test: a 12-player evening from the director's console.

Members pasted in, everybody checked in, the draw, tables, the printed draw sheet and score cards (their PDF text
read back); one first-round match recorded on the tablet's recording screen by taps while a second browser context
watches its live board (each move there, told by its stream); the other first-round matches
entered from paper through the console; the recorded match's winner in round 2 at a table shown on the console's
board, both players of that match told by e-mail (the live worker's file backend); the evening's standings and
round names read in French on the event page.

Headless Debian Chromium driven by Playwright against the live server, the live Celery worker on the real broker.
The helpers are the three browser tests' own (console, live, French); screenshots go to var/screenshots/evening-*.
"""

import shutil

import pytest
from django.conf import settings

from games.loading import match_load
from tests.site.test_club_night_in_a_browser import browser_page, reload_until, shot  # noqa: F401 - the fixture
from tests.site.test_console_in_a_browser import MEMBERS, address, mails, pdf_text
from tests.site.heard import listening
from tests.site.test_live_in_a_browser import open_page, shown_to_the_watcher, tap_dice
from tests.waiting import wait_in_page
from tournaments import services
from tournaments.selectors import tournament_data

FRENCH_ROUNDS = ["Ronde 1", "Quart de finale", "Demi-finale", "Finale"]


def login(page, url: str, next_path: str) -> None:
    page.goto(f"{url}/accounts/login/?next={next_path}")
    page.fill("#id_username", "dora")
    page.fill("#id_password", "dora-pass-1234")
    page.press("#id_password", "Enter")


def paper_result(page, key: str, winner: int) -> None:
    """The director types a score sheet's result into the console's results table: the winner, 1-0."""
    form = page.locator(f"#results form:has(input[name=slot][value='{key}']):has(select[name=winner])")
    form.locator("select[name=winner]").select_option(str(winner))
    form.locator("input[name=winner_points]").fill("1")
    form.locator("input[name=loser_points]").fill("0")
    form.locator("button[value=report_result]").click()
    page.wait_for_selector("#console-messages p")  # the answer, shown without a page load (console.js)


@pytest.mark.worker
def test_a_club_evening_from_the_console_to_the_french_standings(live_worker, live_server, browser_page,  # noqa: F811
                                                                  make_user):
    page, url = browser_page, live_server.url
    shutil.rmtree(settings.EMAIL_FILE_PATH, ignore_errors=True)
    director = make_user("dora", official=True, player=False)
    director.set_password("dora-pass-1234")
    director.save()
    # round 1 to one point (quick to record and to enter), the rest to three; dice read from the board
    t = services.tournament_create(actor=director, name="Club evening", format="single_elimination",
                                   settings={"lengths": {"main": {"default": 3, "rounds": {"1": 1}}}, "dice": "board"})
    services.tournament_publish(actor=director, tournament=t, published=True)

    # the console: members pasted in, everybody checked in, the draw with its tables
    login(page, url, f"/events/{t.pk}/run/")
    page.wait_for_selector("#members")
    console_url = page.url
    page.fill("#members", "\n".join(f"{n}\t{address(n)}\t{c}" for n, c in MEMBERS))
    page.click("button[value=import]")
    page.wait_for_selector("text=12 members entered")
    assert page.locator("#entries tbody tr").count() == 12
    page.click("#check-in-all")
    page.wait_for_selector("text=12 players checked in")
    assert page.locator("#entries [aria-label='checked in']").count() == 12
    page.click("#make-draw")
    page.wait_for_selector("#board")
    rows = page.locator("#board tbody tr")
    assert rows.count() == 4  # four first-round matches, four byes
    assert [rows.nth(i).locator(".table-no").inner_text() for i in range(4)] == ["1", "2", "3", "4"]
    shot(page, "evening-01-draw")

    # the printed sheets
    data = tournament_data(t)
    first_round = [s for s in data["slots"] if s["round"] == 1 and None not in s["players"]]
    assert len(first_round) == 4 and all(s["match_id"] and s["table"] for s in first_round)
    draw = page.request.get(f"{url}/events/{t.pk}/run/sheets/draw.pdf")
    assert draw.ok and draw.headers["content-type"] == "application/pdf"
    text = pdf_text(draw.body())
    assert "Club evening" in text and all(n in text for s in first_round for n in s["names"])
    cards = pdf_text(page.request.get(f"{url}/events/{t.pk}/run/sheets/cards.pdf").body())
    assert cards.count("match to 1 point") == 4 and "Cube" in cards
    assert all(f"Table {s['table']}" in cards for s in first_round)

    # the match at table 1 is recorded on a tablet; a big screen in another browser context watches its live board
    recorded = next(s for s in first_round if s["table"] == 1)
    match_id = recorded["match_id"]
    tablet = open_page(page.context.browser, live_server, login=True, touch=True)
    watcher = open_page(page.context.browser, live_server, login=False, width=1280, height=800)
    listening(watcher)
    tablet.goto(f"{url}/matches/{match_id}/record/")
    tablet.wait_for_selector("#board .point")
    watcher.goto(f"{url}/matches/{match_id}/live/")
    watcher.wait_for_selector("#board .point")

    def version() -> int:
        return match_load(match_id).version

    shown_to_the_watcher(watcher, version() + 1, lambda: tap_dice(tablet, 3, 1))  # the opening roll
    mover = match_load(match_id).state.turn
    five = "5" if mover == 0 else "20"  # the mover's 5-point in the board's numbering: made in one tap
    shown_to_the_watcher(watcher, version() + 1,
                            lambda: tablet.locator(f"#board g.point[data-point='{five}']").tap())
    shown_to_the_watcher(watcher, version() + 1, lambda: tap_dice(tablet, 6, 4))  # the other's roll
    shot(watcher, "evening-02-live-board")
    shown_to_the_watcher(watcher, version() + 1, lambda: tablet.locator("#resign").tap())
    shown_to_the_watcher(watcher, version() + 1, lambda: tablet.locator("#accept").tap())
    assert match_load(match_id).state.winner == mover  # the resigning player's opponent won it 1-0
    winner = recorded["players"][mover]
    shot(tablet, "evening-03-tablet-done")
    assert tablet.errors == [] and watcher.errors == []
    tablet.context.close()
    watcher.context.close()

    # the other three first-round matches from their paper score sheets, through the console
    page.goto(console_url)
    for s in first_round:
        if s is not recorded:
            paper_result(page, s["key"], s["players"][0])

    # the recorded match's winner goes on to round 2, at a table shown on the console's board
    def next_match():
        return next((s for s in tournament_data(t)["slots"] if s["round"] == 2 and winner in s["players"]
                     and None not in s["players"] and s["match_id"] and s["table"]), None)

    reload_until(page, lambda: next_match() is not None)
    nxt = next_match()
    page.reload()
    row = page.locator(f"#board tr[data-slot='{nxt['key']}']")
    assert row.locator(".table-no").inner_text() == str(nxt["table"])
    assert all(n in row.inner_text() for n in nxt["names"])
    assert len([s for s in tournament_data(t)["slots"] if s["round"] == 1 and s["winner"]]) == 4
    shot(page, "evening-04-next-round")

    # both players of that match are told by e-mail where to play
    def their_mails():
        return [m for m in mails() if str(nxt["table"]) in m["Subject"]  # not their first-round mails (1 point)
                and any(address(n) in m["To"] for n in nxt["names"]) and "Length: 3 points" in m.get_content()]

    wait_in_page(page, lambda: len(their_mails()) >= 2, what="both players' mails")
    told = their_mails()
    assert {m["To"] for m in told} == {address(n) for n in nxt["names"]}
    body = told[0].get_content()
    assert f"Table: {nxt['table']}" in body and "Length: 3 points" in body and "Opponent:" in body

    # the evening's standings, read in French (a French browser: Accept-Language)
    french = page.context.browser.new_context(locale="fr-FR", viewport={"width": 1000, "height": 800}).new_page()
    french.goto(f"{url}/events/{t.pk}/")
    assert french.locator("html").get_attribute("lang") == "fr"
    assert french.get_by_role("heading", name="Classement · Principal").is_visible()
    headers = french.locator("table.standings th").all_inner_texts()
    assert headers[1:6] == ["Joueur", "Joués", "Victoires", "Défaites", "Points ±"]
    assert french.locator(".bracket .round-name").all_inner_texts() == FRENCH_ROUNDS
    main = french.locator("main").inner_text()
    for english in ("Standings", "Round 1", "Quarter-final", "Semi-final", "Entries"):
        assert english not in main, english
    shot(french, "evening-05-french-standings")
    french.context.close()

    assert not page.console_errors, page.console_errors
    assert not page.foreign_hosts
