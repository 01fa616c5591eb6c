"""The season pages in a real browser: the demo's season table with a column per event and
the rule version beside each number, on a desktop and a phone; the published rules; no request leaves the site.
The table printed for the wall: a PDF from the season page and from the director's console of an
event it counts, its text read back, in English and in French.

Headless Debian Chromium driven by Playwright against the live server; screenshots in var/screenshots/."""

import io
import random

import pytest
from pypdf import PdfReader
from django.contrib.auth import get_user_model

from players.models import Club, Player
from seasons import demo
from seasons.models import Season, SeasonScore, SeasonStanding
from tournaments.models import Tournament

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


def pdf_text(data: bytes) -> str:
    return " ".join(" ".join(p.extract_text() for p in PdfReader(io.BytesIO(data)).pages).split())


@pytest.mark.usefixtures("tasks_in_process")  # printed by the worker's task, here in-process (seasons/printing.py)
def test_the_season_table_printed_from_the_season_page_and_the_console(live_server, browser_page,  # noqa: F811
                                                                        demo_season):
    page, url = browser_page, live_server.url
    page.goto(f"{url}/seasons/{demo_season.pk}/")
    printed = url + page.get_by_role("link", name="Print the table (PDF)").get_attribute("href")
    pdf = page.request.get(printed)
    assert pdf.ok and pdf.headers["content-type"] == "application/pdf" and "content-security-policy" in pdf.headers
    text = pdf_text(pdf.body())
    assert "Club season 2026" in text and "Total" in text
    for name, *_ in demo.NIGHTS:
        assert name in text
    for standing in SeasonStanding.objects.filter(season_id=demo_season.pk):
        assert Player.objects.get(pk=standing.player_id).display_name in text
    struck = SeasonScore.objects.filter(season_id=demo_season.pk, counted=False).first()
    assert struck is not None and f"({struck.points:g}) v{struck.rule_version}" in text  # not counted: in brackets
    assert "Points in brackets and struck out are outside the player's best events" in text
    page.goto(printed)  # Chromium shows it in its own PDF viewer
    page.wait_for_timeout(1000)
    shot(page, "season-table-pdf")
    # the viewer is one of Chromium's own extensions, not ours, and it reports the PDF's navigation without the
    # headers it was served with (the CSP checked above)
    page.foreign_hosts.clear()
    page.without_csp.discard(printed)

    # in French, chosen with the switch: the printed table too
    page.goto(f"{url}/seasons/{demo_season.pk}/")
    page.get_by_role("button", name="Français").click()
    page.wait_for_load_state()
    href = page.get_by_role("link", name="Imprimer le classement (PDF)").get_attribute("href")
    french = pdf_text(page.request.get(url + href).body())
    assert "Joueur" in french and "Les points entre parenthèses et barrés" in french
    assert "Les 3 meilleurs tournois comptent." in french

    # the director's console of an event the season counts prints its table as well
    page.goto(f"{url}/accounts/login/?next=/events/{Tournament.objects.get(name=demo.NIGHTS[0][0]).pk}/run/")
    page.fill("#id_username", "dora")
    page.fill("#id_password", "dora-pass-1234")
    page.press("#id_password", "Enter")
    page.wait_for_selector("a.more-sheet")
    sheet = page.locator("a.more-sheet")
    assert "Club season 2026" in sheet.inner_text()
    assert "Club season 2026" in pdf_text(page.request.get(url + sheet.get_attribute("href")).body())
    assert page.console_errors == [] and page.foreign_hosts == set() and page.without_csp == set()
