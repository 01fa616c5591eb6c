"""Fifty readers ask for a season's PDF table at once, cold, while a bystander reads a page.

A web node (gunicorn, as crawford-web@.service: 2 workers x 2 threads by default) and a Celery worker (the
``default`` queue, where the print goes) on a database of their own with the demo season, Redis db 10.
``--clients`` threads each ask for the table until they get it (a new address each, through the trusted proxy, as
50 readers behind nginx; a 202 "being printed" is asked again after its Retry-After); a bystander reads
``/seasons/`` every 0.2 s meanwhile. Prints the answers by status, how many prints were made, and the bystander's
p50 / p99 / max.

    .venv/bin/python bench/pdf_crowd.py --clients 50
"""

from __future__ import annotations

import argparse
import http.client
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

DB_NAME = "crawford_bench_pdf"


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--clients", type=int, default=50)
    parser.add_argument("--database-url", default=os.environ.get("DATABASE_URL", "postgres://postgres@127.0.0.1:5432/crawford"))
    parser.add_argument("--redis-url", default="redis://127.0.0.1:6379/10")
    args = parser.parse_args()

    url = urlparse(args.database_url)
    recreate_database(url, DB_NAME)
    env = dict(os.environ, DATABASE_URL=urlunparse(url._replace(path="/" + DB_NAME)), REDIS_URL=args.redis_url,
               DEBUG="0", SECRET_KEY="bench-" + secrets.token_hex(24), SECURE_SSL_REDIRECT="0",
               ALLOWED_HOSTS="127.0.0.1", DJANGO_SETTINGS_MODULE="deploy.settings", PYTHONUNBUFFERED="1",
               LOG_LEVEL="WARNING", TRUSTED_PROXIES="127.0.0.1")
    os.environ.update({k: env[k] for k in ("DATABASE_URL", "REDIS_URL", "DEBUG", "SECRET_KEY", "SECURE_SSL_REDIRECT",
                                           "ALLOWED_HOSTS", "DJANGO_SETTINGS_MODULE", "LOG_LEVEL")})
    import django

    django.setup()
    import redis
    from django.contrib.auth import get_user_model
    from django.core.management import call_command

    from eventlog import projections
    from players.models import Club, Player
    from seasons import demo
    from seasons.models import Season

    call_command("migrate", verbosity=0)
    redis.Redis.from_url(args.redis_url).flushdb()
    director = get_user_model().objects.create_user("dora", password=secrets.token_hex(8))
    club = Club.objects.create(name="Riverside")
    club.directors.add(director)
    players = [Player.objects.create(display_name=n, club=club) for n in
               ("Ada", "Bruno", "Chloé", "Dimitri", "Eva", "Farid", "Greta", "Hugo")]
    demo.load(director=director, club=club, players=players, rnd=random.Random(3))
    projections.run_all()
    season = Season.objects.get()
    print(f"{code_version()}; CPython {sys.version.split()[0]}; {os.cpu_count()} CPUs")

    port = _free_port()
    logs = Path(tempfile.mkdtemp(prefix="crawford-pdf-crowd-"))
    node = subprocess.Popen([str(ROOT / ".venv/bin/gunicorn"), "-c", "deploy/services/gunicorn.conf.py",
                             "deploy.wsgi:application", "--bind", f"127.0.0.1:{port}"], cwd=ROOT, env=env,
                            stdout=open(logs / "web.log", "w"), stderr=subprocess.STDOUT, start_new_session=True)
    worker = subprocess.Popen([sys.executable, "-m", "celery", "-A", "deploy", "worker", "-Q", "default",
                               "--pool", "solo", "-l", "warning"], cwd=ROOT, env=env,
                              stdout=open(logs / "worker.log", "w"), stderr=subprocess.STDOUT, start_new_session=True)
    try:
        deadline = time.time() + 120
        while True:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                break
            except OSError:
                if time.time() > deadline or node.poll() is not None:
                    raise RuntimeError("gunicorn did not start:\n" + (logs / "web.log").read_text()[-2000:]) from None
                time.sleep(0.2)

        def get(path: str, address: str) -> tuple[int, float]:
            t0 = time.perf_counter()
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=300)
            conn.request("GET", path, headers={"X-Forwarded-For": address})
            answer = conn.getresponse()
            answer.read()
            conn.close()
            return answer.status, time.perf_counter() - t0

        get("/seasons/", "10.0.0.1")  # warm the workers
        statuses: dict[int, int] = {}
        lock = threading.Lock()
        done = threading.Event()

        def reader(n: int) -> None:
            while True:
                status, _ = get(f"/seasons/{season.pk}/table.pdf", f"10.1.{n // 250}.{n % 250 + 1}")
                with lock:
                    statuses[status] = statuses.get(status, 0) + 1
                if status != 202:
                    return
                time.sleep(3)  # the answer's Retry-After

        latencies: list[float] = []

        def bystander() -> None:
            while not done.is_set():
                status, seconds = get("/seasons/", "10.9.9.9")
                latencies.append(seconds)
                time.sleep(0.2)

        watch = threading.Thread(target=bystander)
        watch.start()
        t0 = time.time()
        readers = [threading.Thread(target=reader, args=(n,)) for n in range(args.clients)]
        for thread in readers:
            thread.start()
        for thread in readers:
            thread.join()
        seconds = time.time() - t0
        done.set()
        watch.join()
        from seasons.models import PrintedSheet

        prints = PrintedSheet.objects.filter(pdf__isnull=False).count()
        latencies.sort()
        print(f"{args.clients} readers asking for the season's PDF until they had it: {seconds:.1f} s, by status "
              f"{dict(sorted(statuses.items()))}; PDFs printed: {prints}")
        print(f"bystander GET /seasons/ meanwhile: {len(latencies)} reads, p50 {statistics.median(latencies) * 1000:.0f} ms,"
              f" p99 {latencies[min(len(latencies) - 1, int(len(latencies) * 0.99))] * 1000:.0f} ms, "
              f"max {latencies[-1] * 1000:.0f} ms")
        print(f"machine load average: {os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs")
        return 0
    finally:
        for proc in (node, worker):
            os.killpg(proc.pid, signal.SIGTERM)
            proc.wait(timeout=60)


if __name__ == "__main__":
    sys.exit(main())
