"""The director's console follows the evening without a reload.

A director has the console open on a laptop and is half-way through typing a result for one match (winner chosen,
points typed, the cursor in the reason) and a table number for it. A tablet records the other match's opening roll:
the console's board shows its game, told by its stream (server-sent events: the live worker's projection run
tells the page), the page not reloaded, and everything the director typed still there, the cursor where it was,
the field where it was on the screen. A second official reports that other match's result from a console of their
own: the first console is told, shows the result and takes the match off the board, the director's typing
untouched again. And a match nobody plays is flagged "stalled for 15 min" when its time comes, with no push.

Headless Debian Chromium driven by Playwright against the live server, with the live worker on the real broker.
"""

from urllib.parse import urlparse

import pytest

from eventlog import live
from players.models import Player
from tests.conftest import officials_group
from tests.waiting import WAIT_MS, wait_in_page
from tournaments import console, services
from tournaments.selectors import tournament_facts

from .heard import heard, listening
from .test_club_night_in_a_browser import shot
from .test_live_in_a_browser import browser, open_page, tap_dice  # noqa: F401 - the fixture

FIRST, SECOND = "main:r1:m1", "main:r1:m2"
ROW = "#board tr[data-slot='{}']"
# the director's half-typed result for the second match, in its row of the results table
RESULT = "#results form:has(input[name=slot][value='{}'])".format(SECOND)

# set once, when the first match's board row shows a game / the first match leaves the board
WATCH = """() => {
  window.notReloaded = true;
  const seen = () => {
    const row = document.querySelector("#board tr[data-slot='%s']");
    if (!window.gameAt && row && row.cells[4].textContent.trim() === "1") window.gameAt = Date.now();
    if (!window.resultAt && !row && document.querySelector("#board tr[data-slot='%s']")) window.resultAt = Date.now();
  };
  new MutationObserver(seen).observe(document.getElementById("console-live"), {childList: true, subtree: true});
}""" % (FIRST, SECOND)


@pytest.fixture
def director(django_user_model):
    user = django_user_model.objects.create_user("dora", password="dora-pass-1234", is_staff=True)
    user.groups.add(officials_group())
    return user


def same(after: dict, before: dict) -> bool:
    """The same typing, focus and caret, and the focused field where it was on the screen (to a pixel)."""
    return {**after, "top": 0} == {**before, "top": 0} and abs(after["top"] - before["top"]) <= 1


def typed_state(page) -> dict:
    return page.evaluate("""(form) => {
        const f = document.querySelector(form), el = document.activeElement;
        return {winner: f.querySelector("[name=winner]").value, won: f.querySelector("[name=winner_points]").value,
                lost: f.querySelector("[name=loser_points]").value, reason: f.querySelector("[name=reason]").value,
                focused: el.name + "@" + (el.form && el.form.querySelector("[name=slot]").value),
                caret: el.selectionStart, top: el.getBoundingClientRect().top,
                table: document.querySelector("#board form:has(input[name=slot][value='%s']) [name=table]").value};
    }""" % SECOND, RESULT)


