"""Faults with the real servers: nothing accepted is lost, nothing is applied twice, read models converge."""

import os
import shutil
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.request
import json
from pathlib import Path

import pytest
from django.db import OperationalError, connection, connections, transaction

from eventlog import store
from eventlog.models import Event
from eventlog.store import APPEND_LOCK, NewEvent
from tests.waiting import WAIT, wait_for

ROOT = Path(__file__).resolve().parents[2]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_a_postgresql_connection_dropped_during_an_append_loses_nothing_and_duplicates_nothing(postgres, transactional_db):
    store.append(stream_id="s", stream_type="test", expected_version=0, events=[NewEvent("First", {})])
    outcome = {}

    def append_in_another_connection():
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_backend_pid()")
            outcome["pid"] = cursor.fetchone()[0]
        try:
            store.append(stream_id="s", stream_type="test", expected_version=1, events=[NewEvent("Second", {})])
            outcome["ok"] = True
        except OperationalError as dropped:
            outcome["error"] = dropped
        finally:
            connections.close_all()

    with transaction.atomic():
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_advisory_xact_lock(%s)", [APPEND_LOCK])  # hold the log: the append waits inside its transaction
        writer = threading.Thread(target=append_in_another_connection)
        writer.start()

        def waiting_backend():
            # the writer's own backend, once it waits for the log's lock inside its transaction
            with connection.cursor() as cursor:
                cursor.execute("SELECT pg_stat_clear_snapshot()")  # activity is snapshotted per transaction
                cursor.execute("SELECT pid FROM pg_stat_activity WHERE pid = %s AND wait_event_type = 'Lock'"
                               " AND wait_event = 'advisory'", [outcome.get("pid", -1)])
                row = cursor.fetchone()
                return row[0] if row else None

        pid = wait_for(lambda: waiting_backend() or outcome.get("error") or outcome.get("ok") and -1,
                       what="the append to wait for the log's lock")
        assert isinstance(pid, int) and pid > 0, outcome
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_terminate_backend(%s)", [pid])  # the connection drops mid-append
    writer.join(timeout=WAIT)
    assert not writer.is_alive(), "the dropped append never returned"
    assert "error" in outcome
    assert list(Event.objects.values_list("event_type", flat=True)) == ["First"]
    # the client retries once the database answers again: appended exactly once, no gap
    store.append(stream_id="s", stream_type="test", expected_version=1, events=[NewEvent("Second", {})])
    assert list(Event.objects.order_by("global_position").values_list("global_position", "event_type")) == [(1, "First"), (2, "Second")]


def test_the_same_move_from_two_tablets_is_recorded_once(postgres, transactional_db, make_user, api):
    alice, bob = make_user("alice"), make_user("bob")
    created = api(alice).post("/api/matches/", {"player0": alice.player.pk, "player1": bob.player.pk, "length": 5, "dice": "board"}, format="json").json()
    match_id = created["id"]
    rolled = api(alice).post(f"/api/matches/{match_id}/commands/", {"type": "roll", "dice": [3, 1], "expected_version": 2},
                             format="json").json()
    version = rolled["state"]["version"]
    barrier = threading.Barrier(2)
    answers = []

    def tablet(key):
        client = api(alice)
        barrier.wait()
        response = client.post(f"/api/matches/{match_id}/commands/",
                               {"type": "move", "move": "8/5 6/5", "expected_version": version}, format="json",
                               HTTP_IDEMPOTENCY_KEY=key)
        answers.append(response.status_code)
        connections.close_all()

    threads = [threading.Thread(target=tablet, args=(k,)) for k in ("tablet-1", "tablet-2")]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(answers) == [200, 409]
    assert Event.objects.filter(stream_id=match_id, event_type="CheckersMoved").count() == 1


def test_concurrent_directors_correcting_the_same_result(postgres, transactional_db, make_user):
    from players.models import Player
    from tournaments import services
    from tests.tournaments.test_running_events import report, settle, start

    director = make_user("dora", player=False)
    players = [Player.objects.create(display_name=f"P{i}").pk for i in range(4)]
    t = start(director, players)
    data = settle(t)
    first = data["slots"][0]
    report(t, director, data, first["key"], first["players"][0])
    version = services.tournament_facts(t).version
    barrier = threading.Barrier(2)
    answers = []

    def correct(winner):
        barrier.wait()
        try:
            services.tournament_command(actor=director, tournament=t, command={
                "type": "correct_result", "slot": first["key"], "winner": winner, "score": [7, 2],
                "reason": "scoresheet", "expected_version": version})
            answers.append("ok")
        except store.ConcurrencyError:
            answers.append("409")
        finally:
            connections.close_all()

    threads = [threading.Thread(target=correct, args=(w,)) for w in (first["players"][1], first["players"][1])]
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    assert sorted(answers) == ["409", "ok"]
    stream = f"tournament-{t.pk}"
    assert Event.objects.filter(stream_id=stream, event_type="SlotResultCorrected").count() == 1


