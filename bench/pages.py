"""The public pages of a big club at 8 clients: a 1,000-player Swiss's event page (nothing changing, then a result
reported every second) and /ratings/ with 10,000 rated players. Prints pages/s and p50/p99 of each.

    .venv/bin/python bench/pages.py [--players 1000] [--rated 10000] [--seconds 20] [--clients 8] [--workers 3]
                                    [--reuse] [--code PATH] [--database-url URL]

What runs: a database ``crawford_bench_pages`` (``--database-name``; kept with ``--reuse``: building it takes minutes); gunicorn
(``deploy/services/gunicorn.conf.py``, DEBUG=0, ``--workers`` x 2 threads, its cache in Redis db 12) on a free
port of 127.0.0.1, serving the code at ``--code`` (another worktree, e.g. an older commit, for a before/after on
the same data; default this one).

The data: ``--players`` players entered in a Swiss through ``tournament_command``, drawn, round 1 reported on
paper, round 2 paired with half its results in; ``--rated`` more players, each with a rated match appended whole
(as tests/ratings/season.py does); the projections run once.

Measured, each for ``--seconds``, ``--clients`` threads each with its own connection and cookies:
1. the event page, nothing changing, every GET a full page (no If-None-Match);
2. the same, each client revalidating its copy as a browser does (If-None-Match: mostly 304);
3. the event page (full GETs) while a director reports a round-2 result through the API every second and a real
   Celery worker (``-Q default,projections``, a process of its own, as in production) runs the projections each
   result wakes;
4. /ratings/ (its first page), full GETs.
pages/s counts answers 200 and 304; any other status is printed.
"""

from __future__ import annotations

import argparse
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

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.common import code_version, recreate_database  # noqa: E402
from bench.hammer import _free_port  # noqa: E402

DB_NAME = "crawford_bench_pages"
EVENT = "Bench open"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--players", type=int, default=1_000)
    parser.add_argument("--rated", type=int, default=10_000)
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--clients", type=int, default=8)
    parser.add_argument("--workers", type=int, default=3)
    parser.add_argument("--database-name", default=DB_NAME)
    parser.add_argument("--reuse", action="store_true", help="keep the database of an earlier run if it has the event")
    parser.add_argument("--code", default=str(ROOT), help="the worktree gunicorn serves")
    parser.add_argument("--only", default="", help="comma-separated parts to run (1-4); default all")
    parser.add_argument("--database-url", default=os.environ.get("DATABASE_URL", "postgres://postgres@127.0.0.1:5432/crawford"))
    parser.add_argument("--redis-url", default="redis://127.0.0.1:6379/12")
    args = parser.parse_args()

    url = urlparse(args.database_url)
    db_url = urlunparse(url._replace(path="/" + args.database_name))
    reused = args.reuse and _has_event(db_url)
    if not reused:
        recreate_database(url, args.database_name)
    env = dict(os.environ, DATABASE_URL=db_url, REDIS_URL=args.redis_url, DEBUG="0",
               SECRET_KEY="bench-" + secrets.token_hex(24), SECURE_SSL_REDIRECT="0", ALLOWED_HOSTS="127.0.0.1",
               DJANGO_SETTINGS_MODULE="deploy.settings", PYTHONUNBUFFERED="1", GUNICORN_WORKERS=str(args.workers),
               LOG_LEVEL="WARNING")
    os.environ.update({k: env[k] for k in ("DATABASE_URL", "REDIS_URL", "DEBUG", "SECRET_KEY", "SECURE_SSL_REDIRECT",
                                           "ALLOWED_HOSTS", "DJANGO_SETTINGS_MODULE", "LOG_LEVEL")})
    import django

    django.setup()
    import redis
    from django.core.management import call_command

    call_command("migrate", verbosity=0)
    redis.Redis.from_url(args.redis_url).flushdb()
    started = time.time()
    if not reused:
        _build(args)
    from rest_framework.authtoken.models import Token

    from tournaments.models import Tournament

    t = Tournament.objects.get(name=EVENT)
    token = Token.objects.get_or_create(user_id=t.director_id)[0].key
    print(f"{code_version()}; serving {args.code}; CPython {sys.version.split()[0]}; {os.cpu_count()} CPUs")
    print(f"data {'reused' if reused else 'built'} in {time.time() - started:.0f} s: event {t.pk} "
          f"({args.players} players), {args.rated} more rated players")

    port = _free_port()
    logs = Path(tempfile.mkdtemp(prefix="crawford-pages-"))
    code = Path(args.code)
    server = subprocess.Popen(
        [str(ROOT / ".venv" / "bin" / "gunicorn"), "-c", "deploy/services/gunicorn.conf.py", "deploy.wsgi:application",
         "--bind", f"127.0.0.1:{port}", "--access-logfile", "/dev/null"],
        cwd=code, env=dict(env, PYTHONPATH=str(code)), stdout=open(logs / "gunicorn.log", "w"),
        stderr=subprocess.STDOUT, start_new_session=True)
    try:
        _wait_ready(port, server, logs)
        parts = set(args.only.split(",")) if args.only else {"1", "2", "3", "4"}
        page = f"/events/{t.pk}/"
        for number, label, path, revalidate, results in (
                ("1", "event page, nothing changing, full GETs", page, False, False),
                ("2", "event page, nothing changing, revalidating (If-None-Match)", page, True, False),
                ("3", "event page, full GETs, a result reported every second", page, False, True),
                ("4", "/ratings/ (10,000 rated), full GETs", "/ratings/", False, False)):
            if number not in parts:
                continue
            _get_once(port, path)  # the first view of a page at a position builds it; then the load
            worker = _worker(code, env, logs) if results else None
            reporter = _Reporter(port, t, token) if results else None
            try:
                figures = _load(port, path, args.clients, args.seconds, revalidate)
            finally:
                reported = reporter.stop() if reporter else None
                lag = _projection_lag() if worker is not None else None
                if worker is not None:
                    _stop(worker)
            print(f"{number}. {label}: {figures['pages'] / args.seconds:.1f} pages/s ({figures['pages']} in "
                  f"{args.seconds:.0f} s; statuses {figures['statuses']}; {figures['bytes'] // 1024} KB a full page), "
                  f"p50 {figures['p50']:.0f} ms, p99 {figures['p99']:.0f} ms"
                  + (f"; {reported} results reported, the event's tables caught up {lag:.1f} s after the last"
                     if reported is not None else "")
                  + f"; load {open('/proc/loadavg').read().split()[:3]}")
        return 0
    finally:
        _stop(server)


