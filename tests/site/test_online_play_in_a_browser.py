"""A match played online in real browsers: two members in two browser contexts (one challenges, the other accepts
on the online play page), a whole 3-point match with the server's dice and a clock, the cube and resignations, one
player closing the page mid-game and coming back to exactly where the log is, a spectator on the live board; then
the match is analysed like any other. Headless Debian Chromium (Playwright) against the live server.

Every wait is for something the pages or the log show, never for a time: presence's grace and heartbeat are made
short so that a closed page (which says so as it closes) shows as away at once and a reopened one as here."""

import os

import pytest

from analysis import services as analysis_services
from analysis.models import Decision, MatchAnalysis
from eventlog import projections, store
from games import selectors
from games.loading import match_load
from games.models import Challenge
from players.models import Player
from tests.waiting import wait_in_page

from .test_club_night_in_a_browser import shot
from .test_live_in_a_browser import browser, open_page  # noqa: F401 (fixtures)


@pytest.fixture
def members(django_user_model):
    made = []
    for name in ("ann", "ben"):
        user = django_user_model.objects.create_user(name, password=f"{name}-pass-1234")
        Player.objects.create(display_name=name.capitalize(), user=user)
        made.append(user)
    return made


def logged_in(browser, live_server, name: str):  # noqa: F811
    page = open_page(browser, live_server, login=False)
    page.goto(f"{live_server.url}/accounts/login/")
    page.fill("#id_username", name)
    page.fill("#id_password", f"{name}-pass-1234")
    page.click("button[type=submit]")
    page.wait_for_load_state()
    return page


def shows(page, version: int) -> None:
    page.wait_for_function("(v) => +document.body.dataset.version >= v", arg=version)


class Online:
    """The match as its two pages play it: each action is made on the page of the player it is for, once that page
    shows the match where the log is; then the log is waited for, never a time."""

    def __init__(self, match_id: str, pages: list):
        self.id, self.pages = match_id, pages

    @property
    def state(self) -> dict:
        return selectors.match_state_data(match_load(self.id))

    def after(self, page, version: int, act) -> int:
        shows(page, version)
        act()
        return wait_in_page(page, lambda: (v := store.stream_version(self.id)) > version and v, what="the action")

    def ply(self) -> None:
        """One roll, or one play (a forced play makes itself: its page sends it)."""
        s = self.state
        version, phase = s["version"], s["phase"]
        if phase in ("opening", "roll"):
            page = self.pages[0 if phase == "opening" else s["turn"]]
            self.after(page, version, lambda: page.click("#roll"))
        elif phase == "move" and len(s["legal_moves"]) == 1:
            wait_in_page(self.pages[s["turn"]], lambda: store.stream_version(self.id) > version, what="a forced play")
        elif phase == "move":
            page = self.pages[s["turn"]]
            self.after(page, version, lambda: (page.fill("#move-text", s["legal_moves"][0]), page.click("#play")))
        else:
            raise AssertionError(f"not a ply: {phase}")

    def until(self, done) -> None:
        for _ in range(200):
            if done(self.state):
                return
            self.ply()
        raise AssertionError("the game never came where the test wants it")

    def by(self, seat: int, button: str) -> None:
        self.after(self.pages[seat], self.state["version"], lambda: self.pages[seat].click(button))


