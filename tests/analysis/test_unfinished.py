"""Matches that stop before their end are analysed up to where they stop, and say so: an import that ends
mid-game, a match its event closed, one still played that a player asks about (analysed again once it moves on)."""

from __future__ import annotations

import os
import random
from pathlib import Path

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from analysis import services
from analysis.models import MatchAnalysis
from eventlog import projections
from games.engine import events as ev
from games.engine.matfile import read_mat, write_mat
from tests.games.recorder import Recorder

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures" / "gnubg"
pytestmark = [pytest.mark.django_db, pytest.mark.skipif(not os.path.exists("/usr/games/gnubg"), reason="no gnubg")]


def _analysed(stream_id: str) -> MatchAnalysis:
    for row in MatchAnalysis.objects.filter(stream_id=stream_id, status=MatchAnalysis.QUEUED):
        services.analysis_run(pk=row.pk)
    return MatchAnalysis.objects.get(stream_id=stream_id)


def test_an_import_that_stops_mid_game_is_analysed_up_to_there(api, make_user):
    whole = read_mat((FIXTURES / "samples" / "gnubg_7pt_2ply_seed42.mat").read_text())
    second = [i for i, e in enumerate(whole.events) if isinstance(e, ev.GameStarted)][1]
    cut = write_mat(whole.events[:second + 12])  # game 1 and a few plays of game 2
    official = api(make_user("root", official=True, player=False))
    answer = official.post("/api/matches/import/", {"file": SimpleUploadedFile("cut.mat", cut.encode())},
                           format="multipart")
    match_id = answer.json()["id"]
    projections.run("analysis")
    row = _analysed(match_id)
    assert row.status == MatchAnalysis.DONE and not row.match_finished
    assert row.games == 2 and row.figures.count() == 2 and row.decisions.filter(game=2).exists()
    body = api().get(f"/api/matches/{match_id}/analysis/").json()
    assert body["unfinished"] is True and body["plies"] == 0 and body["engine"] == "GNU Backgammon, 0-ply"


def test_a_match_in_progress_is_analysed_up_to_now_and_again_when_it_ends(api, make_user):
    alice, bob = make_user("alice"), make_user("bob")
    client = api(alice)
    body = {"player0": alice.player.pk, "player1": bob.player.pk, "length": 3}
    m = Recorder(client, client.post("/api/matches/", body, format="json").json())
    m.client = api(make_user("root", official=True, player=False))  # records both sides, as at the table
    rnd = random.Random(14)
    for _ in range(40):
        m.step_random(rnd)
    assert not m.match["finished"]
    asked = client.post(f"/api/matches/{m.id}/analysis/request/", {}, format="json")
    assert asked.status_code == 202, asked.json()
    row = _analysed(m.id)
    assert row.status == MatchAnalysis.DONE and not row.match_finished and row.decisions.exists()
    analysed_up_to = row.version
    m.play_random(rnd)
    projections.run("analysis")  # its MatchWon: the analysis of the match before its end is done again, whole
    assert MatchAnalysis.objects.get(pk=row.pk).status == MatchAnalysis.QUEUED
    row = _analysed(m.id)
    assert row.status == MatchAnalysis.DONE and row.match_finished and row.version > analysed_up_to
    assert row.ended_at is not None  # the match's end, as a rebuild from the log writes it


def test_a_match_its_event_closed_is_analysed_up_to_where_it_stopped(api, make_user):
    from games.director import match_close

    alice, bob = make_user("alice"), make_user("bob")
    client = api(alice)
    body = {"player0": alice.player.pk, "player1": bob.player.pk, "length": 5}
    m = Recorder(client, client.post("/api/matches/", body, format="json").json())
    m.client = api(make_user("root", official=True, player=False))
    rnd = random.Random(3)
    for _ in range(30):
        m.step_random(rnd)
    untouched = client.post("/api/matches/", body, format="json").json()["id"]  # abandoned before a roll
    assert match_close(stream_id=m.id, winner_player=bob.player.pk, score=None, how="forfeit")
    assert match_close(stream_id=untouched, winner_player=bob.player.pk, score=None, how="forfeit")
    projections.run("analysis")
    assert not MatchAnalysis.objects.filter(stream_id=untouched).exists()  # nothing for gnubg to read
    row = _analysed(m.id)
    assert row.status == MatchAnalysis.DONE and not row.match_finished and row.decisions.exists()


def test_an_analysis_asked_for_mid_match_and_not_run_yet_takes_the_matchs_end(api, make_user):
    alice, bob = make_user("alice"), make_user("bob")
    client = api(alice)
    body = {"player0": alice.player.pk, "player1": bob.player.pk, "length": 1}
    m = Recorder(client, client.post("/api/matches/", body, format="json").json())
    m.client = api(make_user("root", official=True, player=False))
    rnd = random.Random(5)
    for _ in range(6):
        m.step_random(rnd)
    assert client.post(f"/api/matches/{m.id}/analysis/request/", {}, format="json").status_code == 202
    m.play_random(rnd)
    projections.run("analysis")
    row = MatchAnalysis.objects.get(stream_id=m.id)
    assert row.status == MatchAnalysis.QUEUED and row.ended_at is not None  # as a rebuild from the log writes it
