"""The season scoring rules in a real browser, in English and in French: only what a player or a director reads
(no developer's docstring at the end), the rule for shared places (3=, 5=), and an example rule the season takes."""

import json

import pytest

from seasons import scoring

from .test_club_night_in_a_browser import browser_page, shot  # noqa: F401 - the fixture

pytestmark = pytest.mark.django_db(transaction=True)

DEVELOPERS = ("``", "pure Python", "Django", "scoring.py", "EventResult", "Components:")


@pytest.mark.parametrize("language", ["en", "fr"])
def test_the_rules_page_says_only_the_rules_with_shared_places(live_server, browser_page, language):  # noqa: F811
    page = browser_page
    page.set_extra_http_headers({"Accept-Language": language})
    page.goto(f"{live_server.url}/seasons/rules/")
    assert page.locator("html").get_attribute("lang") == language
    text = page.locator("main").inner_text() if page.locator("main").count() else page.locator("body").inner_text()
    assert not [word for word in DEVELOPERS if word in text], text[-600:]
    assert page.locator("h3#shared-places").is_visible() and page.locator("h2#writing").is_visible()
    shared = page.locator("h3#shared-places ~ p").first.inner_text()
    assert "3=" in shared and "5=" in shared
    example = json.loads(page.locator("h2#writing ~ pre").inner_text())
    assert scoring.checked(example)["best"] == 5  # the example is a rule the season takes as written
    for anchor in ("placement", "match-wins", "attendance", "best", "versions", "writing"):
        assert page.locator(f"h2#{anchor}").is_visible()
    shot(page, f"season-rules-{language}")
    assert page.console_errors == [] and page.foreign_hosts == set() and page.without_csp == set()