@pytest.mark.skipif(not shutil.which("redis-server"), reason="needs redis-server to start a broker of its own")
def test_redis_stopped_and_restarted_loses_no_command_and_the_read_model_converges(worker_env, transactional_db, make_user):
    """gunicorn and a worker on a broker of their own; the broker dies and comes back mid-match."""
    from games.models import MatchSummary

    env, where = worker_env
    port, web_port = free_port(), free_port()
    broker = f"redis://127.0.0.1:{port}/0"

    def start_redis():
        subprocess.run(["redis-server", "--daemonize", "yes", "--bind", "127.0.0.1", "--port", str(port), "--save", "",
                        "--appendonly", "no", "--dir", str(where), "--logfile", str(where / "redis.log")], check=True)
        wait_for(lambda: _answers(port), what="redis")

    start_redis()
    env = dict(env, REDIS_URL=broker, GUNICORN_BIND=f"127.0.0.1:{web_port}", GUNICORN_WORKERS="1", SWEEP_SECONDS="2")
    alice, bob = make_user("alice"), make_user("bob")
    from rest_framework.authtoken.models import Token

    token = Token.objects.create(user=make_user("recorder", official=True, player=False)).key  # records for both
    procs = [
        subprocess.Popen([str(ROOT / ".venv/bin/gunicorn"), "-c", "deploy/services/gunicorn.conf.py", "deploy.wsgi:application"],
                         cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True),
        subprocess.Popen([sys.executable, "-m", "celery", "-A", "deploy", "worker", "-B", "-Q", "default,projections",
                          "--pool", "solo", "-s", str(where / "beat-faults"), "-l", "info"],
                         cwd=ROOT, env=env, stdout=open(where / "worker-faults.log", "w"), stderr=subprocess.STDOUT,
                         start_new_session=True),
    ]
    try:
        def call(path, body=None):
            request = urllib.request.Request(f"http://127.0.0.1:{web_port}{path}", method="POST" if body else "GET",
                                             data=json.dumps(body).encode() if body else None,
                                             headers={"Authorization": f"Token {token}", "Content-Type": "application/json"})
            with urllib.request.urlopen(request, timeout=WAIT) as response:
                return response.status, json.loads(response.read())

        wait_for(lambda: _answers(web_port), what="gunicorn")
        _, match = call("/api/matches/", {"player0": alice.player.pk, "player1": bob.player.pk, "length": 5, "dice": "board"})
        _, body = call(f"/api/matches/{match['id']}/commands/", {"type": "roll", "dice": [3, 1], "expected_version": 2})
        version = body["state"]["version"]
        wait_for(lambda: MatchSummary.objects.filter(stream_id=match["id"], version=body["state"]["version"]).exists(),
                 what="the worker to project")
        subprocess.run(["redis-cli", "-p", str(port), "shutdown", "nosave"], check=False)  # the broker goes down
        status, body = call(f"/api/matches/{match['id']}/commands/", {"type": "move", "move": "8/5 6/5", "expected_version": version})
        assert status == 200  # accepted and committed although no wake-up could be sent
        status, body = call(f"/api/matches/{match['id']}/commands/",
                            {"type": "roll", "dice": [6, 4], "expected_version": body["state"]["version"]})
        accepted = body["state"]["version"]
        assert Event.objects.filter(stream_id=match["id"]).count() == accepted
        start_redis()  # the broker comes back: the worker reconnects and the beat sweep catches up
        wait_for(lambda: MatchSummary.objects.filter(stream_id=match["id"], version=accepted).exists(),
                 what="the read model to converge after the broker came back")
        assert Event.objects.filter(stream_id=match["id"], event_type="CheckersMoved").count() == 1
    finally:
        for proc in procs:
            os.killpg(proc.pid, signal.SIGTERM)
            proc.wait(timeout=WAIT)
        subprocess.run(["redis-cli", "-p", str(port), "shutdown", "nosave"], check=False, capture_output=True)


def _answers(port: int) -> bool:
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=1):
            return True
    except OSError:
        return False
