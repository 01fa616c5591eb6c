"""Appending to and reading from the event log.

Appends take an expected version: a stale writer gets :class:`ConcurrencyError`
(HTTP 409), never a silent overwrite. On PostgreSQL each append holds a
transaction-scoped advisory lock, so commit order equals ``global_position``
order and a reader never skips an event that commits late; the next position
is read under that lock, which keeps positions gap-free. SQLite serialises
writers on its own.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass

from django.db import IntegrityError, connection, transaction
from django.db.models import Max

from .models import Event

APPEND_LOCK = 0x43524157  # "CRAW": the advisory lock every append takes


class ConcurrencyError(Exception):
    """The stream moved on since the writer read it."""

    def __init__(self, stream_id: str, expected: int, actual: int):
        self.stream_id, self.expected, self.actual = stream_id, expected, actual
        sent = f"you sent version {expected} but " if expected >= 0 else ""
        super().__init__(f"the match has changed: {sent}it is at version {actual}; reload and try again")


class EventRejected(ValueError):
    """An event the log cannot store as given (e.g. a NUL character in a string): HTTP 400."""


def _check_storable(value, where: str = "payload") -> None:
    # PostgreSQL's jsonb cannot hold U+0000; refuse it with a reason instead of a database error
    if isinstance(value, str):
        if "\x00" in value:
            raise EventRejected(f"{where} contains a NUL character (\\u0000), which cannot be stored")
    elif isinstance(value, dict):
        for k, v in value.items():
            _check_storable(k, where)
            _check_storable(v, f"{where}.{k}")
    elif isinstance(value, (list, tuple)):
        for v in value:
            _check_storable(v, where)


@dataclass(frozen=True)
class NewEvent:
    event_type: str
    payload: dict
    schema_version: int = 1


def stream_version(stream_id: str) -> int:
    return Event.objects.filter(stream_id=stream_id).aggregate(v=Max("version"))["v"] or 0


def append(
    *,
    stream_id: str,
    stream_type: str,
    expected_version: int,
    events: Iterable[NewEvent],
    metadata: dict | None = None,
    on_commit: Callable[[], None] | None = None,
) -> list[Event]:
    """Append ``events`` to a stream at ``expected_version`` (0 for a new stream), atomically."""
    events = list(events)
    for event in events:
        _check_storable(event.payload)
    _check_storable(metadata or {}, "metadata")
    with transaction.atomic():
        _lock_log()
        actual = stream_version(stream_id)
        if actual != expected_version:
            raise ConcurrencyError(stream_id, expected_version, actual)
        position = Event.objects.aggregate(p=Max("global_position"))["p"] or 0
        rows = [
            Event(
                global_position=position + i,
                stream_id=stream_id,
                stream_type=stream_type,
                version=expected_version + i,
                event_type=e.event_type,
                schema_version=e.schema_version,
                payload=e.payload,
                metadata=metadata or {},
            )
            for i, e in enumerate(events, start=1)
        ]
        try:
            with transaction.atomic():
                Event.objects.bulk_create(rows)
        except IntegrityError as clash:  # a writer that did not take the lock (should not happen)
            raise ConcurrencyError(stream_id, expected_version, stream_version(stream_id)) from clash
        if on_commit:
            transaction.on_commit(on_commit)
    return rows


def read_stream(stream_id: str, after: int = 0, until: int | None = None) -> list[Event]:
    """The stream's events after version ``after``, up to version ``until`` (inclusive) if given."""
    events = Event.objects.filter(stream_id=stream_id, version__gt=after)
    if until is not None:
        events = events.filter(version__lte=until)
    return list(events.order_by("version"))


def read_all(after: int = 0, limit: int = 1000) -> list[Event]:
    return list(Event.objects.filter(global_position__gt=after).order_by("global_position")[:limit])


def lock_log() -> None:
    """Take the append lock now, for a check that must hold until this transaction's append commits."""
    _lock_log()


def _lock_log() -> None:
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_advisory_xact_lock(%s)", [APPEND_LOCK])
