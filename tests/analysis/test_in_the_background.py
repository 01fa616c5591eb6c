"""The embedded default (`make run`: no broker, tasks in-process): a match's quick analysis runs where the match
is recorded, the deeper one is left queued, and a thread of the process serving the site analyses it, started by
the first request that process serves. A command that ends a match, and the demo's load, never wait for gnubg's
deeper depth (tens of CPU-seconds a match)."""

from __future__ import annotations

import os
import time
from datetime import timedelta
from pathlib import Path

import pytest
from celery import current_app
from django.utils import timezone

from analysis import background
from analysis.models import MatchAnalysis
from games.mat_io import match_import_mat, players_for_import

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures" / "gnubg"
pytestmark = [pytest.mark.django_db(transaction=True),
              pytest.mark.skipif(not os.path.exists("/usr/games/gnubg"), reason="no gnubg")]


@pytest.fixture
def embedded(settings):
    """As `make run` has it: every task in-process, the deeper depth left to the serving process's thread."""
    before = current_app.conf.task_always_eager
    current_app.conf.task_always_eager = True
    settings.ANALYSIS_IN_THE_BACKGROUND = True
    settings.ANALYSIS_QUICK_PLIES, settings.ANALYSIS_PLIES = 0, 1
    yield
    background.stop()
    current_app.conf.task_always_eager = before


def _depths(stream_id: str) -> dict[int, str]:
    return dict(MatchAnalysis.objects.filter(stream_id=stream_id).values_list("plies", "status"))


def test_the_deeper_analysis_waits_for_the_serving_process_and_is_done_by_its_thread(embedded, make_user, client,
                                                                                      broker_url):
    official = make_user("root", official=True, player=False)
    text = (FIXTURES / "matches" / "match_001_1pt.mat").read_text()
    record = match_import_mat(actor=official, text=text, **dict(zip(("player0", "player1"),
                                                                   players_for_import(text, None, None))))
    # the import woke the projections in-process: the quick depth is done, the deeper one only queued
    assert _depths(record.stream_id) == {0: MatchAnalysis.DONE, 1: MatchAnalysis.QUEUED}
    # a server stopped mid-analysis left it running, its lease run out since: the thread takes it up again
    MatchAnalysis.objects.filter(stream_id=record.stream_id, plies=1).update(
        status=MatchAnalysis.RUNNING, attempts=1, lease_until=timezone.now() - timedelta(seconds=1))

    assert client.get("/").status_code == 200  # the first request this process serves starts its thread
    deadline = time.monotonic() + 600  # a bound for a stalled thread, not a measure: it ends when the row is done
    while _depths(record.stream_id)[1] != MatchAnalysis.DONE:
        assert time.monotonic() < deadline, _depths(record.stream_id)
        time.sleep(0.2)
    deeper = MatchAnalysis.objects.get(stream_id=record.stream_id, plies=1)
    assert deeper.figures.count() == 2 and deeper.decisions.exists()


def test_with_a_broker_no_depth_is_left_queued_here(settings, broker_url):
    settings.ANALYSIS_IN_THE_BACKGROUND = True
    assert not current_app.conf.task_always_eager  # the tests' worker runs the tasks: nothing is left queued here
    assert not background.leaves(2)
