"""A club's director creates and sets up a Swiss evening without the admin, in a real browser.

From the home page ("Your events", "Create an event"): the form shows a single elimination's settings first; the
director chooses Swiss and the page shows the Swiss settings (rounds, tie-breaks, late entry) in place of the
knockout's flights, without a reload; a setting left out is refused beside its field; the event is created and
the console opens. After the draw, the console says that late entry is closed for want of a round; its link leads
to the setting, changed there, and the console says until when late entry is open.

Headless Debian Chromium driven by Playwright against the live server."""

import pytest

from players.models import Club, Player
from tournaments import console, services
from tournaments.models import Tournament
from tournaments.selectors import tournament_facts

from .test_club_night_in_a_browser import browser_page, shot  # noqa: F401 - the fixture


@pytest.fixture
def director(make_user):
    user = make_user("dora", player=False)
    user.set_password("dora-pass-1234")
    user.save()
    Club.objects.create(name="Backgammon Club de Lyon").directors.add(user)
    return user


def visible(page, row: str) -> bool:
    return page.locator(f"#row-{row}").is_visible()


@pytest.mark.django_db(transaction=True)
def test_a_director_creates_a_swiss_evening_and_opens_late_entry_from_the_console(live_server, browser_page,  # noqa: F811
                                                                                   director):
    page, url = browser_page, live_server.url
    page.goto(f"{url}/accounts/login/?next=/")
    page.fill("#id_username", "dora")
    page.fill("#id_password", "dora-pass-1234")
    page.press("#id_password", "Enter")
    page.click("#new-event")
    page.wait_for_selector("#event-form")
    page.wait_for_load_state("load")  # the form's script has run: on a busy machine the parser can lag the check
    page.evaluate("window.notReloaded = true")
    assert visible(page, "consolation") and visible(page, "main_default") and not visible(page, "rounds")
    assert not page.locator("#show-format").is_visible()  # the script switches the sections itself

    page.select_option("#id_format", "swiss")
    assert visible(page, "rounds") and visible(page, "late_entry_until_round") and visible(page, "tiebreak_1")
    assert not visible(page, "consolation") and not page.locator("#section-flights").is_visible()
    assert page.evaluate("window.notReloaded") is True
    page.fill("#id_name", "Swiss Tuesday")
    page.fill("#id_rounds_default", "1")
    page.click("#save-event")  # no rounds given
    page.wait_for_selector("#row-rounds .field-error")
    assert page.locator("#row-rounds .field-error").inner_text() == "A Swiss event needs its number of rounds."
    assert visible(page, "rounds") and not visible(page, "consolation")  # still Swiss, as posted
    assert not Tournament.objects.exists()
    page.fill("#id_rounds", "3")
    shot(page, "event-form-swiss")
    page.click("#save-event")
    page.wait_for_selector("text=The event is created: enter its players here.")
    event = Tournament.objects.get(name="Swiss Tuesday")
    assert page.url.endswith(f"/events/{event.pk}/run/") and event.club.name == "Backgammon Club de Lyon"
    assert tournament_facts(event).config["rounds"] == 3

    for name in ("Ada", "Bruno", "Chloé", "Dimitri"):
        services.tournament_command(actor=director, tournament=event, command={
            "type": "enter", "player": Player.objects.create(display_name=name).pk})
    console.console_command(actor=director, tournament=event, command={"type": "draw", "method": "random"})
    page.reload()
    assert "This event takes no late entries" in page.locator("#late-entry").inner_text()
    page.click("#late-entry a")
    page.wait_for_selector("#id_late_entry_until_round")
    assert page.locator("#id_rounds_default").is_disabled()  # the draw's shape: shown, not changed
    page.fill("#id_late_entry_until_round", "3")
    page.click("#save-event")
    page.wait_for_selector("text=The event's settings are saved.")
    said = page.locator("#late-entry").inner_text()
    assert "Late entry is open until round 3 is paired: a player entered now plays from round 2." in said
    shot(page, "event-form-late-entry")
    assert page.console_errors == [] and page.without_csp == set()
