"""How long a full rebuild of the ratings takes: 100,000 matches among 2,000 players on PostgreSQL.

    .venv/bin/python bench/ratings.py [--matches 100000] [--players 2000] [--database-url URL]
                                      [--database-name crawford_bench_ratings] [--no-analyze] [--profile FILE]

Makes a fresh database ``crawford_bench_ratings`` on the PostgreSQL server of
DATABASE_URL (default 127.0.0.1:5432), records the matches as real match
streams (every event judged by the engine: each game the loser resigns, so a
match is 7 to 20 events), loads them with COPY, ANALYZEs the log (not with
``--no-analyze``), then times
``rebuild_projections ratings``: emptying the ratings and replaying the whole
log into them. The result is checked against a straight sequential
recomputation of the formula. ``--profile FILE`` runs the rebuild under cProfile
(slower), saves the profile and prints where the time went.
"""

from __future__ import annotations

import argparse
import json
import os
import secrets
import random
import sys
import time
from pathlib import Path
from urllib.parse import urlparse, urlunparse

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--matches", type=int, default=100_000)
    parser.add_argument("--players", type=int, default=2_000)
    parser.add_argument("--database-url", default=os.environ.get("DATABASE_URL", "postgres://postgres@127.0.0.1:5432/crawford"))
    parser.add_argument("--database-name", default="crawford_bench_ratings", help="the fresh database made for the run")
    parser.add_argument("--no-analyze", action="store_true",
                        help="rebuild on the log as loaded, without the ANALYZE autovacuum would do: every batch then scans the rest of the log")
    parser.add_argument("--profile", metavar="FILE", help="run the rebuild under cProfile, save the profile to FILE")
    args = parser.parse_args()

    url = urlparse(args.database_url)
    _recreate(url, args.database_name)
    os.environ["DATABASE_URL"] = urlunparse(url._replace(path="/" + args.database_name))
    os.environ.pop("REDIS_URL", None)
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "deploy.settings")
    os.environ.setdefault("SECRET_KEY", "bench-" + secrets.token_hex(24))  # the settings have no fallback key
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)

    from eventlog import projections
    from players.models import Player
    from ratings.models import PlayerRating

    players = [p.pk for p in Player.objects.bulk_create(Player(display_name=f"Bench {i}") for i in range(args.players))]
    started = time.perf_counter()
    results, events = _record(players, args.matches)
    made = time.perf_counter() - started
    print(f"recorded {args.matches:,} matches ({events:,} events) among {args.players:,} players in {made:.1f} s")
    if not args.no_analyze:
        # What autovacuum does on a server after a bulk load (it is off on the benchmark machine, and would
        # not have woken yet anyway): without statistics the planner reads each batch of the rebuild with a
        # bitmap scan of the whole rest of the log and a sort (~0.4 s a batch here) instead of the primary key
        # index (~4 ms); the same as bench/events.py does after its COPY.
        from django.db import connection

        with connection.cursor() as cursor:
            cursor.execute("ANALYZE eventlog_event")

    started = time.perf_counter()
    if args.profile:
        import cProfile
        import pstats

        profiler = cProfile.Profile()
        applied = profiler.runcall(projections.rebuild, "ratings")
        profiler.dump_stats(args.profile)
    else:
        applied = projections.rebuild("ratings")
    rebuild = time.perf_counter() - started
    print(f"rebuild of ratings: {rebuild:.1f} s for {applied:,} events "
          f"({args.matches / rebuild:,.0f} matches/s, {applied / rebuild:,.0f} events/s)")

    from ratings.formula import Rated, rate

    expected: dict[int, Rated] = {}
    for winner, loser, length in results:
        expected[winner], expected[loser] = rate(expected.get(winner, Rated()), expected.get(loser, Rated()), length)
    stored = {r.player_id: (r.rating, r.experience) for r in PlayerRating.objects.all()}
    same = stored == {p: (r.rating, r.experience) for p, r in expected.items()}
    print(f"identical to a sequential recomputation: {same}")
    if args.profile:
        stats = pstats.Stats(args.profile)
        stats.sort_stats("tottime").print_stats(15)
        stats.sort_stats("cumulative").print_stats(25)


def _recreate(url, name: str) -> None:
    import psycopg

    with psycopg.connect(urlunparse(url._replace(path="/postgres")), autocommit=True) as conn:
        conn.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")
        conn.execute(f"CREATE DATABASE {name}")


def _record(players: list[int], matches: int) -> tuple[list[tuple[int, int, int]], int]:
    """Judge every match with the engine, then COPY all events into the log at once."""
    import uuid

    from django.db import connection

    from games import streams
    from games.engine import commands as c
    from games.engine.match import MatchState, decide, evolve

    rnd = random.Random(2026)
    results = []
    position = 0
    with connection.cursor() as cursor, cursor.connection.cursor().copy(
        "COPY eventlog_event (global_position, stream_id, stream_type, version, event_type, schema_version,"
        " payload, metadata, recorded_at) FROM STDIN"
    ) as copy:
        for _ in range(matches):
            p0, p1 = rnd.sample(players, 2)
            length = rnd.choice([1, 3, 5, 7, 11])
            winner = rnd.randint(0, 1)
            state, new = MatchState(), []
            for command in [c.StartMatch((f"P{p0}", f"P{p1}"), length)]:
                for e in decide(state, command):
                    state = evolve(state, e)
                    new.append(e)
            while state.phase != "over":
                for command in (
                    c.Roll(None, tuple(rnd.sample(range(1, 7), 2))),
                    c.Resign(1 - winner, rnd.choice(["single", "gammon", "backgammon"])),
                    c.AcceptResignation(winner),
                ):
                    for e in decide(state, command):
                        state = evolve(state, e)
                        new.append(e)
            stream = uuid.uuid4().hex
            rows = [(streams.REGISTERED, {"player_ids": [p0, p1], "tournament_id": None, "published": True,
                                          "rating_ramp": "fibs"})]
            rows += [streams.engine_payload(e) for e in new]
            for version, (kind, payload) in enumerate(rows, start=1):
                position += 1
                copy.write_row((position, stream, "match", version, kind, 1, json.dumps(payload), "{}",
                                "2026-11-21T12:00:00Z"))
            results.append(((p0, p1)[winner], (p0, p1)[1 - winner], length))
    return results, position


if __name__ == "__main__":
    main()
