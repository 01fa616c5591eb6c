"""A four-handed chouette game recorded on one tablet in a real browser: the box's and the captain's plays, two
crew members' cubes doubled at once, the box's one answer, the captain's drop passing the captaincy, and the
running session sheet at the end of the game."""

from eventlog import store
from games import chouettes

from .test_club_night_in_a_browser import shot
from .test_live_in_a_browser import browser, director, open_page  # noqa: F401 (fixtures)


def submit(page, form: str) -> None:
    with page.expect_navigation():
        page.click(f"{form} button[type=submit]")


def roll(page, d1: int, d2: int) -> None:
    dice = page.locator("#roll input.die")
    dice.nth(0).fill(str(d1))
    dice.nth(1).fill(str(d2))
    submit(page, "#roll")


def play(page, move: str) -> None:
    page.fill("#move input[name=move]", move)
    submit(page, "#move")


def test_a_four_handed_game_with_two_crew_cubes_recorded_on_one_tablet(live_server, director, browser):  # noqa: F811
    tablet = open_page(browser, live_server, login=True)
    tablet.goto(f"{live_server.url}/")
    with tablet.expect_navigation():
        tablet.click("#record-chouette")
    tablet.fill("#players", "Ann\nBen\nCat\nDan")
    submit(tablet, "form.chouette-new")
    assert "Box: Ann. Captain: Ben." in tablet.locator("#line").inner_text()
    chouette_id = tablet.url.rstrip("/").rsplit("/", 1)[-1]

    roll(tablet, 3, 1)  # the opening roll: Ann's 3 beats Ben's 1, the box plays
    assert "Ann plays 3-1." in tablet.locator("#status").inner_text()
    play(tablet, "8/5 6/5")

    # the team's turn: Cat and Dan double the box at once; Ann takes Cat's and drops Dan's
    tablet.check("#double input[value=Cat]")
    tablet.check("#double input[value=Dan]")
    submit(tablet, "#double")
    assert "Cat, Dan double: Ann answers." in tablet.locator("#status").inner_text()
    tablet.check("#box-answers [data-member=Dan] input[name=takes]")  # Dan's double both taken and dropped
    tablet.check("#box-answers [data-member=Dan] input[name=drops]")
    submit(tablet, "#box-answers")
    assert "Dan is named twice" in tablet.locator("#refused").inner_text()  # refused, nothing recorded
    tablet.check("#box-answers [data-member=Cat] input[name=takes]")
    tablet.check("#box-answers [data-member=Dan] input[name=drops]")
    submit(tablet, "#box-answers")
    assert tablet.locator("#cubes [data-member=Cat] .value").inner_text() == "2"
    assert tablet.locator("#cubes [data-member=Dan] .state").inner_text() == "settled: 1"

    roll(tablet, 6, 5)  # Ben rolls for the team and plays
    play(tablet, "24/13")

    # the box doubles the captain and redoubles Cat's cube (hers since she took it)
    tablet.check("#double input[value=Ben]")
    tablet.check("#double input[value=Cat]")
    submit(tablet, "#double")
    with tablet.expect_navigation():
        tablet.click("form.answer[data-member=Ben] button[value=drop]")
    assert "Captain: Cat." in tablet.locator("#line").inner_text()  # the captaincy passes to the next still playing
    with tablet.expect_navigation():
        tablet.click("form.answer[data-member=Cat] button[value=drop]")

    # No cube is left playing: the game is over. By hand: Dan +1 (the box dropped his double), Ben -1 and Cat -2
    # (they dropped the box's doubles; Cat's cube stood on 2), Ann wins 1 + 2 - 1 = +2. Ann beat the last captain:
    # she keeps the box, Ben goes to the bottom of the line and Cat captains game 2.
    game_row = tablet.locator("#sheet tr.game").nth(0).locator("td").all_inner_texts()
    assert game_row == ["2", "-1", "-2", "1", "0"]
    assert tablet.locator("#totals td").all_inner_texts() == ["2", "-1", "-2", "1", "0"]
    assert "Box: Ann. Captain: Cat." in tablet.locator("#line").inner_text()
    assert "Line: Ann, Cat, Dan, Ben" in tablet.locator("#line").inner_text()
    assert tablet.errors == []
    shot(tablet, "chouette-sheet")

    session = chouettes.chouette_load(chouette_id)
    assert [(g.game, dict(g.results)) for g in session.state.games] == [(1, {"Ann": 2, "Ben": -1, "Cat": -2,
                                                                            "Dan": 1})]
    stored = [row.event_type for row in store.read_stream(chouette_id)]
    assert stored.count("CubeOffered") == 4 and stored[-1] == "ChouetteGameWon"

    # the same sheet in French
    french = open_page(browser, live_server, login=False)
    french.set_extra_http_headers({"Accept-Language": "fr"})
    french.goto(f"{live_server.url}/chouettes/{chouette_id}/")
    assert "Feuille de la séance" in french.locator("#sheet h2").inner_text()
    assert "Boîte : Ann. Capitaine : Cat." in french.locator("#line").inner_text()
