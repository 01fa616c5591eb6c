"""The event log at a million events: append throughput, raw read speed, and a full replay of every projection.

    .venv/bin/python bench/events.py [--events 1000000] [--appends 20000] [--late-appends 5000]
                                     [--tables 64] [--database-url URL] [--database-name NAME] [--keep-log]
                                     [--rebuild-only] [--workers 2]

Makes a fresh database ``crawford_bench_events`` (``--database-name``) on the PostgreSQL server of
DATABASE_URL (default 127.0.0.1:5432); with ``--keep-log``, a database this script filled before to at least
``--events`` events is used as it is (phases 1 to 3 skipped: the log is seeded, so it is the same log). No Redis (nothing is woken: projections
run only when rebuilt here). The log is what a busy club server would hold:
``--tables`` matches in play at once, their commands interleaved in the log,
each match a real stream judged by the engine (``MatchRegistered``, then
``decide``/``evolve`` on: server-style random dice, a random legal play, now and
then a double, taken or dropped; lengths 1, 3, 5 or 7), a new match at a table
when one ends; 2,000 players.

1. **Appends** (``--appends``, default 20,000): each command's events (1 to 3,
   as the API appends them) through ``eventlog.store.append`` with the stream's
   expected version, one transaction each (advisory lock, version check,
   insert, commit with fsync), one connection, on the empty log.
2. **Fill**: the same generator continues, and the rest of the log up to
   ``--events`` is loaded with COPY (not a measured figure), then ANALYZE.
3. **Appends at size** (``--late-appends``, default 5,000): the same as 1, on the full log.
4. **Raw read**: every row in ``global_position`` order, (a) with one
   server-side cursor (psycopg, 2,000 rows per fetch, payload decoded),
   (b) the way projections read: keyset batches of 2,000 through the ORM
   (``values_list`` of the ``LoggedEvent`` fields).
5. **Replay**: ``eventlog.projections.rebuild(name)`` for every registered
   projection (``manage.py rebuild_projections``): empty it, replay the log
   from position 0. Figures per projection and in total, in log events per second.
6. **Check** (not timed): every ``match_summary`` row (matches and games) against a sequential recomputation,
   each stream folded alone from its first event to its last (``games.streams.fold``, no snapshot, no batch);
   and a digest of every projection's tables, compared with the digest the first rebuild of this log wrote
   beside it (``eventlog_bench_digest``, the commit that wrote it named), so a change to the rebuild path that
   changes any row of any projection is reported.
"""

from __future__ import annotations