@pytest.mark.skipif(not os.path.exists("/usr/games/gnubg"), reason="no gnubg")
def test_two_members_play_a_whole_match_online_one_leaves_and_comes_back_and_a_spectator_watches(
        live_server, browser, members, settings):  # noqa: F811
    settings.ONLINE_PRESENCE_GRACE, settings.ONLINE_HEARTBEAT = 3, 1
    url = live_server.url
    ann, ben = logged_in(browser, live_server, "ann"), logged_in(browser, live_server, "ben")

    # Ann challenges Ben on the online play page; Ben accepts there and is taken to the match
    ann.goto(f"{url}/play/")
    ann.select_option("#opponent", label="Ben")
    ann.fill("#length", "3")
    ann.select_option("#clock", "us")
    ann.click("#challenge")
    ann.wait_for_selector("text=You challenge Ben to a 3-point match")
    ben.goto(f"{url}/play/")
    ben.click("text=Accept and play")
    ben.wait_for_selector("#board .point")
    match_id = Challenge.objects.get().stream_id
    assert ben.url.endswith(f"/matches/{match_id}/record/")
    ann.goto(f"{url}/play/")
    ann.click(f"a[href='/matches/{match_id}/record/']")
    ann.wait_for_selector("#board .point")
    spectator = open_page(browser, live_server, login=False)
    spectator.goto(f"{url}/matches/{match_id}/live/")
    spectator.wait_for_selector("#board .point")
    for page in (ann, ben):  # each sees the other come
        page.wait_for_selector("#presence[data-opponent=here]")
    record = match_load(match_id)
    assert record.online["challenge"] and record.dice_source == "server" and record.state.clock.preset.name == "us"

    match = Online(match_id, [ann, ben])
    # game 1: the opening roll by either, plays, then the player on roll doubles and the other takes
    match.until(lambda s: s["game"] == 1 and s["phase"] == "roll" and s["may_double"] and s["version"] > 12)
    doubler = match.state["turn"]
    # the server pressed the clocks: the clock of the player on roll runs on both screens; only theirs rolls
    for seat, page in enumerate((ann, ben)):
        shows(page, match.state["version"])
        assert "running" in page.locator(f"#clock-{doubler}").get_attribute("class")
        assert page.locator("#roll").is_visible() == (seat == doubler)
        assert page.locator("#double").is_visible() == (seat == doubler)
    match.by(doubler, "#double")
    match.by(1 - doubler, "#take")
    assert match.state["cube"]["value"] == 2
    # the doubler rolls and plays; then the taker, on roll, resigns a single game: worth the cube, 2 points
    match.until(lambda s: s["phase"] == "roll" and s["turn"] == 1 - doubler)
    match.by(1 - doubler, "#resign")
    match.by(doubler, "#accept")
    assert match.state["score"][doubler] == 2 and match.state["game"] == 1

    # game 2, the Crawford game: a few plies, then the player waiting closes the page
    second = match.state["version"]
    match.until(lambda s: s["game"] == 2 and s["phase"] == "roll" and s["version"] > second + 8)
    away = 1 - match.state["turn"]
    stayer = match.pages[1 - away]
    version = match.state["version"]
    match.pages[away].close(run_before_unload=True)
    stayer.wait_for_selector("#presence[data-opponent=away]")
    assert "the disconnect clock runs out in" in stayer.inner_text("#presence-note")
    assert stayer.locator("#claim-disconnect").is_hidden()  # the clock runs: nothing to claim yet
    # the one who stayed plays on alone
    match.ply()
    match.ply()
    # back: a new page where the log is, and the other sees them here again
    back = logged_in(browser, live_server, ("ann", "ben")[away])
    back.goto(f"{url}/matches/{match_id}/record/")
    now = match.state
    assert now["version"] > version
    shows(back, now["version"])
    assert back.evaluate("+document.body.dataset.version") == now["version"]
    assert back.inner_text("#score") == f"{now['score'][0]}–{now['score'][1]}"
    match.pages[away] = back
    stayer.wait_for_selector("#presence[data-opponent=here]")
    back.wait_for_selector("#presence[data-opponent=here]")

    # a few more plies, then the player behind resigns: the match is over
    match.until(lambda s: s["phase"] == "roll" and s["turn"] == 1 - doubler)
    match.by(1 - doubler, "#resign")
    match.by(doubler, "#accept")
    final = match.state
    assert final["finished"] and final["winner"] == doubler and final["score"][doubler] >= 3
    for page in (stayer, back):
        page.wait_for_selector(f"text={final['players'][doubler]['name']} wins the match.")
    # the spectator watched it all on the live board, to its end
    shows(spectator, final["version"])
    assert spectator.inner_text("#score") == f"{final['score'][0]}–{final['score'][1]}"
    shot(stayer, "online-match-over")

    # the match is analysed like any other
    projections.run_all()
    analysis_services.analysis_run(pk=MatchAnalysis.objects.get(stream_id=match_id).pk)
    assert MatchAnalysis.objects.get(stream_id=match_id).status == MatchAnalysis.DONE
    assert Decision.objects.filter(analysis__stream_id=match_id, kind="move").exists()
    for page in (stayer, back, spectator):
        assert page.errors == [], page.errors
