"""Reading a match stream: the record folded from its events, starting from a snapshot when one is held."""

from __future__ import annotations

from eventlog import store
from eventlog.snapshots import Snapshots

from . import streams
from .errors import MatchNotFound, Reason
from .streams import MatchRecord

# Folded records of recently used streams, here and (a long one) shared: eventlog/snapshots.py. A record is a
# frozen value: handed out as it is. The shared key names the record's shape (v3: a game's server rolls counted):
# a process of a new shape never reads an old one's.
SNAPSHOTS: Snapshots[MatchRecord] = Snapshots("match-snapshot:v4:", MatchRecord, share_every=250)


def match_load(stream_id: str, *, version: int | None = None) -> MatchRecord:
    """The match folded from its stream: all of it, or its first ``version`` events."""
    if version is not None:
        rows = store.read_stream(stream_id, until=version)
        if not rows or rows[0].stream_type != streams.STREAM_TYPE:
            raise MatchNotFound(Reason.NO_MATCH, match=stream_id)
        return streams.fold(stream_id, rows)
    cached = SNAPSHOTS.latest(stream_id)
    rows = store.read_stream_rows(stream_id, after=cached.version if cached else 0)
    if cached is None:
        if not rows or rows[0].stream_type != streams.STREAM_TYPE:
            raise MatchNotFound(Reason.NO_MATCH, match=stream_id)
    record = streams.fold(stream_id, rows, cached) if rows else cached
    remember_on_commit(record, share=True if len(rows) >= SHARE_AFTER else None)
    return record


# A long stream (an imported session of thousands of actions) takes seconds to fold: the record folded from it
# is also shared, so each other web worker starts from it instead of folding it again.
SHARE_AFTER = 500


def match_load_with(stream_id: str, rows, built: dict | None = None) -> MatchRecord:
    """The match as of the last of ``rows`` or later, ``rows`` being its newest events in version order.

    For projections, which hold those events already: the snapshot (or nothing, for a batch that starts the
    stream) plus the rows it lacks, with no query when they follow on from it. A rebuild finds snapshots ahead
    of its batches: they are used as they are (the summary is the latest state, and the events after the batch
    come in the next ones). ``built``: as :func:`streams.fold` takes it."""
    cached = held(stream_id)
    known = cached.version if cached else 0  # a rebuild meets each stream first at its version 1
    if rows and known >= rows[-1].version:
        return cached
    newer = [row for row in rows if row.version > known]
    if newer and all(row.version == known + i for i, row in enumerate(newer, start=1)):
        record = streams.fold(stream_id, newer, cached, built=built)
        remember_on_commit(record, share=False)  # a projection's fold (a rebuild's too): the commands share theirs
        return record
    return match_load(stream_id)


def held(stream_id: str) -> MatchRecord | None:
    """This process's snapshot of the match, if it holds one."""
    return SNAPSHOTS.held(stream_id)


def remember_on_commit(record: MatchRecord, *, share: bool | None = None) -> None:
    SNAPSHOTS.remember_on_commit(record.stream_id, record, share=share)
