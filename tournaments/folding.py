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

from . import derive, stream

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
    folded = _folded(stream.stream_id_of(tournament_id), copied=True)
    return folded.facts if folded is not None else stream.Facts()


@dataclass(frozen=True)
class Derived:
    """The view derived from the stream's first ``version`` events, the last of them at log ``position``."""

    version: int
    position: int
    view: derive.View


# what a version's facts derive to, in this process: after a result, the process manager (what comes next?), the
# event's tables and its money each need the same derive of a big event, tens of milliseconds apiece
VIEWS: Snapshots[Derived] = Snapshots("tournament-view:unshared:", Derived, limit=64)


def read_only(tournament_id: int) -> tuple[stream.Facts, derive.View]:
    """The event's facts and their view, up to its last event, for a reader that changes neither (a follower's
    look at the event): each version is folded and derived once in this process for all such readers, and handed
    out as held, not copied. A reader that folds further, or decides on them, takes :func:`facts_of`'s copy."""
    stream_id = stream.stream_id_of(tournament_id)
    folded = _folded(stream_id, copied=False)
    if folded is None:
        return stream.Facts(), derive.View()
    known = VIEWS.held(stream_id)
    if known is not None and (known.version, known.position) == (folded.version, folded.position):
        return folded.facts, known.view
    view = derive.derive(folded.facts)
    # kept once the transaction commits, as the facts are: a rolled-back append's view is never another's
    VIEWS.remember_on_commit(stream_id, Derived(folded.version, folded.position, view))
    return folded.facts, view


def read_only_facts(tournament_id: int) -> stream.Facts:
    """:func:`facts_of` for a reader that changes nothing of them: the snapshot as held, not a copy of it."""
    folded = _folded(stream.stream_id_of(tournament_id), copied=False)
    return folded.facts if folded is not None else stream.Facts()


def _folded(stream_id: str, *, copied: bool) -> Folded | None:
    """The stream folded to its last event (None: an empty stream); ``copied=False`` may hand out the snapshot
    this process holds, which its reader must not change."""
    start = SNAPSHOTS.latest(stream_id, copied=copied)
    rows = store.read_stream(stream_id, after=start.version - 1) if start else []
    if start is None or not rows or rows[0].version != start.version or rows[0].global_position != start.position:
        start, rows = None, store.read_stream(stream_id)  # no snapshot, or not of this stream: from its start
    else:
        rows = rows[1:]
    if not rows:
        return start
    facts = (start.facts if copied else _copied(start).facts) if start else stream.Facts()
    for row in rows:
        stream.apply(facts, stream.event_of(row), row.version)
    folded = Folded(facts.version, rows[-1].global_position, facts)
    # a reader's own copy is copied again to be kept (it may fold it further); a read-only one is kept as it is
    SNAPSHOTS.remember_on_commit(stream_id, folded, share=True if len(rows) >= SHARE_AFTER else None, copied=copied)
    return folded
