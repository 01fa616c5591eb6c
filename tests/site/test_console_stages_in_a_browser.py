"""The director's console (/events/{id}/run/, where the event page's "Run this event" leads) runs a Swiss whose
top six go on to a knockout with re-entry, in a browser: closing stage one early is refused with the reason,
then it closes and shows its qualifiers; a first-round loser buys back in, re-entry closes, the re-entrant wins
to the end. Headless Debian Chromium through Playwright; screenshots in var/screenshots/ (console-stages-*.png).
"""

import pytest

from players.models import Player
from tests.site.test_club_night_in_a_browser import browser_page, shot  # noqa: F401 - the fixture, shared
from tournaments import services

from .test_stages_in_a_browser import NAMES, reenter_the_first_and_close, report_every_ready_match

SETTINGS = {"rounds": 2, "qualifiers": 6, "reentry": {"until_round": 1},
            "lengths": {"rounds": {"default": 3}, "main": {"default": 3}}}


def test_the_console_closes_stage_one_and_takes_a_reentry(live_server, browser_page, django_user_model):
    page, url = browser_page, live_server.url
    dora = django_user_model.objects.create_user("dora", password="dora-pass-1234")
    ids = {name: Player.objects.create(display_name=name).pk for name in NAMES}
    t = services.tournament_create(actor=dora, name="Youth cup", format="swiss", settings=SETTINGS)
    services.tournament_publish(actor=dora, tournament=t, published=True)
    for pk in ids.values():
        services.tournament_command(actor=dora, tournament=t, command={"type": "enter", "player": pk})

    page.goto(f"{url}/accounts/login/")
    page.fill("#id_username", "dora")
    page.fill("#id_password", "dora-pass-1234")
    page.click("button[type=submit]")
    page.goto(f"{url}/events/{t.pk}/")
    page.click("text=Run this event")
    assert page.url.endswith(f"/events/{t.pk}/run/")
    page.select_option("select[name=method]", "rating")
    page.click("#make-draw")
    page.wait_for_selector("text=Done: draw.")  # sent without a page load (console.js): its answer
    assert page.locator("#close-stage").count() == 1
    assert page.locator("#issue-challenge, #close-reentry").count() == 0  # not this format's, not yet

    assert report_every_ready_match(page, limit=4) == 4
    page.click("#close-stage")
    assert "4 match(es) of stage one undecided" in page.locator(".console-messages .error").inner_text()
    assert report_every_ready_match(page) == 4
    page.click("#close-stage")
    page.wait_for_selector("text=Done: close stage")
    stage = page.locator("#stage")
    assert "Stage one is closed" in stage.inner_text() and stage.locator("tbody tr").count() == 6
    shot(page, "console-stages-01-stage-one-closed")

    reentrant = reenter_the_first_and_close(page, "console-stages-02-reentered")

    while report_every_ready_match(page, prefer=str(ids[reentrant])):
        pass
    page.goto(f"{url}/events/{t.pk}/")
    assert page.locator(".status").inner_text() == f"Winner: {reentrant}"
    page.goto(f"{url}/events/{t.pk}/run/")
    shot(page, "console-stages-03-finished")
    page.set_viewport_size({"width": 390, "height": 844})
    shot(page, "console-stages-04-finished-phone")
    assert page.console_errors == [] and page.foreign_hosts == set() and page.without_csp == set()
