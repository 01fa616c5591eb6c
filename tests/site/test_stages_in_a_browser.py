"""A stage-chained event (Swiss -> knockout) with a re-entry, played to the end in a browser.

The director creates a Swiss of eight whose top six go on to a knockout with re-entry for first-round losers in the
admin's form, runs it from the director's console (where the admin's "Run this event" leads; paper results), closes stage one, records a buy-back and closes re-entry; the
public page shows the stages, the qualifiers, the re-entrant's second entry all along the bracket, and the
winner. Headless Debian Chromium driven by Playwright against the live server, with a live Celery worker.
Screenshots go to var/screenshots/ (stages-*.png).
"""

import pytest

from players.models import Player
from tests.site.test_club_night_in_a_browser import browser_page, shot  # noqa: F401 - the fixture, shared

NAMES = ["Ada", "Bruno", "Chloé", "Dimitri", "Eva", "Farid", "Greta", "Hugo"]


def report_every_ready_match(page, prefer=None, limit=99) -> int:
    """Report each ready match on the director's console (``limit`` at most; the next Swiss round is paired as the one before
    it ends), 3-0 to ``prefer`` when they play, else to the first listed."""
    reported = 0
    while reported < limit and page.locator("#results tr:has(button[value=report_result])").count():
        row = page.locator("#results tr:has(button[value=report_result])").first
        options = row.locator("select[name=winner] option")
        values = [options.nth(i).get_attribute("value") for i in (1, 2)]
        row.locator("select[name=winner]").select_option(prefer if prefer in values else values[0])
        row.locator("input[name=winner_points]").fill("3")
        row.locator("input[name=loser_points]").fill("0")
        row.locator("button[value=report_result]").click()
        page.wait_for_selector("text=Done: record the result")
        reported += 1
    return reported


def reenter_the_first_and_close(page, screenshot: str) -> str:
    """On the console after knockout round 1: both first-round losers may buy back; the first listed does, then
    the director closes re-entry. Returns the re-entrant's name."""
    assert report_every_ready_match(page) == 2
    buttons = page.locator("#reentry button[value=reenter]")
    assert buttons.count() == 2
    reentrant = buttons.first.inner_text().removeprefix("Re-enter ").strip()
    buttons.first.click()
    page.wait_for_selector("text=Done: re-enter the player")
    assert f"{reentrant} re-entered (entry 2)" in page.locator("#reentry").inner_text()
    shot(page, screenshot)
    page.click("#close-reentry")
    page.wait_for_selector("text=Done: close re-entry")
    assert page.locator("button[value=reenter]").count() == 0
    assert "Re-entry is closed" in page.locator("#reentry").inner_text()
    return reentrant


@pytest.mark.worker
def test_a_swiss_then_a_knockout_with_a_reentry_is_run_to_the_end(live_worker, live_server, browser_page,
                                                                   django_user_model):
    page, url = browser_page, live_server.url
    django_user_model.objects.create_user("dora", password="dora-pass-1234", is_staff=True, is_superuser=True)
    ids = {name: Player.objects.create(display_name=name).pk for name in NAMES}

    page.goto(f"{url}/admin/login/")
    page.fill("#id_username", "dora")
    page.fill("#id_password", "dora-pass-1234")
    page.click("input[type=submit]")
    page.goto(f"{url}/admin/tournaments/tournament/add/")
    page.fill("#id_name", "Youth cup")
    page.select_option("#id_format", "swiss")
    page.fill("#id_rounds", "2")
    page.fill("#id_length", "3")
    page.fill("#id_qualifiers", "6")
    page.fill("#id_reentry_until_round", "1")
    shot(page, "stages-01-admin-new-staged-event")
    page.click("input[name=_save]")
    page.click("text=Run this event")
    run_url = page.url

    for name in NAMES:
        page.select_option("select[name=player]", label=name)
        page.click("button[value=enter]")
        page.wait_for_selector("text=Done: enter the player.")  # sent without a page load (console.js)
    page.select_option("select[name=method]", "rating")
    page.click("button[value=draw]")
    page.wait_for_selector("text=Done: draw.")
    assert page.locator("button[value=close_stage]").count() == 1

    # stage one: two Swiss rounds on paper; closing early is refused with the reason
    assert report_every_ready_match(page, limit=4) == 4
    page.click("button[value=close_stage]")
    assert "4 match(es) of stage one undecided" in page.locator(".console-messages .error").inner_text()
    assert report_every_ready_match(page) == 4
    shot(page, "stages-02-run-swiss-finished")
    page.goto(f"{url}/")
    page.click("text=Youth cup")
    event_url = page.url
    assert "in play" in page.locator("section.stages").inner_text()
    shot(page, "stages-03-event-swiss-table")

    # the director closes stage one: the knockout of the top six is drawn from the table
    page.goto(run_url)
    page.click("#close-stage")
    page.wait_for_selector("text=Done: close stage")
    assert "Stage one is closed" in page.locator("#stage").inner_text()
    page.goto(event_url)
    qualifiers = page.locator("table.qualifiers tbody tr")
    assert qualifiers.count() == 6
    assert [qualifiers.nth(i).locator("td").nth(2).inner_text() for i in range(6)] == ["1", "2", "3", "4", "5", "6"]
    assert page.locator("[data-bracket=main] .open-place").count() == 2
    shot(page, "stages-04-event-knockout-drawn")

    # knockout round 1: the two first-round losers may buy back; one does, and re-entry closes
    page.goto(run_url)
    reentrant = reenter_the_first_and_close(page, "stages-05-run-reentered")

    # the re-entrant wins every match to the end
    while report_every_ready_match(page, prefer=str(ids[reentrant])):
        pass
    page.goto(event_url)
    assert page.locator(".status").inner_text() == f"Winner: {reentrant}"
    final = page.locator("[data-slot='main:r3:m1']")
    assert reentrant in final.inner_text() and "entry 2" in final.inner_text()
    assert page.locator("[data-bracket=main] .entry-mark").count() == 3  # rounds 1, 2 and the final
    assert "Re-entry is closed." in page.locator("section.reentry").inner_text()
    shot(page, "stages-06-event-finished")
    page.set_viewport_size({"width": 390, "height": 844})  # a phone
    shot(page, "stages-07-event-finished-phone")
    assert page.console_errors == []
    assert page.foreign_hosts == set()
    assert page.without_csp == set()
