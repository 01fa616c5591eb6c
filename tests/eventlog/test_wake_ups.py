"""Projection wake-ups are merged: while one is queued and not started, appends queue no other; on the real Redis."""

import json
import logging
import uuid

import pytest
from django.db.models import Max

from eventlog import projections, store, tasks, wake_ups
from eventlog.models import Event, ProjectionCheckpoint
from eventlog.store import NewEvent
from tests.conftest import Worker
from tests.waiting import WAIT, wait_for


@pytest.fixture
def broker(broker_url):
    import redis

    client = redis.Redis.from_url(broker_url)
    client.delete(wake_ups.KEY, "projections")
    yield client
    client.delete(wake_ups.KEY)


def queued_wake_ups(broker) -> int:
    """``project_all`` messages waiting in the projections queue (the beat's sweeps aside)."""
    tasks_queued = [json.loads(m)["headers"]["task"] for m in broker.lrange("projections", 0, -1)]
    return tasks_queued.count("eventlog.tasks.project_all")


def append_and_wake(stream: str, version: int) -> None:
    store.append(stream_id=stream, stream_type="test", expected_version=version,
                 events=[NewEvent("Happened", {"i": version})], on_commit=tasks.wake_projections)


def runs(worker: Worker) -> int:
    return sum("eventlog.tasks.project_all[" in line and "received" in line for line in worker.log.read_text().splitlines())


def caught_up() -> bool:
    top = Event.objects.aggregate(top=Max("global_position"))["top"]
    at = set(ProjectionCheckpoint.objects.values_list("position", flat=True))
    return at == {top} and ProjectionCheckpoint.objects.count() == len(projections.registered())


@pytest.mark.worker
def test_many_appends_with_no_worker_queue_one_wake_up_and_the_run_re_arms_it(worker_env, transactional_db, broker,
                                                                               api, make_user):
    from games.models import MatchSummary

    alice, bob = make_user("alice"), make_user("bob")
    client = api(alice)
    match = client.post("/api/matches/", {"player0": alice.player.pk, "player1": bob.player.pk, "length": 3},
                        format="json").json()
    for version in range(40):
        append_and_wake("side-stream", version)
    assert queued_wake_ups(broker) == 1
    assert 0 < broker.ttl(wake_ups.KEY) <= wake_ups.TTL

    env, where = worker_env
    worker = Worker(env, where / "wake-ups.log")
    worker.start()
    try:
        wait_for(lambda: caught_up() and MatchSummary.objects.filter(stream_id=match["id"], version=match["version"]),
                 what="the projections to converge")
        wait_for(lambda: queued_wake_ups(broker) == 0, what="the queue to drain")
        assert not broker.exists(wake_ups.KEY)
        # the start's wake-up may be taken after the queue was seen empty: wait for its run, never for a clock
        wait_for(lambda: runs(worker) >= 2, what="both wake-ups to run")
    finally:
        worker.stop()
    assert runs(worker) == 2  # the one queued wake-up, and the one a worker sends as it starts

    # the run cleared the flag: the next appends queue one wake-up again, and it is worked off
    for version in range(40, 45):
        append_and_wake("side-stream", version)
    assert queued_wake_ups(broker) == 1
    worker.start()
    try:
        wait_for(caught_up, what="the projections to converge again")
        wait_for(lambda: queued_wake_ups(broker) == 0 and not broker.exists(wake_ups.KEY), what="the queue to drain")
        wait_for(lambda: runs(worker) >= 2, what="both wake-ups to run")
    finally:
        worker.stop()
    assert runs(worker) == 2  # the one queued wake-up, and the one a worker sends as it starts


def test_a_queued_wake_up_absorbs_the_next_ones_until_its_run_starts(broker, monkeypatch):
    sent, seen_by_run = [], []
    monkeypatch.setattr(tasks.project_all, "apply_async", lambda **kw: sent.append(kw))
    monkeypatch.setattr(projections, "run_all", lambda: seen_by_run.append(broker.exists(wake_ups.KEY)) or {})
    for _ in range(10):
        tasks.wake_projections()
    assert len(sent) == 1
    tasks.project_all()  # what the worker runs: the flag is gone before the log is read
    assert seen_by_run == [0]
    tasks.wake_projections()
    tasks.wake_projections()
    assert len(sent) == 2


def test_a_wake_up_the_broker_refused_does_not_hold_back_the_next(broker, monkeypatch, caplog):
    def refuse(**kw):
        raise ConnectionError("broker down")

    monkeypatch.setattr(tasks.project_all, "apply_async", refuse)
    with caplog.at_level(logging.WARNING, logger="eventlog.tasks"):
        tasks.wake_projections()  # no exception: the command it follows has committed
    assert "wake-up not sent (broker down)" in caplog.text
    assert not broker.exists(wake_ups.KEY)


def test_redis_unreachable_fails_no_command(broker_url, monkeypatch, caplog):
    import redis

    monkeypatch.setattr(wake_ups, "_redis", lambda url: redis.Redis(port=1, socket_connect_timeout=1))
    monkeypatch.setattr(tasks.project_all, "apply_async", lambda **kw: pytest.fail("sent without the flag"))
    with caplog.at_level(logging.WARNING, logger="eventlog.tasks"):
        tasks.wake_projections()
    assert "wake-up not sent" in caplog.text and "the sweep will catch up" in caplog.text