@pytest.mark.worker
def test_the_console_follows_a_move_and_a_result_and_keeps_what_the_director_typed(live_worker, live_server, director,
                                                                                    browser):  # noqa: F811
    url = live_server.url
    players = [Player.objects.create(display_name=name) for name in ("Ada", "Bruno", "Chloé", "Dimitri")]
    event = services.tournament_create(actor=director, name="Friday night", format="single_elimination",
                                       settings={"lengths": {"main": {"default": 3}}, "dice": "board"})
    for p in players:
        services.tournament_command(actor=director, tournament=event, command={"type": "enter", "player": p.pk})
    services.tournament_command(actor=director, tournament=event,
                                command={"type": "draw", "method": "manual", "seeds": [p.pk for p in players]})
    console.settle(event)
    first = tournament_facts(event).matches[FIRST]

    laptop = open_page(browser, live_server, login=True, width=1280, height=640)
    listening(laptop)
    laptop.goto(f"{url}/events/{event.pk}/run/")
    laptop.wait_for_selector(ROW.format(FIRST))
    assert laptop.locator(ROW.format(FIRST)).locator("td").nth(4).inner_text().strip() == "—"  # no game yet
    laptop.evaluate(WATCH)

    # half-way through a result for the second match, and a table number for it on the board
    laptop.fill(f"#board form:has(input[name=slot][value='{SECOND}']) [name=table]", "9")
    form = laptop.locator(RESULT)
    form.locator("[name=winner]").select_option(index=1)
    form.locator("[name=winner_points]").fill("3")
    form.locator("[name=loser_points]").fill("1")
    form.locator("[name=reason]").click()
    laptop.keyboard.type("slow pla")
    laptop.keyboard.press("ArrowLeft")  # the cursor inside the word, not at its end
    before = typed_state(laptop)
    assert before["reason"] == "slow pla" and before["caret"] == 7 and before["focused"] == f"reason@{SECOND}"
    wait_in_page(laptop, lambda: laptop.follows, what="the console to ask for its stream")
    fetched = len([u for u in laptop.polls if "partial=1" in u])

    # a tablet records the first match's opening roll: the board is told and shows game 1, nothing reloaded
    tablet = open_page(browser, live_server, login=True, touch=True)
    tablet.goto(f"{url}/matches/{first['match_id']}/record/")
    tablet.wait_for_selector("#board .point")
    tap_dice(tablet, 3, 1)
    laptop.wait_for_function("() => window.gameAt")
    heard(laptop, live.projected_position(), "the roll's projections")
    assert laptop.evaluate("window.notReloaded") is True
    assert len([u for u in laptop.polls if "partial=1" in u]) > fetched  # pushed, then fetched
    assert same(typed_state(laptop), before), (typed_state(laptop), before)
    shot(laptop, "console-live-01-move")

    # a second official reports the first match's result from their own console
    other = open_page(browser, live_server, login=True, width=1280, height=900)
    other.goto(f"{url}/events/{event.pk}/run/")
    theirs = other.locator(f"#results form:has(input[name=slot][value='{FIRST}'])")
    theirs.locator("[name=winner]").select_option(index=1)
    theirs.locator("[name=winner_points]").fill("3")
    theirs.locator("[name=loser_points]").fill("0")
    theirs.locator("button[value=report_result]").click()
    laptop.wait_for_function("() => window.resultAt")
    heard(laptop, live.projected_position(), "the result's projections")
    winner = laptop.locator(f"#results tr:has(input[name=slot][value='{FIRST}'])").locator("td").nth(3).inner_text()
    assert "3–0" in winner and laptop.evaluate("window.notReloaded") is True
    assert same(typed_state(laptop), before), (typed_state(laptop), before)
    assert laptop.locator(f"{RESULT} button[value=report_result]").count() == 1  # still a match to report
    shot(laptop, "console-live-02-result")

    # the second match is not played: its flag comes when its 15 minutes are up, by the page's clock
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    context.clock.install()
    watcher = context.new_page()
    watcher.set_default_timeout(WAIT_MS)
    watcher.goto(f"{url}/accounts/login/?next=/events/{event.pk}/run/")
    watcher.fill("#id_username", "dora")
    watcher.fill("#id_password", "dora-pass-1234")
    watcher.press("#id_password", "Enter")
    watcher.wait_for_selector(ROW.format(SECOND))
    # the console's script has run, and read the server's clock: moved on before that, the page would take the
    # moved clock for the server's and never see the 15 minutes go by
    watcher.wait_for_load_state("load")
    assert watcher.locator(f"{ROW.format(SECOND)}.stalled").count() == 0
    watcher.clock.fast_forward("14:00")
    watcher.wait_for_timeout(200)
    assert watcher.locator(f"{ROW.format(SECOND)}.stalled").count() == 0
    watcher.clock.fast_forward("02:00")
    watcher.wait_for_selector(f"{ROW.format(SECOND)}.stalled .flag")
    assert watcher.locator(f"{ROW.format(SECOND)} .flag").inner_text() == "stalled for 15 min"
    shot(watcher, "console-live-03-stalled")
    for page in (laptop, tablet, other):
        assert page.errors == []


