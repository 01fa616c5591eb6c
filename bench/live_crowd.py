"""A crowd of spectators on the live push, and a bystander recording a match it follows.

A live node (gunicorn with uvicorn's worker, as crawford-live@.service) and a web node (gunicorn's threads, as
crawford-web@.service) on a database of their own and Redis db 11. The bystander records a match through the web
node's API (a roll, then a legal play, chosen by the engine here): first alone, then with ``--streams`` streams
open on the live node following that very match (each of its commands is pushed to every stream). Prints the
bystander's p50 and p99 per command in both phases, whether every stream heard the last command, and the
database connections the live node held meanwhile.

    .venv/bin/python bench/live_crowd.py --streams 1000 --commands 200
"""

from __future__ import annotations

import argparse
import asyncio
import http.client
import json
import os
import random
import secrets
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from urllib.parse import urlparse, urlunparse

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from bench.common import (ROOT, code_version, free_port, node_log_errors, percentile,  # noqa: E402
                          recreate_database, wait_port)

DB_NAME = "crawford_bench_live"
LIVE_APP = "crawford-bench-live"



class Recorder:
    """The bystander: records a money session through the API, every play chosen among the engine's legal ones."""

    def __init__(self, port: int, token: str, match_id: str, version: int):
        from games.engine import commands as cmd
        from games.engine.match import MatchState, decide, evolve

        self.cmd, self.decide, self.evolve = cmd, decide, evolve
        self.port = port
        self.token, self.match_id, self.version = token, match_id, version
        self.state = MatchState()
        for event in decide(self.state, cmd.StartMatch(("Ada", "Bruno"), 0)):
            self.state = evolve(self.state, event)
        self.rnd = random.Random(7)
        self.latencies: list[float] = []

    def _send(self, body: dict, command) -> None:
        from games.engine.match import decide, evolve

        body["expected_version"] = self.version
        t0 = time.perf_counter()
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=120)  # a new one: no idle one to lose
        conn.request("POST", f"/api/matches/{self.match_id}/commands/", body=json.dumps(body),
                     headers={"Content-Type": "application/json", "Authorization": f"Token {self.token}"})
        answer = conn.getresponse()
        data = json.loads(answer.read())
        self.latencies.append(time.perf_counter() - t0)
        conn.close()
        if answer.status != 200:
            raise RuntimeError(f"the bystander's command was refused: {answer.status} {data}")
        self.version = data["state"]["version"]
        for event in decide(self.state, command):
            self.state = evolve(self.state, event)

    def step(self) -> None:
        from games.engine.match import MOVE, OPENING

        dice = (self.rnd.randint(1, 6), self.rnd.randint(1, 6))
        if self.state.phase == OPENING:
            while dice[0] == dice[1]:
                dice = (self.rnd.randint(1, 6), self.rnd.randint(1, 6))
            self._send({"type": "roll", "dice": list(dice)}, self.cmd.Roll(None, dice, "physical"))
        elif self.state.phase == MOVE:
            plays = self.state.legal_plays()
            play = str(self.rnd.choice(plays)) if plays else ""
            self._send({"type": "move", "move": play}, self.cmd.Move(self.state.turn, play))
        else:
            self._send({"type": "roll", "dice": list(dice)}, self.cmd.Roll(self.state.turn, dice, "physical"))