@pytest.mark.django_db
def test_with_no_broker_the_projections_run_in_process_at_every_wake_up(monkeypatch):
    from celery import current_app

    monkeypatch.setitem(current_app.conf, "task_always_eager", True)
    monkeypatch.setattr(wake_ups, "_redis", lambda url: pytest.fail("no Redis without a broker"))
    for version in range(3):
        store.append(stream_id="s", stream_type="test", expected_version=version, events=[NewEvent("Happened", {})])
        tasks.wake_projections()
        assert caught_up()


@pytest.mark.worker
def test_a_flag_left_by_a_killed_worker_is_cleared_by_the_next_worker_that_starts(worker_env, transactional_db,
                                                                                  broker):
    """The state a worker SIGKILLed after taking the queued wake-up, before starting it, leaves: the flag set and
    the message gone from the queue (it waits in the broker's unacknowledged set for the visibility timeout, an
    hour). No beat here: the worker that starts must catch the projections up itself, not the flag's expiry (the
    flag is kept from expiring, so that nothing but the worker's start can release it, however long it takes)."""
    env, where = worker_env
    killed = Worker(env, where / "killed.log", beat=False, name=f"killed-{uuid.uuid4().hex[:6]}@%h")
    killed.start()
    killed.kill()
    broker.delete(wake_ups.KEY, "projections")  # the wake-up its own start sent
    for version in range(5):
        append_and_wake("side-stream", version)
    assert queued_wake_ups(broker) == 1 and broker.exists(wake_ups.KEY)
    broker.delete("projections")  # taken by the killed worker
    append_and_wake("side-stream", 5)  # held back by the flag, as every append after the kill
    assert queued_wake_ups(broker) == 0
    assert broker.persist(wake_ups.KEY)  # no expiry: only the starting worker can clear it

    worker = Worker(env, where / "restarted.log", beat=False)
    worker.start()
    try:
        wait_for(caught_up, what="the projections to catch up with no beat and the flag held")
        wait_for(lambda: queued_wake_ups(broker) == 0 and not broker.exists(wake_ups.KEY), what="the queue to drain")
    finally:
        worker.stop()


def test_a_command_wakes_the_projections_and_tells_its_pages_in_one_round_trip(broker, broker_url, settings,
                                                                                monkeypatch):
    """Every match command does both after its commit; the broker is the live pages' Redis, so both commands are
    written at once (one round trip)."""
    import redis

    from eventlog import live

    settings.REDIS_URL = broker_url
    sent, round_trips = [], []
    monkeypatch.setattr(tasks.project_all, "apply_async", lambda **kw: sent.append(kw))
    real_send = redis.connection.AbstractConnection.send_packed_command  # what is written at once
    monkeypatch.setattr(redis.connection.AbstractConnection, "send_packed_command",
                        lambda self, command, *a, **kw: round_trips.append(_commands_in(command)) or real_send(self, command, *a, **kw))
    monkeypatch.setattr(wake_ups, "_redis", lambda url: redis.Redis.from_url(url))  # counted from here on
    listener = redis.Redis.from_url(broker_url).pubsub()
    listener.subscribe(live.message(live.stream_topic("m-1"), 0)[0])
    assert listener.get_message(timeout=WAIT)["type"] == "subscribe"
    for version in (4, 5, 6):
        tasks.wake_projections_and_tell(live.stream_topic("m-1"), version)
    heard = []
    while len(heard) < 3 and (message := listener.get_message(timeout=WAIT)) is not None:
        heard.append(json.loads(message["data"]))
    listener.close()
    assert heard == [4, 5, 6]  # every page told, each time
    assert len(sent) == 1  # one wake-up queued, the next two absorbed by it
    # the flag and the message written together, each time (the other writes: connections' handshakes, the
    # listener's subscription)
    assert [names for names in round_trips if "PUBLISH" in names] == [["SET", "PUBLISH"]] * 3


def _commands_in(packed) -> list[str]:
    """The names of the commands in what a connection writes at once (RESP: each an array of bulk strings)."""
    data = packed if isinstance(packed, bytes) else b"".join(packed)
    lines, names, i = data.split(b"\r\n"), [], 0
    while i < len(lines) and lines[i].startswith(b"*"):
        names.append(lines[i + 2].decode())
        i += 1 + 2 * int(lines[i][1:])
    return names


def test_with_the_live_pages_on_another_redis_both_are_still_sent(broker, settings, monkeypatch):
    from eventlog import live

    settings.REDIS_URL = "redis://127.0.0.1:1/0"  # nothing listens there: the push is logged, not raised
    live._client = None
    sent = []
    monkeypatch.setattr(tasks.project_all, "apply_async", lambda **kw: sent.append(kw))
    try:
        tasks.wake_projections_and_tell(live.stream_topic("m-2"), 1)
    finally:
        live._client = None
    assert len(sent) == 1 and broker.exists(wake_ups.KEY)
