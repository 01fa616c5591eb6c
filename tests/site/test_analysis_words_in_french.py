"""The match page's GNU Backgammon words in French, in a real browser: a cube action is said in French ("passe",
"Bonne décision de videau : accepter"), gnubg's word for an error rate is an "Appréciation" (a player's rating is a
"cote", another thing), and the games table says how each game ended in French ("gammon, sortie")."""

import re
from pathlib import Path

import pytest

from .test_club_night_in_a_browser import shot
from .test_french_in_a_browser import chromium  # noqa: F401 - the fixture


@pytest.mark.django_db(transaction=True)
@pytest.mark.skipif(not Path("/usr/games/gnubg").exists(), reason="no gnubg")
def test_the_cube_actions_the_rating_words_and_how_games_end_read_in_french(
        chromium, live_server, make_user, api):  # noqa: F811
    from playwright.sync_api import expect

    from analysis import services as analysis
    from analysis.models import MatchAnalysis
    from eventlog import projections
    from games.mat_io import match_import_mat
    from players.models import Player

    ann, dan = Player.objects.create(display_name="Ann"), Player.objects.create(display_name="Dan")
    mat = Path(__file__).resolve().parents[1] / "fixtures/gnubg/samples/gnubg_7pt_2ply_seed42.mat"
    record = match_import_mat(actor=make_user("root", official=True, player=False), text=mat.read_text(),
                              player0=ann, player1=dan)
    projections.run_all()
    analysis.analysis_run(pk=MatchAnalysis.objects.get(stream_id=record.stream_id).pk)
    # Dan's drop that gnubg would have taken (tests/analysis/test_api.py): its frame shows the mark of the decision
    body = api().get(f"/api/matches/{record.stream_id}/analysis/").json()
    drop = next(d for d in body["decisions"] if d["kind"] == "drop" and d["loss"] > 0)

    page = chromium("fr-FR")
    page.goto(f"{live_server.url}/matches/{record.stream_id}/?at={drop['version']}")
    page.wait_for_selector("#analysis-figures table")
    page.evaluate("v => document.dispatchEvent(new CustomEvent('crawford:goto', {detail: v}))", drop["version"])
    headings = page.locator("#analysis-figures thead th").all_inner_texts()
    assert "Appréciation" in headings and "Cote" not in headings, headings
    assert "Appréciation" in page.locator(".analysis-legend dt").all_inner_texts()
    expect(page.locator("#mark")).to_contain_text(re.compile(r" : passe \(−1,000\), perte \d,\d{3}"))
    expect(page.locator("#mark .best")).to_contain_text(re.compile(r"^Bonne décision de videau : accepter \("))
    table = page.locator("h2", has_text="Parties").locator("xpath=following-sibling::table[1]")
    how = table.locator("tbody tr td:last-child").all_inner_texts()
    assert how and all(re.fullmatch(r"(simple|gammon|backgammon), (sortie|double passé|abandon)", h) for h in how), how
    assert "no double" not in page.inner_text("main")
    shot(page, "french-match-cube-words")
    assert page.errors == []
