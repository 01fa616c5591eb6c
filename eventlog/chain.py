"""The log's hash chain: each event carries a hash of its content and of the event before it.

``chain(n) = sha256(chain(n-1) ‖ position(n) as 8 bytes big-endian ‖ content(n))``, with ``content`` the sha256
of the event's canonical form (:func:`content_digest`: stream, stream type, version, type, schema version,
payload, metadata, recorded time) and the first event's predecessor :data:`GENESIS`. A row edited later (its
payload, its time, its position) no longer matches its own hash, and a hash edited to match breaks the next
event's: only a rewrite of every hash up to the head hides an edit, and that changes the head hash, which
``/api/health/`` and every export show, so a copy of it kept elsewhere tells.

The content digest is computed by the application (here), the link by whoever holds the append lock: on
PostgreSQL the database's ``eventlog_append`` (it alone knows the previous event's hash), on SQLite the
append itself (:mod:`eventlog.store`). The canonical form is Python's, not the text of PostgreSQL's ``jsonb``
(whose key order and number spelling no other reader reproduces byte for byte): so a SQLite log, a PostgreSQL
log and an export of either give the same hashes, and anyone with the export and this module can check them.
"""

from __future__ import annotations

import hashlib
import json
from datetime import datetime, timezone

GENESIS = "0" * 64


def _plain(value):
    # what a JSON column gives back: a float with no fraction may come back an int (jsonb keeps 1e20 as a
    # numeric and reads back 100000000000000000000), a tuple a list; both spellings give one canonical form
    if isinstance(value, float):
        return int(value) if value.is_integer() else value
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    return value


def canonical(value) -> str:
    return json.dumps(_plain(value), sort_keys=True, separators=(",", ":"), ensure_ascii=False, allow_nan=False)


def timestamp(at: datetime) -> str:
    """The recorded time as the chain reads it: UTC, to the microsecond (what both databases keep)."""
    return at.astimezone(timezone.utc).strftime("%Y-%m-%dT%H:%M:%S.%fZ")


def content_digest(*, stream_id: str, stream_type: str, version: int, event_type: str, schema_version: int,
                   payload, metadata, recorded_at: datetime) -> str:
    text = canonical([stream_id, stream_type, version, event_type, schema_version, payload, metadata,
                      timestamp(recorded_at)])
    return hashlib.sha256(text.encode()).hexdigest()


def link(previous: str, position: int, content: str) -> str:
    """The hash of the event at ``position`` whose content digest is ``content``, after ``previous``."""
    return hashlib.sha256(bytes.fromhex(previous) + position.to_bytes(8, "big", signed=True)
                          + bytes.fromhex(content)).hexdigest()


def of_row(row, previous: str) -> str:
    """The chain hash a stored row (anything with the Event's field names) should carry after ``previous``."""
    return link(previous, row.global_position, content_digest(
        stream_id=row.stream_id, stream_type=row.stream_type, version=row.version, event_type=row.event_type,
        schema_version=row.schema_version, payload=row.payload, metadata=row.metadata,
        recorded_at=row.recorded_at))
