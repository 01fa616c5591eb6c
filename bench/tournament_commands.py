"""A tournament command's cost against the event's size: the same command in a small and a big Swiss.

    .venv/bin/python bench/tournament_commands.py [--sizes 16,1000] [--commands 12] [--profile]
                                                 [--round-notices] [--database-url URL]

For each size, on a fresh database ``crawford_bench_commands``: a Swiss of that many players is entered and
drawn through ``tournaments.services.tournament_command`` (round 1 paired by the draw), then ``--commands``
paper results of round 1 are reported one by one, each timed (wall clock, ms), in the same process: the
event's facts are read as a running node would (its snapshot held, the rows after it read). Printed: p50 and
max per size and the ratio of the biggest size's p50 to the smallest's (goal: within 1.5x). ``--profile``:
where the reported results' time went in the biggest event (cProfile, top 15 by cumulative time).

``--round-notices``: in the biggest event, every other result of round 1 reported too, then timed: round 2
paired (``pair_round``), its matches created (``tournament_advance``, run with the projections until nothing is
left, as the worker would, its projection runs batched: ``one_wake_up``) and every match notice sent (Celery runs in-process here: the tasks run as they are
queued; e-mail to Django's in-memory outbox). Printed: the seconds, the notices sent and whether every one of
the round's matches has its notice sent (goal: < 10 s at 1,000 players).
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
    parser.add_argument("--round-notices", action="store_true")
    parser.add_argument("--database-url", default=os.environ.get("DATABASE_URL", "postgres://postgres@127.0.0.1:5432/crawford"))
    args = parser.parse_args()
    url = urlparse(args.database_url)
    recreate_database(url, "crawford_bench_commands")
    os.environ["DATABASE_URL"] = urlunparse(url._replace(path="/crawford_bench_commands"))
    os.environ.pop("REDIS_URL", None)  # nothing woken: no broker, no worker
    os.environ["EMAIL_BACKEND"] = "django.core.mail.backends.locmem.EmailBackend"  # no 1,000 mails on stdout
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
    p50s, events = {}, {}
    for n in sizes:
        p50s[n], events[n] = run(n, args.commands, args.profile and n == max(sizes))
    small, big = min(sizes), max(sizes)
    print(f"ratio p50 {big:,} / {small:,} players: {p50s[big] / p50s[small]:.2f} (goal <= 1.5)")
    if args.round_notices:
        round_notices(*events[big], profile=args.profile)


def round_notices(t, director, profile: bool = False) -> None:
    from django.core import mail
    from eventlog import projections
    from eventlog.tasks import one_wake_up
    from tournaments import services
    from tournaments.models import MatchNotice

    rng = random.Random(7)
    facts, view = services.tournament_view(t)
    for s in view.slots:
        if s.round == 1 and s.status == "ready":
            a, b = s.players
            services.tournament_command(actor=director, tournament=t, command=dict(
                type="report_result", slot=s.key, winner=a if rng.random() < 0.5 else b, score=[s.length, 0]))
    projections.run_all()
    services.tournament_advance(t)
    projections.run_all()  # round 1 settled: its matches closed, its notices sent, before the clock starts
    mail.outbox = []
    before = set(MatchNotice.objects.filter(tournament_id=t.pk).values_list("match_id", flat=True))
    profiler = cProfile.Profile() if profile else None
    started = time.perf_counter()
    if profiler:
        profiler.enable()
    with one_wake_up():  # in-process Celery would run every projection after each match's append: the worker
        services.tournament_command(actor=director, tournament=t, command={"type": "pair_round"})  # runs batches
        while True:
            projections.run_all()
            if not services.tournament_advance(t):
                break
        projections.run_all()
    took = time.perf_counter() - started
    if profiler:
        profiler.disable()
        out = io.StringIO()
        pstats.Stats(profiler, stream=out).sort_stats("cumulative").print_stats(40)
        print(out.getvalue())
    facts, view = services.tournament_view(t)
    round2 = {facts.matches[s.key]["match_id"] for s in view.slots if s.round == 2 and s.key in facts.matches}
    made = MatchNotice.objects.filter(tournament_id=t.pk).exclude(match_id__in=before)
    unsent = made.filter(sent_at__isnull=True).count()
    print(f"round 2 of the {len(facts.seeds):,}-player Swiss paired, {len(round2)} matches created and notified in "
          f"{took:.1f} s (goal < 10 s): {made.count()} notices, {unsent} unsent, {len(mail.outbox)} e-mails, "
          f"every match notified: {round2 <= set(made.values_list('match_id', flat=True))}")


def run(n: int, count: int, profile: bool):
    from django.contrib.auth import get_user_model

    from eventlog.tasks import one_wake_up
    from players.models import Player
    from tournaments import services

    rng = random.Random(n)
    director = get_user_model().objects.create_superuser(f"bench-director-{n}", password=secrets.token_hex(8))
    field = [p.pk for p in Player.objects.bulk_create(
        Player(display_name=f"Swiss {n}.{i}", email=f"swiss{n}.{i}@example.org") for i in range(n))]
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
    return p50, (t, director)


if __name__ == "__main__":
    main()
