"""The analysis in a real browser: the viewer marks a blunder and shows the best play; the player page charts
the error rate. Headless Debian Chromium (Playwright) against the live server; gnubg analyses in-process."""

import os
import random
from pathlib import Path

import pytest

from analysis import services
from analysis.models import Decision, MatchAnalysis
from eventlog import projections
from tests.games.recorder import Recorder
from tests.waiting import wait_in_page

from .test_club_night_in_a_browser import browser_page, shot  # noqa: F401 - the fixture

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures" / "gnubg"
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


def test_the_match_page_follows_an_analysis_in_progress_and_shows_it_when_done(live_server, browser_page, api,  # noqa: F811
                                                                               make_user, monkeypatch):
    """Opened while the analysis is queued, the page says so, shows decisions done of the total while gnubg
    runs, and shows the figures and marks when it is done: no reload, for as long as it takes (polling every
    3 s, slower and slower up to 15 s). The page's timers are Playwright's clock, moved on by the test: more
    than a minute of following while queued and again while running (longer than the old minute of polling)
    takes no minute, and the analysis is held at its start until the page has followed it that long."""
    import re
    import threading

    from django.db import connection
    from playwright.sync_api import expect

    from analysis import gnubg
    from eventlog import store

    page, url = browser_page, live_server.url
    official = api(make_user("root", official=True, player=False))
    with open(FIXTURES / "matches" / "match_006_1pt.mat", "rb") as f:  # 1 game with marked plays: seconds of gnubg
        match_id = official.post("/api/matches/import/", {"file": f}, format="multipart").json()["id"]
    projections.run_all()  # the analysis row is queued; no worker here takes it: it is held back
    row = MatchAnalysis.objects.get(stream_id=match_id)
    MatchAnalysis.objects.filter(pk=row.pk).update(plies=2)
    total = sum(services.decisions_per_game(store.read_stream(match_id)))
    polls = []
    page.on("request", lambda r: polls.append(r) if r.url.endswith(f"/{match_id}/analysis/") else None)

    # the page's own schedule: each delay it asks before its next look (analysis.js's setTimeout(load, delay)), read
    # as the page sets it (the clock's setTimeout, installed first), not timed by this thread
    page.clock.install()
    page.add_init_script("""window.followDelays = []; (() => { const later = window.setTimeout;
        window.setTimeout = function (f, delay, ...rest) {
            if (f && f.name === "load") window.followDelays.push(delay);
            return later.call(this, f, delay, ...rest); }; })();""")

    def delays() -> list:
        return page.evaluate("window.followDelays")

    def follow(page_ms: int, until=lambda: False) -> None:
        """Let the page look again and again, each time when its delay is over on its clock, for ``page_ms`` of its
        time or until ``until()``: each step waits for the page to have asked its next delay (its look answered)."""
        followed = 0
        while followed < page_ms and not until():
            asked = delays()
            page.clock.run_for(asked[-1])
            followed += asked[-1]
            wait_in_page(page, lambda: len(delays()) > len(asked) or until(), what="the page's next look")

    page.goto(f"{url}/matches/{match_id}/")
    status = page.locator("#analysis-status")
    expect(status).to_contain_text("analysis queued")  # (a CSP without 'unsafe-eval': no wait_for_function)
    page.evaluate("window.notReloaded = true")
    wait_in_page(page, lambda: len(delays()) >= 1, what="the page's first look")
    follow(61_000)
    queued = delays()
    assert queued[:6] == [3000, 4500, 6750, 10125, 15000, 15000], queued  # slower and slower, up to 15 s
    assert "analysis queued" in page.inner_text("#analysis-status")

    # the analysis service, as the worker runs it, in this process while the page is open; gnubg starts only when
    # the page has followed it running for more than a minute
    release, running_gnubg = threading.Event(), gnubg.analyse_mat

    def held(*args, **kwargs):
        assert release.wait(600), "never released"
        return running_gnubg(*args, **kwargs)

    monkeypatch.setattr(gnubg, "analyse_mat", held)

    def run():
        try:
            services.analysis_run(pk=row.pk)
        finally:
            connection.close()

    worker = threading.Thread(target=run)
    worker.start()
    try:
        wait_in_page(page, lambda: MatchAnalysis.objects.get(pk=row.pk).status == MatchAnalysis.RUNNING,
                     what="the analysis running")
        follow(15_000, until=lambda: "in progress" in page.inner_text("#analysis-status"))
        expect(status).to_contain_text(re.compile(r"analysis in progress, \d+ of \d+ decisions done"))
        progress = page.inner_text("#analysis-status")
        assert re.search(rf"(\d+) of {total} decisions done", progress), progress
        assert not page.query_selector("#analysis-figures table")
        shot(page, "analysis-in-progress")
        follow(61_000)
        assert "in progress" in page.inner_text("#analysis-status") and delays()[-1] == 15000, delays()
    finally:
        release.set()
        worker.join()
    assert MatchAnalysis.objects.get(pk=row.pk).status == MatchAnalysis.DONE
    follow(15_000, until=lambda: page.query_selector("#analysis-figures table"))  # done: shown without a reload
    assert page.query_selector("#analysis-figures table")
    assert page.evaluate("window.notReloaded") is True
    assert page.inner_text("#analysis-status") == "GNU Backgammon, 2-ply"
    assert "mEMG" in page.inner_text("#analysis-figures")
    assert page.locator("#analysis-marked button").count() == Decision.objects.filter(
        analysis_id=row.pk).exclude(verdict="").count() > 0  # the marks, at 2-ply of a 0-ply match
    # back-off: every 3 s at first, half as long again each time up to every 15 s; every 3 s again once it moved
    # from queued to running
    seen = delays()
    assert seen[:2] == [3000, 4500] and len(polls) > len(seen) >= 3, seen
    assert all(b in (3000, min(15000, a * 1.5)) for a, b in zip(seen, seen[1:])), seen
    assert 3000 in seen[len(queued):] and max(seen) == 15000, seen
    assert not page.console_errors, page.console_errors