import argparse
import json
import os
import secrets
import random
import statistics
import sys
import time
import uuid
from pathlib import Path
from urllib.parse import urlparse, urlunparse

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from common import CpuMeter, code_version, recreate_database  # noqa: E402 - bench/common.py
DB_NAME = "crawford_bench_events"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--events", type=int, default=1_000_000, help="size of the log (at least)")
    parser.add_argument("--appends", type=int, default=20_000, help="appends timed on the empty log")
    parser.add_argument("--late-appends", type=int, default=5_000, help="appends timed on the full log")
    parser.add_argument("--tables", type=int, default=64, help="matches in play at once")
    parser.add_argument("--players", type=int, default=2_000)
    parser.add_argument("--database-url",
                        default=os.environ.get("DATABASE_URL", "postgres://postgres@127.0.0.1:5432/crawford"))
    parser.add_argument("--database-name", default=DB_NAME)
    parser.add_argument("--keep-log", action="store_true",
                        help="reuse the database if this script filled it before to --events events")
    parser.add_argument("--rebuild-only", action="store_true", help="with --keep-log: no read phases (4)")
    parser.add_argument("--workers", type=int, default=1,
                        help="processes for a projection whose streams are independent (match_summary), as "
                             "manage.py rebuild_projections --workers")
    args = parser.parse_args()
    global WORKERS
    WORKERS = max(1, args.workers)

    url = urlparse(args.database_url)
    kept = args.keep_log and _filled_before(url, args.database_name, args.events)
    if not kept:
        recreate_database(url, args.database_name)
    os.environ["DATABASE_URL"] = urlunparse(url._replace(path="/" + args.database_name))
    os.environ.pop("REDIS_URL", None)
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "deploy.settings")
    os.environ.setdefault("SECRET_KEY", "bench-" + secrets.token_hex(24))  # the settings have no fallback key
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)
    if kept:
        total = _count()
        print(f"PostgreSQL {url.hostname}:{url.port or 5432} db {args.database_name}, the log kept from an earlier "
              f"run: {total:,} events in {_streams():,} match streams, {_table_size()} on disk; "
              f"CPython {sys.version.split()[0]}; {code_version()}")
        began, meter = time.perf_counter(), CpuMeter({})
        for run in (_rebuild,) if args.rebuild_only else (_read_raw, _read_batches, _rebuild):
            before, started = meter.snapshot(), time.perf_counter()
            run(total)
            print("    " + meter.report(before, meter.snapshot(), time.perf_counter() - started))
        _check()
        print(f"whole run {time.perf_counter() - began:.0f} s")
        return
    from players.models import Player

    players = [p.pk for p in Player.objects.bulk_create(Player(display_name=f"Bench {i}") for i in range(args.players))]
    club = Club(args.tables, players, random.Random(2026))
    print(f"PostgreSQL {url.hostname}:{url.port or 5432} db {args.database_name}; {args.tables} matches in play at once, "
          f"{args.players:,} players; CPython {sys.version.split()[0]}; {code_version()}")
    began = time.perf_counter()

    meter = CpuMeter({})

    def phase(run, *args) -> None:
        before, started = meter.snapshot(), time.perf_counter()
        run(*args)
        print("    " + meter.report(before, meter.snapshot(), time.perf_counter() - started))

    phase(_appends, "appends on the empty log", club, args.appends)
    _fill(club, args.events)
    phase(_appends, "appends on the full log", club, args.late_appends)
    total = _count()
    print(f"log: {total:,} events in {club.streams:,} match streams ({club.finished:,} finished), "
          f"{_table_size()} on disk")
    phase(_read_raw, total)
    phase(_read_batches, total)
    phase(_rebuild, total)
    _check()
    print(f"whole run {time.perf_counter() - began:.0f} s")


def _filled_before(url, name: str, events: int) -> bool:
    import psycopg

    try:
        with psycopg.connect(urlunparse(url._replace(path="/" + name)), autocommit=True) as conn:
            return conn.execute("SELECT count(*) FROM eventlog_event").fetchone()[0] >= events
    except psycopg.Error:
        return False


def _streams() -> int:
    from eventlog.models import Event

    return Event.objects.filter(stream_type="match").values("stream_id").distinct().count()


# -- the log's content: matches at many tables, every command judged by the engine ------------------


class Table:
    """One match in play; ``command()`` judges the next command and returns its events."""

    def __init__(self, rnd: random.Random, players: list[int]):
        from games import streams
        from games.engine import commands as c
        from games.engine.match import MatchState, decide, evolve

        self.rnd, self.c, self.decide, self.evolve, self.streams = rnd, c, decide, evolve, streams
        p0, p1 = rnd.sample(players, 2)
        self.stream_id = uuid.uuid4().hex
        self.version = 0
        length = rnd.choice([1, 1, 3, 3, 5, 7])
        self.state = MatchState()
        started = self._judge(c.StartMatch((f"Bench {p0}", f"Bench {p1}"), length))
        registration = {"player_ids": [p0, p1], "tournament_id": None, "published": True, "rating_ramp": "fibs"}
        self.first = [(streams.REGISTERED, registration)] + started

    def _judge(self, command) -> list[tuple[str, dict]]:
        out = []
        for event in self.decide(self.state, command):
            self.state = self.evolve(self.state, event)
            out.append(self.streams.engine_payload(event))
        return out

    @property
    def over(self) -> bool:
        return self.state.phase == "over"

    def command(self) -> list[tuple[str, dict]]:
        if self.first:
            first, self.first = self.first, None
            return first
        s, c, rnd = self.state, self.c, self.rnd
        dice = (rnd.randint(1, 6), rnd.randint(1, 6))
        if s.phase == "opening":
            return self._judge(c.Roll(None, dice))
        if s.phase == "move":
            plays = s.legal_plays()
            return self._judge(c.Move(s.turn, rnd.choice(plays) if plays else ""))
        if s.phase == "doubled":
            return self._judge(c.Take(1 - s.turn) if rnd.random() < 0.75 else c.Drop(1 - s.turn))
        if s.may_double(s.turn) and rnd.random() < 0.03:
            return self._judge(c.Double(s.turn))
        return self._judge(c.Roll(s.turn, dice))


