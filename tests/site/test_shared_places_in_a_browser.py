"""A finished eight-player knockout in a real browser: its table shows the semi-final losers 3= and the
quarter-final losers 5=, and so does a semi-final loser's page (best results, results by event)."""

import pytest

from players.models import Player
from tests.tournaments.test_running_events import start
from tests.tournaments.test_shared_places import play_on_paper
from tournaments.models import Tournament

from .test_club_night_in_a_browser import browser_page, shot  # noqa: F401 - the fixture

pytestmark = pytest.mark.django_db(transaction=True)


def test_shared_places_on_the_event_and_player_pages(live_server, browser_page, make_user):  # noqa: F811
    director = make_user("dora", official=True, player=False)
    seeds = [Player.objects.create(display_name=f"Seed {i}").pk for i in range(1, 9)]
    t = start(director, seeds, lengths={"main": {"default": 3}})
    Tournament.objects.filter(pk=t.pk).update(published=True)
    play_on_paper(director, t)
    page = browser_page
    page.goto(f"{live_server.url}/events/{t.pk}/")
    standings = page.locator("table", has=page.get_by_role("link", name="Seed 8")).last
    places = {row.locator("td").nth(1).inner_text().split(" (")[0]: row.locator("td").first.inner_text()
              for row in standings.locator("tbody tr").all()}
    assert places == {"Seed 8": "1", "Seed 7": "2", "Seed 5": "3=", "Seed 6": "3=",
                      "Seed 1": "5=", "Seed 2": "5=", "Seed 3": "5=", "Seed 4": "5="}
    shot(page, "shared-places-event")
    page.get_by_role("link", name="Seed 5").first.click()
    page.wait_for_load_state()
    assert page.locator("#best-results tbody tr td").nth(1).inner_text() == "3="
    assert page.locator("#event-results tbody tr td").nth(1).inner_text() == "3="
    page.goto(f"{live_server.url}/events/rules/")  # the rule, as published
    assert "3=" in page.locator("h2#knockout-places + p").inner_text()
    page.get_by_role("link", name="How a season scores shared places").click()
    page.wait_for_load_state()
    assert page.url.endswith("/seasons/rules/#shared-places") and page.locator("h3#shared-places").is_visible()
    assert page.console_errors == [] and page.foreign_hosts == set() and page.without_csp == set()
