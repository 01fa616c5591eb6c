"""A director pastes the evening's list into the console; two of its names are already members' names in the club,
with nothing on the line to say who they are. The console asks "same person?" (still asking after a reload),
the director keeps one as the member and makes the other a new player with a name of their own, pressing Enter
in that name's field: the three are entered and the club has one player per person.

Headless Debian Chromium driven by Playwright against the live server.
"""

import pytest

from players.models import Club, Player
from tests.conftest import officials_group
from tests.site.test_club_night_in_a_browser import browser_page, shot  # noqa: F401 - the fixture
from tournaments import services
from tournaments.selectors import tournament_data


@pytest.mark.django_db(transaction=True)
def test_the_console_asks_same_person_and_takes_both_answers(live_server, browser_page, django_user_model):  # noqa: F811
    page, url = browser_page, live_server.url
    club = Club.objects.create(name="Lyon BG")
    director = django_user_model.objects.create_user("dora", password="dora-pass-1234", is_staff=True)
    director.groups.add(officials_group())
    ines = Player.objects.create(display_name="Inès Martin", club=club)
    nadia = Player.objects.create(display_name="Nadia", club=club)
    t = services.tournament_create(actor=director, name="Thursday", format="single_elimination", club=club,
                                   settings={"lengths": {"main": {"default": 3}}})

    page.goto(f"{url}/accounts/login/?next=/events/{t.pk}/run/")
    page.fill("#id_username", "dora")
    page.fill("#id_password", "dora-pass-1234")
    page.press("#id_password", "Enter")
    page.fill("#members", "ines  martin\nNadia\nKarim")
    page.click("#import-button")

    page.wait_for_selector("#namesakes")
    assert "2 names on the list are already names of members of the club" in page.inner_text("#console-messages")
    assert page.inner_text("#namesake-1 legend") == "Line 1: ines martin"
    assert page.inner_text("#namesake-2 legend") == "Line 2: Nadia"
    # each line's one namesake is chosen to begin with; nothing is entered or created yet
    assert page.is_checked(f"#who-1-{ines.pk}") and page.is_checked(f"#who-2-{nadia.pk}")
    assert tournament_data(t)["entries"] == [] and Player.objects.filter(club=club).count() == 2
    page.reload()  # the question waits for the director, the list with it
    page.wait_for_selector("#namesakes")
    assert page.input_value("#members") == "ines  martin\nNadia\nKarim"
    shot(page, "namesakes-01-asked")

    page.check("#who-2-new")
    page.fill("#new-name-2", "Nadia Benali")
    page.press("#new-name-2", "Enter")

    page.wait_for_selector("text=3 members entered")
    assert page.locator("#namesakes").count() == 0 and page.input_value("#members") == ""
    assert sorted(page.locator("#entries tbody tr td:first-child").all_inner_texts()) == [
        "Inès Martin", "Karim", "Nadia Benali"]
    assert sorted(Player.objects.filter(club=club).values_list("display_name", flat=True)) == [
        "Inès Martin", "Karim", "Nadia", "Nadia Benali"]
    assert Player.objects.get(pk=ines.pk).name_confirmed
    shot(page, "namesakes-02-entered")
    assert not page.console_errors, page.console_errors
