"""Simultaneous online matches with spectators on one node: how many it serves with command p99 <= 100 ms.

One web node (gunicorn's threads, as crawford-web@.service) and one live node (gunicorn with uvicorn's worker, as
crawford-live@.service), on a database of their own and a Redis database, the same log and command path as a match
recorded at the board. Each online match has its two players, each with their own token, acting for their own side
at a human pace: the player to act sends their next command (a server roll, a legal play the last answer listed)
``--think`` seconds (0.5 to 1.5 times, at random) after the last answer; the other player's page is told and fetches
the match (one GET), as its follow does; each player's page beats its presence every ``--heartbeat`` seconds; and
``--spectators`` per match follow it on the live node (server-sent events) and fetch the match at each push, as the
live board does. The matches are 25 points with the US clock, so the server presses the clocks with each command.
The spectators come first: each step's clock starts once every one has its stream open and the match fetched (a
crowd of page loads arriving in the same second is a burst of its own, not the steady play measured here).

For each step of ``--matches`` (e.g. 50,100,150,200) it runs ``--seconds`` and prints the commands' p50/p99/max
(the players' POSTs, measured by the client), the requests per second by kind, the spectators' streams open and the
machine's CPU; then the most matches whose command p99 held <= 100 ms.

    .venv/bin/python bench/online.py --matches 50,100,150,200 --seconds 60
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import secrets
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from urllib.parse import urlparse, urlunparse

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from bench.common import (ROOT, CpuMeter, code_version, free_port, node_log_errors, percentile,  # noqa: E402
                          recreate_database, wait_port)

DB_NAME = "crawford_bench_online"
TARGET_MS = 100



class Http:
    """One kept-alive HTTP/1.1 connection (a browser's), asyncio: JSON in, JSON out."""

    def __init__(self, port: int, token: str | None = None):
        self.port, self.token = port, token
        self.reader = self.writer = None

    async def request(self, method: str, path: str, body: dict | None = None) -> tuple[int, dict]:
        for attempt in range(2):
            if self.writer is None:
                self.reader, self.writer = await asyncio.open_connection("127.0.0.1", self.port)
            data = json.dumps(body).encode() if body is not None else b""
            head = [f"{method} {path} HTTP/1.1", "Host: 127.0.0.1", f"Content-Length: {len(data)}",
                    "Content-Type: application/json"]
            if self.token:
                head.append(f"Authorization: Token {self.token}")
            try:
                self.writer.write(("\r\n".join(head) + "\r\n\r\n").encode() + data)
                await self.writer.drain()
                status, headers = await self._head()
                payload = await self._body(headers)
            except (ConnectionError, asyncio.IncompleteReadError):
                self.close()
                if attempt:
                    raise
                continue
            if headers.get("connection", "").lower() == "close":
                self.close()
            return status, json.loads(payload) if payload else {}
        raise AssertionError("unreachable")

    async def _head(self) -> tuple[int, dict]:
        raw = await self.reader.readuntil(b"\r\n\r\n")
        lines = raw.decode("latin-1").split("\r\n")
        headers = {k.strip().lower(): v.strip() for k, _, v in (line.partition(":") for line in lines[1:] if line)}
        return int(lines[0].split(" ", 2)[1]), headers

    async def _body(self, headers: dict) -> bytes:
        if "content-length" in headers:
            return await self.reader.readexactly(int(headers["content-length"]))
        if headers.get("transfer-encoding", "").lower() == "chunked":
            out = b""
            while True:
                size = int((await self.reader.readuntil(b"\r\n")).strip(), 16)
                chunk = await self.reader.readexactly(size + 2)
                if size == 0:
                    return out
                out += chunk[:-2]
        return await self.reader.read()

    def close(self) -> None:
        if self.writer is not None:
            self.writer.close()
        self.reader = self.writer = None


class Tally:
    def __init__(self):
        self.commands: list[float] = []
        self.counts: dict[str, int] = {}
        self.errors: list[str] = []
        self.pushes = 0

    def count(self, kind: str) -> None:
        self.counts[kind] = self.counts.get(kind, 0) + 1


async def _player_pair(web: int, match: dict, tokens: tuple[str, str], think: float, heartbeat: float,
                       tally: Tally, stop: asyncio.Event, rnd: random.Random) -> None:
    """The two players of one match: the one to act sends their command after a human's pause; the other's page
    fetches the match when told; both beat their presence."""
    pages = (Http(web, tokens[0]), Http(web, tokens[1]))
    beats = (Http(web, tokens[0]), Http(web, tokens[1]))
    mid = match["id"]

    async def beat(seat: int) -> None:
        await asyncio.sleep(rnd.uniform(0, heartbeat))
        while not stop.is_set():
            status, _ = await beats[seat].request("POST", f"/api/matches/{mid}/presence/", {"here": True})
            tally.count("heartbeat")
            if status != 200:
                tally.errors.append(f"heartbeat {status}")
            await asyncio.sleep(heartbeat)

    beaters = [asyncio.create_task(beat(0)), asyncio.create_task(beat(1))]
    state = match
    try:
        await asyncio.sleep(rnd.uniform(0, think))
        while not stop.is_set() and not state["finished"]:
            phase = state["phase"]
            seat = 0 if phase == "opening" else (state["answerer"] if phase == "doubled" else state["turn"])
            if phase in ("opening", "roll"):
                body = {"type": "roll"}
            elif phase == "move":
                body = {"type": "move", "move": rnd.choice(state["legal_moves"]) if state["legal_moves"] else ""}
            elif phase == "doubled":
                body = {"type": "take"}
            else:
                break
            body["expected_version"] = state["version"]
            t0 = time.perf_counter()
            status, answer = await pages[seat].request("POST", f"/api/matches/{mid}/commands/", body)
            tally.commands.append(time.perf_counter() - t0)
            tally.count("command")
            if status != 200:
                tally.errors.append(f"command {status} {str(answer)[:120]}")
                status, state = await pages[seat].request("GET", f"/api/matches/{mid}/")
                continue
            state = answer["state"]
            # the other player's page is told and fetches the match, as its follow does
            await pages[1 - seat].request("GET", f"/api/matches/{mid}/")
            tally.count("player read")
            await asyncio.sleep(think * rnd.uniform(0.5, 1.5))
    finally:
        for task in beaters:
            task.cancel()
        await asyncio.gather(*beaters, return_exceptions=True)
        for h in (*pages, *beats):
            h.close()


async def _spectator(live: int, web: int, mid: str, tally: Tally, stop: asyncio.Event, opened: list,
                     settled: list) -> None:
    """A live board: the match's stream on the live node, and a fetch of the match at each push (the first: the
    number the stream opens with). Appends to ``settled`` once that first fetch is answered."""
    reader, writer = await asyncio.open_connection("127.0.0.1", live)
    writer.write(f"GET /matches/{mid}/follow/ HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".encode())
    await writer.drain()
    head = await reader.readuntil(b"\r\n\r\n")
    status = int(head.split(b" ", 2)[1])
    opened.append(status)
    reads = Http(web)
    last = 0
    if status != 200:
        settled.append(status)
    try:
        while status == 200 and not stop.is_set():
            chunk = await reader.read(4096)
            if not chunk:
                break
            for block in chunk.decode(errors="replace").split("\n\n"):
                if "data: " in block:
                    number = int(block.split("data: ")[1].split()[0])
                    if number > last:
                        first, last = not last, number
                        tally.pushes += 1
                        code, _ = await reads.request("GET", f"/api/matches/{mid}/")
                        tally.count("spectator read")
                        if code != 200:
                            tally.errors.append(f"spectator read {code}")
                        if first:
                            settled.append(status)
    finally:
        writer.close()
        reads.close()


async def _phase(web: int, live: int, matches: list[dict], tokens: list, spectators: int, seconds: float,
                 think: float, heartbeat: float, seed: int, started=lambda: None) -> tuple[Tally, list[int]]:
    """One step: the spectators open their streams and fetch the match once each (a crowd arriving: not measured),
    then ``started()`` is called and the players play for ``seconds``, the spectators following."""
    tally, stop, opened, settled = Tally(), asyncio.Event(), [], []
    rnd = random.Random(seed)
    watchers = [asyncio.create_task(_spectator(live, web, m["id"], tally, stop, opened, settled))
                for m in matches for _ in range(spectators)]
    deadline = time.monotonic() + 120
    while len(settled) < len(watchers):
        if time.monotonic() > deadline:
            tally.errors.append(f"only {len(settled)} of {len(watchers)} spectators had the match after 120 s")
            break
        await asyncio.sleep(0.1)
    tally.counts.clear()  # the arrival's fetches are not the step's (its errors stay errors)
    tally.pushes = 0
    started()
    players = [asyncio.create_task(_player_pair(web, m, t, think, heartbeat, tally, stop, random.Random(rnd.random())))
               for m, t in zip(matches, tokens)]
    await asyncio.sleep(seconds)
    stop.set()
    await asyncio.gather(*players, return_exceptions=True)
    for w in watchers:
        w.cancel()
    await asyncio.gather(*watchers, return_exceptions=True)
    return tally, opened


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--matches", default="50,100,150,200", help="the steps: simultaneous matches in each")
    parser.add_argument("--spectators", type=int, default=2, help="live boards following each match")
    parser.add_argument("--seconds", type=float, default=60)
    parser.add_argument("--think", type=float, default=4.0, help="seconds between a match's commands (mean)")
    parser.add_argument("--heartbeat", type=float, default=5.0)
    parser.add_argument("--web-workers", default="", help="the web node's workers (default: gunicorn.conf.py's)")
    parser.add_argument("--database-name", default=DB_NAME, help="the fresh database made (dropped first) on the "
                        "server of --database-url")
    parser.add_argument("--database-url", default=os.environ.get("DATABASE_URL", "postgres://postgres@127.0.0.1:5432/crawford"))
    parser.add_argument("--redis-url", default=os.environ.get("REDIS_URL", "redis://127.0.0.1:6379/11"))
    args = parser.parse_args()
    steps = [int(n) for n in args.matches.split(",")]

    url = urlparse(args.database_url)
    recreate_database(url, args.database_name)
    database = urlunparse(url._replace(path="/" + args.database_name))
    env = dict(os.environ, DATABASE_URL=database, REDIS_URL=args.redis_url, DEBUG="0",
               SECRET_KEY="bench-" + secrets.token_hex(24), SECURE_SSL_REDIRECT="0", ALLOWED_HOSTS="127.0.0.1",
               DJANGO_SETTINGS_MODULE="deploy.settings", PYTHONUNBUFFERED="1", LOG_LEVEL="WARNING",
               API_THROTTLE_ANON="100000000/minute", API_THROTTLE_USER="100000000/minute",
               LIVE_MAX_STREAMS_PER_CLIENT="100000", LIVE_MAX_STREAMS="100000")
    os.environ.update({k: env[k] for k in ("DATABASE_URL", "REDIS_URL", "DEBUG", "SECRET_KEY", "SECURE_SSL_REDIRECT",
                                           "ALLOWED_HOSTS", "DJANGO_SETTINGS_MODULE", "LOG_LEVEL")})
    import django

    django.setup()
    import redis
    from django.contrib.auth import get_user_model
    from django.core.management import call_command
    from rest_framework.authtoken.models import Token

    from games import selectors
    from games.creation import match_create
    from players.models import Player

    call_command("migrate", verbosity=0)
    redis.Redis.from_url(args.redis_url).flushdb()
    users = get_user_model().objects
    warm = min(steps[0], 10)
    needed = warm + sum(steps)

    def new_match(i: int) -> tuple[dict, tuple[str, str]]:
        pair = []
        for seat in (0, 1):
            user = users.create_user(f"m{i}s{seat}")  # no password (its hashing is slow): a token signs in
            pair.append((Player.objects.create(display_name=f"Player {i}.{seat}", user=user),
                         Token.objects.create(user=user).key))
        record = match_create(actor=users.get(username=f"m{i}s0"), player0=pair[0][0], player1=pair[1][0],
                              length=25, dice="server", clock={"use": "required", "preset": "us"},
                              online_rule={"disconnect": 180, "late": 180})
        return selectors.match_state_data(record), (pair[0][1], pair[1][1])

    print(f"{code_version()}; CPython {sys.version.split()[0]}; {os.cpu_count()} CPUs; creating {needed} matches")
    made = [new_match(i) for i in range(needed)]

    logs = Path(tempfile.mkdtemp(prefix="crawford-online-"))
    live_port, web_port = free_port(), free_port()
    web_env = dict(env, GUNICORN_BIND=f"127.0.0.1:{web_port}")
    if args.web_workers:
        web_env["GUNICORN_WORKERS"] = args.web_workers
    nodes = [
        subprocess.Popen([str(ROOT / ".venv/bin/gunicorn"), "-c", "deploy/services/gunicorn.conf.py",
                          "deploy.asgi:application"], cwd=ROOT, start_new_session=True,
                         env=dict(env, GUNICORN_WORKER_CLASS="uvicorn_worker.UvicornWorker", GUNICORN_WORKERS="2",
                                  GUNICORN_BIND=f"127.0.0.1:{live_port}"),
                         stdout=open(logs / "live.log", "w"), stderr=subprocess.STDOUT),
        subprocess.Popen([str(ROOT / ".venv/bin/gunicorn"), "-c", "deploy/services/gunicorn.conf.py",
                          "deploy.wsgi:application"], cwd=ROOT, start_new_session=True, env=web_env,
                         stdout=open(logs / "web.log", "w"), stderr=subprocess.STDOUT),
    ]
    meter = CpuMeter({"web node": 0, "live node": 0})
    results = []
    try:
        wait_port(live_port, nodes[0], logs / "live.log")
        wait_port(web_port, nodes[1], logs / "web.log")
        meter.groups = {"web node": os.getpgid(nodes[1].pid), "live node": os.getpgid(nodes[0].pid)}
        # the nodes' workers warmed up (their first requests import, connect and fold): not reported
        asyncio.run(_phase(web_port, live_port, [m for m, _ in made[:warm]], [t for _, t in made[:warm]],
                           args.spectators, 10, args.think, args.heartbeat, seed=0))
        offset = warm
        print(f"| matches | spectators | commands | p50 ms | p99 ms | max ms | req/s (commands, reads, heartbeats) "
              f"| errors | CPU |")
        print("|---|---|---|---|---|---|---|---|---|")
        for n in steps:
            chunk = made[offset: offset + n]
            offset += n
            clock = {}

            def started() -> None:  # the step's CPU and rates are from when the players start
                clock["before"], clock["t0"] = meter.snapshot(), time.time()

            tally, opened = asyncio.run(_phase(web_port, live_port, [m for m, _ in chunk], [t for _, t in chunk],
                                               args.spectators, args.seconds, args.think, args.heartbeat, seed=n,
                                               started=started))
            before, t0 = clock["before"], clock["t0"]
            elapsed = time.time() - t0
            cpu = meter.report(before, meter.snapshot(), elapsed)
            ms = [v * 1000 for v in tally.commands]
            p99 = percentile(ms, 0.99)
            results.append((n, p99))
            reads = tally.counts.get("player read", 0) + tally.counts.get("spectator read", 0)
            streams = sum(1 for s in opened if s == 200)
            print(f"| {n} | {streams} of {len(opened)} streams | {len(ms)} | {percentile(ms, 0.5):.0f} | {p99:.0f} "
                  f"| {max(ms, default=0):.0f} | {len(ms) / elapsed:.0f}, {reads / elapsed:.0f}, "
                  f"{tally.counts.get('heartbeat', 0) / elapsed:.0f} | {len(tally.errors)} | {cpu} |", flush=True)
            if tally.errors:
                print("   first errors:", *tally.errors[:3], sep="\n     ")
        held = [n for n, p99 in results if p99 <= TARGET_MS]
        print(f"most simultaneous online matches with command p99 <= {TARGET_MS} ms: "
              f"{max(held) if held else 'none of the steps'} (steps {args.matches}, {args.spectators} spectators "
              f"each, a command every {args.think:g} s a match, heartbeats every {args.heartbeat:g} s)")
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
