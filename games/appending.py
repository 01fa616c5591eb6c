"""Appending to a match stream: engine events made storable, checked against the platform's limits, appended
in one transaction, and the followers told once it commits."""

from __future__ import annotations

import uuid

from eventlog import live, store
from eventlog.store import NewEvent
from eventlog.tasks import wake_projections_and_tell
from games.engine import events as engine_events

from . import limits, streams
from .streams import MatchRecord


def new_events(engine_events_list) -> list[NewEvent]:
    return [
        NewEvent(*streams.engine_payload(e), engine_events.SCHEMA_VERSION[type(e).__name__])
        for e in engine_events_list
    ]


def append_events(stream_id: str, expected: int, events: list[NewEvent], actor, command_id=None, correlation_id=None):
    # command_id: the client's Idempotency-Key; correlation_id ties together what one request caused
    metadata = {
        "actor": getattr(actor, "pk", None),
        "command_id": command_id,
        "correlation_id": correlation_id or uuid.uuid4().hex,
    }
    return store.append(  # all or nothing; a stale version is raised after its block
        stream_id=stream_id,
        stream_type=streams.STREAM_TYPE,
        expected_version=expected,
        events=events,
        metadata=metadata,
        on_commit=lambda: _told(stream_id, expected + len(events)),
    )


def _told(stream_id: str, version: int) -> None:
    # after the commit: the projections are woken, and the pages following the match (eventlog/live.py) fetch it
    wake_projections_and_tell(live.stream_topic(stream_id), version)


def fold_checked(stream_id: str, events: list[NewEvent], record: MatchRecord | None) -> MatchRecord:
    """The record these events, not yet appended, would make; NotRepresentable if a read model could not hold it."""
    base = record.version if record else 0
    pending = [streams.Pending(e.event_type, e.payload, base + i) for i, e in enumerate(events, start=1)]
    return streams.fold(stream_id, pending, record, check=limits.check_representable)
