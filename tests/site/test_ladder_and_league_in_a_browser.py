"""A ladder and a league in a real browser: the director creates them in the admin and runs them from the
console (draw,
challenges, a refusal, a newcomer, results, the next season), and the public pages show the rungs, the
ladder's history, the divisions with who goes up and down, on a desk and on a phone.

Headless Debian Chromium driven by Playwright against the live server; screenshots go to var/screenshots/.
"""

import pytest

from players.models import Player
from tournaments.models import Tournament

from .test_club_night_in_a_browser import browser_page, shot  # noqa: F401 - the browser fixture

NAMES = ["Ada", "Bruno", "Chloé", "Dimitri", "Eva"]

pytestmark = pytest.mark.django_db(transaction=True)


def login(page, url):
    page.goto(f"{url}/admin/login/")
    page.fill("#id_username", "dora")
    page.fill("#id_password", "dora-pass-1234")
    page.click("input[type=submit]")


def create(page, url, name, fmt, **fields):
    page.goto(f"{url}/admin/tournaments/tournament/add/")
    page.fill("#id_name", name)
    page.select_option("#id_format", fmt)
    page.check("#id_published")
    for field, value in fields.items():
        page.fill(f"#id_{field}", str(value))
    page.click("input[name=_save]")
    page.goto(f"{url}/events/{Tournament.objects.get(name=name).pk}/run/")  # the director's console


def enter_and_draw(page, names):
    for name in names:
        page.select_option("select[name=player]", label=name)
        page.click("button[value=enter]")
        page.wait_for_selector("text=Done: enter the player.")  # sent without a page load (console.js)
    page.select_option("select[name=method]", "rating")
    page.click("button[value=draw]")
    page.wait_for_selector("text=Done: draw.")


def test_a_ladder_and_a_league_run_from_the_console_and_shown_in_public(live_server, browser_page,  # noqa: F811
                                                                         django_user_model):
    page, url = browser_page, live_server.url
    django_user_model.objects.create_user("dora", password="dora-pass-1234", is_staff=True, is_superuser=True)
    for name in NAMES:
        Player.objects.create(display_name=name)
    login(page, url)

    create(page, url, "Club ladder", "ladder", reach=2, challenge_days=10, length=5)
    enter_and_draw(page, NAMES[:4])
    rungs = page.locator("select[name=challenger] option").all_inner_texts()
    assert len(rungs) == 4
    page.select_option("select[name=challenger]", label=rungs[3])
    page.select_option("select[name=defender]", label=rungs[1])
    page.click("button[value=issue_challenge]")
    page.wait_for_selector("text=Done: issue the challenge.")
    assert page.locator("a:text('record')").count() == 1  # the challenge's match, created for it
    page.select_option("select[name=challenger]", label=rungs[2])
    page.select_option("select[name=defender]", label=rungs[1])  # already in a challenge: refused, said why
    page.click("button[value=issue_challenge]")
    page.wait_for_selector(".console-messages .error")
    assert "has a challenge open already" in page.locator(".console-messages").inner_text()
    assert page.locator("a:text('record')").count() == 1
    page.fill("#ladder input[name=reason]", "away")
    page.click("button[value=decline_challenge]")
    page.wait_for_selector("text=Done: decline the challenge.")
    page.select_option("select[name=player]", label="Eva")
    page.click("button[value=enter]")  # a late entry: the ladder's newcomer
    page.wait_for_selector("text=Done: enter the player.")
    shot(page, "ladder-01-console")

    page.goto(f"{url}/events/{Tournament.objects.get(name='Club ladder').pk}/")
    ladder = page.locator("[data-ladder=rungs] tbody tr").all_inner_texts()
    assert len(ladder) == 5 and "Eva" in ladder[-1]
    challenger = rungs[3].split(". ", 1)[1]
    assert challenger in ladder[1]  # a refused challenge: a walkover, the challenger took rung 2
    history = page.locator("[data-ladder=history]").inner_text()
    assert "challenge refused" in history and "joined the ladder on rung 5" in history
    shot(page, "ladder-02-public")
    page.set_viewport_size({"width": 390, "height": 844})
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 390 + 1, f"the ladder page scrolls sideways on a phone ({width}px)"
    shot(page, "ladder-03-public-phone")
    page.set_viewport_size({"width": 1100, "height": 900})

    create(page, url, "League 2026", "league", division_size=2, round_days=7, promote=1, relegate=1, length=3)
    enter_and_draw(page, NAMES[:4])
    for _ in range(2):  # two divisions of two: one match each, won by the second player
        row = page.locator("tr:has(button[value=report_result])").first
        row.locator("select[name=winner]").select_option(index=2)
        row.locator("input[name=winner_points]").fill("3")
        row.locator("input[name=loser_points]").fill("1")
        row.locator("button[value=report_result]").click()
        page.wait_for_selector("text=Done: record the result.")
    assert page.locator("tr:has(button[value=report_result])").count() == 0
    league = Tournament.objects.get(name="League 2026")
    page.goto(f"{url}/events/{league.pk}/")
    assert page.locator("[data-division]").count() == 2
    assert page.locator("[data-division='1'] tr.relegated").count() == 1
    assert page.locator("[data-division='2'] tr.promoted").count() == 1
    up = page.locator("[data-division='2'] tr.promoted td a").inner_text()
    down = page.locator("[data-division='1'] tr.relegated td a").inner_text()
    shot(page, "league-01-public")

    create(page, url, "League 2027", "league", division_size=2)
    for name in NAMES[:4]:
        page.select_option("select[name=player]", label=name)
        page.click("button[value=enter]")
        page.wait_for_selector("text=Done: enter the player.")  # sent without a page load (console.js)
    page.select_option("select[name=previous]", label="League 2026")
    page.click("button:text('Draw the divisions from its final tables')")
    page.wait_for_selector("text=Done: draw.")
    page.goto(f"{url}/events/{Tournament.objects.get(name='League 2027').pk}/")
    assert up in page.locator("[data-division='1']").inner_text()
    assert down in page.locator("[data-division='2']").inner_text()
    assert page.locator("a:text('Previous season')").count() == 1
    shot(page, "league-02-next-season")
    assert not page.console_errors, page.console_errors
    assert not page.foreign_hosts and not page.without_csp
