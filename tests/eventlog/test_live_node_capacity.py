"""A crowd on the live push costs the database nothing: a real live node (gunicorn, uvicorn's worker, as
deploy/services/crawford-live@.service runs it) against the test database and Redis, followed by hundreds of
streams at once. Connections are counted in PostgreSQL itself (pg_stat_activity, by the node's application name)."""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import urllib.request

import pytest
from django.db import connection

from games import commands as match_commands
from games.command_handler import match_command
from games.creation import match_create
from games.loading import match_load
from players.models import Player
from tests.conftest import ROOT
from tests.deploy.test_services import free_port
from tests.waiting import wait_for

pytestmark = pytest.mark.django_db(transaction=True)
NODE = "crawford-live-test"


def _node_connections() -> int:
    """Counted on a connection of its own: asked from inside the crowd's event loop too."""
    import psycopg

    s = connection.settings_dict
    with psycopg.connect(host=s["HOST"] or "127.0.0.1", port=s["PORT"] or 5432, dbname=s["NAME"],
                         user=s["USER"], autocommit=True) as raw:
        return raw.execute("SELECT count(*) FROM pg_stat_activity WHERE application_name = %s", [NODE]).fetchone()[0]


def _answers(port: int) -> bool:
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/health/", timeout=10) as response:
            return response.status == 200
    except OSError:
        return False


@pytest.fixture
def live_node(worker_env, tmp_path):
    env, _ = worker_env
    port = free_port()
    env = dict(env, DATABASE_URL=env["DATABASE_URL"] + f"?application_name={NODE}",
               GUNICORN_WORKER_CLASS="uvicorn_worker.UvicornWorker", GUNICORN_WORKERS="1",
               GUNICORN_BIND=f"127.0.0.1:{port}", LIVE_MAX_STREAMS_PER_CLIENT="20",
               # the streams come "through nginx", each from an address of its own (deploy/proxy.py)
               TRUSTED_PROXIES="127.0.0.1")
    log = open(tmp_path / "live-node.log", "w")
    node = subprocess.Popen([str(ROOT / ".venv/bin/gunicorn"), "-c", "deploy/services/gunicorn.conf.py",
                             "deploy.asgi:application"], cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT,
                            start_new_session=True)
    try:
        wait_for(lambda: _answers(port), timeout=120, what="the live node")
        yield port, tmp_path / "live-node.log"
    finally:
        os.killpg(node.pid, signal.SIGTERM)
        node.wait(timeout=60)


@pytest.fixture
def match_id(django_user_model):
    director = django_user_model.objects.create_user("dora", password="x", is_staff=True, is_superuser=True)
    a, b = Player.objects.create(display_name="Ada"), Player.objects.create(display_name="Bruno")
    return director, match_create(actor=director, player0=a, player1=b, length=3, dice="board").stream_id


async def _open(port: int, path: str, address: str):
    """A stream as a browser behind nginx opens it; returns (status, reader, writer, what was read so far, head)."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    writer.write(f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n"
                 f"X-Forwarded-For: {address}\r\n\r\n".encode())
    await writer.drain()
    head = await reader.readuntil(b"\r\n\r\n")
    status = int(head.split(b" ", 2)[1])
    seen = b""
    if status == 200:
        while b"event: moved" not in seen:
            seen += await reader.read(4096)
    return status, reader, writer, seen, head


async def _crowd(port: int, path: str, count: int, per_address: int = 1):
    return await asyncio.gather(*[_open(port, path, f"10.{i // 60000}.{i // 250 % 240}.{i % 250 + 1}"
                                        if per_address == 1 else "10.9.9.9") for i in range(count)])


def _close(opened) -> None:
    for _, _, writer, _, _ in opened:
        writer.close()


def test_five_hundred_streams_opened_and_closed_leave_the_database_connections_where_they_were(live_node, match_id):
    port, log = live_node
    _, stream_id = match_id
    before = _node_connections()

    async def run():
        opened = await _crowd(port, f"/matches/{stream_id}/follow/", 500)
        assert {status for status, *_ in opened} == {200}
        # while they stay open the node holds no connection for them (once their first reads are done)
        await asyncio.to_thread(wait_for, lambda: _node_connections() <= before, 120,
                                "the node to hold no connection for its open streams")
        _close(opened)

    asyncio.run(run())
    wait_for(lambda: _node_connections() <= before, timeout=120, what="the node's connections to be released")
    assert "Traceback" not in log.read_text()


def test_a_thousand_open_streams_all_hear_a_bystanders_command(live_node, match_id):
    port, log = live_node
    director, stream_id = match_id
    version = match_load(stream_id).version

    async def run():
        opened = await _crowd(port, f"/matches/{stream_id}/follow/", 1000)
        assert {status for status, *_ in opened} == {200}
        await asyncio.to_thread(wait_for, lambda: _node_connections() == 0, 120,
                                "the node to hold no connection for its open streams")
        # the bystander: a command on the same database while the crowd waits
        await asyncio.to_thread(match_command, actor=director, stream_id=stream_id,
                                command=match_commands.RollDice(dice=(3, 1)), expected_version=version)

        async def hears(reader, seen):
            while f"data: {version + 1}".encode() not in seen:
                seen += await reader.read(4096)

        await asyncio.wait_for(asyncio.gather(*[hears(r, s) for _, r, _, s, _ in opened]), 300)
        _close(opened)

    asyncio.run(run())
    assert "Traceback" not in log.read_text()


def test_past_a_clients_share_the_answer_is_503_with_retry_after(live_node, match_id):
    port, _ = live_node
    _, stream_id = match_id

    async def run():
        opened = await _crowd(port, f"/matches/{stream_id}/follow/", 21, per_address=21)
        statuses = sorted(status for status, *_ in opened)
        assert statuses == [200] * 20 + [503]
        refused = next(o for o in opened if o[0] == 503)
        _close(opened)
        return refused[4]

    head = asyncio.run(run()).decode().lower()
    assert "retry-after: 10" in head


def test_the_shipped_nginx_limits_the_streams_of_one_address():
    conf = (ROOT / "deploy/services/nginx.conf").read_text()
    assert "limit_conn_zone $binary_remote_addr zone=crawford_streams" in conf
    follow = conf[conf.index("location ~ ^/(matches|events)/[^/]+/follow/$"):]
    follow = follow[:follow.index("}")]
    assert "limit_conn crawford_streams" in follow and "limit_conn_status 503" in follow