class Club:
    """``tables`` matches in play; ``next()`` gives the next append: (stream id, expected version, events)."""

    def __init__(self, tables: int, players: list[int], rnd: random.Random):
        self.rnd, self.players = rnd, players
        self.tables = [Table(rnd, players) for _ in range(tables)]
        self.streams, self.finished = tables, 0

    def next(self) -> tuple[str, int, list[tuple[str, dict]]]:
        i = self.rnd.randrange(len(self.tables))
        table = self.tables[i]
        if table.over:
            self.finished += 1
            self.streams += 1
            table = self.tables[i] = Table(self.rnd, self.players)
        events = table.command()
        expected = table.version
        table.version += len(events)
        return table.stream_id, expected, events


# -- 1 and 3: appends -----------------------------------------------------------------------------------


def _appends(label: str, club: Club, count: int) -> None:
    from eventlog import store
    from eventlog.store import NewEvent

    batches = [club.next() for _ in range(count)]  # judged before the clock starts
    latencies = []
    events = 0
    started = time.perf_counter()
    for stream_id, expected, new in batches:
        t = time.perf_counter()
        store.append(stream_id=stream_id, stream_type="match", expected_version=expected,
                     events=[NewEvent(kind, payload) for kind, payload in new], metadata={"actor": None})
        latencies.append(time.perf_counter() - t)
        events += len(new)
    elapsed = time.perf_counter() - started
    latencies.sort()
    print(f"{label}: {count:,} appends ({events:,} events, {events / count:.2f} per append) in {elapsed:.1f} s: "
          f"{count / elapsed:,.0f} appends/s, {events / elapsed:,.0f} events/s; per append p50 "
          f"{statistics.median(latencies) * 1000:.2f} ms, p99 {latencies[int(0.99 * (count - 1))] * 1000:.2f} ms")


# -- 2: the fill ------------------------------------------------------------------------------------------


def _fill(club: Club, target: int) -> None:
    from django.db import connection

    position = _top()
    started = time.perf_counter()
    with connection.cursor() as cursor, cursor.connection.cursor().copy(
        "COPY eventlog_event (global_position, stream_id, stream_type, version, event_type, schema_version,"
        " payload, metadata, recorded_at) FROM STDIN"
    ) as copy:
        while position < target:
            stream_id, expected, new = club.next()
            for version, (kind, payload) in enumerate(new, start=expected + 1):
                position += 1
                copy.write_row((position, stream_id, "match", version, kind, 1, json.dumps(payload),
                                '{"actor": null}', "2026-11-21T12:00:00Z"))
    with connection.cursor() as cursor:
        cursor.execute("ANALYZE eventlog_event")
    print(f"filled to {position:,} events with COPY in {time.perf_counter() - started:.0f} s (engine judging every "
          f"command included; not a measured figure), then ANALYZE")


def _top() -> int:
    from django.db.models import Max

    from eventlog.models import Event

    return Event.objects.aggregate(p=Max("global_position"))["p"] or 0


def _count() -> int:
    from eventlog.models import Event

    return Event.objects.count()


def _table_size() -> str:
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_size_pretty(pg_total_relation_size('eventlog_event'))")
        return cursor.fetchone()[0] + " (table and indexes)"


# -- 4: reading the log -----------------------------------------------------------------------------------


def _read_raw(total: int) -> None:
    from django.db import connection, transaction

    started = time.perf_counter()
    rows = 0
    with transaction.atomic(), connection.cursor() as django_cursor:
        with django_cursor.connection.cursor(name="bench_read_all") as cursor:  # server-side
            cursor.itersize = 2000
            cursor.execute("SELECT global_position, stream_id, stream_type, version, event_type, payload, recorded_at"
                           " FROM eventlog_event ORDER BY global_position")
            while batch := cursor.fetchmany(2000):
                rows += len(batch)
    elapsed = time.perf_counter() - started
    print(f"raw read, one server-side cursor: {rows:,} events in {elapsed:.1f} s: {rows / elapsed:,.0f} events/s")