def _projection_lag() -> float:
    """Seconds until the worker has the event's tables at the log's head: a worker left behind would flatter the
    pages' figures."""
    from django.db import connection
    from django.db.models import Max

    from eventlog.models import Event, ProjectionCheckpoint

    started = time.time()
    top = Event.objects.aggregate(top=Max("global_position"))["top"]
    while ProjectionCheckpoint.objects.get(name="tournament_view").position < top:
        if time.time() - started > 300:
            raise RuntimeError("the worker did not catch up with the log in 300 s")
        time.sleep(0.1)
    connection.close()
    return time.time() - started


def _stop(process: subprocess.Popen) -> None:
    os.killpg(process.pid, signal.SIGTERM)
    try:
        process.wait(timeout=20)
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)


def _worker(code: Path, env: dict, logs: Path) -> subprocess.Popen:
    """The projections' worker, as production runs it: its own process, so its work competes with the server for
    the CPUs, not with the measuring clients for this process's lock."""
    log = logs / "worker.log"
    worker = subprocess.Popen(
        [str(ROOT / ".venv" / "bin" / "celery"), "-A", "deploy", "worker", "-Q", "default,projections", "--pool",
         "solo", "-n", "bench-pages@%h", "--without-gossip", "--without-mingle", "-l", "info"],
        cwd=code, env=dict(env, PYTHONPATH=str(code)), stdout=open(log, "w"), stderr=subprocess.STDOUT,
        start_new_session=True)
    deadline = time.time() + 120
    while "ready." not in log.read_text():
        if time.time() > deadline or worker.poll() is not None:
            raise RuntimeError("the Celery worker did not start:\n" + log.read_text()[-2000:])
        time.sleep(0.2)
    return worker


def _has_event(db_url: str) -> bool:
    import psycopg

    try:
        with psycopg.connect(db_url) as conn:
            return conn.execute("SELECT 1 FROM tournaments_tournament WHERE name = %s", (EVENT,)).fetchone() is not None
    except psycopg.Error:
        return False


