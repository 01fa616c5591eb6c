"""A projection that meets an event it cannot apply sets that one stream aside and goes on with every other.

The broken events are appended straight into the log (``eventlog.store.append``, past every
service's checks), as a bug, an old client or a hand-made import could leave them. Then the
other streams' read models, the bracket (the tournament projection and its process manager) and
the ratings must keep moving, and an official must see what failed: the admin, ``/api/health/``
and the log.
"""

from __future__ import annotations

import logging

import pytest

from eventlog import projections, store
from eventlog.models import ProjectionFailure
from eventlog.store import NewEvent
from games.creation import match_create
from games.models import MatchSummary
from players.models import Player
from ratings.models import PlayerRating
from tests.tournaments.test_running_events import play_to_end, report, settle, start
from tournaments.models import TournamentSlot
from tournaments.selectors import tournament_data
from tournaments.stream import stream_id_of

pytestmark = pytest.mark.django_db


def _broken_match() -> str:
    """A match stream no projection can read: player ids that are not ids, a name no column holds, dice of nothing."""
    store.append(stream_id="broken-match", stream_type="match", expected_version=0, events=[
        NewEvent("MatchRegistered", {"player_ids": ["x", None], "tournament_id": None, "published": True}),
        NewEvent("MatchStarted", {"players": ["N" * 200, "Bob"], "length": 3}),
        NewEvent("DiceRolled", {}),
    ])
    return "broken-match"


def _broken_round(tournament) -> str:
    """A Swiss-like round numbered "x" in a real event's stream: the stream can no longer be folded."""
    stream_id = stream_id_of(tournament.pk)
    store.append(stream_id=stream_id, stream_type="tournament", expected_version=store.stream_version(stream_id),
                 events=[NewEvent("RoundPaired", {"round": "x", "pairings": [[1, 2]], "manual": True})])
    return stream_id


@pytest.fixture
def director(make_user):
    return make_user("dora", official=True)


def _finished_casual_match(director) -> tuple[str, Player, Player]:
    a, b = Player.objects.create(display_name="Ann"), Player.objects.create(display_name="Ben")
    match_id = match_create(actor=director, player0=a, player1=b, length=1).stream_id
    play_to_end(director, match_id, winner_seat=0)
    return match_id, a, b


def test_broken_events_set_their_streams_aside_and_everything_else_moves_on(director, api, caplog):
    victim = start(director, [Player.objects.create(display_name=f"V{i}").pk for i in range(4)])
    settle(victim)
    broken_match, broken_event = _broken_match(), _broken_round(victim)
    field = [Player.objects.create(display_name=f"S{i}").pk for i in range(4)]
    t = start(director, field)
    with caplog.at_level(logging.ERROR, logger="eventlog.projections"):
        data = settle(t)  # runs every projection over the broken events, then the process manager
    # the bracket: round 1 created, played on paper, the final created by the process manager
    for s in [s for s in data["slots"] if s["round"] == 1]:
        report(t, director, data, s["key"], s["players"][0])
    data = settle(t)
    final = next(s for s in data["slots"] if s["round"] == 2)
    assert final["match_id"] and None not in final["players"]
    # every other match's read model, and the ratings
    match_id, ann, ben = _finished_casual_match(director)
    projections.run_all()
    assert MatchSummary.objects.get(stream_id=match_id).finished
    assert PlayerRating.objects.get(player_id=ann.pk).rating > PlayerRating.objects.get(player_id=ben.pk).rating
    # the failures, for an official: one row per projection and stream, with where and why
    failed = {(f.projection, f.stream_id) for f in ProjectionFailure.objects.all()}
    assert ("match_summary", broken_match) in failed and ("ratings", broken_match) in failed
    assert ("tournament_view", broken_event) in failed
    row = ProjectionFailure.objects.get(projection="tournament_view", stream_id=broken_event)
    assert row.event_type == "RoundPaired" and "TypeError" in row.error
    assert any(broken_event in r.getMessage() for r in caplog.records)
    # the broken event's other views stand as they were: its slots were not wiped
    assert TournamentSlot.objects.filter(tournament_id=victim.pk).count() == 3


def test_a_set_aside_stream_s_later_events_are_skipped_and_counted(director):
    victim = start(director, [Player.objects.create(display_name=f"V{i}").pk for i in range(2)])
    settle(victim)
    stream_id = _broken_round(victim)
    projections.run_all()
    store.append(stream_id=stream_id, stream_type="tournament", expected_version=store.stream_version(stream_id),
                 events=[NewEvent("PairingForbidden", {"players": [1, 2]})])
    projections.run_all()
    row = ProjectionFailure.objects.get(projection="tournament_view", stream_id=stream_id)
    assert row.skipped >= 1


