"""The demo of `make run` shows analysed matches: tasks run in-process there, gnubg at 0-ply.

Transactional: the analysis is sent when the projection's batch commits, as it is outside the tests."""

import os

import pytest
from celery import current_app
from django.core.management import call_command

from analysis.models import MatchAnalysis
from games.models import MatchSummary

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.skipif(not os.path.exists("/usr/games/gnubg"), reason="no gnubg")]


@pytest.fixture
def embedded_tasks():
    """As `make run` has it (no REDIS_URL): every task runs in-process, at once."""
    before = current_app.conf.task_always_eager
    current_app.conf.task_always_eager = True
    yield
    current_app.conf.task_always_eager = before


def test_the_demo_has_its_finished_matches_analysed(embedded_tasks, client, settings):
    call_command("load_demo")
    finished = set(MatchSummary.objects.filter(finished=True, voided=False).values_list("stream_id", flat=True))
    assert len(finished) >= 5
    done = MatchAnalysis.objects.filter(status=MatchAnalysis.DONE, plies=0)
    assert set(done.values_list("stream_id", flat=True)) == finished
    assert all(a.figures.count() == 2 and a.decisions.exists() for a in done)
    page = client.get(f"/matches/{next(iter(finished))}/")
    assert b'id="analysis"' in page.content and b"crawford/analysis.js" in page.content
    body = client.get(f"/api/matches/{next(iter(finished))}/analysis/").json()
    assert body["status"] == "done" and len(body["players"]) == 2
