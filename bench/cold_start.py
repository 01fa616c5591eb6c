"""The first command after a restart on a long money session: what a web worker that starts cold pays.

    REDIS_URL=redis://127.0.0.1:6379/12 .venv/bin/python bench/cold_start.py [--events 5000] [--runs 20]
                                                                            [--from-scratch]

A fresh database ``crawford_bench_cold`` on the PostgreSQL server of DATABASE_URL (default 127.0.0.1:5432) and the
Redis of REDIS_URL (the shared snapshots' cache, as in production; flushed first). This process records a money
session with board dice through the match service, command by command (a roll, then a legal play the engine
chooses), until it holds ``--events`` events: a long-lived worker's work. Then, ``--runs`` times, a new Python
process (a restarted worker: Django set up, nothing held) sends the session's next command and times it, from the
call to its return (the read of the match, the fold of what the shared snapshot lacks, the judgment, the append),
then a second command, warm. The new process is readied as gunicorn readies a worker
(deploy/services/gunicorn.conf.py's ``post_worker_init``) before it takes a request. Prints p50, p99 and the worst of each.

``--from-scratch`` deletes the shared snapshot before each new process: every one folds the whole session, as a
worker did when nothing shared a session recorded an event at a time (the figure to compare with).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import subprocess
import sys
import time
from pathlib import Path
from urllib.parse import urlparse, urlunparse

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from bench.common import ROOT, code_version, recreate_database  # noqa: E402

DB_NAME = "crawford_bench_cold"


def _setup(database: str) -> None:
    os.environ["DATABASE_URL"] = database
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "deploy.settings")
    os.environ.setdefault("SECRET_KEY", "bench-only-not-secret-" + "k" * 40)
    os.environ.setdefault("DEBUG", "0")
    os.environ.setdefault("ALLOWED_HOSTS", "127.0.0.1")
    import django

    django.setup()


def _next_command(record, rnd: random.Random):
    """The session's next command as a recorder sends it: a roll off the board, or a legal play."""
    from games.commands import RollDice
    from games.engine import commands as cmd
    from games.engine.match import MOVE, OPENING

    state = record.state
    dice = (rnd.randint(1, 6), rnd.randint(1, 6))
    if state.phase == OPENING:
        while dice[0] == dice[1]:
            dice = (rnd.randint(1, 6), rnd.randint(1, 6))
        return RollDice(dice=dice)
    if state.phase == MOVE:
        plays = state.legal_plays()
        return cmd.Move(state.turn, str(rnd.choice(plays)) if plays else "")
    return RollDice(dice=dice)


def _send(official, match_id: str, rnd: random.Random) -> float:
    from games.command_handler import match_command
    from games.loading import held, match_load

    known = held(match_id)
    record = known if known is not None else match_load(match_id)
    t0 = time.perf_counter()
    match_command(actor=official, stream_id=match_id, command=_next_command(record, rnd),
                  expected_version=record.version)
    return time.perf_counter() - t0


def _cold(database: str, match_id: str, seed: int) -> None:
    """A restarted worker, started as gunicorn starts one (its ``post_worker_init``): the first command (its read
    of the match included), then a second."""
    import runpy

    _setup(database)
    runpy.run_path(str(ROOT / "deploy/services/gunicorn.conf.py"))["post_worker_init"](None)
    from django.contrib.auth import get_user_model

    from games.command_handler import match_command
    from games.loading import match_load

    official = get_user_model().objects.get(username="official")
    rnd = random.Random(seed)
    t0 = time.perf_counter()
    record = match_load(match_id)
    match_command(actor=official, stream_id=match_id, command=_next_command(record, rnd),
                  expected_version=record.version)
    first = time.perf_counter() - t0
    second = _send(official, match_id, rnd)
    print(json.dumps({"first": first, "second": second, "version": match_load(match_id).version}))


def _percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * q))]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--events", type=int, default=5000)
    parser.add_argument("--runs", type=int, default=20)
    parser.add_argument("--from-scratch", action="store_true")
    parser.add_argument("--cold", nargs=2, metavar=("MATCH", "SEED"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    url = urlparse(os.environ.get("DATABASE_URL", "postgres://postgres@127.0.0.1:5432/crawford"))
    database = urlunparse(url._replace(path=f"/{DB_NAME}"))
    if args.cold:
        _cold(database, args.cold[0], int(args.cold[1]))
        return 0
    if not os.environ.get("REDIS_URL"):
        parser.error("REDIS_URL: the shared snapshots live in Redis, as in production")
    recreate_database(url, DB_NAME)
    _setup(database)
    import redis
    from django.contrib.auth import get_user_model
    from django.core.cache import cache
    from django.core.management import call_command

    from games.creation import match_create
    from games.loading import SNAPSHOTS, match_load
    from players.models import Player

    call_command("migrate", verbosity=0)
    redis.Redis.from_url(os.environ["REDIS_URL"]).flushdb()
    official = get_user_model().objects.create_superuser("official", password="bench-only-1234")
    a, b = Player.objects.create(display_name="Ada"), Player.objects.create(display_name="Bruno")
    match_id = match_create(actor=official, player0=a, player1=b, length=0, dice="board").stream_id
    print(f"{code_version()}; CPython {sys.version.split()[0]}; {os.cpu_count()} CPUs; load "
          f"{os.getloadavg()[0]:.2f}")
    rnd = random.Random(7)
    t0 = time.perf_counter()
    while match_load(match_id).version < args.events:
        _send(official, match_id, rnd)
    print(f"recorded {match_load(match_id).version} events in {time.perf_counter() - t0:.1f} s (one worker, "
          f"shared every {SNAPSHOTS.share_every} events)")
    firsts, seconds = [], []
    for run in range(args.runs):
        if args.from_scratch:
            cache.delete(SNAPSHOTS.key + match_id)
        out = subprocess.run([sys.executable, __file__, "--cold", match_id, str(run)], cwd=ROOT, env=os.environ,
                             capture_output=True, text=True)
        if out.returncode:
            raise RuntimeError(out.stderr[-2000:])
        said = json.loads(out.stdout.strip().splitlines()[-1])
        firsts.append(said["first"] * 1000)
        seconds.append(said["second"] * 1000)
    how = "the whole session folded each time (--from-scratch)" if args.from_scratch else "from the shared snapshot"
    print(f"{args.runs} restarted workers on a {said['version']}-event session, {how}:")
    for name, values in (("first command", firsts), ("second command", seconds)):
        print(f"  {name}: p50 {_percentile(values, 0.5):.1f} ms, p99 {_percentile(values, 0.99):.1f} ms, "
              f"worst {max(values):.1f} ms")
    print(f"load after: {os.getloadavg()[0]:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
