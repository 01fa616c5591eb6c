"""Twelve anonymous clients hammer the pages of the largest match an import allows; a bystander's API read
must stay under 1 s at the 99th percentile. Loopback only; stops by itself.

    .venv/bin/python bench/hammer.py [--seconds 30] [--clients 12] [--workers 3] [--database-url URL]

What runs: a fresh database ``crawford_hammer`` on the given PostgreSQL server; gunicorn
(``deploy/services/gunicorn.conf.py``, DEBUG=0, production throttles, their counts in Redis db 12) on a free
port of 127.0.0.1; a match of ``MAX_IMPORT_GAMES`` games or ``MAX_IMPORT_EVENTS`` actions (whichever comes
first: a random money session written as a .mat file) imported through the API. The clients loop over the
viewer (a random game), the match's state, a page of its events, its games, its dice and its .mat export; the
bystander, a signed-in member, reads ``/api/ratings/`` five times a second. Exit status 1 if the bystander's
p99 passes 1 s or a hammer's request got a 5xx.
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import random
import secrets
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from urllib.parse import urlparse, urlunparse

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.common import ROOT, code_version, recreate_database  # noqa: E402

DB_NAME = "crawford_hammer"
PYTHON = str(ROOT / ".venv" / "bin" / "python")


def largest_session(max_games: int, max_events: int, seed: int = 19) -> tuple[str, int, int]:
    """A money session of random legal play, as long as an import may be: (.mat text, games, actions)."""
    from games.engine.random_play import random_money_session

    return random_money_session(max_games, max_events, seed)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _get(conn: http.client.HTTPConnection, path: str, headers: dict | None = None) -> tuple[int, int]:
    conn.request("GET", path, headers=headers or {})
    response = conn.getresponse()
    body = response.read()
    return response.status, len(body)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seconds", type=float, default=30.0)
    parser.add_argument("--clients", type=int, default=12)
    parser.add_argument("--workers", type=int, default=3, help="gunicorn worker processes (2 threads each)")
    parser.add_argument("--database-url", default=os.environ.get("DATABASE_URL", "postgres://postgres@127.0.0.1:5432/crawford"))
    parser.add_argument("--redis-url", default="redis://127.0.0.1:6379/12")
    args = parser.parse_args()

    url = urlparse(args.database_url)
    recreate_database(url, DB_NAME)
    env = dict(os.environ, DATABASE_URL=urlunparse(url._replace(path="/" + DB_NAME)), REDIS_URL=args.redis_url,
               DEBUG="0", SECRET_KEY="bench-" + secrets.token_hex(24), SECURE_SSL_REDIRECT="0",
               ALLOWED_HOSTS="127.0.0.1", DJANGO_SETTINGS_MODULE="deploy.settings", PYTHONUNBUFFERED="1",
               GUNICORN_WORKERS=str(args.workers), LOG_LEVEL="WARNING")
    env.pop("API_THROTTLE_ANON", None), env.pop("API_THROTTLE_USER", None)  # production's rates
    os.environ.update({k: env[k] for k in ("DATABASE_URL", "REDIS_URL", "DEBUG", "SECRET_KEY", "SECURE_SSL_REDIRECT",
                                           "ALLOWED_HOSTS", "DJANGO_SETTINGS_MODULE", "LOG_LEVEL")})
    import django

    django.setup()
    import redis
    from django.contrib.auth import get_user_model
    from django.core.management import call_command
    from rest_framework.authtoken.models import Token

    from eventlog import projections
    from games import limits
    from players.models import Player

    call_command("migrate", verbosity=0)
    redis.Redis.from_url(args.redis_url).flushdb()
    User = get_user_model()
    official = User.objects.create_superuser("official", password=secrets.token_hex(8))
    bystander = User.objects.create_user("bystander", password=secrets.token_hex(8))
    Player.objects.create(display_name="Bystander", user=bystander)
    tokens = {u.username: Token.objects.create(user=u).key for u in (official, bystander)}

    started = time.time()
    text, games, actions = largest_session(limits.MAX_IMPORT_GAMES, limits.MAX_IMPORT_EVENTS)
    print(f"{code_version()}; CPython {sys.version.split()[0]}; {os.cpu_count()} CPUs")
    print(f"the largest import allowed: {games} games, {actions} actions, {len(text) / 1e6:.2f} MB of .mat "
          f"(caps: {limits.MAX_IMPORT_GAMES} games, {limits.MAX_IMPORT_EVENTS} actions); written in "
          f"{time.time() - started:.1f} s")

    port = _free_port()
    logs = Path(tempfile.mkdtemp(prefix="crawford-hammer-"))
    server = subprocess.Popen(
        [str(ROOT / ".venv" / "bin" / "gunicorn"), "-c", "deploy/services/gunicorn.conf.py", "deploy.wsgi:application",
         "--bind", f"127.0.0.1:{port}", "--access-logfile", "/dev/null"],
        cwd=ROOT, env=env, stdout=open(logs / "gunicorn.log", "w"), stderr=subprocess.STDOUT, start_new_session=True,
    )
    try:
        # ready once a worker answers: the master listens before any worker has booted, and a request sent then
        # would wait for a worker's boot (Django's imports) and count it as the import's answer
        deadline = time.time() + 120
        while True:
            try:
                probe = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
                probe.request("GET", "/api/health/")
                if probe.getresponse().status == 200:
                    break
                raise OSError("not ready")
            except OSError:
                if time.time() > deadline or server.poll() is not None:
                    raise RuntimeError("gunicorn did not start:\n" + (logs / "gunicorn.log").read_text()[-2000:])
                time.sleep(0.2)
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=120)
        t = time.time()
        conn.request("POST", "/api/matches/import/", body=json.dumps({"text": text}),
                     headers={"Content-Type": "application/json", "Authorization": f"Token {tokens['official']}"})
        answer = conn.getresponse()
        body = json.loads(answer.read())
        if answer.status != 202:  # a record this big is judged by a worker (games/imports.py)
            raise RuntimeError(f"the import was refused: {answer.status} {body}")
        print(f"the import answered 202 in {time.time() - t:.2f} s (job {body['id']})")
        from games import imports
        from games.models import ImportJob

        t = time.time()
        status = imports.import_run(pk=body["id"])  # the worker's part, here (no worker in this bench)
        match_id = ImportJob.objects.get(pk=body["id"]).stream_id
        if status != ImportJob.DONE:
            raise RuntimeError(f"the import failed: {ImportJob.objects.get(pk=body['id']).refusal}")
        print(f"judged and stored in {time.time() - t:.1f} s: match {match_id}")
        projections.run_all()  # the read models (no worker in this bench): its games' rows, the match list

        paths = [f"/matches/{match_id}/", f"/api/matches/{match_id}/", f"/api/matches/{match_id}/events/",
                 f"/api/matches/{match_id}/games/", f"/api/matches/{match_id}/dice/",
                 f"/api/matches/{match_id}/export.mat"]
        stop = time.time() + args.seconds  # no warm-up: the first visitors find every worker cold
        hammer: dict[int, int] = {}
        sizes: dict[str, int] = {}
        lock = threading.Lock()

        def hammer_loop(n: int) -> None:
            rnd = random.Random(n)
            c = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
            while time.time() < stop:
                path = rnd.choice(paths)
                query = (f"?game={rnd.randint(1, games)}" if path.startswith("/matches/")
                         else f"?after={rnd.randint(0, actions)}" if path.endswith("/events/") else "")
                try:
                    status, size = _get(c, path + query)
                except (OSError, http.client.HTTPException):
                    status, size = 0, 0
                    c = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
                with lock:
                    hammer[status] = hammer.get(status, 0) + 1
                    if status == 200:
                        sizes[path.rsplit("/", 2)[-2] or path] = max(size, sizes.get(path.rsplit("/", 2)[-2] or path, 0))

        latencies: list[float] = []
        timeline: list[tuple[float, float]] = []  # (seconds since the start, latency)
        bystander_status: dict[int, int] = {}

        def bystander_loop() -> None:
            c = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
            while time.time() < stop:
                t0 = time.perf_counter()
                try:
                    status, _ = _get(c, "/api/ratings/", {"Authorization": f"Token {tokens['bystander']}"})
                except (OSError, http.client.HTTPException):
                    status = 0
                    c = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
                latencies.append(time.perf_counter() - t0)
                timeline.append((t0 - started_perf, latencies[-1]))
                bystander_status[status] = bystander_status.get(status, 0) + 1
                time.sleep(0.2)

        started_perf = time.perf_counter()
        threads = [threading.Thread(target=hammer_loop, args=(n,)) for n in range(args.clients)]
        threads.append(threading.Thread(target=bystander_loop))
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(args.seconds + 180)
        latencies.sort()
        p99 = latencies[min(len(latencies) - 1, int(len(latencies) * 0.99))]
        print(f"{args.clients} anonymous clients for {args.seconds:.0f} s on {args.workers} gunicorn workers x 2 threads: "
              f"{sum(hammer.values())} requests, by status {dict(sorted(hammer.items()))}; largest answers (bytes) "
              f"{dict(sorted(sizes.items()))}")
        print(f"bystander GET /api/ratings/: {len(latencies)} reads, by status {bystander_status}; "
              f"p50 {statistics.median(latencies) * 1000:.0f} ms, p99 {p99 * 1000:.0f} ms, "
              f"max {latencies[-1] * 1000:.0f} ms")
        slowest = sorted(timeline, key=lambda t: -t[1])[:3]
        settled = sorted(lat for at, lat in timeline if at > 5)
        if settled:
            print(f"slowest reads at (s since start, latency s): {[(round(a, 1), round(b, 2)) for a, b in slowest]}; "
                  f"after the first 5 s: {len(settled)} reads, p99 "
                  f"{settled[min(len(settled) - 1, int(len(settled) * 0.99))] * 1000:.0f} ms")
        print(f"machine load average during the run: {os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs")
        failed = p99 > 1.0 or any(s >= 500 or s == 0 for s in hammer) or set(bystander_status) != {200}
        print("FAIL" if failed else "PASS: the bystander's p99 stays under 1 s")
        return 1 if failed else 0
    finally:
        os.killpg(server.pid, signal.SIGTERM)
        try:
            server.wait(timeout=20)
        except subprocess.TimeoutExpired:
            os.killpg(server.pid, signal.SIGKILL)


if __name__ == "__main__":
    sys.exit(main())
