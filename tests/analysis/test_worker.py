"""The analysis on a live Celery worker, on the real broker: the ``analysis`` queue, and a worker killed mid-way."""

from __future__ import annotations

import os
import random
from datetime import timedelta
from pathlib import Path

import pytest
from django.utils import timezone

from analysis.models import Decision, MatchAnalysis, PlayerFigures
from tests.conftest import Worker
from tests.games.recorder import Recorder
from tests.waiting import wait_for

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures" / "gnubg"
pytestmark = [pytest.mark.worker, pytest.mark.skipif(not os.path.exists("/usr/games/gnubg"), reason="no gnubg")]


def done(stream_id: str):
    return MatchAnalysis.objects.filter(stream_id=stream_id, status=MatchAnalysis.DONE).first()


def test_a_match_finished_through_the_api_is_analysed_by_the_worker(live_worker, api, make_user):
    alice, bob = make_user("alice"), make_user("bob")
    client = api(alice)
    body = {"player0": alice.player.pk, "player1": bob.player.pk, "length": 1}
    m = Recorder(client, client.post("/api/matches/", body, format="json").json())
    m.client = api(make_user("root", official=True, player=False))
    m.play_random(random.Random(7))
    row = wait_for(lambda: done(m.id), what="the worker to analyse the match")
    assert row.plies == 0 and row.figures.count() == 2 and row.decisions.exists()
    assert "analysis.tasks.analyse_match" in live_worker.log.read_text()  # the worker listens on the analysis queue


def test_a_worker_killed_mid_analysis_ends_with_exactly_one_complete_analysis(worker_env, transactional_db, api,
                                                                             make_user):
    env, where = worker_env
    # 2-ply: seconds of gnubg, time to kill it mid-way; gnubg's own timeout (the lease's length) left as it is,
    # generous: a short one failed the restarted run too on a busy machine
    env = dict(env, ANALYSIS_PLIES="2", ANALYSIS_QUICK_PLIES="2")  # one analysis, at 2-ply
    worker = Worker(env, where / "worker-killed.log")
    worker.start()
    try:
        client = api(make_user("root", official=True, player=False))
        with open(FIXTURES / "matches" / "match_001_1pt.mat", "rb") as f:
            match_id = client.post("/api/matches/import/", {"file": f}, format="multipart").json()["id"]
        wait_for(lambda: MatchAnalysis.objects.filter(stream_id=match_id, status=MatchAnalysis.RUNNING).exists(),
                 what="the analysis to start")
        worker.kill()  # SIGKILL to the worker and its gnubg: nothing written, the message never acknowledged
        row = MatchAnalysis.objects.get(stream_id=match_id)
        assert row.status == MatchAnalysis.RUNNING and not row.decisions.exists()
        # the lease's time passed (the clock moved on, not the test): the sweep takes the run for dead
        MatchAnalysis.objects.filter(pk=row.pk).update(lease_until=timezone.now() - timedelta(seconds=1))
        worker.start()
        row = wait_for(lambda: done(match_id), timeout=600, what="the restarted worker to finish the analysis")
    finally:
        worker.stop()
    assert MatchAnalysis.objects.filter(stream_id=match_id).count() == 1
    assert row.plies == 2 and row.attempts == 2
    assert PlayerFigures.objects.filter(analysis__stream_id=match_id).count() == 2
    decisions = Decision.objects.filter(analysis__stream_id=match_id)
    assert decisions.count() == len({(d.game, d.turn) for d in decisions}) > 0  # each decision once