async def _crowd(port: int, path: str, count: int, opened: list, ready: threading.Event, stop: threading.Event):
    async def one(i: int):
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        writer.write(f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Forwarded-For: 10.{i // 250 % 250}.{i % 250}.1"
                     "\r\n\r\n".encode())
        await writer.drain()
        head = await reader.readuntil(b"\r\n\r\n")
        status = int(head.split(b" ", 2)[1])
        stream = {"status": status, "last": 0}
        opened.append(stream)
        while status == 200:
            chunk = await reader.read(4096)
            if not chunk:
                break
            for block in chunk.decode(errors="replace").split("\n\n"):
                if "data: " in block:
                    stream["last"] = max(stream["last"], int(block.split("data: ")[1].split()[0]))
        writer.close()

    tasks = [asyncio.create_task(one(i)) for i in range(count)]
    while len(opened) < count and not all(t.done() for t in tasks):
        await asyncio.sleep(0.1)
    ready.set()
    while not stop.is_set():
        await asyncio.sleep(0.2)
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--streams", type=int, default=1000)
    parser.add_argument("--commands", type=int, default=200)
    parser.add_argument("--database-url", default=os.environ.get("DATABASE_URL", "postgres://postgres@127.0.0.1:5432/crawford"))
    parser.add_argument("--redis-url", default="redis://127.0.0.1:6379/11")
    args = parser.parse_args()

    url = urlparse(args.database_url)
    recreate_database(url, DB_NAME)
    database = urlunparse(url._replace(path="/" + DB_NAME))
    env = dict(os.environ, DATABASE_URL=database, REDIS_URL=args.redis_url, DEBUG="0",
               SECRET_KEY="bench-" + secrets.token_hex(24), SECURE_SSL_REDIRECT="0", ALLOWED_HOSTS="127.0.0.1",
               DJANGO_SETTINGS_MODULE="deploy.settings", PYTHONUNBUFFERED="1", LOG_LEVEL="WARNING",
               TRUSTED_PROXIES="127.0.0.1", API_THROTTLE_ANON="1000000/minute", API_THROTTLE_USER="1000000/minute")
    os.environ.update({k: env[k] for k in ("DATABASE_URL", "REDIS_URL", "DEBUG", "SECRET_KEY", "SECURE_SSL_REDIRECT",
                                           "ALLOWED_HOSTS", "DJANGO_SETTINGS_MODULE", "LOG_LEVEL")})
    import django

    django.setup()
    import psycopg
    import redis
    from django.contrib.auth import get_user_model
    from django.core.management import call_command
    from rest_framework.authtoken.models import Token

    from games.creation import match_create
    from players.models import Player

    call_command("migrate", verbosity=0)
    redis.Redis.from_url(args.redis_url).flushdb()
    official = get_user_model().objects.create_superuser("official", password=secrets.token_hex(8))
    token = Token.objects.create(user=official).key
    a, b = Player.objects.create(display_name="Ada"), Player.objects.create(display_name="Bruno")
    record = match_create(actor=official, player0=a, player1=b, length=0, dice="board")
    print(f"{code_version()}; CPython {sys.version.split()[0]}; {os.cpu_count()} CPUs")

    logs = Path(tempfile.mkdtemp(prefix="crawford-live-crowd-"))
    live_port, web_port = free_port(), free_port()
    nodes = [
        subprocess.Popen([str(ROOT / ".venv/bin/gunicorn"), "-c", "deploy/services/gunicorn.conf.py",
                          "deploy.asgi:application"], cwd=ROOT, start_new_session=True,
                         env=dict(env, DATABASE_URL=database + f"?application_name={LIVE_APP}",
                                  GUNICORN_WORKER_CLASS="uvicorn_worker.UvicornWorker", GUNICORN_WORKERS="2",
                                  GUNICORN_BIND=f"127.0.0.1:{live_port}"),
                         stdout=open(logs / "live.log", "w"), stderr=subprocess.STDOUT),
        subprocess.Popen([str(ROOT / ".venv/bin/gunicorn"), "-c", "deploy/services/gunicorn.conf.py",
                          "deploy.wsgi:application"], cwd=ROOT, start_new_session=True,
                         env=dict(env, GUNICORN_BIND=f"127.0.0.1:{web_port}"),
                         stdout=open(logs / "web.log", "w"), stderr=subprocess.STDOUT),
    ]
    try:
        wait_port(live_port, nodes[0], logs / "live.log")
        wait_port(web_port, nodes[1], logs / "web.log")
        recorder = Recorder(web_port, token, record.stream_id, record.version)

        def connections() -> int:
            with psycopg.connect(urlunparse(url._replace(path="/postgres")), autocommit=True) as raw:
                return raw.execute("SELECT count(*) FROM pg_stat_activity WHERE application_name = %s",
                                   [LIVE_APP]).fetchone()[0]

        for _ in range(10):  # warm-up: both nodes' workers
            recorder.step()
        recorder.latencies.clear()
        for _ in range(args.commands):
            recorder.step()
        alone = list(recorder.latencies)

        opened: list = []
        ready, stop = threading.Event(), threading.Event()
        crowd = threading.Thread(target=lambda: asyncio.run(_crowd(
            live_port, f"/matches/{record.stream_id}/follow/", args.streams, opened, ready, stop)))
        t0 = time.time()
        crowd.start()
        ready.wait(600)
        statuses: dict[int, int] = {}
        for s in opened:
            statuses[s["status"]] = statuses.get(s["status"], 0) + 1
        print(f"{args.streams} streams opened on the live node in {time.time() - t0:.1f} s, by status {statuses}; "
              f"the live node's database connections: {connections()}")
        recorder.latencies.clear()
        held = []
        for i in range(args.commands):
            recorder.step()
            if i % 20 == 0:
                held.append(connections())
        with_crowd = list(recorder.latencies)
        deadline = time.time() + 120
        while time.time() < deadline and not all(s["last"] >= recorder.version for s in opened if s["status"] == 200):
            time.sleep(0.2)
        heard = sum(1 for s in opened if s["status"] == 200 and s["last"] >= recorder.version)
        stop.set()
        crowd.join(120)
        for name, values in (("alone", alone), (f"with {args.streams} streams following", with_crowd)):
            print(f"bystander's commands {name}: {len(values)}, p50 {statistics.median(values) * 1000:.0f} ms, "
                  f"p99 {percentile(values, 0.99) * 1000:.0f} ms, max {max(values) * 1000:.0f} ms")
        print(f"streams that heard the last command (version {recorder.version}): {heard} of "
              f"{statuses.get(200, 0)}; the live node's connections during the commands: max {max(held)}")
        print(f"machine load average: {os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs; logs in {logs}")
        errors = node_log_errors(logs)
        if errors:
            print("errors in the nodes' logs:", *errors[:5], sep="\n  ")
            return 1
        return 0
    finally:
        for node in nodes:
            os.killpg(node.pid, signal.SIGTERM)
            node.wait(timeout=60)


if __name__ == "__main__":
    sys.exit(main())
