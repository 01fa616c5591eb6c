"""What the hash chain adds to an append: the application's content digest, and the database function's work.

    .venv/bin/python bench/chain.py [--appends 3000] [--rounds 5] [--database-url URL] [--database-name NAME]

On a fresh database ``crawford_bench_chain`` (dropped first) of the PostgreSQL server of DATABASE_URL:

1. **Content digest** (eventlog/chain.py ``content_digest``), per event, for a typical match event: the Python
   the append now runs before its statement.
2. **The function**, on a log of ``--seed`` events (analysed): ``--appends`` calls of ``eventlog_append`` in one transaction (a DO block, rolled back: no
   commit, no fsync, no network round trip: the function's own work), against the same calls of the function as
   it was before the chain (eventlog/migrations/0007 ``OLD_FUNCTION``, made a temporary function for the run),
   taking turns ``--rounds`` times so that both meet the same minutes of a shared machine (the table vacuumed
   before each turn). Prints each round's
   time per call and the medians, with the load average.

The append's whole cost (commit and fsync included) is bench/events.py's "appends" phases; through the API,
beside the floor, bench/api.py.
"""

from __future__ import annotations

import argparse
import importlib
import os
import secrets
import statistics
import sys
import threading
import time
import timeit
from datetime import datetime, timezone
from pathlib import Path
from urllib.parse import urlparse, urlunparse

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from common import code_version, recreate_database  # noqa: E402 - bench/common.py

PAYLOAD = {"player": 0, "dice": [3, 5], "source": "board"}
# the function now (its events one JSON array: eventlog/migrations/0008) and before the chain (four arrays)
CALL = ("PERFORM eventlog_append(1::bigint, 'bench-' || r, 'match', i - 1, '[[\"DiceRolled\", 1, {payload}, "
        "\"{digest}\"]]'::jsonb, '{{\"actor\": null}}'::jsonb, now(), NULL, NULL, NULL, NULL)")
CALL_BEFORE = ("PERFORM pg_temp.eventlog_append(1::bigint, 'bench-' || r, 'match', i - 1, ARRAY['DiceRolled'], "
               "ARRAY[1], ARRAY['{payload}'::jsonb], '{{\"actor\": null}}'::jsonb, now(), NULL, NULL, NULL, NULL)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--appends", type=int, default=3000)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--seed", type=int, default=20_000, help="events in the log before the rounds")
    parser.add_argument("--migration", type=int, default=0, metavar="EVENTS",
                        help="also time the migration that chains an existing log of EVENTS events (0: not)")
    parser.add_argument("--database-url",
                        default=os.environ.get("DATABASE_URL", "postgres://postgres@127.0.0.1:5432/crawford"))
    parser.add_argument("--database-name", default="crawford_bench_chain")
    args = parser.parse_args()

    url = urlparse(args.database_url)
    recreate_database(url, args.database_name)
    os.environ["DATABASE_URL"] = urlunparse(url._replace(path="/" + args.database_name))
    os.environ.pop("REDIS_URL", None)
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "deploy.settings")
    os.environ.setdefault("SECRET_KEY", "bench-" + secrets.token_hex(24))
    import django

    django.setup()
    from django.core.management import call_command
    from django.db import connection

    from eventlog import chain

    call_command("migrate", verbosity=0)
    print(f"PostgreSQL {url.hostname}:{url.port or 5432} db {args.database_name}; CPython {sys.version.split()[0]}; "
          f"{code_version()}; load {_load()}")

    now = datetime.now(timezone.utc)
    n = 20_000
    per = min(timeit.repeat(lambda: chain.content_digest(
        stream_id="0123456789abcdef0123456789abcdef", stream_type="match", version=17, event_type="DiceRolled",
        schema_version=1, payload=PAYLOAD, metadata={"actor": None}, recorded_at=now), number=n, repeat=5)) / n
    print(f"content digest (Python, per event): {per * 1e6:.1f} us")

    old = importlib.import_module("eventlog.migrations.0007_hash_chain").OLD_FUNCTION
    payload = str(PAYLOAD).replace("'", '"').replace("None", "null")
    digest = chain.content_digest(stream_id="s", stream_type="match", version=1, event_type="DiceRolled",
                                  schema_version=1, payload=PAYLOAD, metadata={}, recorded_at=now)
    loops = {
        "chained (now)": CALL.format(payload=payload, digest=digest),
        "unchained (before)": CALL_BEFORE.format(payload=payload),
    }
    times: dict[str, list[float]] = {name: [] for name in loops}
    with connection.cursor() as cursor:
        # a log of --seed events, analysed: the planner reads the head through the primary key's index, as on a
        # live log (on a never-analysed empty table it may not)
        cursor.execute("INSERT INTO eventlog_event (global_position, stream_id, stream_type, version, event_type, "
                       "schema_version, payload, metadata, recorded_at, chain) SELECT g, 'seed-' || g, 'match', 1, "
                       "'DiceRolled', 1, %s::jsonb, '{}', now(), repeat('0', 64) FROM generate_series(1, %s) g",
                       [payload, args.seed])
        cursor.execute("ANALYZE eventlog_event")
        cursor.execute(old.replace("CREATE FUNCTION eventlog_append(", "CREATE FUNCTION pg_temp.eventlog_append("))
        # with the rights and the fixed search_path the function had (eventlog/migrations/0006), as now
        cursor.execute("ALTER FUNCTION pg_temp.eventlog_append(bigint, text, text, integer, text[], integer[], "
                       "jsonb[], jsonb, timestamptz, text, text, text, jsonb) SECURITY DEFINER "
                       "SET search_path = public, pg_temp")
        for r in range(args.rounds):
            for name, call in loops.items():
                block = (f"DO $$ DECLARE r text := '{name[0]}{r}'; BEGIN FOR i IN 1..{args.appends} LOOP {call}; "
                         f"END LOOP; END $$")
                # the rolled-back rows of the round before lie above the head, in the index: cleared, as in a log
                # whose appends commit (else each call's read of the head would step over them)
                cursor.execute("VACUUM eventlog_event")
                cursor.execute("BEGIN")
                started = datetime.now()
                cursor.execute(block)
                elapsed = (datetime.now() - started).total_seconds()
                cursor.execute("ROLLBACK")
                times[name].append(elapsed / args.appends)
                print(f"round {r + 1}, {name}: {elapsed / args.appends * 1e3:.3f} ms a call; load {_load()}")
    for name, values in times.items():
        print(f"median, {name}: {statistics.median(values) * 1e3:.3f} ms a call ({args.appends:,} calls x "
              f"{args.rounds})")
    added = statistics.median(times["chained (now)"]) - statistics.median(times["unchained (before)"])
    print(f"the chain adds {added * 1e3:+.3f} ms a call in the database and {per * 1e3:.3f} ms an event in Python")
    if args.migration:
        _time_migration(args.migration, payload)


