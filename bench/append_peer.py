"""The log's append beside the `eventsourcing` library's, on the same PostgreSQL server: appends per second at 1
and 8 writers, and their ratio.

    .venv/bin/pip install -e ".[bench]"      # the peer, once (not a dependency of the product)
    .venv/bin/python bench/append_peer.py [--seconds 10] [--writers 1 8] [--database-url URL]

Each side appends one event at a time, each in a transaction of its own, to a stream of the writer's own at its
next version, with the same JSON payload (a roll), from ``--writers`` threads of this process, each with its own
connection:

* Crawford: ``eventlog.store.append``, the call every match command makes (on PostgreSQL one call of
  ``eventlog_append``: the log's advisory lock, the version check, the next global position, the hash chained to
  the previous event's, the insert), on a fresh database ``crawford_bench_append`` migrated as the product is;
* the peer: eventsourcing's ``PostgresApplicationRecorder.insert_events`` as the library sets it up by default
  (its table locked for the notification id, the library's global position, then the insert), on a fresh database
  ``crawford_bench_append_peer``, one pooled connection per writer, the event already encoded: the library's
  storage layer alone, its leanest path;
* ``peer_app``: the same library as an application stores an event, ``Application.save`` of an aggregate after
  one of its methods (the domain event made, mapped and encoded by the library, then the same recorder), on
  ``crawford_bench_append_peer_app``: what Crawford's ``store.append`` is beside it (a typed event in, its JSON
  and the stored row out).

The logs are seeded first (``--seed`` events each, on 200 streams) and analysed, as a site's log is never empty:
on an empty table a connection may keep a plan made for it (seen here: some fresh runs' single writer at 400
appends/s instead of 1,000). The three take turns of ``--slice`` seconds (0.5) until each has had ``--seconds``, so
all meet the machine's same minutes. Prints appends/s, p50 and p99 latency of each, the load average, and
Crawford / peer beside each of the two.
"""

from __future__ import annotations

import argparse
import functools
import json
import os
import sys
import threading
import time
import uuid
from pathlib import Path
from urllib.parse import urlparse, urlunparse

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.common import code_version, percentile, recreate_database  # noqa: E402

PAYLOAD = {"player": 0, "dice": [3, 5], "source": "server"}
KINDS = ("crawford", "peer", "peer_app")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seconds", type=float, default=10.0, help="seconds of appends for each side, per count")
    parser.add_argument("--writers", type=int, nargs="+", default=[1, 8])
    parser.add_argument("--slice", type=float, default=0.5)
    parser.add_argument("--seed", type=int, default=20_000,
                        help="events on each side before the clock, on 200 streams, then ANALYZE: a log in use")
    parser.add_argument("--database-name", default="crawford_bench_append")
    parser.add_argument("--database-url", default=os.environ.get("DATABASE_URL", "postgres://postgres@127.0.0.1:5432/crawford"))
    args = parser.parse_args()
    try:
        from eventsourcing.persistence import StoredEvent
        from eventsourcing.postgres import PostgresApplicationRecorder, PostgresDatastore
    except ImportError:
        raise SystemExit('the peer is not installed: .venv/bin/pip install -e ".[bench]"') from None

    url = urlparse(args.database_url)
    peer_name, app_name = args.database_name + "_peer", args.database_name + "_peer_app"
    for name in (args.database_name, peer_name, app_name):
        recreate_database(url, name)
    os.environ.update(DATABASE_URL=urlunparse(url._replace(path="/" + args.database_name)), DEBUG="0",
                      SECRET_KEY="bench-append-" + uuid.uuid4().hex, DJANGO_SETTINGS_MODULE="deploy.settings",
                      LOG_LEVEL="WARNING")
    import django

    django.setup()
    from django.core.management import call_command
    from django.db import connection

    from eventlog import store

    call_command("migrate", verbosity=0)
    connection.close()

    datastore = PostgresDatastore(dbname=peer_name, host=url.hostname or "127.0.0.1", port=url.port or 5432,
                                  user=url.username or "postgres", password=url.password or "",
                                  pool_size=max(args.writers), max_overflow=0)
    recorder = PostgresApplicationRecorder(datastore)
    recorder.create_table()
    app = _application(url, app_name, max(args.writers))
    _seed(args.seed, store, recorder, StoredEvent, datastore, app)
    pool = [_Writer(store, recorder, StoredEvent, app) for _ in range(max(args.writers))]

    print(f"PostgreSQL {url.hostname}:{url.port or 5432}; {code_version()}; eventsourcing "
          f"{_version('eventsourcing')}; {args.seconds:g} s of appends a side per writer count, in turns of "
          f"{args.slice:g} s")
    print(f"{'side':<9} {'writers':>7} {'appends':>8} {'per s':>8} {'p50 ms':>7} {'p99 ms':>7}  load")
    rates = {}
    for writers in args.writers:
        _turns(pool[:writers], 1.0, args.slice)  # connections opened, statements prepared, before the clock
        figures = _turns(pool[:writers], args.seconds, args.slice)
        load = " ".join(f"{x:.2f}" for x in os.getloadavg())
        for kind in KINDS:
            f = figures[kind]
            rates[kind, writers] = f["per_second"]
            print(f"{kind:<9} {writers:>7} {f['appends']:>8} {f['per_second']:>8.1f} {f['p50']:>7.2f} "
                  f"{f['p99']:>7.2f}  {load}", flush=True)
    for writers in args.writers:
        print(f"Crawford / peer at {writers} writer{'s' if writers > 1 else ''} (appends/s): "
              f"{rates['crawford', writers] / rates['peer', writers]:.2f} beside its recorder, "
              f"{rates['crawford', writers] / rates['peer_app', writers]:.2f} beside its application")
    datastore.close()
    app.close()
    return 0


