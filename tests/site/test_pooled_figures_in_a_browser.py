"""The player page's figures over all their analysed matches, in a real browser: a total row under the matches and
the chart's caption, both pooled (the total error over the total decisions), never the mean of the matches' rates.
Headless Debian Chromium (Playwright) against the live server; the analysis rows are made directly, no gnubg."""

from players.models import Player
from tests.analysis.test_pooled_figures import FOUR_POOLED_PR, _four

from .test_club_night_in_a_browser import browser_page, shot  # noqa: F401 - the fixture


def test_the_player_page_shows_the_pooled_figures_of_all_their_matches(live_server, browser_page):  # noqa: F811
    page, url = browser_page, live_server.url
    ann, bob = Player.objects.create(display_name="Ann"), Player.objects.create(display_name="Bob")
    _four(ann, bob)  # PRs 7.95, 4.00, 4.50, 5.31: a mean of 5.44, pooled 7.11

    page.goto(f"{url}/players/{ann.pk}/")
    page.wait_for_selector("#analysis-pooled")
    assert page.locator("#analysis-table tbody tr").count() == 4
    cells = page.locator("#analysis-pooled").locator("th, td").all_inner_texts()
    assert cells == ["All matches (4)", "14.2", "13.7", f"{2 * FOUR_POOLED_PR:.1f}", "Intermediate",
                     f"{FOUR_POOLED_PR:.1f}"], cells
    assert cells[-1] == "7.1"  # not 5.4, the mean of the four matches' PR
    caption = page.inner_text("#analysis-caption")
    assert "over all 4 analysed matches: 14.2 mEMG, PR 7.1 (XG scale)" in caption, caption
    shot(page, "analysis-player-pooled")

    assert not page.console_errors, page.console_errors