def test_officials_see_the_failures_at_the_health_endpoint_and_in_the_admin(director, api, make_user):
    _broken_match()
    projections.run_all()
    anonymous = api().get("/api/health/")
    assert anonymous.status_code == 200
    body = anonymous.json()
    assert body["status"] == "degraded" and body["projections"]["match_summary"]["streams_set_aside"] == 1
    assert "failures" not in body  # stream ids and errors are for officials
    seen = api(director).get("/api/health/").json()
    assert {f["stream_id"] for f in seen["failures"]} == {"broken-match"}
    from django.test import Client

    browser = Client()
    browser.force_login(director)  # an official: staff, in the Officials group, no eventlog permissions
    page = browser.get("/admin/eventlog/projectionfailure/")
    assert page.status_code == 200 and b"broken-match" in page.content
    member = Client()
    member.force_login(make_user("someone"))
    assert api(make_user("nosy")).get("/api/health/").json().get("failures") is None


def test_a_rebuild_clears_the_failures_and_tries_the_stream_again(director):
    _broken_match()
    projections.run_all()
    assert ProjectionFailure.objects.filter(projection="match_summary").exists()
    projections.rebuild("match_summary")
    # still broken: set aside again, and nothing else lost
    assert ProjectionFailure.objects.filter(projection="match_summary").count() == 1
    match_id, _, _ = _finished_casual_match(director)
    projections.run_all()
    assert MatchSummary.objects.filter(stream_id=match_id).exists()


def test_with_nothing_broken_health_says_ok(api):
    body = api().get("/api/health/").json()
    assert body["status"] == "ok" and set(body["projections"]) >= {"match_summary", "tournament_view", "ratings"}


@pytest.mark.worker
def test_a_live_worker_goes_on_past_a_broken_event(live_worker, make_user, api):
    """On the real broker and database: the worker's projection runs and the beat's sweeps pass the poison."""
    from tests.waiting import wait_for

    director = make_user("dora", official=True)
    victim = start(director, [Player.objects.create(display_name=f"V{i}").pk for i in range(2)])
    _broken_match()
    _broken_round(victim)
    t = start(director, [Player.objects.create(display_name=f"W{i}").pk for i in range(4)])

    def round_matches(n):
        return [s for s in tournament_data(t)["slots"] if s["round"] == n and s["match_id"]]

    first = wait_for(lambda: len(round_matches(1)) == 2 and round_matches(1), what="round 1 matches")
    play_to_end(director, first[0]["match_id"], winner_seat=1)
    report(t, director, tournament_data(t), first[1]["key"], first[1]["players"][0])
    wait_for(lambda: round_matches(2), what="the final, created past the broken event")
    match_id, ann, ben = _finished_casual_match(director)
    wait_for(lambda: MatchSummary.objects.filter(stream_id=match_id, finished=True).exists(),
             what="the casual match's summary")
    wait_for(lambda: PlayerRating.objects.filter(player_id=ann.pk).exists(), what="Ann's rating")
    assert PlayerRating.objects.get(player_id=ann.pk).rating > PlayerRating.objects.get(player_id=ben.pk).rating
    health = api(director).get("/api/health/").json()
    assert health["status"] == "degraded"
    assert {(f["projection"], f["stream_id"]) for f in health["failures"]} >= {
        ("match_summary", "broken-match"), ("ratings", "broken-match"), ("tournament_view", stream_id_of(victim.pk))}
    assert "set aside" in live_worker.log.read_text()


def test_the_process_manager_s_sweep_goes_on_past_an_event_it_cannot_read(director):
    """advance_pending (celery beat) advances every event whose wake-up was lost: one broken event is left
    aside, logged, and the others still get their matches."""
    from tournaments.models import TournamentState
    from tournaments.tasks import advance_pending

    victim = start(director, [Player.objects.create(display_name=f"V{i}").pk for i in range(2)])
    projections.run_all()  # its final is due: needs_advance
    _broken_round(victim)
    t = start(director, [Player.objects.create(display_name=f"S{i}").pk for i in range(4)])
    projections.run_all()
    assert set(TournamentState.objects.filter(needs_advance=True).values_list("tournament_id", flat=True)) == {
        victim.pk, t.pk}
    advance_pending()
    projections.run_all()
    assert len([s for s in tournament_data(t)["slots"] if s["match_id"]]) == 2