def test_each_analysis_figure_is_explained_where_it_appears(live_server, browser_page, make_user):  # noqa: F811
    """mEMG, the error rates, PR, the rating word, luck and ply: a title on each column and a legend under each
    table, linking to the formula page's sections (the viewer, the player page, the event page); the player's
    error-rate chart has its values and unit on its y axis."""
    from games.mat_io import match_import_mat
    from players.models import Player
    from tournaments import services as events

    page, url = browser_page, live_server.url
    root = make_user("root", official=True, player=False)
    ann, dan = Player.objects.create(display_name="Ann"), Player.objects.create(display_name="Dan")
    event = events.tournament_create(actor=root, name="Analysed night", format="single_elimination")
    text = (FIXTURES / "samples" / "gnubg_7pt_2ply_seed42.mat").read_text()  # gnubg: 3.6 and 1.8 mEMG overall
    record = match_import_mat(actor=root, text=text, player0=ann, player1=dan, tournament_id=event.pk)
    projections.run_all()
    services.analysis_run(pk=MatchAnalysis.objects.get(stream_id=record.stream_id).pk)

    def explained(section: str) -> None:
        legend = page.locator(f"{section} .analysis-legend")
        for term, anchor in (("mEMG", "analysis-emg"), ("PR", "analysis-pr"), ("ply", "analysis-ply")):
            link = legend.locator(f"a[href='/ratings/formula/#{anchor}']")
            assert term in link.inner_text(), (section, term)
        assert page.locator(f"{section} a.analysis-explained").get_attribute("href") == "/ratings/formula/#analysis"

    page.goto(f"{url}/matches/{record.stream_id}/")
    page.wait_for_selector("#analysis-figures table")
    titles = page.locator("#analysis-figures th abbr").evaluate_all("els => els.map(e => [e.textContent, e.title])")
    said = dict(titles)
    assert said["PR (XG scale)"].startswith("Performance Rating on eXtreme Gammon's scale")
    assert said["Luck (EMG)"].startswith("Luck: what the dice gave") and "mEMG" in said["Checker play (mEMG)"]
    explained("#analysis")
    assert page.locator("#analysis .analysis-legend a[href='/ratings/formula/#analysis-luck']").count() == 1
    shot(page, "analysis-viewer-legend")

    page.goto(f"{url}/players/{ann.pk}/")
    page.wait_for_selector("#analysis-chart circle")
    ticks = page.locator("#analysis-chart .axis text.tick").all_text_contents()  # (SVG text has no innerText)
    top = float(ticks[-1].replace(",", "."))
    rate = MatchAnalysis.objects.get(stream_id=record.stream_id).figures.get(side=0).overall_rate
    assert ticks[0] == "0" and len(ticks) >= 3 and top >= rate > 0, (ticks, rate)
    assert page.text_content("#analysis-chart .axis text.unit") == "mEMG per decision"
    assert page.locator("#analysis-table th abbr[title^='Overall error rate']").count() == 1
    explained("#analysis-history")
    shot(page, "analysis-player-axis")

    page.goto(f"{url}/events/{event.pk}/")
    page.wait_for_selector("#analysis-averages-table table")
    assert page.locator("#analysis-averages-table th abbr[title^='Cube error rate']").count() == 1
    explained("#analysis-averages")

    page.click("#analysis-averages .analysis-legend a[href='/ratings/formula/#analysis-ply']")
    page.wait_for_url("**/ratings/formula/#analysis-ply")
    assert "21 different rolls" in page.locator("#analysis-ply + p").inner_text()
    assert "Positive is lucky" in page.locator("#analysis-luck + p").inner_text()
    assert "under 5 “World class”" in page.locator("#analysis-rating-words + p").inner_text()
    assert not page.console_errors, page.console_errors


def test_the_quick_analysis_is_shown_then_replaced_by_the_deeper_one(live_server, browser_page, api,  # noqa: F811
                                                                      make_user, settings):
    from playwright.sync_api import expect

    settings.ANALYSIS_QUICK_PLIES, settings.ANALYSIS_PLIES = 0, 2
    page, url = browser_page, live_server.url
    official = api(make_user("root", official=True, player=False))
    with open(FIXTURES / "matches" / "match_001_1pt.mat", "rb") as f:
        match_id = official.post("/api/matches/import/", {"file": f}, format="multipart").json()["id"]
    projections.run_all()  # no worker here: the two rows are analysed in this process, the quick one first
    rows = {r.plies: r for r in MatchAnalysis.objects.filter(stream_id=match_id)}
    services.analysis_run(pk=rows[0].pk)

    page.goto(f"{url}/matches/{match_id}/")
    status = page.locator("#analysis-status")
    expect(status).to_have_text("GNU Backgammon, 0-ply · 2-ply analysis under way, shown here when done…")
    page.wait_for_selector("#analysis-figures table")  # the quick figures at once
    page.evaluate("window.notReloaded = true")
    services.analysis_run(pk=rows[2].pk)
    # the page goes on looking while the deeper one runs (every 15 s at most): it replaces the quick one
    expect(status).to_have_text("GNU Backgammon, 2-ply", timeout=120_000)
    assert page.evaluate("window.notReloaded") is True and page.query_selector("#analysis-figures table")
