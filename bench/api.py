"""How many match commands per second the API appends on PostgreSQL, and their latency, beside the floor.

    .venv/bin/python bench/api.py [--seconds 10] [--clients 1 8] [--database-url URL]

Starts gunicorn (deploy/services/gunicorn.conf.py, DEBUG=0) on a fresh database ``crawford_bench`` of the
PostgreSQL server in DATABASE_URL (default 127.0.0.1:5432), with REDIS_URL passed through when set (the cache
and the throttles' counts; wake-ups go to its broker, no worker consumes them). The user throttle is raised out
of the way (``API_THROTTLE_USER``), not switched off: its cache round trips are paid as in production.

Three kinds of client, each at every ``--clients`` count, on the same server, taking turns of ``--slice`` seconds
(0.5) until each has had ``--seconds``: the kinds compared share the machine's every minute, whose speed may change
from one minute to the next (a shared virtual machine's does here):

* ``players``: each client records its own 7-point match through ``POST /api/matches/{id}/commands/``, every
  command sent with the token of the player whose turn it is (the opening roll by seat 0): server dice, then
  the first legal play, a new match when one ends;
* ``directors``: the same, every command sent by a federation official (the "Officials" group) recording for
  both players;
* ``floor``: ``POST /bench/floor/`` (bench/floor_urls.py, mounted only in bench/floor_settings.py): a minimal
  DRF view on the same server that does one event insert under the log's advisory lock and commits.

Every request carries a fresh ``Idempotency-Key``. Every Crawford command is a real append judged by the engine.
Prints commands/s, p50 and p99 latency, errors, the load average beside each row, and the ratio Crawford / floor.
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import secrets
import signal
import socket
import statistics
import subprocess
import sys
import threading
import time
import uuid
from pathlib import Path
from urllib.parse import urlparse, urlunparse

ROOT = Path(__file__).resolve().parent.parent
PYTHON = str(ROOT / ".venv" / "bin" / "python")
MAX_CLIENTS = 16


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seconds", type=float, default=10.0, help="duration of each run")
    parser.add_argument("--warm-up", type=float, default=2.0, help="unmeasured seconds per kind before the runs")
    parser.add_argument("--slice", type=float, default=0.5,
                        help="seconds of one kind before the next kind's turn (the kinds alternate: see _run)")
    parser.add_argument("--clients", type=int, nargs="+", default=[1, 8])
    parser.add_argument("--kinds", nargs="+", default=["players", "directors", "floor"],
                        choices=["players", "directors", "floor"])
    parser.add_argument("--workers", type=int, default=4, help="gunicorn worker processes")
    parser.add_argument("--database-name", default="crawford_bench", help="the fresh database (dropped first)")
    parser.add_argument("--database-url", default=os.environ.get("DATABASE_URL", "postgres://postgres@127.0.0.1:5432/crawford"))
    args = parser.parse_args()
    if max(args.clients) > MAX_CLIENTS:
        raise SystemExit(f"at most {MAX_CLIENTS} clients")

    url = urlparse(args.database_url)
    bench_url = urlunparse(url._replace(path="/" + args.database_name))
    env = dict(os.environ, DATABASE_URL=bench_url, DEBUG="0", GUNICORN_WORKERS=str(args.workers),
               SECURE_SSL_REDIRECT="0", ALLOWED_HOSTS="127.0.0.1", API_THROTTLE_USER="10000000/minute",
               DJANGO_SETTINGS_MODULE="bench.floor_settings", LOG_LEVEL="WARNING",
               SECRET_KEY=os.environ.get("SECRET_KEY") or "bench-" + secrets.token_hex(24))
    _recreate_database(url, args.database_name)
    subprocess.run([PYTHON, "manage.py", "migrate", "-v0"], cwd=ROOT, env=env, check=True)
    users = _setup_users(env)
    port = _free_port()
    env["GUNICORN_BIND"] = f"127.0.0.1:{port}"
    server = subprocess.Popen(
        [str(ROOT / ".venv" / "bin" / "gunicorn"), "-c", "deploy/services/gunicorn.conf.py", "deploy.wsgi:application",
         "--access-logfile", "/dev/null"],
        cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True,
    )
    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True, text=True).stdout.strip()
    dirty = subprocess.run(["git", "status", "--porcelain", "--untracked-files=no"], cwd=ROOT, capture_output=True,
                           text=True).stdout.strip()
    try:
        _wait_for(port)
        print(f"PostgreSQL {url.hostname}:{url.port or 5432} db {args.database_name}, gunicorn {args.workers} workers x 2 "
              f"threads, DEBUG=0, cache/broker {'redis' if os.environ.get('REDIS_URL') else 'none (in-process)'}; "
              f"Idempotency-Key on every request; {args.seconds:g} s a run; code at {commit}{' (+ changes)' if dirty else ''}")
        # every worker process imports and warms up its code paths before the clock
        _run(port, users, args.kinds, max(args.clients), args.warm_up, args.warm_up / len(args.kinds))
        print(f"{'kind':<10} {'clients':>7} {'commands':>9} {'cmd/s':>8} {'p50 ms':>8} {'p99 ms':>8} {'errors':>7}  load")
        results = {}
        for clients in args.clients:
            ran = _run(port, users, args.kinds, clients, args.seconds, args.slice)
            load = " ".join(f"{x:.2f}" for x in os.getloadavg())
            for kind, result in ran.items():
                results[kind, clients] = result
                print(f"{kind:<10} {clients:>7} {result['commands']:>9} {result['per_second']:>8.1f} "
                      f"{result['p50_ms']:>8.1f} {result['p99_ms']:>8.1f} {result['errors']:>7}  {load}", flush=True)
        if "floor" in args.kinds:
            for clients in args.clients:
                floor = results["floor", clients]["per_second"]
                ratios = [f"{kind} {results[kind, clients]['per_second'] / floor:.2f}"
                          for kind in args.kinds if kind != "floor" and floor]
                print(f"Crawford / floor at {clients} client{'s' if clients > 1 else ''} (cmd/s): {', '.join(ratios)}")
    finally:
        os.killpg(server.pid, signal.SIGTERM)
        server.wait(timeout=30)


def _recreate_database(url, name: str) -> None:
    admin = urlunparse(url._replace(path="/postgres"))
    code = (
        "import psycopg,sys\n"
        "c=psycopg.connect(sys.argv[1], autocommit=True)\n"
        "c.execute(f'DROP DATABASE IF EXISTS {sys.argv[2]} WITH (FORCE)')\n"
        "c.execute(f'CREATE DATABASE {sys.argv[2]}')\n"
    )
    if not name.replace("_", "").isalnum():
        raise SystemExit("--database-name: letters, digits and _")
    subprocess.run([PYTHON, "-c", code, admin, name], check=True)


def _setup_users(env) -> dict:
    """Per client: two players with their own accounts and tokens, and an official (the "Officials" group)."""
    code = (
        "from django.contrib.auth import get_user_model\n"
        "from django.contrib.auth.models import Group\n"
        "from rest_framework.authtoken.models import Token\n"
        "from players.models import Player\n"
        "import json\n"
        "User=get_user_model(); officials=Group.objects.get(name='Officials'); out=[]\n"
        f"for i in range({MAX_CLIENTS}):\n"
        "    o=User.objects.create_user(f'official{i}', is_staff=True); o.groups.add(officials)\n"
        "    seats=[]\n"
        "    for s in (0, 1):\n"
        "        u=User.objects.create_user(f'player{i}-{s}')\n"
        "        p=Player.objects.create(display_name=f'Bench {i}-{s}', user=u)\n"
        "        seats.append({'player': p.pk, 'token': Token.objects.create(user=u).key})\n"
        "    out.append({'official': Token.objects.create(user=o).key, 'seats': seats})\n"
        "print(json.dumps(out))\n"
    )
    out = subprocess.run([PYTHON, "manage.py", "shell", "-c", code], cwd=ROOT, env=env, check=True,
                         capture_output=True, text=True).stdout
    return json.loads(out.strip().splitlines()[-1])


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _wait_for(port: int) -> None:
    deadline = time.time() + 60
    while time.time() < deadline:
        try:
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=2)
            conn.request("GET", "/api/schema/")
            if conn.getresponse().status == 200:
                return
        except OSError:
            pass
        time.sleep(0.3)
    raise SystemExit("gunicorn did not start")


class Client:
    def __init__(self, port: int):
        self.conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)

    def post(self, path: str, body: dict, token: str) -> tuple[int, dict]:
        headers = {"Authorization": f"Token {token}", "Content-Type": "application/json",
                   "Idempotency-Key": uuid.uuid4().hex}
        self.conn.request("POST", path, json.dumps(body), headers)
        response = self.conn.getresponse()
        return response.status, json.loads(response.read() or b"{}")


class Recorder:
    """One client of one kind: its connection, and its match for the Crawford kinds. ``send`` sends one command
    and answers its latency (None for an error)."""

    def __init__(self, port: int, kind: str, mine: dict):
        self.client, self.kind, self.mine = Client(port), kind, mine
        seats = mine["seats"]
        self.pair = {"player0": seats[0]["player"], "player1": seats[1]["player"], "length": 7}
        self.creator = mine["official"] if kind == "directors" else seats[0]["token"]
        self.match = None

    def _token_for(self, match: dict) -> str:
        if self.kind == "directors":
            return self.mine["official"]
        return self.mine["seats"][0 if match["phase"] == "opening" else match["turn"]]["token"]

    def send(self) -> float | None:
        if self.kind == "floor":
            started = time.perf_counter()
            status, _ = self.client.post("/bench/floor/", {"type": "roll", "expected_version": 1}, self.mine["official"])
            return time.perf_counter() - started if status == 200 else None
        if self.match is None or self.match.get("finished"):
            _, self.match = self.client.post("/api/matches/", self.pair, self.creator)
        match = self.match
        command = {"type": "move", "move": match["legal_moves"][0]} if match["phase"] == "move" else {"type": "roll"}
        command["expected_version"] = match["version"]
        started = time.perf_counter()
        status, body = self.client.post(f"/api/matches/{match['id']}/commands/", command, self._token_for(match))
        latency = time.perf_counter() - started
        if status != 200:
            print(f"  {self.kind}: HTTP {status} {json.dumps(body)[:300]}", file=sys.stderr)
            return None
        self.match = body["state"]
        return latency


def _run(port: int, users: list[dict], kinds: list[str], clients: int, seconds: float, slice_seconds: float) -> dict:
    """Each kind for ``seconds`` in all, in turns of ``slice_seconds``: every client sends the first kind's commands
    for a slice, then all of them the next kind's, and so on. The kinds compared share the machine's every
    minute: its speed changes (the same loop took 16 ms, then 29 ms, a minute apart here) fall on all alike."""
    latencies = {kind: [] for kind in kinds}
    errors = dict.fromkeys(kinds, 0)
    spent = dict.fromkeys(kinds, 0.0)
    slices = max(1, round(seconds / slice_seconds))
    lock = threading.Lock()
    turns = [(kind, i) for i in range(slices) for kind in kinds]
    start_turn = threading.Barrier(clients + 1)
    end_turn = threading.Barrier(clients + 1)
    deadline = [0.0]

    def client_loop(index: int) -> None:
        recorders = {kind: Recorder(port, kind, users[index]) for kind in kinds}
        for kind, _ in turns:
            start_turn.wait()
            recorder, mine, failed = recorders[kind], [], 0
            while time.perf_counter() < deadline[0]:
                latency = recorder.send()
                if latency is None:
                    failed += 1
                else:
                    mine.append(latency)
            with lock:
                latencies[kind].extend(mine)
                errors[kind] += failed
            # a kept-alive connection stays with the gunicorn worker that accepted it, and the 24 of a run at 8
            # clients sat 1, 4, 10 and 9 on the four workers (ss -tnp): one kind ran at 300/s, p50 26 ms, in two
            # runs of six and at 440/s in the others. A new connection each turn, for every kind, spreads that
            # luck over all the turns
            recorder.client.conn.close()
            end_turn.wait()

    threads = [threading.Thread(target=client_loop, args=(i,), daemon=True) for i in range(clients)]
    for t in threads:
        t.start()
    for kind, _ in turns:
        began = time.perf_counter()
        deadline[0] = began + seconds / slices
        start_turn.wait()
        end_turn.wait()  # the last command sent in the slice has come back
        spent[kind] += time.perf_counter() - began
    for t in threads:
        t.join()
    results = {}
    for kind in kinds:
        ordered = sorted(latencies[kind]) or [0.0]
        results[kind] = {
            "commands": len(latencies[kind]),
            "per_second": len(latencies[kind]) / spent[kind],
            "p50_ms": statistics.median(ordered) * 1000,
            "p99_ms": ordered[int(0.99 * (len(ordered) - 1))] * 1000,
            "errors": errors[kind],
        }
    return results


if __name__ == "__main__":
    sys.exit(main())
