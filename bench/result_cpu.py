"""CPU seconds the worker spends on each result reported in a big event: the followers the result wakes, and the
advance they ask for, each timed by this thread's CPU clock. Runs in one process on bench/pages.py's data (its
database, built there first), with no worker and no server.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/crawford_bench_pages REDIS_URL=redis://127.0.0.1:6379/12 \
        .venv/bin/python bench/result_cpu.py [--results 10] [--profile FILE]

Each result is reported through ``tournament_command`` as the API does (not timed); this process's snapshot of the
event is then put back to where it stood, as a worker's would be (it last read the event before the command), and
the followers run as a worker's wake-up runs them. Prints each follower's CPU per result, mean and median, and of
a few parts of theirs; the first result, which also loads what a process loads once, is left out.
Every run reports ``--results`` more results of the event's latest round: the data moves on (rebuild it with
bench/pages.py when its round runs out).
"""

from __future__ import annotations

import argparse
import cProfile
import os
import secrets
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

EVENT = "Bench open"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--results", type=int, default=10)
    parser.add_argument("--profile", default="", help="write a cProfile of the followers' work to this file")
    args = parser.parse_args()
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "deploy.settings")
    os.environ.setdefault("DEBUG", "0")
    os.environ.setdefault("LOG_LEVEL", "WARNING")
    os.environ.setdefault("SECRET_KEY", "bench-" + secrets.token_hex(24))
    import django

    django.setup()
    from celery.signals import worker_process_init

    import deploy.celery  # noqa: F401 - its handlers of the worker's start, run below as a pool's process hears it
    from bench.common import code_version
    from eventlog import projections
    from eventlog import tasks as wake
    from tournaments import folding, services, stream
    from tournaments import tasks as tournament_tasks
    from tournaments.models import Tournament

    parts, calls = _timed_parts()
    wake._local.deferred = False  # no wake-up sent to a broker: the followers run here, timed
    asked: list[int] = []
    tournament_tasks.request_advance = asked.append  # the advance a follower asks for, run here too
    t = Tournament.objects.get(name=EVENT)
    director = t.director
    stream_id = stream.stream_id_of(t.pk)
    worker_process_init.send(sender=None)
    projections.run_all()  # at the log's head before the first result
    profile = cProfile.Profile() if args.profile else None
    per: dict[str, list[float]] = {}
    totals: list[float] = []
    rng_winner = 0
    for number in range(args.results):
        _, view = services.tournament_view(t)
        latest = max(s.round for s in view.slots)
        ready = [s for s in view.slots if s.round == latest and s.status == "ready"]
        if not ready:
            print("the event's latest round has no open table left: build the data again (bench/pages.py)")
            break
        s = ready[0]
        held = folding.SNAPSHOTS._held.get(stream_id)
        rng_winner ^= 1
        services.tournament_command(actor=director, tournament=t, command={
            "type": "report_result", "slot": s.key, "winner": s.players[rng_winner], "score": [s.length, 0]})
        with folding.SNAPSHOTS._lock:  # the worker's own snapshot: the event as it last read it
            if held is None:
                folding.SNAPSHOTS._held.pop(stream_id, None)
            else:
                folding.SNAPSHOTS._held[stream_id] = held
        spent: dict[str, float] = {}
        parts.clear()  # the command's own work is the web's, not the worker's
        calls.clear()
        if profile and number:
            profile.enable()
        for name in projections.registered():
            started = time.thread_time()
            projections.run(name)
            spent[name] = time.thread_time() - started
        while asked:
            started = time.thread_time()
            tournament_tasks.advance_tournament(asked.pop())
            spent["advance"] = spent.get("advance", 0.0) + time.thread_time() - started
            for name in projections.registered():  # what the advance appended
                started = time.thread_time()
                projections.run(name)
                spent[name] += time.thread_time() - started
        if profile and number:
            profile.disable()
        if not number:
            continue  # the first result also loads what the process loads once (modules, URL patterns): left out
        for name, seconds in spent.items():
            per.setdefault(name, []).append(seconds)
        for name, seconds in parts.items():
            per.setdefault("  of which " + name, []).append(seconds)
        parts.clear()
        totals.append(sum(spent.values()))
    print(f"{code_version()}; CPython {sys.version.split()[0]}; event {t.pk}: {len(totals)} results measured")
    for name, seconds in per.items():
        print(f"  {name:20s} mean {statistics.mean(seconds) * 1000:7.1f} ms, median "
              f"{statistics.median(seconds) * 1000:7.1f} ms")
    if totals:
        print(f"  {'all':20s} mean {statistics.mean(totals) * 1000:7.1f} ms, median "
              f"{statistics.median(totals) * 1000:7.1f} ms CPU per result")
    print("  calls of the parts at the last result:", calls)
    if profile:
        profile.dump_stats(args.profile)
    return 0


def _timed_parts() -> tuple[dict[str, float], dict[str, int]]:
    """CPU of a few parts of the followers' work, and their calls, summed per result (shown under the followers,
    "of which")."""
    from tournaments import derive, event_page, projections, selectors

    spent: dict[str, float] = {}
    calls: dict[str, int] = {}

    def timed(module, name: str, label: str) -> None:
        inner = getattr(module, name)

        def wrapper(*args, **kwargs):
            started = time.thread_time()
            try:
                return inner(*args, **kwargs)
            finally:
                spent[label] = spent.get(label, 0.0) + time.thread_time() - started
                calls[label] = calls.get(label, 0) + 1

        setattr(module, name, wrapper)

    timed(derive, "derive", "derive")
    timed(projections, "refresh", "view refresh")
    timed(event_page, "warm", "page warmed")
    timed(selectors, "tournament_data", "tournament_data")
    return spent, calls


if __name__ == "__main__":
    sys.exit(main())