def _read_batches(total: int) -> None:
    from eventlog.models import Event
    from eventlog.projections import _FIELDS, BATCH, LoggedEvent

    started = time.perf_counter()
    rows, after = 0, 0
    while True:
        batch = [LoggedEvent(*r) for r in Event.objects.filter(global_position__gt=after)
                 .order_by("global_position").values_list(*_FIELDS)[:BATCH]]
        if not batch:
            break
        rows += len(batch)
        after = batch[-1].global_position
    elapsed = time.perf_counter() - started
    print(f"read as projections do (ORM keyset batches of {BATCH:,}): {rows:,} events in {elapsed:.1f} s: "
          f"{rows / elapsed:,.0f} events/s")


# -- 5: replay --------------------------------------------------------------------------------------------


WORKERS = 1  # --workers: set by main


def _rebuild(total: int) -> None:
    from eventlog import projections
    from games.models import GameSummary, MatchSummary

    import analysis.services

    # The analysis projection queues gnubg's analysis of each finished match on commit: the analysis queue's
    # work (seconds of gnubg a match), not the rebuild's. With no broker here it would run in this process, so
    # the bench counts the tasks the rebuild queues instead of sending them.
    queued = []
    analysis.services.send = queued.append
    overall = 0.0
    if WORKERS > 1:  # as rebuild_projections does: the shared one in processes, the others here meanwhile
        started = time.perf_counter()
        applied = projections.rebuild_every(workers=WORKERS)
        overall = time.perf_counter() - started
        print(f"rebuild of every projection at once ({WORKERS} processes for "
              f"{', '.join(n for n in applied if projections.registered()[n].by_stream)}, the others in this one "
              f"meanwhile): {overall:.1f} s for {total:,} events: {total / overall:,.0f} log events/s")
    for name in projections.rebuildable() if WORKERS == 1 else ():  # a process is never rebuilt
        started, cpu = time.perf_counter(), time.process_time()
        applied = projections.rebuild(name, workers=WORKERS)
        elapsed = time.perf_counter() - started
        overall += elapsed
        print(f"rebuild {name}: {elapsed:.1f} s (this process's CPU {time.process_time() - cpu:.1f} s), "
              f"{applied:,} events applied ({applied / elapsed:,.0f}/s), {total / elapsed:,.0f} log events/s")
    print(f"rebuild of all projections ({WORKERS} process{'es' if WORKERS > 1 else ''} for match_summary): "
          f"{overall:.1f} s for {total:,} events: {total / overall:,.0f} log events/s "
          f"({len(queued):,} analyses queued by the analysis projection, not run here)")
    summaries = MatchSummary.objects.count()
    print(f"check: {summaries:,} match summaries for {_streams():,} streams "
          f"({MatchSummary.objects.filter(finished=True).count():,} finished), {GameSummary.objects.count():,} games")


# -- 6: the check -----------------------------------------------------------------------------------------


def _check() -> None:
    started = time.perf_counter()
    wrong = _check_sequential()
    digest, first = _digest(), _first_digest()
    print(f"check, sequential recomputation of match_summary (each stream folded alone): "
          f"{'identical' if not wrong else 'DIFFERENT: ' + '; '.join(wrong[:5])}")
    if first is None:
        _keep_digest(digest)
        print(f"check, digest of every projection's tables: {digest} (kept: later runs on this log compare with it)")
    else:
        same = first[0] == digest
        print(f"check, digest of every projection's tables: {digest}, "
              f"{'identical to' if same else 'DIFFERENT from'} the first rebuild of this log ({first[1]})")
        wrong = wrong or ([] if same else ["digest"])
    print(f"    checked in {time.perf_counter() - started:.0f} s")
    if wrong:
        sys.exit(1)


