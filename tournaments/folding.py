"""An event's facts folded from its stream, starting from a snapshot (eventlog/snapshots.py) as a match's are.

Every command, page and notice of an event needs its facts; folding the whole stream each time made them cost
as much as the event is long (a 1,000-player Swiss: thousands of events read and applied per command). A
snapshot is a prefix of the stream, so only the events after it are read. It remembers the log position of its
last event, read again with them: a stream the snapshot does not belong to (an empty log restored under the
same ids, a test's database emptied) is folded from its start.
"""

from __future__ import annotations

import dataclasses
import hashlib
import pickle
from dataclasses import dataclass

from eventlog import store
from eventlog.snapshots import Snapshots

from . import stream

SHARE_AFTER = 200  # events folded at once (a cold process): worth the shared cache's write


@dataclass(frozen=True)
class Folded:
    """The facts after the stream's first ``version`` events, the last of them at log ``position``."""

    version: int
    position: int
    facts: stream.Facts


def _copied(folded: Folded) -> Folded:
    # a fold applies in place, and readers may change what they are given: each gets its own
    return pickle.loads(pickle.dumps(folded, protocol=pickle.HIGHEST_PROTOCOL))


# the shared key names the facts' shape, their money's too: a process of another shape never reads these
_SHAPE = hashlib.sha256(",".join(f.name for kind in (stream.Facts, stream.MoneyFacts)
                                 for f in dataclasses.fields(kind)).encode()).hexdigest()[:12]
SNAPSHOTS: Snapshots[Folded] = Snapshots(f"tournament-facts:v2:{_SHAPE}:", Folded, limit=256, copy=_copied,
                                     share_every=100)


def facts_of(tournament_id: int) -> stream.Facts:
    """Everything the event's stream says, up to its last event."""
    stream_id = stream.stream_id_of(tournament_id)
    start = SNAPSHOTS.latest(stream_id)
    rows = store.read_stream(stream_id, after=start.version - 1) if start else []
    if start is None or not rows or rows[0].version != start.version or rows[0].global_position != start.position:
        start, rows = None, store.read_stream(stream_id)  # no snapshot, or not of this stream: from its start
    else:
        rows = rows[1:]
    if not rows:
        return start.facts if start else stream.Facts()
    facts = start.facts if start else stream.Facts()
    for row in rows:
        stream.apply(facts, stream.event_of(row), row.version)
    SNAPSHOTS.remember_on_commit(stream_id, Folded(facts.version, rows[-1].global_position, facts),
                                 share=True if len(rows) >= SHARE_AFTER else None)
    return facts
