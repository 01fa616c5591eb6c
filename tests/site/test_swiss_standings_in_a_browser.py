"""A Swiss of five with byes, as an outside tester read it in a browser: every line of the table adds up (Played =
Wins + Losses, a bye counted as the won match it is and marked so), each tie-break is explained where the table
shows it and its link opens the rules page's section with a worked example; the player page says an event still
being played is in progress instead of giving a place; the API gives the same numbers.

Headless Debian Chromium driven by Playwright against the live server; the projections and the process manager run
in-process (``settle``). Screenshots go to var/screenshots/ (swiss-*.png)."""

import pytest

from players.models import Player
from tests.tournaments.test_running_events import cmd, settle
from tournaments import services
from tournaments.models import Tournament

from .test_club_night_in_a_browser import browser_page, shot  # noqa: F401 - the fixture

NAMES = ["Ada", "Bruno", "Chloé", "Dimitri", "Eva"]
TIEBREAKS = ["buchholz", "median_buchholz", "sonneborn_berger", "points_diff"]


def swiss_of_five(director) -> tuple[Tournament, dict]:
    ids = {n: Player.objects.create(display_name=n).pk for n in NAMES}
    t = services.tournament_create(actor=director, name="Thursday Swiss", format="swiss",
                                   settings={"rounds": 3, "tiebreaks": TIEBREAKS})
    Tournament.objects.filter(pk=t.pk).update(published=True)
    for p in ids.values():
        cmd(t, director, type="enter", player=p)
        cmd(t, director, type="check_in", player=p)
    cmd(t, director, type="draw", method="manual", seeds=list(ids.values()))
    return t, ids


def play_round(t, director, round_no: int) -> dict:
    """Every match of the round to its better seed, 7-3; returns the event's data after it."""
    data = settle(t)
    for s in data["slots"]:
        if s["round"] == round_no and s["status"] == "ready":
            cmd(t, director, type="report_result", slot=s["key"], winner=min(s["players"]), score=[7, 3])
    return settle(t)


def bye_of(data: dict, round_no: int) -> int:
    (slot,) = [s for s in data["slots"] if s["round"] == round_no and s["status"] == "bye"]
    return next(p for p in slot["players"] if p)


def cells(page, player: str) -> list[str]:
    row = page.locator("table.standings tr", has=page.locator(f"a:text-is('{player}')"))
    return [c.strip() for c in row.locator("td").all_inner_texts()]


@pytest.mark.django_db(transaction=True)
def test_a_swiss_with_byes_adds_up_and_explains_its_tiebreaks(live_server, browser_page, make_user, api):
    page, url = browser_page, live_server.url
    director = make_user("dora", player=False)
    t, ids = swiss_of_five(director)
    names = {v: k for k, v in ids.items()}
    data = play_round(t, director, 1)
    first_bye = bye_of(data, 1)

    # round 2 is being played: the player page shows the standing so far, marked, and no place
    page.goto(f"{url}/players/{first_bye}/")
    line = page.locator("#event-results tr", has=page.locator("a:text-is('Thursday Swiss')")).inner_text()
    assert "in progress" in line, line
    assert "(1 bye)" in line, line
    shot(page, "swiss-player-in-progress")

    play_round(t, director, 2)
    data = play_round(t, director, 3)
    assert data["winner"] is not None
    byes = [bye_of(data, r) for r in (1, 2, 3)]

    page.goto(f"{url}/events/{t.pk}/")
    page.wait_for_selector("table.standings")
    for player in ids.values():
        rank, name, played, wins, losses, *_ = cells(page, names[player])
        won = int(wins.split()[0])
        assert int(played) == won + int(losses) == 3, (name, played, wins, losses)
        if player in byes:
            assert wins.endswith("(1 bye)"), (name, wins)
        else:
            assert "bye" not in wins
    legend = page.locator(".standings-legend").inner_text()
    assert "A bye counts as a won match: one point, 0–0 in match points." in legend
    assert "Played = Wins + Losses" in legend
    # each tie-break: its heading says what it is, and the legend says it in the event's order
    headings = page.locator("table.standings th[data-tiebreak]")
    assert headings.count() == 4
    titles = [headings.nth(i).locator("abbr").get_attribute("title") for i in range(4)]
    assert titles[0] == "Buchholz: the sum of the player's opponents' scores (a bye adds 0)"
    assert titles[2].startswith("Sonneborn-Berger: the sum of the scores of the opponents the player beat")
    assert [page.locator(".tiebreak-legend dt").nth(i).inner_text() for i in range(4)] == [
        "Buchholz", "Median Buchholz", "Sonneborn-Berger", "Points difference"]
    shot(page, "swiss-standings")

    # the heading's link opens the rules page at that tie-break, with the worked example
    page.locator("table.standings th[data-tiebreak=median_buchholz] a").click()
    page.wait_for_url("**/events/rules/#median-buchholz")
    assert page.locator("#median-buchholz").is_visible()
    assert "without the highest and the lowest" in page.locator("#median-buchholz + p").inner_text()
    for section in ("#bye", "#buchholz", "#sonneborn-berger", "#points-diff", "#example-table"):
        assert page.locator(section).count() == 1, section
    eve = page.locator(".example-workings tr[data-player=Eve] td").all_inner_texts()
    assert eve == ["bye, beat Bob (1), lost to Cid (3)", "0 + 1 + 3 = 4", "4 − 3 − 0 = 1", "1 = 1",
                   "(0 + 7 + 4) − (0 + 0 + 7) = 4"]
    ranked = page.locator("#example-table tbody tr td:nth-child(2)").all_inner_texts()
    assert ranked == ["Cid", "Eve", "Dan", "Ann", "Bob"]
    shot(page, "swiss-rules")

    # the finished event: its final place on the player page, nothing in progress
    page.goto(f"{url}/players/{first_bye}/")
    line = page.locator("#event-results tr", has=page.locator("a:text-is('Thursday Swiss')")).inner_text()
    assert "in progress" not in line
    assert not page.console_errors, page.console_errors

    # the API's table: the same lines, with the byes
    table = api(None).get(f"/api/tournaments/{t.pk}/").json()["standings"]
    for row in table:
        assert row["played"] == row["wins"] + row["losses"] == 3
        assert row["byes"] == (1 if row["player_id"] in byes else 0)
