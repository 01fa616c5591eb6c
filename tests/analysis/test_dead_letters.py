"""What GNU Backgammon can never analyse is said once and never tried again: the dead letter, in /api/health/."""

from __future__ import annotations

import dataclasses
from datetime import timedelta

import pytest
from django.utils import timezone

from analysis import gnubg, services
from analysis.models import MatchAnalysis
from eventlog import projections
from games.loading import match_load
from tests.analysis.test_api import _imported

pytestmark = pytest.mark.django_db


@pytest.fixture
def queued(api, make_user):
    """A finished imported match's analysis row, queued by the projection (its task is not run here)."""
    official = api(make_user("root", official=True, player=False))
    match_id = _imported(official)
    projections.run("analysis")
    return MatchAnalysis.objects.get(stream_id=match_id)


def _never_gnubg(monkeypatch):
    def refuse(*args, **kwargs):
        raise AssertionError("gnubg was started for a match it cannot analyse")

    monkeypatch.setattr(gnubg, "analyse_mat", refuse)
    monkeypatch.setattr(services, "match_export_mat", refuse)


def test_a_match_longer_than_gnubg_reads_fails_at_once_without_an_export(queued, monkeypatch):
    record = match_load(queued.stream_id)
    options = dataclasses.replace(record.state.options, length=65)
    longer = dataclasses.replace(record, state=dataclasses.replace(record.state, options=options))
    assert services.why_not_analysable(longer) == "GNU Backgammon analyses matches of up to 64 points; this one is to 65"
    monkeypatch.setattr(services, "match_load", lambda stream_id: longer)
    _never_gnubg(monkeypatch)
    assert services.analysis_run(pk=queued.pk) == MatchAnalysis.FAILED
    queued.refresh_from_db()
    assert queued.attempts == 1 and "up to 64 points" in queued.error
    # the sweep leaves a dead letter where it is
    MatchAnalysis.objects.filter(pk=queued.pk).update(queued_at=timezone.now() - timedelta(days=1))
    assert services.analyses_sweep() == 0


def test_an_unexpected_error_counts_as_an_attempt_and_ends_as_a_dead_letter(queued, monkeypatch):
    def broken_export(record, rows):
        raise RuntimeError("the export broke")

    monkeypatch.setattr(services, "match_export_mat", broken_export)
    statuses = [services.analysis_run(pk=queued.pk) for _ in range(services.MAX_ATTEMPTS)]
    assert statuses == [MatchAnalysis.QUEUED] * (services.MAX_ATTEMPTS - 1) + [MatchAnalysis.FAILED]
    queued.refresh_from_db()
    assert queued.error == "RuntimeError: the export broke" and queued.lease_until is None
    assert services.analysis_run(pk=queued.pk) == MatchAnalysis.FAILED  # not run again


def test_a_run_killed_at_every_attempt_is_given_up_by_the_sweep(queued, monkeypatch):
    sent = []
    monkeypatch.setattr(services, "send", sent.append)
    past = timezone.now() - timedelta(seconds=1)
    MatchAnalysis.objects.filter(pk=queued.pk).update(status=MatchAnalysis.RUNNING, lease_until=past,
                                                      attempts=services.MAX_ATTEMPTS - 1)
    assert services.analyses_sweep() == 1 and sent == [queued.pk]  # attempts remain: sent again
    MatchAnalysis.objects.filter(pk=queued.pk).update(attempts=services.MAX_ATTEMPTS)
    sent.clear()
    assert services.analyses_sweep() == 0 and sent == []
    queued.refresh_from_db()
    assert queued.status == MatchAnalysis.FAILED and "not tried again" in queued.error


def test_health_counts_the_dead_letters_and_officials_see_why(queued, api, make_user):
    MatchAnalysis.objects.filter(pk=queued.pk).update(status=MatchAnalysis.FAILED, error="gnubg said no")
    public = api().get("/api/health/").json()
    assert public["analyses"] == {"failed": 1, "queued": 0, "running": 0}
    assert "analysis_failures" not in public
    official = api(make_user("ref", official=True, player=False)).get("/api/health/").json()
    assert [(f["match"], f["error"]) for f in official["analysis_failures"]] == [(queued.stream_id, "gnubg said no")]


def test_a_2_ply_analysis_past_its_time_limit_ends_failed_with_the_reason_after_its_attempts(queued, monkeypatch,
                                                                                             settings):
    """Real gnubg at 2-ply against a time limit it cannot meet: each run is stopped and counted, sent again by the
    sweep while attempts remain, then left failed with its reason, never sent again (no loop)."""
    settings.ANALYSIS_TIMEOUT_SECONDS = 0.01  # gnubg is polled every 0.5 s; a whole match at 2-ply takes far longer
    sent = []
    monkeypatch.setattr(services, "send", sent.append)
    row = services.analysis_queue(stream_id=queued.stream_id, plies=2)
    statuses = []
    for _ in range(services.MAX_ATTEMPTS + 2):
        statuses.append(services.analysis_run(pk=row.pk))
        MatchAnalysis.objects.filter(pk=row.pk).update(queued_at=timezone.now() - timedelta(days=1))
        services.analyses_sweep()
    assert statuses == [MatchAnalysis.QUEUED] * (services.MAX_ATTEMPTS - 1) + [MatchAnalysis.FAILED] * 3
    row.refresh_from_db()
    assert (row.status, row.attempts, row.lease_until) == (MatchAnalysis.FAILED, services.MAX_ATTEMPTS, None)
    assert row.error == "gnubg took more than 0.01 s"
    assert sent == [row.pk] * (services.MAX_ATTEMPTS - 1)
