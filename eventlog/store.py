"""Appending to and reading from the event log.

Appends take an expected version: a stale writer gets :class:`ConcurrencyError`
(HTTP 409), never a silent overwrite. On PostgreSQL each append holds a
transaction-scoped advisory lock, so commit order equals ``global_position``
order and a reader never skips an event that commits late; the next position
is read under that lock, which keeps positions gap-free. SQLite serialises
writers on its own.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from typing import NamedTuple

from django.db import DEFAULT_DB_ALIAS, IntegrityError, connection, connections, router, transaction
from django.db.models import Max
from django.utils import timezone

from . import chain, payloads, prepared, upcasting
from .models import CommandResult, Event
from .refusals import Reason, Refusal

APPEND_LOCK = 0x43524157  # "CRAW": the advisory lock every append takes


class ConcurrencyError(Refusal):
    """The stream moved on since the writer read it. ``what`` names the stream as its sender knows it ("the
    match", "the event"): the answer speaks of the version the sender sent, of the stream it sent it for."""

    def __init__(self, stream_id: str, expected: int, actual: int, what: str = "the match"):
        self.stream_id, self.expected, self.actual, self.what = stream_id, expected, actual, what
        sent = expected >= 0
        reason = {("the match", True): Reason.MATCH_CHANGED_SENT, ("the match", False): Reason.MATCH_CHANGED,
                  ("the event", True): Reason.EVENT_CHANGED_SENT, ("the event", False): Reason.EVENT_CHANGED}
        super().__init__(reason[what, sent], now=actual, **({"sent": expected} if sent else {}))


class EventRejected(Refusal, ValueError):
    """An event the log cannot store as given (e.g. a NUL character in a string): HTTP 400."""


def _check_storable(value, where: str = "payload") -> None:
    # PostgreSQL's jsonb cannot hold U+0000; refuse it with a reason instead of a database error
    if isinstance(value, str):
        if "\x00" in value:
            raise EventRejected(Reason.NUL_CHARACTER, where=where)
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


@dataclass
class _ReceiptSlot:
    actor: str
    key: str
    fingerprint: str
    kept: bool | None = None  # None: no append has kept it yet
    body: dict | None = None


# An idempotency receipt waiting for the next append of this thread's command (eventlog.idempotency arms it): that
# append writes it in its own round trip, so a command with a key costs no statement more than one without.
_receipt: ContextVar[_ReceiptSlot | None] = ContextVar("eventlog_receipt", default=None)


@contextmanager
def receipt_with_next_append(*, actor: str, key: str, fingerprint: str):
    """Within the block, the first append also keeps the command's receipt under ``(actor, key)``: the events it
    appended and the version it left, ``{"appended": [{"type", "payload"}...], "version": n}``, status 200.
    Yields the slot: ``kept`` is True once kept, False if the key was taken (the caller must roll back), None if
    nothing was appended."""
    slot = _ReceiptSlot(actor, key, fingerprint)
    token = _receipt.set(slot)
    try:
        yield slot
    finally:
        _receipt.reset(token)


def receipt_body(events, version: int) -> dict:
    return {"appended": [{"type": e.event_type, "payload": e.payload} for e in events], "version": version}


def keep_receipt(*, actor: str, key: str, fingerprint: str, status: int, body: dict) -> bool:
    """Insert a receipt unless the key is taken (waiting for a holder that has not committed): True if kept."""
    q = connection.ops.quote_name
    with connection.cursor() as cursor:
        cursor.execute(
            f"INSERT INTO {q(CommandResult._meta.db_table)} "
            '("actor", "key", "fingerprint", "status_code", "body", "created_at") VALUES (%s, %s, %s, %s, %s, %s) '
            f"ON CONFLICT ({q('actor')}, {q('key')}) DO NOTHING RETURNING {q('id')}",
            [actor, key, fingerprint, status, json.dumps(body), connection.ops.adapt_datetimefield_value(timezone.now())],
        )
        return cursor.fetchone() is not None


def stream_version(stream_id: str) -> int:
    return Event.objects.filter(stream_id=stream_id).aggregate(v=Max("version"))["v"] or 0


def stream_version_sql() -> str:
    """:func:`stream_version` as a scalar subquery of one parameter (the stream), for a page that reads it with its
    own row in one round trip."""
    return f"(SELECT coalesce(max(version), 0) FROM {Event._meta.db_table} WHERE stream_id = %s)"


class ReceiptTaken(Exception):
    """The idempotency receipt the append was to keep is another command's: its key is taken. Nothing of the
    append was written on its own; inside a caller's transaction, the caller rolls it back."""


def append(
    *,
    stream_id: str,
    stream_type: str,
    expected_version: int,
    events: Iterable[NewEvent],
    metadata: dict | None = None,
    on_commit: Callable[[], None] | None = None,
) -> list[Event]:
    """Append ``events`` to a stream at ``expected_version`` (0 for a new stream), atomically.

    On PostgreSQL the append is one call of the database's ``eventlog_append`` (eventlog/migrations/0007): the
    lock, the version check, the insert and the receipt in one statement, prepared once per connection. Outside
    any transaction the server runs it as one implicit transaction: no BEGIN and no COMMIT round trip. Inside a
    caller's transaction the append joins it without a savepoint of its own: nothing in it fails half-way that a
    caller could go on from. A stale ``expected_version`` is found before anything is written and raised once
    the call has returned, so a caller that catches :class:`ConcurrencyError` (a retry loop, a test) keeps a
    usable transaction, as with a savepoint. A receipt that could not be kept (:func:`receipt_with_next_append`)
    raises :class:`ReceiptTaken` the same way, having written nothing of its own."""
    events = list(events)
    for event in events:
        _check_storable(event.payload)
    _check_storable(metadata or {}, "metadata")
    metadata = metadata or {}
    now = timezone.now()
    slot = _receipt.get()
    receipt = None
    db = connections[DEFAULT_DB_ALIAS]  # read once: each use of the proxy looks the thread's wrapper up again
    postgresql = db.vendor == "postgresql"
    if slot is not None and slot.kept is None and (postgresql or db.in_atomic_block):
        receipt = receipt_body(events, expected_version + len(events))
    if postgresql:
        actual, position, kept, hashes = _append_postgresql(db, stream_id, stream_type, expected_version, events,
                                                            metadata, now, slot if receipt is not None else None,
                                                            receipt)
        rows = None
    else:
        with transaction.atomic(savepoint=False):
            actual, rows = _append_orm(stream_id, stream_type, expected_version, events, metadata, now)
            kept = actual == expected_version and receipt is not None and keep_receipt(
                actor=slot.actor, key=slot.key, fingerprint=slot.fingerprint, status=200, body=receipt)
    if actual != expected_version:
        raise ConcurrencyError(stream_id, expected_version, actual)
    if receipt is not None:
        slot.kept, slot.body = bool(kept), receipt
        if not kept:
            raise ReceiptTaken(slot.key)
    if on_commit:
        db.on_commit(on_commit)  # outside a transaction (committed already): now
    if rows is not None:
        return rows
    rows = []
    for i, e in enumerate(events, start=1):
        row = Event(global_position=position + i, stream_id=stream_id, stream_type=stream_type,
                    version=expected_version + i, event_type=e.event_type, schema_version=e.schema_version,
                    payload=e.payload, metadata=metadata, recorded_at=now, chain=hashes[i - 1])
        row._state.adding, row._state.db = False, db.alias  # stored, as a row read back would be
        rows.append(row)
    return rows


# The database's eventlog_append (eventlog/migrations/0008_append_events_in_one_value.py, first made by 0005): the
# lock, then (statements of their own, so that their snapshot is taken once the lock is held and sees every append committed
# before) the version check, the next global position and the head's chain hash, the command's idempotency receipt if it has a
# key, the new events' chain hashes (from the content digests computed here: eventlog/chain.py), and the insert.
# Nothing is inserted when the stream is not at the expected version, nor when the receipt's key is taken (the
# receipt's insert waits for a holder that has not committed): the call says where the stream is and whether
# the receipt was kept instead. The casts name the function's argument types whatever the binding.
_APPEND_CALL = ("SELECT stream_version, head, kept, hashes FROM eventlog_append(%s::bigint, %s::text, %s::text, "
                "%s::integer, %s::jsonb, %s::jsonb, %s::timestamptz, %s::text, %s::text, %s::text, %s::jsonb)")


def _contents(stream_id, stream_type, expected, events, metadata, now) -> list[str]:
    return [chain.content_digest(stream_id=stream_id, stream_type=stream_type, version=expected + i,
                                 event_type=e.event_type, schema_version=e.schema_version, payload=e.payload,
                                 metadata=metadata, recorded_at=now)
            for i, e in enumerate(events, start=1)]


def _append_postgresql(db, stream_id, stream_type, expected, events, metadata, now, slot, receipt) -> tuple:
    """(the stream's version before the append, the global position before it, whether the receipt was kept,
    the new events' chain hashes) under the lock, in one statement."""
    # the events as one JSON array of [type, schema version, payload, content digest]: psycopg binds a text at
    # the cost of any parameter, where it wrote PostgreSQL arrays out element by element
    rows = [[e.event_type, e.schema_version, e.payload, digest]
            for e, digest in zip(events, _contents(stream_id, stream_type, expected, events, metadata, now))]
    params = [
        APPEND_LOCK, stream_id, stream_type, expected, json.dumps(rows), json.dumps(metadata), now,
        *((slot.actor, slot.key, slot.fingerprint, json.dumps(receipt)) if slot is not None else (None,) * 4),
    ]
    with prepared.cursor(db) as cursor:
        try:
            cursor.execute(_APPEND_CALL, params)
        except IntegrityError as clash:  # a writer that did not take the lock (should not happen)
            raise ConcurrencyError(stream_id, expected, -1) from clash
        return cursor.fetchone()


def _append_orm(stream_id, stream_type, expected, events, metadata, now) -> tuple[int, list[Event]]:
    """SQLite (the embedded default) serialises writers on its own; the chain is linked here, as
    ``eventlog_append`` links it on PostgreSQL."""
    actual = stream_version(stream_id)
    if actual != expected:
        return actual, []
    position, previous = (Event.objects.order_by("-global_position").values_list("global_position", "chain").first()
                          or (0, chain.GENESIS))
    rows = []
    for i, (e, content) in enumerate(zip(events, _contents(stream_id, stream_type, expected, events, metadata, now)),
                                     start=1):
        previous = chain.link(previous, position + i, content)
        rows.append(Event(global_position=position + i, stream_id=stream_id, stream_type=stream_type,
                          version=expected + i, event_type=e.event_type, schema_version=e.schema_version,
                          payload=e.payload, metadata=metadata, recorded_at=now, chain=previous))
    return actual, Event.objects.bulk_create(rows)


def read_stream(stream_id: str, after: int = 0, until: int | None = None) -> list[Event]:
    """The stream's events after version ``after``, up to version ``until`` (inclusive) if given, as today's
    readers know them (older rows through their upcasters)."""
    events = Event.objects.filter(stream_id=stream_id, version__gt=after)
    if until is not None:
        events = events.filter(version__lte=until)
    return [upcasting.read(row) for row in events.order_by("version")]


def read_latest(stream_id: str, event_types, count: int) -> list[Event]:
    """The stream's ``count`` latest events of these types (as today's readers name them), oldest first: a page
    that shows a long stream's last few facts reads those, not the stream."""
    rows = (Event.objects.filter(stream_id=stream_id, event_type__in=upcasting.stored_types(event_types))
            .order_by("-version")[:count])
    return [r for r in (upcasting.read(row) for row in reversed(rows)) if r.event_type in event_types]


class StoredEvent(NamedTuple):
    """An event as :func:`read_stream_rows` gives it: the columns a fold reads, no model instance."""

    version: int
    stream_type: str
    event_type: str
    schema_version: int
    payload: dict
    recorded_at: object


def read_stream_rows(stream_id: str, after: int = 0) -> list[StoredEvent] | list[Event]:
    """:func:`read_stream` for the command path, which asks for the few events after its snapshot on every
    command: on PostgreSQL one prepared statement (eventlog/prepared.py) read into tuples, without building a
    queryset and model instances (most of the read's CPU). Elsewhere (SQLite) the ORM's rows, which convert its
    dates. Read where the ORM would read it (a public page's read may go to a replica: deploy/replica.py)."""
    reader = connections[router.db_for_read(Event)]
    if reader.vendor != "postgresql":
        return read_stream(stream_id, after)
    with prepared.cursor(reader) as cursor:
        cursor.execute(_READ_STREAM_SQL.format(table=reader.ops.quote_name(Event._meta.db_table)), [stream_id, after])
        return [upcasting.read(StoredEvent(v, st, et, sv, payloads.loads(p) if isinstance(p, str) else p, at))
                for v, st, et, sv, p, at in cursor.fetchall()]


_READ_STREAM_SQL = ('SELECT version, stream_type, event_type, schema_version, payload, recorded_at FROM {table} '
                    'WHERE stream_id = %s AND version > %s ORDER BY version')


def read_all(after: int = 0, limit: int = 1000) -> list[Event]:
    rows = Event.objects.filter(global_position__gt=after).order_by("global_position")[:limit]
    return [upcasting.read(row) for row in rows]


def lock_log() -> None:
    """Take the append lock now, for a check that must hold until this transaction's append commits."""
    _lock_log()


def _lock_log() -> None:
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_advisory_xact_lock(%s)", [APPEND_LOCK])
