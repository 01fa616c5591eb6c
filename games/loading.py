"""Reading a match stream: the record folded from its events, starting from a snapshot when one is held."""

from __future__ import annotations

import re
import threading
from collections import OrderedDict

from django.db import transaction

from eventlog import store

from . import streams
from .errors import MatchNotFound, Reason
from .streams import MatchRecord

# Folded records of recently used streams. A stream only ever grows, so a record
# stays a valid prefix forever and a load folds just the events after it. A record
# is remembered only once the transaction that read it commits: a rolled-back
# append must never be remembered.
_SNAPSHOTS: OrderedDict[str, MatchRecord] = OrderedDict()
_SNAPSHOT_LIMIT = 1024
_snapshot_lock = threading.Lock()


def match_load(stream_id: str, *, version: int | None = None) -> MatchRecord:
    """The match folded from its stream: all of it, or its first ``version`` events."""
    if version is not None:
        rows = store.read_stream(stream_id, until=version)
        if not rows or rows[0].stream_type != streams.STREAM_TYPE:
            raise MatchNotFound(Reason.NO_MATCH, match=stream_id)
        return streams.fold(stream_id, rows)
    cached = held(stream_id)
    if cached is None:
        cached = _shared_snapshot(stream_id)
    rows = store.read_stream_rows(stream_id, after=cached.version if cached else 0)
    if cached is None:
        if not rows or rows[0].stream_type != streams.STREAM_TYPE:
            raise MatchNotFound(Reason.NO_MATCH, match=stream_id)
    record = streams.fold(stream_id, rows, cached) if rows else cached
    remember_on_commit(record, share=len(rows) >= SHARE_AFTER)
    return record


# A long stream (an imported session of thousands of actions) takes seconds to fold: the record folded from it
# is also put in the shared cache, so each other web worker starts from it instead of folding it again. Like the
# local snapshots it is only ever a prefix of the stream, remembered once its transaction has committed.
SHARE_AFTER = 500
_SHARED = "match-snapshot:v3:"  # v3: records count their game's server rolls (seed_game, seed_rolls)
_SHAREABLE_ID = re.compile(r"[0-9A-Za-z_-]{1,64}")  # a stream id as made here; anything else is no cache key


def _shared_snapshot(stream_id: str) -> MatchRecord | None:
    from django.core.cache import cache

    if not _SHAREABLE_ID.fullmatch(stream_id):
        return None  # an address nobody made (a client's typing): not worth, nor fit for, a cache lookup
    try:
        record = cache.get(_SHARED + stream_id)
    except Exception:  # noqa: BLE001 - the cache is an optimisation: without it, fold the stream
        return None
    return record if isinstance(record, MatchRecord) and record.stream_id == stream_id else None


def match_load_with(stream_id: str, rows) -> MatchRecord:
    """The match as of the last of ``rows`` or later, ``rows`` being its newest events in version order.

    For projections, which hold those events already: the snapshot (or nothing, for a batch that starts the
    stream) plus the rows it lacks, with no query when they follow on from it. A rebuild finds snapshots ahead
    of its batches: they are used as they are (the summary is the latest state, and the events after the batch
    come in the next ones)."""
    cached = held(stream_id)
    known = cached.version if cached else 0  # a rebuild meets each stream first at its version 1
    if rows and known >= rows[-1].version:
        return cached
    newer = [row for row in rows if row.version > known]
    if newer and all(row.version == known + i for i, row in enumerate(newer, start=1)):
        record = streams.fold(stream_id, newer, cached)
        remember_on_commit(record)
        return record
    return match_load(stream_id)


def held(stream_id: str) -> MatchRecord | None:
    """This process's snapshot of the match, if it holds one."""
    with _snapshot_lock:
        return _SNAPSHOTS.get(stream_id)


def remember_on_commit(record: MatchRecord, *, share: bool = False) -> None:
    def remember():
        with _snapshot_lock:
            known = _SNAPSHOTS.get(record.stream_id)
            if known is None or known.version < record.version:
                _SNAPSHOTS[record.stream_id] = record
            _SNAPSHOTS.move_to_end(record.stream_id)
            while len(_SNAPSHOTS) > _SNAPSHOT_LIMIT:
                _SNAPSHOTS.popitem(last=False)
        if share:
            from django.core.cache import cache

            try:
                cache.set(_SHARED + record.stream_id, record, timeout=24 * 3600)
            except Exception:  # noqa: BLE001 - an optimisation only
                pass

    transaction.on_commit(remember)
