"""The demo of `make run` shows analysed matches: tasks run in-process there, gnubg at 0-ply; the deeper depth is
left queued for the server's own thread (analysis/background.py), so the load does not wait for it.

Transactional: the analysis is sent when the projection's batch commits, as it is outside the tests."""

import os

import pytest
from celery import current_app
from django.core.management import call_command

from analysis import background
from analysis.models import MatchAnalysis
from games.models import MatchSummary

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.skipif(not os.path.exists("/usr/games/gnubg"), reason="no gnubg")]


@pytest.fixture
def embedded_tasks(settings):
    """As `make run` has it (no REDIS_URL): every task runs in-process, at once, but the deeper analyses."""
    settings.ANALYSIS_IN_THE_BACKGROUND = True
    before = current_app.conf.task_always_eager
    current_app.conf.task_always_eager = True
    yield
    background.stop()
    current_app.conf.task_always_eager = before


def test_the_demo_has_its_finished_matches_analysed(embedded_tasks, client, settings, monkeypatch):
    from analysis import services

    ran, run = [], services.analysis_run
    monkeypatch.setattr(services, "analysis_run",
                        lambda *, pk: ran.append(MatchAnalysis.objects.get(pk=pk).plies) or run(pk=pk))
    call_command("load_demo")
    from tournaments.models import Tournament

    # the club night's matches, played at the board (the demo season's past nights were reported on paper: their
    # matches were closed with no game played, nothing to analyse)
    night = Tournament.objects.get(name="Thursday club night")
    finished = set(MatchSummary.objects.filter(finished=True, voided=False, tournament_id=night.pk)
                   .values_list("stream_id", flat=True))
    assert len(finished) >= 5
    done = MatchAnalysis.objects.filter(status=MatchAnalysis.DONE, plies=0)
    # every match played at the board is analysed: the club night's, and the ladder's and league's (demo_ladder)
    played = set(MatchSummary.objects.filter(finished=True, voided=False).values_list("stream_id", flat=True))
    assert finished <= set(done.values_list("stream_id", flat=True)) <= played
    assert all(a.figures.count() == 2 and a.decisions.exists() for a in done)
    # the deeper depth queued for each of them, and none of it run by the load itself: it is the server's thread's
    deeper = MatchAnalysis.objects.filter(plies=settings.ANALYSIS_PLIES)
    assert set(deeper.values_list("stream_id", flat=True)) == set(done.values_list("stream_id", flat=True))
    assert ran and set(ran) == {settings.ANALYSIS_QUICK_PLIES}
    settings.ANALYSIS_IN_THE_BACKGROUND = False  # the pages below start no thread (test_in_the_background.py has it)
    page = client.get(f"/matches/{next(iter(finished))}/")
    assert b'id="analysis"' in page.content and b"crawford/analysis.js" in page.content
    body = client.get(f"/api/matches/{next(iter(finished))}/analysis/").json()
    assert body["status"] == "done" and len(body["players"]) == 2
    # the event page: each player's figures over the event's analysed matches
    from analysis.models import PlayerFigures
    from tournaments.models import Tournament

    event = Tournament.objects.get(name="Thursday club night")
    averages = client.get(f"/api/tournaments/{event.pk}/analysis/").json()
    assert len(averages) == 8  # every player of the bracket played at least one finished match
    for row in averages:
        mine = PlayerFigures.objects.filter(player_id=row["player_id"], analysis__tournament_id=event.pk)
        assert row["matches"] == mine.count()
        # pooled: the total error over the total decisions
        errors = sum(f.chequer_error + f.cube_error for f in mine)
        decisions = sum(f.unforced_moves + f.close_cube for f in mine)
        assert row["overall_rate"] == pytest.approx(1000 * errors / decisions if decisions else 0.0)
    assert b'id="analysis-averages"' in client.get(f"/events/{event.pk}/").content
