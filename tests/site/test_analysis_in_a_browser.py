"""The analysis in a real browser: the viewer marks a blunder and shows the best play; the player page charts
the error rate. Headless Debian Chromium (Playwright) against the live server; gnubg analyses in-process."""

import os
import random

import pytest

from analysis import services
from analysis.models import Decision, MatchAnalysis
from eventlog import projections
from tests.games.recorder import Recorder

from .test_club_night_in_a_browser import browser_page, shot  # noqa: F401 - the fixture

pytestmark = pytest.mark.skipif(not os.path.exists("/usr/games/gnubg"), reason="no gnubg")


def test_the_viewer_marks_a_blunder_and_the_player_page_charts_the_error_rate(live_server, browser_page, api,  # noqa: F811
                                                                               make_user):
    page, url = browser_page, live_server.url
    alice, bob = make_user("alice"), make_user("bob")
    client = api(alice)
    # dice from the board, drawn from the seed: the same match, and the same blunders, on every run
    body = {"player0": alice.player.pk, "player1": bob.player.pk, "length": 3, "dice": "board"}
    m = Recorder(client, client.post("/api/matches/", body, format="json").json())
    m.client = api(make_user("root", official=True, player=False))
    m.play_random(random.Random(1))  # random plays: gnubg finds blunders
    projections.run_all()  # no worker here: the projections (the read model, the analysis rows) run in-process
    services.analysis_run(pk=MatchAnalysis.objects.get(stream_id=m.id).pk)
    blunder = Decision.objects.filter(analysis__stream_id=m.id, verdict="very bad").order_by("version").first()

    page.goto(f"{url}/matches/{m.id}/?game={blunder.game}")  # the viewer holds one game at a time
    page.wait_for_selector("#analysis-figures table")
    assert "Alice" in page.inner_text("#analysis-figures") and "mEMG" in page.inner_text("#analysis-figures")
    page.locator("#analysis-marked button.verdict-very-bad").first.click()
    # the viewer shows one game at a time: a play of another game opens that game's page (?at=<version>)
    page.wait_for_function("document.getElementById('mark') && "
                           "document.getElementById('mark').textContent.startsWith('Very bad')")
    mark = page.inner_text("#mark")
    assert mark.startswith("Very bad") and blunder.played in mark and f"loss {blunder.loss:.3f}" in mark
    assert f"{'Best play' if blunder.kind == 'move' else 'Right cube action'}: {blunder.best}" in mark
    frames = page.evaluate("JSON.parse(document.getElementById('frames').textContent)")
    at = [f["version"] for f in frames].index(blunder.version)
    assert page.inner_text("#step") == f"{at + 1} / {len(frames)}"  # the board is at the blunder
    assert page.inner_text("#text").startswith(("Alice", "Bob")[blunder.player])
    # and a checker-play blunder: its best play beside the one made
    play = Decision.objects.filter(analysis__stream_id=m.id, verdict="very bad", kind="move").order_by("version").first()
    page.locator("#analysis-marked button", has_text=f" {play.dice} {play.played} · very bad").first.click()
    assert f"Best play: {play.best}" in page.inner_text("#mark") and page.inner_text("#text").startswith(
        ("Alice", "Bob")[play.player] + " plays ")
    shot(page, "analysis-viewer-blunder")
    page.keyboard.press("ArrowRight")  # stepping with the arrow keys goes on, the mark follows
    assert page.inner_text("#mark") != mark

    # a decision of another game than the one on the page: its game opens at that decision
    shown = page.inner_text("#game")
    other = Decision.objects.filter(analysis__stream_id=m.id, kind="move").exclude(verdict="").exclude(
        game=int(shown)).order_by("version").first()
    assert other is not None, "the recorded match has marked plays in more than one game"
    label = f"Game {other.game}: {('Alice', 'Bob')[other.player]} {other.dice} {other.played} · {other.verdict}"
    page.locator("#analysis-marked button", has_text=label).first.click()
    page.wait_for_url(f"**?game={other.game}#v{other.version}")
    page.wait_for_selector("#analysis-figures table")
    page.wait_for_function(f"document.getElementById('game').textContent === '{other.game}'")
    page.wait_for_function("document.getElementById('mark').textContent.includes('Best play')")
    assert f"Best play: {other.best}" in page.inner_text("#mark") and other.played in page.inner_text("#mark")

    page.goto(f"{url}/players/{alice.player.pk}/")
    page.wait_for_selector("#analysis-chart circle")
    assert page.is_visible("#analysis-history")
    assert "mEMG" in page.inner_text("#analysis-caption")
    shot(page, "analysis-player-chart")
    assert not page.console_errors, page.console_errors