def _time_migration(events: int, payload: str) -> None:
    """The log unchained (eventlog back to 0006), filled with ``events`` events, then ``migrate eventlog 0007``,
    another client probing meanwhile whether the site could read and append (:class:`_Probe`)."""
    from django.core.management import call_command
    from django.db import connection

    call_command("migrate", "eventlog", "0006", verbosity=0)
    with connection.cursor() as cursor:
        cursor.execute("SET session_replication_role = replica")  # the rounds' rows gone: a log of EVENTS only
        cursor.execute("DELETE FROM eventlog_event")
        cursor.execute("SET session_replication_role = origin")
        cursor.execute("INSERT INTO eventlog_event (global_position, stream_id, stream_type, version, event_type, "
                       "schema_version, payload, metadata, recorded_at) SELECT g, 'm-' || (g / 200), 'match', "
                       "g %% 200 + 1, 'DiceRolled', 1, %s::jsonb, '{\"actor\": null}', now() "
                       "FROM generate_series(1, %s) g", [payload, events])
        cursor.execute("VACUUM ANALYZE eventlog_event")
    db = connection.settings_dict
    probe = _Probe({"dbname": db["NAME"], "user": db["USER"], "password": db["PASSWORD"] or None,
                    "host": db["HOST"], "port": db["PORT"] or None})
    probe.start()
    started = time.perf_counter()
    call_command("migrate", "eventlog", "0007", verbosity=0)
    elapsed = time.perf_counter() - started
    print(f"migration eventlog 0007 on a log of {events:,} events: {elapsed:.1f} s ({events / elapsed:,.0f} events/s); "
          f"load {_load()}")
    probe.join()
    print(f"while it ran: the lock it held on the log's table: {', '.join(probe.modes) or 'none seen'}; "
          f"a read of one stream begun {probe.began:.1f} s in answered {probe.read:.1f} s later; an insert begun "
          f"then answered {probe.insert:.1f} s later (the migration took {elapsed:.1f} s)")


class _Probe(threading.Thread):
    """Another client of the site during the migration: once the migration holds a lock on the log's table, what
    lock it is, and how long a read of a stream and an append's insert (rolled back) wait, on connections of their
    own."""

    def __init__(self, params: dict):
        super().__init__(daemon=True)
        self.params, self.modes, self.began, self.read, self.insert = params, [], 0.0, 0.0, 0.0

    def run(self) -> None:
        import psycopg

        started = time.perf_counter()
        with psycopg.connect(**self.params, autocommit=True) as watcher:
            while not self.modes:
                self.modes = [mode for (mode,) in watcher.execute(
                    "SELECT DISTINCT l.mode FROM pg_locks l WHERE l.relation = 'eventlog_event'::regclass "
                    "AND l.granted AND l.pid <> pg_backend_pid()").fetchall()]
                time.sleep(0.05)
            time.sleep(1.0)  # well inside the backfill
            self.modes = [mode for (mode,) in watcher.execute(
                "SELECT DISTINCT l.mode FROM pg_locks l WHERE l.relation = 'eventlog_event'::regclass "
                "AND l.granted AND l.pid <> pg_backend_pid()").fetchall()]
        self.began = time.perf_counter() - started
        waits = {}

        def timed(name: str, sql: str) -> None:
            with psycopg.connect(**self.params) as client:
                at = time.perf_counter()
                client.execute(sql)
                waits[name] = time.perf_counter() - at
                client.rollback()

        threads = [threading.Thread(target=timed, args=("read", "SELECT version FROM eventlog_event "
                                                                "WHERE stream_id = 'm-1' ORDER BY version")),
                   threading.Thread(target=timed, args=("insert", "INSERT INTO eventlog_event (global_position, "
                                    "stream_id, stream_type, version, event_type, schema_version, payload, metadata, "
                                    "recorded_at) VALUES (-1, 'probe', 'match', 1, 'DiceRolled', 1, '{}', '{}', "
                                    "now())"))]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        self.read, self.insert = waits["read"], waits["insert"]


def _load() -> str:
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


if __name__ == "__main__":
    main()