def test_without_the_push_the_console_asks_every_few_seconds(live_server, director, browser):  # noqa: F811
    """A proxy that refuses server-sent events (or a lost connection): the console falls back to asking for its live
    part every 5 s, and still keeps what the director typed."""
    url = live_server.url
    players = [Player.objects.create(display_name=name) for name in ("Ada", "Bruno", "Chloé", "Dimitri")]
    event = services.tournament_create(actor=director, name="Offline night", format="single_elimination",
                                       settings={"lengths": {"main": {"default": 3}}})
    for p in players:
        services.tournament_command(actor=director, tournament=event, command={"type": "enter", "player": p.pk})
    console.console_command(actor=director, tournament=event,
                            command={"type": "draw", "method": "manual", "seeds": [p.pk for p in players]})
    laptop = open_page(browser, live_server, login=True, width=1280, height=900)
    laptop.route("**/follow/", lambda route: route.abort())
    laptop.goto(f"{url}/events/{event.pk}/run/")
    laptop.wait_for_selector(ROW.format(FIRST))
    laptop.evaluate(WATCH)
    laptop.locator(RESULT).locator("[name=winner_points]").fill("3")
    first = tournament_facts(event).matches[FIRST]
    console.console_command(actor=director, tournament=event, command={
        "type": "report_result", "slot": FIRST, "winner": first["players"][0], "score": [3, 0]})
    laptop.wait_for_function("() => window.resultAt")  # at the fallback's next look, every 5 s
    assert laptop.evaluate("window.notReloaded") is True
    assert laptop.locator(RESULT).locator("[name=winner_points]").input_value() == "3"
    assert [u for u in laptop.polls if "partial=1" in u] and laptop.errors == []


def test_a_check_in_press_keeps_focus_and_place_without_a_page_load(live_server, director, browser):  # noqa: F811
    """The director checks players in from the keyboard far down the list: each press is sent without a
    page load (a mark set on the window stays), the list redrawn, the server's word said (a refusal as an alert),
    the focus on the pressed control or, gone, on its form's reason field, and the row where it was on the
    screen."""
    url = live_server.url
    players = [Player.objects.create(display_name=f"Member {n:02}") for n in range(30)]
    event = services.tournament_create(actor=director, name="Keyboard night", format="single_elimination",
                                       settings={"lengths": {"main": {"default": 3}}})
    for p in players:
        services.tournament_command(actor=director, tournament=event, command={"type": "enter", "player": p.pk})
    console.settle(event)
    laptop = open_page(browser, live_server, login=True, width=1280, height=640)
    laptop.goto(f"{url}/events/{event.pk}/run/")
    laptop.evaluate("window.notReloaded = true")
    posts = []
    laptop.on("request", lambda r: posts.append(r.resource_type) if r.method == "POST" else None)

    member = players[20]  # far down the list, checked in from the keyboard
    button = laptop.locator(f"button[aria-label='Check in {member.display_name}']")
    button.scroll_into_view_if_needed()
    button.focus()
    row = f"#entries tr:has(input[name=player][value='{member.pk}'])"
    scrolled, top = laptop.evaluate("(row) => [scrollY, document.querySelector(row).getBoundingClientRect().top]", row)
    laptop.keyboard.press("Enter")
    laptop.wait_for_selector("#console-messages p.success:text-is('Done: check in.')")
    assert scrolled > 0 and laptop.evaluate("window.notReloaded") is True and posts == ["fetch"]
    assert laptop.locator(f"{row} [aria-label='checked in']").count() == 1
    assert button.count() == 0
    focused = laptop.evaluate("(row) => document.activeElement === document.querySelector(row + ' [name=reason]')", row)
    assert focused, laptop.evaluate("document.activeElement.outerHTML")
    assert abs(laptop.evaluate("(row) => document.querySelector(row).getBoundingClientRect().top", row) - top) <= 1
    assert laptop.locator("#console-messages [role=alert]").count() == 0

    # the draw, from the keyboard, with one player checked in: refused, said as an alert, the focus kept on it
    make_draw = laptop.locator("#make-draw")
    make_draw.focus()
    top = make_draw.evaluate("(b) => b.getBoundingClientRect().top")
    laptop.keyboard.press("Enter")
    alert = laptop.locator("#console-messages p.error[role=alert]")
    alert.wait_for()
    assert "the draw needs at least two checked-in players" in alert.inner_text()
    assert laptop.evaluate("window.notReloaded") is True and posts == ["fetch", "fetch"]
    assert laptop.evaluate("document.activeElement.id") == "make-draw"
    assert abs(make_draw.evaluate("(b) => b.getBoundingClientRect().top") - top) <= 1
    shot(laptop, "console-live-03-keyboard-check-in")
    assert laptop.errors == []
    laptop.context.close()