def _build(args) -> None:
    from django.contrib.auth import get_user_model

    from eventlog import projections
    from eventlog.tasks import one_wake_up
    from players.models import Player
    from tests.ratings.season import quick_match
    from tournaments import services

    rng = random.Random(2026)
    director = get_user_model().objects.create_superuser("bench-director", password=secrets.token_hex(8))
    field = [p.pk for p in Player.objects.bulk_create(Player(display_name=f"Open {i}") for i in range(args.players))]
    t = services.tournament_create(actor=director, name=EVENT, format="swiss", settings={"rounds": 9, "auto_pair": False})

    def cmd(**command):
        return services.tournament_command(actor=director, tournament=t, command=command)

    with one_wake_up():
        for p in field:
            cmd(type="enter", player=p)
        cmd(type="draw", method="manual", seeds=field)
        for round_no, share in ((1, 1.0), (2, 0.5)):
            if round_no > 1:
                cmd(type="pair_round")
            _, view = services.tournament_view(t)
            ready = [s for s in view.slots if s.round == round_no and s.status == "ready"]
            for s in ready[:int(len(ready) * share)]:
                a, b = s.players
                cmd(type="report_result", slot=s.key, winner=a if rng.random() < 0.5 else b, score=[s.length, 0])
    rated = [p.pk for p in Player.objects.bulk_create(Player(display_name=f"Rated {i}") for i in range(args.rated))]
    for a, b in zip(rated[::2], rated[1::2]):
        quick_match(a, b, rng.choice([1, 3, 5, 7]), rng.randint(0, 1), rng)
    projections.run_all()
    services.tournament_advance(t)
    projections.run_all()


def _wait_ready(port: int, server, logs: Path) -> None:
    deadline = time.time() + 120
    while True:
        try:
            probe = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
            probe.request("GET", "/api/health/")
            if probe.getresponse().status == 200:
                return
            raise OSError("not ready")
        except OSError:
            if time.time() > deadline or server.poll() is not None:
                raise RuntimeError("gunicorn did not start:\n" + (logs / "gunicorn.log").read_text()[-2000:])
            time.sleep(0.2)


def _get_once(port: int, path: str) -> None:
    c = http.client.HTTPConnection("127.0.0.1", port, timeout=300)
    c.request("GET", path)
    c.getresponse().read()


def _load(port: int, path: str, clients: int, seconds: float, revalidate: bool) -> dict:
    latencies: list[float] = []
    statuses: dict[int, int] = {}
    sizes = [0]
    lock = threading.Lock()
    stop = time.time() + seconds

    def client() -> None:
        c = http.client.HTTPConnection("127.0.0.1", port, timeout=120)
        cookie, etag = "", ""
        while time.time() < stop:
            headers = {"Cookie": cookie} if cookie else {}
            if revalidate and etag:
                headers["If-None-Match"] = etag
            t0 = time.perf_counter()
            try:
                c.request("GET", path, headers=headers)
                answer = c.getresponse()
                body = answer.read()
                status = answer.status
            except (OSError, http.client.HTTPException):
                status, body = 0, b""
                c = http.client.HTTPConnection("127.0.0.1", port, timeout=120)
            elapsed = time.perf_counter() - t0
            if status == 200:
                etag = answer.getheader("ETag") or ""
                set_cookie = answer.getheader("Set-Cookie") or ""
                if set_cookie.startswith("csrftoken="):
                    cookie = set_cookie.split(";", 1)[0]
            with lock:
                latencies.append(elapsed)
                statuses[status] = statuses.get(status, 0) + 1
                if status == 200:
                    sizes[0] = max(sizes[0], len(body))

    threads = [threading.Thread(target=client) for _ in range(clients)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(seconds + 300)
    latencies.sort()
    return {"pages": statuses.get(200, 0) + statuses.get(304, 0), "statuses": dict(sorted(statuses.items())),
            "bytes": sizes[0], "p50": statistics.median(latencies) * 1000 if latencies else 0,
            "p99": latencies[min(len(latencies) - 1, int(len(latencies) * 0.99))] * 1000 if latencies else 0}


class _Reporter:
    """A director reporting the round's open tables one a second through the API (the worker runs the projections
    each result wakes)."""

    def __init__(self, port: int, t, token: str):
        from tournaments import services

        _, view = services.tournament_view(t)
        self.slots = [s for s in view.slots if s.status == "ready" and s.round == max(x.round for x in view.slots)]
        self.port, self.t, self.token, self.count = port, t, token, 0
        self.done = threading.Event()
        self.thread = threading.Thread(target=self.run)
        self.thread.start()

    def run(self) -> None:
        rng = random.Random(7)
        while not self.done.wait(1.0) and self.slots:
            c = http.client.HTTPConnection("127.0.0.1", self.port, timeout=120)
            s = self.slots.pop()
            a, b = s.players
            body = {"type": "report_result", "slot": s.key, "winner": a if rng.random() < 0.5 else b,
                    "score": [s.length, 0]}
            c.request("POST", f"/api/tournaments/{self.t.pk}/commands/", body=json.dumps(body),
                      headers={"Content-Type": "application/json", "Authorization": f"Token {self.token}"})
            answer = c.getresponse()
            answer.read()
            c.close()
            if answer.status == 200:
                self.count += 1

    def stop(self) -> int:
        self.done.set()
        self.thread.join(300)
        return self.count


if __name__ == "__main__":
    sys.exit(main())
