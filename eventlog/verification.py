"""Checking a log: its hash chain walked from the first event, its streams' versions, and every stream re-judged.

:func:`walk` reads every row in position order and recomputes its chain hash from the row as stored
(eventlog/chain.py): a row edited behind the application's back (an UPDATE with the append-only trigger
disabled, a restore of an altered dump) no longer matches its hash and is named by position; a row removed
leaves a gap in the positions; a row inserted without the append carries no hash. Each row is judged against
the hash stored on the row before it, so one edited row is named alone, not every row after it.

Re-judging belongs to the apps that own the streams: each registers, per stream type, a judge that takes a
stream's events (as today's readers read them) and raises if its owner's rules would not have appended them
(the match's engine decides every command again). This module imports no app.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from datetime import timezone as dt_timezone

from django.db import connection

from . import chain, payloads, upcasting
from .models import Event

BATCH = 5000
Judge = Callable[[str, list], None]
_judges: dict[str, Judge] = {}


def register_judge(stream_type: str, judge: Judge) -> None:
    """``judge(stream_id, events)`` raises (any exception, its message the reason) if the stream is not one its
    owner's rules would have written."""
    _judges[stream_type] = judge


def judges() -> dict[str, Judge]:
    return dict(_judges)


@dataclass(frozen=True)
class Problem:
    position: int
    stream_id: str
    reason: str  # a code: edited, unchained, gap, version, judged
    detail: str = ""

    def __str__(self) -> str:
        text = {"edited": "the row does not match its hash (edited after it was appended, or the hash was)",
                "unchained": "the row carries no hash (written without the append)",
                "gap": "positions are missing before this one (events removed)",
                "version": "the stream's version does not follow its previous event's",
                "judged": "its stream's rules refuse the stream"}[self.reason]
        return f"position {self.position} (stream {self.stream_id}): {text}" + (f": {self.detail}" if self.detail else "")


@dataclass
class Report:
    events: int = 0
    head_position: int = 0
    head_hash: str = chain.GENESIS
    streams_judged: int = 0
    streams_unjudged: dict[str, int] = field(default_factory=dict)  # by stream type: no judge registered
    problems: list[Problem] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.problems


def rows(after: int = 0) -> Iterator:
    """Every stored row after ``after`` in position order, as :class:`Event` instances (not saved), batch by
    batch: what the chain hashes, exactly as stored (no upcasting)."""
    fields = ("global_position", "stream_id", "stream_type", "version", "event_type", "schema_version", "payload",
              "metadata", "recorded_at", "chain")
    sql = (f"SELECT {', '.join(fields)} FROM {Event._meta.db_table} WHERE global_position > %s "
           f"ORDER BY global_position LIMIT %s")
    while True:
        if connection.vendor == "postgresql":
            with connection.cursor() as cursor:
                cursor.execute(sql, [after, BATCH])
                batch = [Event(**dict(zip(fields, r))) for r in cursor.fetchall()]
            for row in batch:  # the cursor gives jsonb as text, as the projections' reads do
                row.payload = payloads.loads(row.payload) if isinstance(row.payload, str) else row.payload
                row.metadata = payloads.loads(row.metadata) if isinstance(row.metadata, str) else row.metadata
                row.recorded_at = row.recorded_at.astimezone(dt_timezone.utc)
        else:
            batch = list(Event.objects.filter(global_position__gt=after).order_by("global_position")[:BATCH])
        if not batch:
            return
        yield from batch
        after = batch[-1].global_position


def walk(report: Report | None = None) -> Report:
    """The chain, the positions and every stream's versions, from the first event to the head."""
    report = report or Report()
    previous, position = chain.GENESIS, 0
    versions: dict[str, int] = {}
    for row in rows():
        report.events += 1
        if row.global_position != position + 1:
            report.problems.append(Problem(row.global_position, row.stream_id, "gap",
                                           f"after position {position}"))
        if row.version != versions.get(row.stream_id, 0) + 1:
            report.problems.append(Problem(row.global_position, row.stream_id, "version",
                                           f"version {row.version} after {versions.get(row.stream_id, 0)}"))
        if not row.chain:
            report.problems.append(Problem(row.global_position, row.stream_id, "unchained"))
        elif chain.of_row(row, previous) != row.chain:
            report.problems.append(Problem(row.global_position, row.stream_id, "edited"))
        versions[row.stream_id] = row.version
        previous, position = row.chain or previous, row.global_position
    report.head_position, report.head_hash = position, previous
    return report


def judge_streams(report: Report | None = None) -> Report:
    """Every stream whose type has a judge, re-judged from its first event (as today's readers read it)."""
    report = report or Report()
    streams = (Event.objects.values_list("stream_id", "stream_type").distinct().order_by("stream_id"))
    for stream_id, stream_type in streams:
        judge = _judges.get(stream_type)
        if judge is None:
            report.streams_unjudged[stream_type] = report.streams_unjudged.get(stream_type, 0) + 1
            continue
        events = [upcasting.read(row) for row in Event.objects.filter(stream_id=stream_id).order_by("version")]
        try:
            judge(stream_id, events)
        except Exception as refused:  # noqa: BLE001 - any refusal is the finding, reported with its position
            at = getattr(refused, "position", None) or events[0].global_position
            report.problems.append(Problem(at, stream_id, "judged", f"{type(refused).__name__}: {refused}"))
        report.streams_judged += 1
    return report


def head() -> tuple[int, str]:
    """The newest event's position and chain hash ((0, GENESIS) for an empty log)."""
    row = Event.objects.order_by("-global_position").values_list("global_position", "chain").first()
    return row if row is not None else (0, chain.GENESIS)
