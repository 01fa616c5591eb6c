"""What GNU Backgammon can never analyse is said once and never tried again: the dead letter, in /api/health/."""

from __future__ import annotations

import dataclasses
from datetime import timedelta

import pytest
from django.utils import timezone

from analysis import gnubg, services
from analysis.models import MatchAnalysis
from eventlog import projections
from games import services as match_services
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
    monkeypatch.setattr(match_services, "match_export_mat", refuse)


def test_a_match_longer_than_gnubg_reads_fails_at_once_without_an_export(queued, monkeypatch):
    record = match_services.match_load(queued.stream_id)
    options = dataclasses.replace(record.state.options, length=65)
    longer = dataclasses.replace(record, state=dataclasses.replace(record.state, options=options))
    assert services.why_not_analysable(longer) == "GNU Backgammon analyses matches of up to 64 points; this one is to 65"
    monkeypatch.setattr(match_services, "match_load", lambda stream_id: longer)
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

    monkeypatch.setattr(match_services, "match_export_mat", broken_export)
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