def _application(url, name: str, writers: int):
    """An eventsourcing application on its own database, with the library's PostgreSQL persistence and a pool of
    one connection per writer."""
    from eventsourcing.application import Application

    return Application(env={
        "PERSISTENCE_MODULE": "eventsourcing.postgres", "POSTGRES_DBNAME": name,
        "POSTGRES_HOST": url.hostname or "127.0.0.1", "POSTGRES_PORT": str(url.port or 5432),
        "POSTGRES_USER": url.username or "postgres", "POSTGRES_PASSWORD": url.password or "",
        "POSTGRES_POOL_SIZE": str(writers), "POSTGRES_MAX_OVERFLOW": "0", "CREATE_TABLE": "true"})


def _seed(count: int, store, recorder, stored_event, datastore, app) -> None:
    """Both logs as a site's is, never empty: ``count`` events each on 200 streams, the tables analysed, so that
    neither side's statements are planned for an empty table (a plan made then is kept by the connection)."""
    from django.db import connection

    seeders = [_Writer(store, recorder, stored_event, app) for _ in range(200)]
    for i in range(count):
        seeders[i % len(seeders)].crawford()
    for seeder in seeders:  # each aggregate's share of the events, saved at once
        for _ in range(count // len(seeders)):
            seeder.match.roll(**PAYLOAD)
        app.save(seeder.match)
    batch = [stored_event(originator_id=uuid.uuid4(), originator_version=v, topic="bench:DiceRolled",
                          state=json.dumps(PAYLOAD).encode()) for _ in range(200) for v in range(1, count // 200 + 1)]
    for i in range(0, len(batch), 1000):
        recorder.insert_events(batch[i:i + 1000])
    with connection.cursor() as cursor:
        cursor.execute("ANALYZE eventlog_event")
    connection.close()
    with datastore.get_connection() as peer, peer.cursor() as cursor:
        cursor.execute("ANALYZE stored_events")
    with app.recorder.datastore.get_connection() as peer, peer.cursor() as cursor:
        cursor.execute("ANALYZE")


class _Writer:
    """One writer's two streams, one on each side, and their next versions."""

    def __init__(self, store, recorder, stored_event, app):
        self.store, self.recorder, self.stored_event, self.app = store, recorder, stored_event, app
        self.stream, self.version = f"bench-append-{uuid.uuid4().hex}", 0
        self.originator, self.peer_version = uuid.uuid4(), 0
        self.state = json.dumps(PAYLOAD).encode()
        self.match = _match_class()()
        app.save(self.match)

    def crawford(self) -> None:
        self.store.append(stream_id=self.stream, stream_type="bench", expected_version=self.version,
                          events=[self.store.NewEvent("DiceRolled", dict(PAYLOAD))])
        self.version += 1

    def peer(self) -> None:
        self.peer_version += 1
        self.recorder.insert_events([self.stored_event(
            originator_id=self.originator, originator_version=self.peer_version, topic="bench:DiceRolled",
            state=self.state)])

    def peer_app(self) -> None:
        self.match.roll(**PAYLOAD)
        self.app.save(self.match)


@functools.cache
def _match_class():
    from eventsourcing.domain import Aggregate, event

    class Match(Aggregate):
        """A match whose only event is a roll, with the same payload as Crawford's."""

        @event("DiceRolled")
        def roll(self, player: int, dice: list, source: str) -> None:
            pass

    return Match



def _turns(writers: list[_Writer], seconds: float, slice_seconds: float) -> dict:
    """Each side for ``seconds`` in all, in turns of ``slice_seconds``, every writer appending as fast as it can
    on a thread of its own (Django gives each thread its connection; the peer's pool one per writer)."""
    from django.db import connection

    latencies: dict[str, list[float]] = {kind: [] for kind in KINDS}
    spent = dict.fromkeys(KINDS, 0.0)
    turns = [kind for _ in range(max(1, round(seconds / slice_seconds))) for kind in KINDS]
    start, end = threading.Barrier(len(writers) + 1), threading.Barrier(len(writers) + 1)
    deadline = [0.0]
    lock = threading.Lock()

    def run(writer: _Writer) -> None:
        try:
            for kind in turns:
                start.wait()
                append, mine = getattr(writer, kind), []
                while time.perf_counter() < deadline[0]:
                    began = time.perf_counter()
                    append()
                    mine.append(time.perf_counter() - began)
                with lock:
                    latencies[kind].extend(mine)
                end.wait()
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=(w,), daemon=True) for w in writers]
    for t in threads:
        t.start()
    for kind in turns:
        began = time.perf_counter()
        deadline[0] = began + slice_seconds
        start.wait()
        end.wait()  # every writer's last append of the turn has returned
        spent[kind] += time.perf_counter() - began
    for t in threads:
        t.join()
    return {kind: {"appends": len(latencies[kind]), "per_second": len(latencies[kind]) / spent[kind],
                   "p50": percentile(latencies[kind], 0.5) * 1000, "p99": percentile(latencies[kind], 0.99) * 1000}
            for kind in KINDS}


def _version(package: str) -> str:
    from importlib.metadata import version

    return version(package)


if __name__ == "__main__":
    sys.exit(main())
