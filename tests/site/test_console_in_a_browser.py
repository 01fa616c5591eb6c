"""A 12-player evening run from the director's console in a real browser: members pasted in, everybody checked
in with one click, the draw, tables (one moved by hand), the printed draw sheet and score cards (their PDF text
read back), a match played through the API, its winner in the next round at a table of their own, and both
players of that match told by e-mail (the live Celery worker's file backend).

Headless Debian Chromium driven by Playwright against the live server, with the live worker on the real broker.
Then one of the next match's players, on a phone, sees the "your match" banner and reports the result in two taps.
Screenshots go to var/screenshots/ as the other browser tests' do.
"""

import io
import shutil
from email import message_from_bytes
from email.policy import default as email_policy
from pathlib import Path

import pytest
from django.conf import settings
from pypdf import PdfReader

from tests.games.recorder import Recorder
from tests.site.test_club_night_in_a_browser import browser_page, reload_until, shot  # noqa: F401 - the fixture
from tests.waiting import wait_in_page
from tournaments import services
from players.models import Player
from tournaments.selectors import tournament_data, tournament_facts

MEMBERS = [("Ada", "1001"), ("Bruno", "1002"), ("Chloé", "1003"), ("Dimitri", "1004"), ("Eva", "1005"),
           ("Farid", "1006"), ("Greta", "1007"), ("Hugo", "1008"), ("Inès", "1009"), ("Jules", "1010"),
           ("Karim", "1011"), ("Léa", "1012")]


def address(name: str) -> str:
    return f"m{dict(MEMBERS)[name]}@club.example"


def pdf_text(data: bytes) -> str:
    return "\n".join(p.extract_text() for p in PdfReader(io.BytesIO(data)).pages)


def mails() -> list:
    folder = Path(settings.EMAIL_FILE_PATH)
    if not folder.exists():
        return []
    out = []
    for f in sorted(folder.glob("*.log")):
        for chunk in f.read_bytes().split(b"\n" + b"-" * 79 + b"\n"):
            if chunk.strip():
                out.append(message_from_bytes(chunk.strip(), policy=email_policy))
    return out


