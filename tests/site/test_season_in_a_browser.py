"""The season pages in a real browser (issue 15, item 7): the demo's season table with a column per event and
the rule version beside each number, on a desktop and a phone; the published rules; no request leaves the site.

Headless Debian Chromium driven by Playwright against the live server; screenshots in var/screenshots/."""

import random

import pytest
from django.contrib.auth import get_user_model

from players.models import Club, Player
from seasons import demo
from seasons.models import Season, SeasonStanding

from .test_club_night_in_a_browser import browser_page, shot  # noqa: F401 - the fixture

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def demo_season():
    director = get_user_model().objects.create_user("dora", password="dora-pass-1234", is_staff=True, is_superuser=True)
    club = Club.objects.create(name="Riverside")
    players = [Player.objects.create(display_name=n, club=club) for n in
               ("Ada", "Bruno", "Chloé", "Dimitri", "Eva", "Farid", "Greta", "Hugo")]
    demo.load(director=director, club=club, players=players, rnd=random.Random(3))
    return Season.objects.get()


def test_the_season_table_and_its_rules_in_a_browser(live_server, browser_page, demo_season):  # noqa: F811
    page = browser_page
    page.goto(f"{live_server.url}/seasons/")
    page.get_by_role("link", name="Club season 2026").click()
    page.wait_for_load_state()
    assert page.get_by_role("heading", level=1).inner_text() == "Club season 2026"
    table = page.get_by_role("table").first
    headers = table.locator("thead th").all_inner_texts()
    for name, *_ in demo.NIGHTS:
        assert any(h.startswith(name) for h in headers), headers
    rows = table.locator("tbody tr")
    assert rows.count() == SeasonStanding.objects.filter(season_id=demo_season.pk).count() == 8
    leader = SeasonStanding.objects.get(season_id=demo_season.pk, rank=1, player_id=SeasonStanding.objects.filter(
        season_id=demo_season.pk, rank=1).order_by("player_id").values("player_id")[:1])
    first = rows.first.inner_text()
    assert Player.objects.get(pk=leader.player_id).display_name in first
    assert "v1" in first or "v2" in first  # the version beside each number
    assert page.locator("td.dropped").count() >= 1  # best 3 of 4: someone's weakest night is struck out
    assert page.get_by_role("heading", name="Rule versions").is_visible()
    shot(page, "season-table-desktop")

    page.set_viewport_size({"width": 390, "height": 844})  # a phone: the table scrolls inside its box
    page.reload()
    width = page.evaluate("document.documentElement.scrollWidth")
    wide = page.evaluate("[...document.querySelectorAll('body *')].filter(e => e.getBoundingClientRect().right > 391)"
                         ".filter(e => !e.closest('.season-scroll') || e.matches('.season-scroll')).map(e => e.tagName + '.' + e.className + ':' + Math.round(e.getBoundingClientRect().right)).slice(0, 5)")
    assert width <= 390, f"the page is {width}px wide on a 390px phone: {wide}"
    shot(page, "season-table-phone")

    page.get_by_role("link", name="How the points are computed").click()
    page.wait_for_load_state()
    assert page.get_by_role("heading", level=1).inner_text() == "How season points are computed"
    for anchor in ("placement", "match-wins", "attendance", "best", "versions"):
        assert page.locator(f"h2#{anchor}").is_visible()
    shot(page, "season-rules")
    assert page.console_errors == [] and page.foreign_hosts == set() and page.without_csp == set()