def test_each_press_costs_one_request(live_server, director, browser):  # noqa: F811
    """A loaded machine answered each request in 1 to 4 s, and a press cost four: the command, its redirect's page,
    and the live part fetched again for each push the press itself caused. Now the press's answer is the console
    redrawn, with the position of the projections it shows: the pushes it caused fetch nothing. Counted by the
    browser's own request events (the push channel, /follow/, aside: it is the server's, not the press's), up to
    a change made elsewhere afterwards, whose push fetches the live part once: every push before it has been
    heard by then."""
    url = live_server.url
    players = [Player.objects.create(display_name=name) for name in ("Ada", "Bruno", "Chloé", "Dimitri")]
    event = services.tournament_create(actor=director, name="Counted night", format="single_elimination",
                                       settings={"lengths": {"main": {"default": 3}}})
    for p in players:
        services.tournament_command(actor=director, tournament=event, command={"type": "enter", "player": p.pk})
    console.settle(event)
    laptop = open_page(browser, live_server, login=True, width=1280, height=900)
    laptop.goto(f"{url}/events/{event.pk}/run/")
    laptop.wait_for_selector("#make-draw")
    laptop.evaluate("window.notReloaded = true")
    sent = []
    laptop.on("request", lambda r: sent.append(f"{r.method} {urlparse(r.url).path}?{urlparse(r.url).query}")
              if not r.url.endswith("/follow/") else None)

    def press(selector: str, word: str) -> None:
        laptop.click(selector)
        laptop.wait_for_selector(f"#console-messages p.success:text-is('{word}')")

    press(f"button[aria-label='Check in {players[0].display_name}']", "Done: check in.")
    press("#check-in-all", "3 players checked in.")
    press("#make-draw", "Done: draw.")
    slot = "main:r1:m1"
    first = tournament_facts(event).matches[slot]
    form = laptop.locator(f"#results form:has(input[name=slot][value='{slot}'])")
    form.locator("[name=winner]").select_option(str(first["players"][0]))
    form.locator("[name=winner_points]").fill("3")
    form.locator("[name=loser_points]").fill("1")
    press(f"#results form:has(input[name=slot][value='{slot}']) button[value=report_result]",
          "Done: record the result.")
    presses = list(sent)

    # elsewhere, afterwards: a table taken out of service; its push is heard and the live part fetched once
    console.console_command(actor=director, tournament=event,
                            command={"type": "set_table_service", "table": 9, "in_service": False})
    laptop.wait_for_selector("text=Table 9 is out of service.")
    console_path = f"/events/{event.pk}/run/"
    assert presses == [f"POST {console_path}?"] * 4, presses
    assert sent == presses + [f"GET {console_path}?partial=1"], sent
    assert laptop.evaluate("window.notReloaded") is True and laptop.errors == []
    laptop.context.close()
