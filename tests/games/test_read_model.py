"""The match read model: kept by a live Celery worker on the real broker, healed by the sweep, rebuilt identically."""

import random

import pytest
from django.core.management import call_command
from django.forms.models import model_to_dict

from eventlog import projections
from games.models import MatchSummary
from tests.waiting import WAIT, wait_for

from .recorder import Recorder


def start(api, seats, length=5, dice="board") -> Recorder:
    client = api(seats[0])
    body = {"player0": seats[0].player.pk, "player1": seats[1].player.pk, "length": length, "dice": dice}
    return Recorder(client, client.post("/api/matches/", body, format="json").json())


def summary_version(match_id: str):
    row = MatchSummary.objects.filter(stream_id=match_id).first()
    return row.version if row else None


@pytest.mark.worker
def test_a_live_worker_updates_the_read_model_after_a_command(live_worker, api, make_user):
    seats = make_user("alice"), make_user("bob")
    m = start(api, seats)
    wait_for(lambda: summary_version(m.id) == m.version, what="the worker to project the new match")
    m.send(type="roll", dice=[3, 1])
    m.send(type="move", move="8/5 6/5")
    wait_for(lambda: summary_version(m.id) == m.version, what="the worker to project the move")
    row = MatchSummary.objects.get(stream_id=m.id)
    assert (row.phase, row.turn, row.position_id) == ("roll", 1, m.match["position_id"])
    assert row.pips0 == 163 and row.pips1 == 167


@pytest.mark.worker
def test_a_lost_wake_up_is_healed_by_the_beat_sweep(live_worker, api, make_user):
    import redis
    from django.conf import settings

    from deploy.celery import app

    seats = make_user("alice"), make_user("bob")
    m = start(api, seats)
    wait_for(lambda: summary_version(m.id) == m.version, what="the first projection")
    # stop consuming the projections queue, send a command, delete its wake-up from the broker
    assert app.control.cancel_consumer("projections", destination=[live_worker.hostname], reply=True,
                                      timeout=WAIT)
    m.send(type="roll", dice=[3, 1])
    broker = redis.Redis.from_url(settings.REDIS_URL)
    wait_for(lambda: broker.llen("projections") > 0, what="the wake-up to reach the broker")
    broker.delete("projections")
    assert summary_version(m.id) != m.version
    assert app.control.add_consumer("projections", destination=[live_worker.hostname], reply=True,
                                   timeout=WAIT)
    # nothing but celery beat's periodic sweep (every 2 s in the tests) can bring the row up to date
    wait_for(lambda: summary_version(m.id) == m.version, what="the sweep")


@pytest.mark.django_db
def test_rebuild_projections_gives_the_same_tables(api, make_user):
    seats = make_user("alice"), make_user("bob")
    staff = make_user("root", official=True, player=False)
    for seed in range(3):
        m = start(api, seats, length=3, dice="server")
        m.client = api(staff)
        m.play_random(random.Random(seed))
    unfinished = start(api, seats)
    unfinished.send(type="roll", dice=[3, 1])
    projections.run_all()
    before = [model_to_dict(r) for r in MatchSummary.objects.order_by("stream_id")]
    assert len(before) == 4 and sum(r["finished"] for r in before) == 3
    call_command("rebuild_projections", stdout=open("/dev/null", "w"))
    after = [model_to_dict(r) for r in MatchSummary.objects.order_by("stream_id")]
    assert after == before
