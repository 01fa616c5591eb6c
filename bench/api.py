"""How many match commands per second the API appends on PostgreSQL, and their latency.

    .venv/bin/python bench/api.py [--seconds 20] [--clients 1 8] [--database-url URL]

Starts gunicorn (deploy/services/gunicorn.conf.py) on a fresh database
``crawford_bench`` of the PostgreSQL server in DATABASE_URL (default
127.0.0.1:5432), with REDIS_URL passed through when set. Each client records its
own match at the table through ``POST /api/matches/{id}/commands/``: server dice,
then the first legal play, a new match when one ends. Every command is a real
append judged by the engine. Prints commands/s, p50 and p99 latency per client
count.
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
from pathlib import Path
from urllib.parse import urlparse, urlunparse

ROOT = Path(__file__).resolve().parent.parent
PYTHON = str(ROOT / ".venv" / "bin" / "python")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seconds", type=float, default=20.0, help="duration of each run")
    parser.add_argument("--clients", type=int, nargs="+", default=[1, 8])
    parser.add_argument("--workers", type=int, default=4, help="gunicorn worker processes")
    parser.add_argument("--database-url", default=os.environ.get("DATABASE_URL", "postgres://postgres@127.0.0.1:5432/crawford"))
    args = parser.parse_args()

    url = urlparse(args.database_url)
    bench_url = urlunparse(url._replace(path="/crawford_bench"))
    env = dict(os.environ, DATABASE_URL=bench_url, DEBUG="1", GUNICORN_WORKERS=str(args.workers),
               SECRET_KEY=os.environ.get("SECRET_KEY") or "bench-" + secrets.token_hex(24))
    _recreate_database(url)
    subprocess.run([PYTHON, "manage.py", "migrate", "-v0"], cwd=ROOT, env=env, check=True)
    token, players = _setup_users(env)
    port = _free_port()
    env["GUNICORN_BIND"] = f"127.0.0.1:{port}"
    server = subprocess.Popen(
        [str(ROOT / ".venv" / "bin" / "gunicorn"), "-c", "deploy/services/gunicorn.conf.py", "deploy.wsgi:application",
         "--access-logfile", "/dev/null"],
        cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True,
    )
    try:
        _wait_for(port)
        print(f"PostgreSQL {url.hostname}:{url.port or 5432} db crawford_bench, gunicorn {args.workers} workers x 2 "
              f"threads, broker {'redis' if os.environ.get('REDIS_URL') else 'none (in-process projections)'}")
        print(f"{'clients':>7} {'commands':>9} {'cmd/s':>8} {'p50 ms':>8} {'p99 ms':>8} {'errors':>7}")
        for clients in args.clients:
            result = _run(port, token, players, clients, args.seconds)
            print(f"{clients:>7} {result['commands']:>9} {result['per_second']:>8.1f} {result['p50_ms']:>8.1f} "
                  f"{result['p99_ms']:>8.1f} {result['errors']:>7}")
    finally:
        os.killpg(server.pid, signal.SIGTERM)
        server.wait(timeout=30)


def _recreate_database(url) -> None:
    admin = urlunparse(url._replace(path="/postgres"))
    code = (
        "import psycopg,sys\n"
        "c=psycopg.connect(sys.argv[1], autocommit=True)\n"
        "c.execute('DROP DATABASE IF EXISTS crawford_bench WITH (FORCE)')\n"
        "c.execute('CREATE DATABASE crawford_bench')\n"
    )
    subprocess.run([PYTHON, "-c", code, admin], check=True)


def _setup_users(env) -> tuple[str, list[int]]:
    code = (
        "from django.contrib.auth import get_user_model\n"
        "from rest_framework.authtoken.models import Token\n"
        "from players.models import Player\n"
        "import json\n"
        "from django.contrib.auth.models import Group\n"
        "u=get_user_model().objects.create_user('bench', is_staff=True)\n"
        "u.groups.add(Group.objects.get(name='Officials'))  # records casual matches for both players\n"
        "ps=[Player.objects.create(display_name=f'Bench {i}').pk for i in range(32)]\n"
        "print(json.dumps({'token': Token.objects.create(user=u).key, 'players': ps}))\n"
    )
    out = subprocess.run([PYTHON, "manage.py", "shell", "-c", code], cwd=ROOT, env=env, check=True,
                         capture_output=True, text=True).stdout
    data = json.loads(out.strip().splitlines()[-1])
    return data["token"], data["players"]


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
            time.sleep(0.3)
    raise SystemExit("gunicorn did not start")


class Client:
    def __init__(self, port: int, token: str):
        self.conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        self.headers = {"Authorization": f"Token {token}", "Content-Type": "application/json"}

    def post(self, path: str, body: dict) -> tuple[int, dict]:
        self.conn.request("POST", path, json.dumps(body), self.headers)
        response = self.conn.getresponse()
        return response.status, json.loads(response.read() or b"{}")


def _run(port: int, token: str, players: list[int], clients: int, seconds: float) -> dict:
    latencies: list[float] = []
    errors = [0]
    lock = threading.Lock()
    stop = time.time() + seconds

    def client_loop(index: int) -> None:
        client = Client(port, token)
        pair = {"player0": players[2 * index], "player1": players[2 * index + 1], "length": 7}
        _, match = client.post("/api/matches/", pair)
        mine = []
        while time.time() < stop:
            if match.get("finished"):
                _, match = client.post("/api/matches/", pair)
            command = {"type": "move", "move": match["legal_moves"][0]} if match["phase"] == "move" else {"type": "roll"}
            command["expected_version"] = match["version"]
            started = time.perf_counter()
            status, body = client.post(f"/api/matches/{match['id']}/commands/", command)
            mine.append(time.perf_counter() - started)
            if status != 200:
                errors[0] += 1
                continue
            match = body["state"]
        with lock:
            latencies.extend(mine)

    threads = [threading.Thread(target=client_loop, args=(i,)) for i in range(clients)]
    began = time.perf_counter()
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    elapsed = time.perf_counter() - began
    ordered = sorted(latencies)
    return {
        "commands": len(latencies),
        "per_second": len(latencies) / elapsed,
        "p50_ms": statistics.median(ordered) * 1000,
        "p99_ms": ordered[int(0.99 * (len(ordered) - 1))] * 1000,
        "errors": errors[0],
    }


if __name__ == "__main__":
    sys.exit(main())
