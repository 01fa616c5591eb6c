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

import orjson

GENESIS = "0" * 64


def _plain(value):
    # what a JSON column gives back: a float of 1e16 or more (a whole number: no float that large has a
    # fraction) is written 1e+16, which jsonb keeps as the numeric 10000000000000000 and reads back as an int;
    # a tuple comes back a list. Both spellings give one canonical form.
    if isinstance(value, float):
        return int(value) if abs(value) >= 1e16 and value == value and abs(value) != float("inf") else value
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    return value


def canonical(value) -> bytes:
    """Keys sorted, no spaces, UTF-8 (orjson: the append's hot path pays for it at every event). Only a text
    with a positive exponent (``1e+16``; or a string that happens to hold one) is written again from
    :func:`_plain`'s value; an integer of more than 64 bits, which orjson refuses, by the standard library."""
    try:
        text = orjson.dumps(value, option=orjson.OPT_SORT_KEYS | orjson.OPT_NON_STR_KEYS)
        if b"e+" in text:
            text = orjson.dumps(_plain(value), option=orjson.OPT_SORT_KEYS | orjson.OPT_NON_STR_KEYS)
        return text
    except TypeError:  # an integer beyond 64 bits
        return json.dumps(_plain(value), sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode()


def timestamp(at: datetime) -> str:
    """The recorded time as the chain reads it: UTC, to the microsecond (what both databases keep)."""
    return (at if at.tzinfo is timezone.utc else at.astimezone(timezone.utc)).isoformat(timespec="microseconds")


def content_digest(*, stream_id: str, stream_type: str, version: int, event_type: str, schema_version: int,
                   payload, metadata, recorded_at: datetime) -> str:
    return hashlib.sha256(canonical([stream_id, stream_type, version, event_type, schema_version, payload, metadata,
                                     timestamp(recorded_at)])).hexdigest()


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