def _check_sequential() -> list[str]:
    """Every stream folded alone, from nothing, against the summary and game rows the rebuild wrote."""
    from django.db import connection, transaction

    from eventlog import upcasting
    from eventlog.projections import LoggedEvent
    from games import streams
    from games.models import GameSummary, MatchSummary
    from games.projections import _GAME_FIELDS, _SUMMARY_FIELDS, summary_fields

    stored = {m.stream_id: m for m in MatchSummary.objects.all()}
    games = {(g.stream_id, g.game): g for g in GameSummary.objects.all()}
    wrong, seen_games = [], 0

    def compare(stream_id, rows):
        nonlocal seen_games
        record = streams.fold(stream_id, rows, None)
        want, row = summary_fields(record), stored.pop(stream_id, None)
        if row is None:
            wrong.append(f"{stream_id}: no summary")
            return
        for name in _SUMMARY_FIELDS:
            if name != "updated_at" and getattr(row, name) != want[name]:
                wrong.append(f"{stream_id}.{name}: {getattr(row, name)!r} != {want[name]!r}")
        numbers = sorted({e.payload["game"] for e in rows if e.event_type in ("GameStarted", "GameWon")})
        for number in numbers:
            game, g = record.state.game_record(number), games.pop((stream_id, number), None)
            if game is None:
                continue
            seen_games += 1
            expected = {"score0_before": game.score_before[0], "score1_before": game.score_before[1],
                        "crawford": game.crawford, "post_crawford": game.post_crawford, "finished": game.finished,
                        "winner": game.winner, "points": game.points, "kind": game.kind, "reason": game.reason}
            if g is None or any(getattr(g, f) != expected[f] for f in _GAME_FIELDS):
                wrong.append(f"{stream_id} game {number}")

    with transaction.atomic(), connection.cursor() as django_cursor:
        with django_cursor.connection.cursor(name="bench_check") as cursor:
            cursor.execute("SELECT global_position, stream_id, stream_type, version, event_type, payload, recorded_at,"
                           " schema_version FROM eventlog_event WHERE stream_type = 'match'"
                           " ORDER BY stream_id, version")
            current, rows = None, []
            while batch := cursor.fetchmany(10_000):
                for r in batch:
                    if r[1] != current:
                        if rows:
                            compare(current, rows)
                        current, rows = r[1], []
                    payload = json.loads(r[5]) if isinstance(r[5], str) else r[5]  # Django loads jsonb as text
                    # as every reader of the log sees a row: older shapes through their upcasters
                    rows.append(upcasting.read(LoggedEvent(*r[:5], payload, *r[6:])))
            if rows:
                compare(current, rows)
    wrong += [f"{s}: a summary of no stream" for s in stored] + [f"{k}: a game of no stream" for k in games]
    return wrong


def _digest_tables() -> list[tuple[str, list[str]]]:
    """Every table a projection writes, with the columns it derives (not surrogate ids, not write times)."""
    from django.apps import apps
    from django.db import models

    from eventlog.models import ProjectionCheckpoint

    out = [("players_player", ["id", "merged_into_id"])]
    for label in ("games", "ratings", "tournaments", "analysis"):
        for model in apps.get_app_config(label).get_models():
            if not getattr(model, "__module__", "").endswith(".models") or model._meta.proxy:
                continue
            columns = [f.column for f in model._meta.concrete_fields
                       if not isinstance(f, models.AutoField)
                       and not getattr(f, "auto_now", False) and not getattr(f, "auto_now_add", False)]
            out.append((model._meta.db_table, columns))
    out.append((ProjectionCheckpoint._meta.db_table, ["name", "position"]))
    return out


def _digest() -> str:
    import hashlib

    from django.db import connection

    h = hashlib.sha256()
    with connection.cursor() as cursor:
        for table, columns in _digest_tables():
            cols = ", ".join(f'"{c}"' for c in columns)
            cursor.execute(f"SELECT count(*), coalesce(md5(string_agg(r::text, '|' ORDER BY r::text)), '') "
                           f"FROM (SELECT {cols} FROM {table}) r")
            h.update(f"{table}:{cursor.fetchone()}".encode())
    return h.hexdigest()[:16]


def _first_digest() -> tuple[str, str] | None:
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute("CREATE TABLE IF NOT EXISTS eventlog_bench_digest (digest text, code text)")
        cursor.execute("SELECT digest, code FROM eventlog_bench_digest")
        return cursor.fetchone()


def _keep_digest(digest: str) -> None:
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute("INSERT INTO eventlog_bench_digest VALUES (%s, %s)", [digest, code_version()])


if __name__ == "__main__":
    main()