@pytest.mark.worker
def test_a_twelve_player_evening_from_the_console(live_worker, live_server, browser_page, make_user, api,  # noqa: F811
                                                  django_user_model):
    page, url = browser_page, live_server.url
    shutil.rmtree(settings.EMAIL_FILE_PATH, ignore_errors=True)
    director = make_user("dora", official=True, player=False)
    director.set_password("dora-pass-1234")
    director.save()
    t = services.tournament_create(actor=director, name="Tuesday evening", format="single_elimination",
                                   settings={"lengths": {"main": {"default": 3}}})
    services.tournament_publish(actor=director, tournament=t, published=True)

    page.goto(f"{url}/accounts/login/?next=/events/{t.pk}/run/")
    page.fill("#id_username", "dora")
    page.fill("#id_password", "dora-pass-1234")
    page.press("#id_password", "Enter")
    page.wait_for_selector("#members")
    console_url = page.url

    # the club's member list, pasted from a spreadsheet (tabs), entered at once
    page.fill("#members", "\n".join(f"{n}\t{address(n)}\t{c}" for n, c in MEMBERS))
    shot(page, "console-01-paste")
    page.click("button[value=import]")
    page.wait_for_selector("text=12 members entered")
    assert page.locator("#entries tbody tr").count() == 12
    assert page.locator("#no-address").count() == 0

    # everybody here: one click (a keyboard's Alt+A on Chromium); then the draw
    page.click("#check-in-all")
    page.wait_for_selector("text=12 players checked in")
    assert page.locator("#entries [aria-label='checked in']").count() == 12
    shot(page, "console-02-checked-in")
    page.click("#make-draw")
    page.wait_for_selector("#board")
    rows = page.locator("#board tbody tr")
    assert rows.count() == 4  # 12 players: four first-round matches, four byes
    assert [rows.nth(i).locator(".table-no").inner_text() for i in range(4)] == ["1", "2", "3", "4"]
    assert "main:r1" not in page.locator("#board").inner_text()
    assert "Round 1" in page.locator("#board").inner_text()

    # the director moves the first match to table 7 (the keyboard: type the number, Enter submits)
    first = rows.nth(0)
    moved_slot = first.get_attribute("data-slot")
    first.locator("input[name=table]").fill("7")
    first.locator("input[name=table]").press("Enter")
    page.wait_for_selector(f"#board tr[data-slot='{moved_slot}'] .table-no:text-is('7')")
    shot(page, "console-03-board")

    # the printed sheets: the draw sheet and a score card per match, as PDFs
    draw = page.request.get(f"{url}/events/{t.pk}/run/sheets/draw.pdf")
    assert draw.ok and draw.headers["content-type"] == "application/pdf"
    data = tournament_data(t)
    slot = next(s for s in data["slots"] if s["key"] == moved_slot)
    text = pdf_text(draw.body())
    assert "Tuesday evening" in text and "Table" in text and slot["names"][0] in text and slot["names"][1] in text
    cards = pdf_text(page.request.get(f"{url}/events/{t.pk}/run/sheets/cards.pdf").body())
    assert cards.count("match to 3 points") == 4 and "Cube" in cards and "Table 7" in cards
    assert not page.foreign_hosts
    page.goto(f"{url}/events/{t.pk}/run/sheets/draw.pdf")  # Chromium renders it in its own PDF viewer
    page.wait_for_timeout(1000)
    shot(page, "console-04-draw-sheet")
    page.foreign_hosts.clear()  # the viewer is one of Chromium's own extensions ("chrome-extension://…"), not ours
    page.goto(console_url)

    # the match at table 7 is played (through the API): a backgammon resigned ends a 3-point match
    m = Recorder(api(director), api(director).get(f"/api/matches/{slot['match_id']}/").json())
    m.send(type="roll")
    loser = m.match["turn"]
    m.send(type="resign", kind="backgammon", player=loser)
    m.send(type="accept_resignation", player=1 - loser)
    assert m.match["finished"]
    winner_id = m.match["players"][1 - loser]["player_id"]

    # the worker follows the match: the winner goes on to round 2, at a table, and both players are told
    def next_match():
        data = tournament_data(t)
        done = next(s for s in data["slots"] if s["key"] == moved_slot)
        if not done["winner"]:
            return None
        return next((s for s in data["slots"] if s["round"] == 2 and done["winner"] in s["players"]
                     and None not in s["players"] and s["match_id"] and s["table"]), None)

    reload_until(page, lambda: next_match() is not None)
    nxt = next_match()
    page.reload()
    assert winner_id in nxt["players"]
    board = page.locator("#board").inner_text()
    assert nxt["names"][0] in board and nxt["names"][1] in board
    shot(page, "console-05-next-round")
    def their_mails():
        return [msg for msg in mails() if str(nxt["table"]) in msg["Subject"]
                and any(address(n) in msg["To"] for n in nxt["names"])]

    wait_in_page(page, lambda: len(their_mails()) >= 2, what="both players' mails")
    told = their_mails()
    recipients = {msg["To"] for msg in told}
    assert recipients == {address(n) for n in nxt["names"]}
    body = told[0].get_content()
    assert f"Table: {nxt['table']}" in body and "Opponent:" in body and "3 points" in body

    # one of them, with an account, is told on the site too, and reports the result from a phone in two taps
    player = Player.objects.get(pk=nxt["players"][0])
    player.user = django_user_model.objects.create_user("phone", password="phone-pass-1234")
    player.save(update_fields=["user"])
    phone = page.context.browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
    mobile = phone.new_page()
    mobile.goto(f"{url}/accounts/login/?next=/")
    mobile.fill("#id_username", "phone")
    mobile.fill("#id_password", "phone-pass-1234")
    mobile.press("#id_password", "Enter")
    banner = mobile.locator(".your-match")
    banner.wait_for()
    assert f"Table {nxt['table']}" in banner.inner_text() and nxt["names"][1] in banner.inner_text()
    shot(mobile, "console-06-phone-banner")
    mobile.tap("#report-my-result")  # tap 1
    mobile.tap("button:text('I won 3–1')")  # tap 2
    mobile.wait_for_selector("text=it counts once your opponent confirms it")
    shot(mobile, "console-07-phone-reported")
    said = tournament_facts(t).confirmations[nxt["key"]][player.pk]
    assert (said.winner, said.winner_points, said.loser_points) == (player.pk, 3, 1)
    phone.close()
    assert not page.console_errors, page.console_errors
    assert not page.foreign_hosts
