"""The console's forfeit, in a browser: a player who did not come is named ("Victor forfeits") and his opponent
wins; the director is never asked who won a match nobody played. Headless Debian Chromium through Playwright;
screenshots in var/screenshots/ (console-forfeit-*.png)."""

from players.models import Player
from tests.site.test_club_night_in_a_browser import browser_page, shot  # noqa: F401 - the fixture, shared
from tournaments import services
from tournaments.selectors import tournament_data


def test_the_director_names_who_forfeits_and_the_opponent_goes_on(live_server, browser_page, django_user_model):
    page, url = browser_page, live_server.url
    dora = django_user_model.objects.create_user("dora", password="dora-pass-1234")
    ids = {n: Player.objects.create(display_name=n).pk for n in ("Ada", "Chloé", "Bruno", "Victor")}
    t = services.tournament_create(actor=dora, name="Tuesday evening", format="single_elimination",
                                   settings={"lengths": {"main": {"default": 3}}})
    for pk in ids.values():
        services.tournament_command(actor=dora, tournament=t, command={"type": "enter", "player": pk})

    page.goto(f"{url}/accounts/login/?next=/events/{t.pk}/run/")
    page.fill("#id_username", "dora")
    page.fill("#id_password", "dora-pass-1234")
    page.press("#id_password", "Enter")
    page.wait_for_selector("#make-draw")
    page.click("#make-draw")
    page.wait_for_selector("text=Done: draw.")

    row = page.locator("#results tbody tr", has_text="Victor")
    opponent = next(s for s in tournament_data(t)["slots"] if ids["Victor"] in s["players"])
    other = next(p for p in opponent["players"] if p != ids["Victor"])
    other_name = next(n for n, pk in ids.items() if pk == other)
    # one button per player, and no "who won?" for a forfeit
    assert row.get_by_role("button", name="Victor forfeits").count() == 1
    assert row.get_by_role("button", name=f"{other_name} forfeits").count() == 1
    assert row.get_by_role("button", name="Forfeit", exact=True).count() == 0
    shot(page, "console-forfeit-01-buttons")

    row.get_by_role("button", name="Victor forfeits").click()  # the winner box untouched: nobody chosen
    page.wait_for_selector("text=Done: forfeit.")
    result = page.locator("#results tbody tr", has_text="Victor").first
    assert f"{other_name} (forfeit)" in result.inner_text()
    shot(page, "console-forfeit-02-done")
    done = next(s for s in tournament_data(t)["slots"] if s["key"] == opponent["key"])
    assert done["winner"] == other and done["forfeit"]
    assert page.locator(".console-messages .error").count() == 0
    assert page.console_errors == [] and page.foreign_hosts == set()
