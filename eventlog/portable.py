"""The log as a file: exported one event a line (JSON) with a manifest, imported into an empty database.

A line holds an event as stored (no upcasting: the file is the log, not today's reading of it)::

    {"position": 7, "stream": "m-1", "stream_type": "match", "version": 3, "type": "DiceRolled",
     "schema_version": 1, "payload": {...}, "metadata": {...}, "recorded_at": "2026-11-26T15:00:00.123456Z",
     "hash": "<its chain hash: eventlog/chain.py>"}

and the last line is the manifest: ``{"manifest": {"format", "events", "last_position", "head_hash",
"digest"}}``, the digest the sha256 of every event line before it (their bytes, newlines included).

An import takes nothing on trust: each line's position must follow the one before (a removed or swapped event
is found there), its version its stream's previous one, its hash the one recomputed from the line and the hash
before it (an edited payload, time or type is found there); then the manifest's count, last position, head
hash and digest. The first line that does not check out is named by its position and nothing is written: the
import is one transaction, into a log that must be empty.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable, Iterator
from datetime import datetime
from enum import Enum
from typing import IO

from django.db import transaction

from . import chain, store, verification
from .models import Event

FORMAT = "crawford-log/1"
BATCH = 2000


class Problem(Enum):
    """Why a file is refused: the member's name is the code, its value the English explanation."""

    NOT_EMPTY = "the log already holds events: an import goes into an empty database"
    UNREADABLE = "the line is not an event of this format"
    ORDER = "the position does not follow the previous line's (an event removed, added or moved)"
    VERSION = "the version does not follow its stream's previous event's"
    HASH = "the event does not match its hash (edited after it was exported, or its hash was)"
    NO_MANIFEST = "the file ends without its manifest (cut short?)"
    MANIFEST = "the manifest does not match the events (count, last position, head hash or format)"
    DIGEST = "the digest of the event lines is not the manifest's"


class ImportRefused(Exception):
    """Nothing was imported: ``problem`` says why and ``position`` where (the line's position, or the last
    event's for the manifest; 0 when the file has none)."""

    def __init__(self, problem: Problem, position: int, detail: str = ""):
        self.problem, self.position, self.detail = problem, position, detail
        super().__init__(f"position {position}: {problem.value}" + (f" ({detail})" if detail else ""))


def event_line(row) -> str:
    return json.dumps({
        "position": row.global_position, "stream": row.stream_id, "stream_type": row.stream_type,
        "version": row.version, "type": row.event_type, "schema_version": row.schema_version,
        "payload": row.payload, "metadata": row.metadata, "recorded_at": chain.timestamp(row.recorded_at),
        "hash": row.chain,
    }, ensure_ascii=False, separators=(",", ":")) + "\n"


def export(out: IO[str]) -> dict:
    """Every event up to the head as it is now (appends after it are not in the file), then the manifest;
    returns the manifest."""
    head, _ = verification.head()
    digest, count, last, head_hash = hashlib.sha256(), 0, 0, chain.GENESIS
    for row in verification.rows():
        if row.global_position > head:
            break
        line = event_line(row)
        digest.update(line.encode())
        out.write(line)
        count, last, head_hash = count + 1, row.global_position, row.chain
    manifest = {"format": FORMAT, "events": count, "last_position": last, "head_hash": head_hash,
                "digest": digest.hexdigest()}
    out.write(json.dumps({"manifest": manifest}) + "\n")
    return manifest


def _event(data: dict, position: int) -> Event:
    try:
        return Event(global_position=data["position"], stream_id=data["stream"], stream_type=data["stream_type"],
                     version=data["version"], event_type=data["type"], schema_version=data["schema_version"],
                     payload=data["payload"], metadata=data["metadata"],
                     recorded_at=datetime.fromisoformat(data["recorded_at"]), chain=data["hash"])
    except (KeyError, TypeError, ValueError) as bad:
        raise ImportRefused(Problem.UNREADABLE, position, f"{type(bad).__name__}: {bad}") from bad


def checked(lines: Iterable[str]) -> Iterator[Event]:
    """The file's events, each checked before it is given; :class:`ImportRefused` at the first that is not, or
    at the manifest once every event has been given."""
    digest, count, position, previous = hashlib.sha256(), 0, 0, chain.GENESIS
    versions: dict[str, int] = {}
    manifest = None
    for line in lines:
        if not line.strip():
            continue
        try:
            data = json.loads(line)
        except ValueError as bad:
            raise ImportRefused(Problem.UNREADABLE, position + 1, str(bad)) from bad
        if not isinstance(data, dict):
            raise ImportRefused(Problem.UNREADABLE, position + 1)
        if "manifest" in data:
            manifest = data["manifest"]
            break
        event = _event(data, position + 1)
        at = event.global_position
        if at != position + 1:
            raise ImportRefused(Problem.ORDER, at, f"expected position {position + 1}")
        if event.version != versions.get(event.stream_id, 0) + 1:
            raise ImportRefused(Problem.VERSION, at, f"stream {event.stream_id} version {event.version} after "
                                                     f"{versions.get(event.stream_id, 0)}")
        if chain.of_row(event, previous) != event.chain:
            raise ImportRefused(Problem.HASH, at)
        digest.update(line.encode() if line.endswith("\n") else (line + "\n").encode())
        versions[event.stream_id], position, previous, count = event.version, at, event.chain, count + 1
        yield event
    if manifest is None:
        raise ImportRefused(Problem.NO_MANIFEST, position)
    expected = {"format": FORMAT, "events": count, "last_position": position, "head_hash": previous}
    if not isinstance(manifest, dict) or any(manifest.get(k) != v for k, v in expected.items()):
        said = {k: manifest.get(k) for k in expected} if isinstance(manifest, dict) else manifest
        raise ImportRefused(Problem.MANIFEST, position, f"the file's events give {expected}, its manifest {said}")
    if manifest.get("digest") != digest.hexdigest():
        raise ImportRefused(Problem.DIGEST, position)


def import_(lines: Iterable[str]) -> int:
    """Load a file's events into an empty log, all or nothing; returns how many. The projections are not run:
    ``manage.py rebuild_projections`` after."""
    count = 0
    with transaction.atomic():
        store.lock_log()  # no append between the emptiness check and the import's commit
        if Event.objects.exists():
            raise ImportRefused(Problem.NOT_EMPTY, 0)
        batch: list[Event] = []
        for event in checked(lines):
            batch.append(event)
            if len(batch) == BATCH:
                Event.objects.bulk_create(batch)
                count, batch = count + len(batch), []
        Event.objects.bulk_create(batch)
        count += len(batch)
    return count
