"""Two depths: the quick analysis is shown at once, the deeper one replaces it when done; the depth is always said."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from analysis import services
from analysis.models import MatchAnalysis
from eventlog import projections

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures" / "gnubg"
pytestmark = [pytest.mark.django_db, pytest.mark.skipif(not os.path.exists("/usr/games/gnubg"), reason="no gnubg")]


def test_the_quick_analysis_is_shown_until_the_deeper_one_is_done(api, make_user, settings):
    settings.ANALYSIS_QUICK_PLIES, settings.ANALYSIS_PLIES = 0, 2
    official = api(make_user("root", official=True, player=False))
    with open(FIXTURES / "matches" / "match_001_1pt.mat", "rb") as f:
        match_id = official.post("/api/matches/import/", {"file": f}, format="multipart").json()["id"]
    projections.run("analysis")
    rows = {r.plies: r for r in MatchAnalysis.objects.filter(stream_id=match_id)}
    assert sorted(rows) == [0, 2] and rows[0].pk < rows[2].pk  # the quick one is sent first
    url = f"/api/matches/{match_id}/analysis/"

    services.analysis_run(pk=rows[0].pk)
    shown = api().get(url).json()
    assert (shown["plies"], shown["status"], shown["engine"]) == (0, "done", "GNU Backgammon, 0-ply")
    assert shown["deeper"] == {"plies": 2, "status": "queued"} and shown["players"]

    services.analysis_run(pk=rows[2].pk)
    shown = api().get(url).json()
    assert (shown["plies"], shown["status"], shown["engine"]) == (2, "done", "GNU Backgammon, 2-ply")
    assert shown["deeper"] is None and shown["players"]
    assert api().get(url + "?plies=0").json()["plies"] == 0  # each depth stays readable by name
