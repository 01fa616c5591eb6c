"""A tournament command's cost against the event's size: the same command in a small and a big Swiss.

    .venv/bin/python bench/tournament_commands.py [--sizes 16,1000] [--commands 12] [--profile]
                                                 [--database-url URL]

For each size, on a fresh database ``crawford_bench_commands``: a Swiss of that many players is entered and
drawn through ``tournaments.services.tournament_command`` (round 1 paired by the draw), then ``--commands``
paper results of round 1 are reported one by one, each timed (wall clock, ms), in the same process: the
event's facts are read as a running node would (its snapshot held, the rows after it read). Printed: p50 and
max per size and the ratio of the biggest size's p50 to the smallest's (goal: within 1.5x). ``--profile``:
where the reported results' time went in the biggest event (cProfile, top 15 by cumulative time).
"""

from __future__ import annotations

import argparse
import cProfile
import io
import os
import pstats
import random
import secrets
import statistics
import sys
import time
from pathlib import Path
from urllib.parse import urlparse, urlunparse

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.common import code_version, recreate_database  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sizes", default="16,1000")
    parser.add_argument("--commands", type=int, default=12)
    parser.add_argument("--profile", action="store_true")
    parser.add_argument("--database-url", default=os.environ.get("DATABASE_URL", "postgres://postgres@127.0.0.1:5432/crawford"))
    args = parser.parse_args()
    url = urlparse(args.database_url)
    recreate_database(url, "crawford_bench_commands")
    os.environ["DATABASE_URL"] = urlunparse(url._replace(path="/crawford_bench_commands"))
    os.environ.pop("REDIS_URL", None)  # nothing woken: no broker, no worker
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "deploy.settings")
    os.environ.setdefault("SECRET_KEY", "bench-" + secrets.token_hex(24))
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)
    print(code_version())
    with open("/proc/loadavg") as f:
        print("load:", " ".join(f.read().split()[:3]))
    sizes = [int(s) for s in args.sizes.split(",")]
    p50s = {}
    for n in sizes:
        p50s[n] = run(n, args.commands, args.profile and n == max(sizes))
    small, big = min(sizes), max(sizes)
    print(f"ratio p50 {big:,} / {small:,} players: {p50s[big] / p50s[small]:.2f} (goal <= 1.5)")


def run(n: int, count: int, profile: bool) -> float:
    from django.contrib.auth import get_user_model

    from eventlog.tasks import one_wake_up
    from players.models import Player
    from tournaments import services

    rng = random.Random(n)
    director = get_user_model().objects.create_superuser(f"bench-director-{n}", password=secrets.token_hex(8))
    field = [p.pk for p in Player.objects.bulk_create(Player(display_name=f"Swiss {n}.{i}") for i in range(n))]
    t = services.tournament_create(actor=director, name=f"Bench {n}", format="swiss",
                                   settings={"rounds": 9, "auto_pair": False})

    def cmd(**command):
        return services.tournament_command(actor=director, tournament=t, command=command)

    took = []
    with one_wake_up():
        started = time.perf_counter()
        for p in field:
            cmd(type="enter", player=p)
        cmd(type="draw", method="manual", seeds=field)
        set_up = time.perf_counter() - started
        facts, view = services.tournament_view(t)
        ready = [s for s in view.slots if s.round == 1 and s.status == "ready"][:count]
        profiler = cProfile.Profile() if profile else None
        for s in ready:
            a, b = s.players
            started = time.perf_counter()
            if profiler:
                profiler.enable()
            cmd(type="report_result", slot=s.key, winner=a if rng.random() < 0.5 else b, score=[s.length, 0])
            if profiler:
                profiler.disable()
            took.append((time.perf_counter() - started) * 1000)
    p50 = statistics.median(took)
    print(f"{n:>6,} players ({facts.version:,} events, set up in {set_up:.1f} s): report_result x{len(took)} "
          f"p50 {p50:.1f} ms, max {max(took):.1f} ms")
    if profiler:
        out = io.StringIO()
        pstats.Stats(profiler, stream=out).sort_stats("cumulative").print_stats(15)
        print(out.getvalue())
    return p50


if __name__ == "__main__":
    main()
