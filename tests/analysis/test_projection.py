"""The analysis as a projection: once per match and depth, rebuilt to the same numbers, corrections and voids."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from django.core.management import call_command
from django.forms.models import model_to_dict

from analysis import services
from analysis.models import MatchAnalysis
from eventlog import projections

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures" / "gnubg"
pytestmark = [pytest.mark.django_db, pytest.mark.skipif(not os.path.exists("/usr/games/gnubg"), reason="no gnubg")]


@pytest.fixture
def official(api, make_user):
    return api(make_user("root", official=True, player=False))


def imported(client, name="match_021_1pt.mat") -> str:
    with open(FIXTURES / "matches" / name, "rb") as f:
        response = client.post("/api/matches/import/", {"file": f}, format="multipart")
    assert response.status_code == 201
    return response.json()["id"]


def analysed(stream_id: str) -> MatchAnalysis:
    projections.run("analysis")
    row = MatchAnalysis.objects.get(stream_id=stream_id)
    services.analysis_run(pk=row.pk)
    return MatchAnalysis.objects.get(pk=row.pk)


def numbers(row: MatchAnalysis):
    drop = {"id", "analysis"}
    return ([{k: v for k, v in model_to_dict(f).items() if k not in drop} for f in row.figures.order_by("side")],
            [{k: v for k, v in model_to_dict(d).items() if k not in drop} for d in row.decisions.all()])


def test_one_analysis_per_match_and_depth_whatever_runs_twice(official, settings):
    match_id = imported(official)
    row = analysed(match_id)
    before = numbers(row)
    assert services.analysis_run(pk=row.pk) == MatchAnalysis.DONE  # a redelivered task: nothing new
    projections.run("analysis")
    assert MatchAnalysis.objects.filter(stream_id=match_id).count() == 1
    assert numbers(MatchAnalysis.objects.get(pk=row.pk)) == before
    # another depth is another analysis, beside the first
    services.analysis_queue(stream_id=match_id, plies=1)
    assert sorted(MatchAnalysis.objects.filter(stream_id=match_id).values_list("plies", flat=True)) == [0, 1]


def test_rebuild_only_analysis_gives_the_same_numbers(official):
    match_id = imported(official, "match_014_7pt.mat")
    before = numbers(analysed(match_id))
    call_command("rebuild_projections", "--only", "analysis")
    row = MatchAnalysis.objects.get(stream_id=match_id)
    assert row.status == MatchAnalysis.QUEUED  # queued again from the log
    services.analysis_run(pk=row.pk)
    assert numbers(MatchAnalysis.objects.get(pk=row.pk)) == before


def test_a_corrected_match_keeps_its_analysis_and_a_voided_one_drops_it(official):
    match_id = imported(official)
    analysed(match_id)
    version = official.get(f"/api/matches/{match_id}/").json()["version"]
    response = official.post(f"/api/matches/{match_id}/commands/", {
        "type": "correct_result", "winner": 0, "score": [1, 0], "reason": "scoresheet", "expected_version": version,
    }, format="json")
    assert response.status_code == 200, response.json()
    projections.run("analysis")
    assert MatchAnalysis.objects.get(stream_id=match_id).status == MatchAnalysis.DONE  # the plays are as played
    response = official.post(f"/api/matches/{match_id}/commands/", {
        "type": "void", "reason": "wrong players", "expected_version": version + 1}, format="json")
    assert response.status_code == 200, response.json()
    projections.run("analysis")
    assert not MatchAnalysis.objects.filter(stream_id=match_id).exists()  # a void match counts for nothing
