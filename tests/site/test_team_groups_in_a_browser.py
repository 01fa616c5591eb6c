"""A round robin of six teams in two groups, then a knockout of four, in a browser: the console and the event page
show each group's table of teams with its tie-breaks; the director closes the groups from the console and the
knockout's semi-finals appear with the qualifying teams seeded group winners first. Headless Debian Chromium
through Playwright; screenshots in var/screenshots/ (team-groups-*.png)."""

import pytest
from playwright.sync_api import expect

from players.models import Player
from tests.site.test_club_night_in_a_browser import browser_page, shot  # noqa: F401 - the fixture, shared
from tests.tournaments.test_team_events import send, settle
from tests.tournaments.test_team_groups_events import GROUPS, create, play_open


@pytest.fixture
def director(django_user_model):
    return django_user_model.objects.create_user("dora", password="dora-pass-1234")


def test_the_groups_tables_and_the_close_into_the_knockout(live_server, browser_page, director, api):
    page, url = browser_page, live_server.url
    players = {t * 10 + b: Player.objects.create(display_name=f"T{t} board {b}").pk for t in range(1, 7)
               for b in (1, 2, 3)}
    who = {pk: tb for tb, pk in players.items()}
    client = api(director)
    t_id = create(client, players, groups=2, qualifiers=4)
    send(client, t_id, type="draw", method="manual", seeds=[1, 2, 3, 4, 5, 6])
    settle(t_id)
    while play_open(client, t_id, GROUPS, who):
        settle(t_id)

    page.goto(f"{url}/accounts/login/")
    page.fill("#id_username", "dora")
    page.fill("#id_password", "dora-pass-1234")
    page.click("button[type=submit]")
    page.goto(f"{url}/events/{t_id}/run/")
    group_a = page.locator('table[data-teams="group1"]')
    expect(group_a.locator("caption")).to_have_text("Table of teams · Group A")
    assert [r.get_attribute("data-team") for r in group_a.locator("tbody tr").all()] == ["4", "1", "5"]
    assert [r.get_attribute("data-team") for r in page.locator('table[data-teams="group2"] tbody tr').all()] == [
        "2", "6", "3"]
    expect(page.locator('[data-teams="stage"]')).to_contain_text("The top 4 teams go on to a knockout")
    shot(page, "team-groups-01-groups-played")
    page.click("#close-stage")
    page.wait_for_selector("text=Done: close stage")
    page.goto(f"{url}/events/{t_id}/run/")
    expect(page.locator('[data-teams="stage"]')).to_contain_text("1. Team 4, 2. Team 2, 3. Team 1, 4. Team 6")
    expect(page.locator("h3", has_text="Stage 2 · Knockout · Semi-final")).to_have_count(1)
    assert page.locator("#close-stage").count() == 0
    shot(page, "team-groups-02-knockout-drawn")

    page.goto(f"{url}/events/{t_id}/")
    expect(page.locator('table[data-teams="group2"] caption')).to_have_text("Table of teams · Group B")
    expect(page.locator("h3", has_text="Stage 2 · Knockout · Semi-final")).to_have_count(1)
    assert "Match points" in page.locator("section.teams").inner_text()
    page.set_viewport_size({"width": 390, "height": 844})
    shot(page, "team-groups-03-event-page-phone")
    assert page.console_errors == [] and page.foreign_hosts == set() and page.without_csp == set()
