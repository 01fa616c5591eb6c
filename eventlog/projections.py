"""Followers of the log, each with a checkpoint: projections (read models) and processes (effects).

Two kinds, told apart by type. A :class:`Projection` is a read model, a function of the log alone: it can be
emptied (``reset``) and the whole log replayed into it (:func:`rebuild`), which must give the same tables. A
:class:`Process` does something beyond its own tables (it appends to other streams, sends mail): what it did
cannot be emptied and done again, so it is never rebuilt (:func:`rebuild` refuses, :class:`NotRebuildable`);
it follows on from its checkpoint, each effect guarded so that a redelivered batch does nothing twice. The
runner, the sweep and ``/api/health/`` treat both alike.

A run locks the follower's checkpoint row, applies the events after it in
log order and saves the new position in the same transaction, so a duplicate
or retried task changes nothing and a killed one leaves no half-applied batch.

One stream's bad event must not stop a projection for everybody. A batch is
applied in a savepoint; when it fails, it is applied again one event at a time,
and the stream of an event that still fails is quarantined for that projection:
a :class:`~eventlog.models.ProjectionFailure` row (stream, position, error, shown
in the admin and at ``/api/health/``) and an ERROR log line. The projection then
skips that stream's events and goes on with every other one; rebuilding it (once
the cause is fixed) clears its failures and reads the stream again. A failure
of the database itself (a lost connection) is not the stream's fault: it stops
the run, which the next wake-up or the sweep retries.

Every row reaches a projection through its upcasters (``eventlog/upcasting.py``):
a projection names only today's event types, and its filter asks the database
for the stored names of older rows too.
"""

from __future__ import annotations

import logging
import traceback
from datetime import timezone as dt_timezone
from typing import NamedTuple

from django.db import DEFAULT_DB_ALIAS, InterfaceError, OperationalError, connection, transaction
from django.db.models import F, Max
from django.utils import timezone

from . import parallel_rebuild, payloads, upcasting
from .models import Event, ProjectionCheckpoint, ProjectionFailure

log = logging.getLogger(__name__)

BATCH = 2000
_registry: dict[str, "Follower"] = {}


class LoggedEvent(NamedTuple):
    """An event as projections read it: plain values, no model instance to build."""

    global_position: int
    stream_id: str
    stream_type: str
    version: int
    event_type: str
    payload: dict
    recorded_at: object
    schema_version: int = 1


_FIELDS = LoggedEvent._fields


def _read(row) -> LoggedEvent:
    """A stored row as today's readers know it: renamed or reshaped types go through their upcasters."""
    return upcasting.read(LoggedEvent(*row))


class Follower:
    """What the runner needs of a follower: a ``name`` and ``apply(events)``. Subclass :class:`Projection` or
    :class:`Process`, never this: which kind a follower is decides whether it may be rebuilt.

    ``event_types`` lists the only event types it reads (None: all); the others
    are skipped by the query, and the checkpoint still moves past them.
    """

    name: str = ""
    event_types: tuple[str, ...] | None = None
    # batches of ``BATCH * batch_factor`` events (one transaction, one ``apply`` each): a projection whose
    # per-batch work (rows it loads and writes back however few events touch them) dominates its rebuild may
    # ask for larger ones. A multiple, read at each run, so a test that makes BATCH small makes every batch small.
    batch_factor: int = 1
    # streams set aside after a failure, set by the runner before each ``apply``: a projection whose
    # events reach into other streams (a match's result into its tournament) skips those too
    quarantined: frozenset[str] = frozenset()
    # it never changes an event's payload: the runner may hand it one decoded value for equal payloads (a rebuild's
    # million payloads are mostly repeats: payloads.loads_each)
    shares_payloads: bool = False

    def apply(self, events: list[Event]) -> None:
        raise NotImplementedError


class Projection(Follower):
    """A read model: its tables are a function of the log alone. ``reset()`` empties them, and a rebuild (the
    log replayed from position 0) gives the same tables again.

    ``digested`` names what :func:`digest` reads of them: models (every column the log decides), or
    ``(model, fields)`` for a table the projection writes only some columns of."""

    digested: tuple = ()
    # its rows of a stream depend on that stream's events alone: a rebuild may share the streams among processes
    # (eventlog/parallel_rebuild.py)
    by_stream: bool = False

    def reset(self) -> None:
        raise NotImplementedError


class Process(Follower):
    """A follower with effects beyond its own tables: facts appended to other streams, mail sent. It is never
    reset nor rebuilt (an effect cannot be taken back and done again); it follows on from its checkpoint, and
    each effect is guarded (a version already recorded, a row already made) so a redelivered batch adds nothing."""


class NotRebuildable(Exception):
    """A rebuild asked of a process: refused, nothing changed."""

    def __init__(self, name: str):
        super().__init__(f"{name} is a process, not a projection: what it did (facts appended to other streams, "
                         f"mail sent) is no read model to empty and replay, so it is never rebuilt; it follows on "
                         f"from its checkpoint")
        self.name = name


class StreamFailed(Exception):
    """Raised by a projection (``from`` the cause) when the stream to blame is not the event's own:
    a match event that refreshes a tournament whose own stream cannot be folded."""

    def __init__(self, stream_id: str):
        super().__init__(stream_id)
        self.stream_id = stream_id


# the database failing, not the event: never a reason to set a stream aside
_NOT_THE_STREAM = (OperationalError, InterfaceError)


def register(follower: Follower) -> Follower:
    if not isinstance(follower, (Projection, Process)):
        raise TypeError(f"{type(follower).__name__} is neither a Projection (a read model, rebuilt from the log) "
                        f"nor a Process (effects, never rebuilt): say which it is by its base class")
    _registry[follower.name] = follower
    return follower


def registered() -> dict[str, Follower]:
    """Every follower, of both kinds: what the runner, the sweep and ``/api/health/`` go through."""
    return dict(_registry)


def rebuildable() -> list[str]:
    """The projections' names, in order: the followers :func:`rebuild` accepts."""
    return sorted(name for name, follower in _registry.items() if isinstance(follower, Projection))


def run(name: str) -> int:
    """Catch the projection up with the log; return how many events it applied (or set aside)."""
    projection = _registry[name]
    applied = 0
    while True:
        with transaction.atomic():
            parallel_rebuild.shared_lock(name)  # a rebuild in processes of its own goes first
            checkpoint = _checkpoint_held(name)
            # commit order is position order (appends hold the log's lock), so every event
            # up to the highest committed position is visible: none can appear below it later
            top = Event.objects.aggregate(top=Max("global_position"))["top"] or 0
            if top <= checkpoint.position:
                return applied
            size = BATCH * projection.batch_factor
            batch = _batch(projection, checkpoint.position, top, size)
            wanted = [e for e in batch if projection.event_types is None or e.event_type in projection.event_types]
            if wanted:
                _apply_guarded(projection, wanted)
            checkpoint.position = batch[-1].global_position if len(batch) == size else top
            checkpoint.save(update_fields=["position", "updated_at"])
            applied += len(batch)
            if len(batch) < size:
                # at the head this transaction saw, read after the call began: caught up. An append committed
                # since sends a wake-up of its own (wake_ups.release comes first in project_all), so no second
                # transaction, lock and look is spent on finding nothing
                return applied


def _checkpoint_held(name: str) -> ProjectionCheckpoint:
    """The follower's checkpoint, locked until the transaction ends; made at its first run."""
    checkpoint = ProjectionCheckpoint.objects.select_for_update().filter(name=name).first()
    if checkpoint is None:
        ProjectionCheckpoint.objects.get_or_create(name=name)  # another process may be making it at once
        checkpoint = ProjectionCheckpoint.objects.select_for_update().get(name=name)
    return checkpoint


def _batch(projection: Follower, after: int, top: int, size: int,
           share: tuple[int, int] | None = None) -> list[LoggedEvent]:
    """The next ``size`` events after ``after`` up to ``top`` that the projection reads, in log order; with
    ``share`` (i, n), only those of the streams whose hash is i modulo n (PostgreSQL: a parallel rebuild's)."""
    types = None if projection.event_types is None else upcasting.stored_types(projection.event_types)
    if connection.vendor != "postgresql":
        query = Event.objects.filter(global_position__gt=after, global_position__lte=top)
        if types is not None:  # the stored names too of rows that read as these types
            query = query.filter(event_type__in=types)
        return [_read(row) for row in query.order_by("global_position").values_list(*_FIELDS)[:size]]
    # PostgreSQL: one plain statement, its rows decoded here rather than through the ORM's per-value converters
    # (a rebuild reads every event of the log: the ORM's decoding was a quarter of a match_summary rebuild)
    sql = (f"SELECT {', '.join(_FIELDS)} FROM {Event._meta.db_table}"
           " WHERE global_position > %s AND global_position <= %s")
    params: list = [after, top]
    if types is not None:
        sql += " AND event_type = ANY(%s)"
        params.append(list(types))
    if share is not None:
        sql += " AND (hashtext(stream_id) & 2147483647) %% %s = %s"
        params += [share[1], share[0]]
    sql += " ORDER BY global_position LIMIT %s"
    params.append(size)
    with connection.cursor() as cursor:
        _fast_timestamps(cursor.cursor)
        cursor.execute(sql, params)
        rows = cursor.fetchall()
    decoded = payloads.loads_each([row[5] for row in rows], shared=projection.shares_payloads)
    new, utc = tuple.__new__, dt_timezone.utc
    return upcasting.read_each([new(LoggedEvent, (p, s, t, v, e, payload, at.astimezone(utc), sv))
                                for (p, s, t, v, e, _, at, sv), payload in zip(rows, decoded)])


def _fast_timestamps(cursor) -> None:
    """psycopg's own (compiled) loader for ``timestamptz`` on this cursor: Django's is a Python subclass of it, a
    noticeable cost over a million rows. Both give the same instant; :func:`_batch` puts it in UTC, as Django does."""
    import psycopg

    oid = psycopg.postgres.types["timestamptz"].oid
    cursor.adapters.register_loader(oid, psycopg.adapters.get_loader(oid, psycopg.pq.Format.TEXT))


def quarantined(name: str) -> frozenset[str]:
    return frozenset(ProjectionFailure.objects.filter(projection=name).values_list("stream_id", flat=True))


def _apply_guarded(projection: Follower, batch: list[LoggedEvent]) -> None:
    """Apply the batch; if it fails, find the streams at fault one event at a time and set them aside."""
    projection.quarantined = quarantined(projection.name)
    events = _without(projection, batch)
    if not events:
        return
    try:
        with transaction.atomic():
            projection.apply(events)
        return
    except _NOT_THE_STREAM:
        raise
    except Exception:  # noqa: BLE001 - whatever it is, it is found again below, event by event
        pass
    for event in events:
        if event.stream_id in projection.quarantined:
            _count_skipped(projection.name, event.stream_id)
            continue
        try:
            with transaction.atomic():
                projection.apply([event])
        except _NOT_THE_STREAM:
            raise
        except StreamFailed as failed:
            _quarantine(projection, failed.stream_id, event, failed.__cause__ or failed)
        except Exception as failure:  # noqa: BLE001 - any error of one stream's data is quarantined alike
            _quarantine(projection, event.stream_id, event, failure)


def _without(projection: Follower, batch: list[LoggedEvent]) -> list[LoggedEvent]:
    if not projection.quarantined:
        return batch
    kept = []
    for event in batch:
        if event.stream_id in projection.quarantined:
            _count_skipped(projection.name, event.stream_id)
        else:
            kept.append(event)
    return kept


def _count_skipped(name: str, stream_id: str) -> None:
    ProjectionFailure.objects.filter(projection=name, stream_id=stream_id).update(skipped=F("skipped") + 1)


def _quarantine(projection: Follower, stream_id: str, event: LoggedEvent, failure: BaseException) -> None:
    error = f"{type(failure).__name__}: {failure}"[:2000]
    _, created = ProjectionFailure.objects.get_or_create(
        projection=projection.name, stream_id=stream_id,
        defaults={"global_position": event.global_position, "event_type": event.event_type[:64],
                  "version": event.version if event.stream_id == stream_id else None, "error": error,
                  "traceback": "".join(traceback.format_exception(failure))[-8000:]},
    )
    if not created:
        _count_skipped(projection.name, stream_id)
        return
    projection.quarantined = projection.quarantined | {stream_id}
    log.error("projection %s cannot apply event #%s (%s, stream %s): %s; the stream %s is set aside, "
              "every other stream goes on", projection.name, event.global_position, event.event_type,
              event.stream_id, error, stream_id)


def run_all() -> dict[str, int]:
    """Every follower caught up, in their order: a process's facts appended during the run are read by the
    followers after it (the process manager's by ``tournament_view``)."""
    names = list(_registry)
    applied = dict.fromkeys(names, 0)
    while names:
        names = _run_until_a_process_appends(names, applied)
    return applied


def _run_until_a_process_appends(names: list[str], applied: dict[str, int]) -> list[str]:
    """Run these followers in order; return the rest of them if a process applied events (it may have appended
    facts that those after it read, which the head looked at here does not hold), else nothing."""
    # a follower already at the log's head has nothing to apply: one look at the head and at every checkpoint
    # spares each such follower its own transaction, lock and look (run_all follows nearly every command)
    # on the primary, as run() reads them: a lagging replica's head would leave a follower behind
    top = Event.objects.using(DEFAULT_DB_ALIAS).aggregate(top=Max("global_position"))["top"] or 0
    at = dict(ProjectionCheckpoint.objects.using(DEFAULT_DB_ALIAS).values_list("name", "position"))
    behind = [name for name in names if at.get(name, -1) < top]
    idle = _reading_none_of(behind, at, top)
    if idle:
        _advance(idle, top)
    for i, name in enumerate(names):
        if name in behind and name not in idle:
            applied[name] = run(name)
            if applied[name] and isinstance(_registry[name], Process):
                return names[i + 1:]
    return []


# how far behind the head a follower may be for run_all to look at the types of the events it has not read
IDLE_LOOK = 1000


def _reading_none_of(behind: list[str], at: dict[str, int], top: int) -> set[str]:
    """The followers behind the head none of whose event types is among the events they have not read yet (up to
    ``top``): most commands append events that one or two followers read (a move: the match summary), and run_all
    follows nearly every command. Looked at over a short stretch of the log only, in one query."""
    near = [name for name in behind
            if _registry[name].event_types is not None and name in at and top - at[name] <= IDLE_LOOK]
    if not near:
        return set()
    new = set(Event.objects.using(DEFAULT_DB_ALIAS)
              .filter(global_position__gt=min(at[name] for name in near), global_position__lte=top)
              .values_list("event_type", flat=True).distinct())
    return {name for name in near if not new & upcasting.stored_types(_registry[name].event_types)}


def _advance(names: set[str], top: int) -> None:
    """Move these followers' checkpoints to ``top`` (none of them reads an event up to it), in one transaction: as
    :func:`run` would, under the rebuild's shared lock, never back (a run that went further has committed)."""
    with transaction.atomic(using=DEFAULT_DB_ALIAS):
        parallel_rebuild.shared_locks(names)
        ProjectionCheckpoint.objects.using(DEFAULT_DB_ALIAS).filter(name__in=names, position__lt=top).update(
            position=top, updated_at=timezone.now())


def _derived_fields(model) -> list[str]:
    """The columns the log decides: not a surrogate id (nor a reference to one), not a write time."""
    from django.db import models

    def surrogate(field) -> bool:
        return isinstance(field, models.AutoField) or (
            field.is_relation and isinstance(field.target_field, models.AutoField)
            and field.related_model is not None and field.related_model._meta.app_label != "players")

    return [f.attname for f in model._meta.concrete_fields
            if not surrogate(f) and not getattr(f, "auto_now", False) and not getattr(f, "auto_now_add", False)]


def digested_rows(name: str) -> dict[str, list[str]]:
    """The projection's rows as :func:`digest` reads them, by table, sorted: to show where two digests differ."""
    out = {}
    for item in _registry[name].digested:
        model, fields = item if isinstance(item, tuple) else (item, _derived_fields(item))
        out[model._meta.db_table] = sorted(repr(row) for row in model.objects.values_list(*fields))
    return out


def digest(name: str) -> str:
    """A digest of the projection's tables as the log made them (its ``digested``): equal for two databases
    whose logs are equal, whatever order their rows were written in and whatever ids they were given."""
    import hashlib

    h = hashlib.sha256()
    for table, rows in digested_rows(name).items():
        h.update(f"{table}:{len(rows)}:".encode())
        for row in rows:
            h.update(row.encode() + b"\n")
    return h.hexdigest()


def digests() -> dict[str, str]:
    """:func:`digest` of every projection, by name."""
    return {name: digest(name) for name in rebuildable()}


def rebuild_every(workers: int = 1) -> dict[str, int]:
    """:func:`rebuild` every projection; with ``workers`` > 1, the one whose streams are independent (the longest)
    in that many processes while this one rebuilds the others. Returns the events applied, by projection."""
    names = rebuildable()
    shared = [n for n in names if _parallel(n, workers)]
    if not shared:
        return {name: rebuild(name) for name in names}
    first, done = shared[0], {}
    done[first] = parallel_rebuild.rebuild(
        first, workers, meanwhile=lambda: done.update({n: rebuild(n, workers) for n in names if n != first}))
    return {name: done[name] for name in names}


def _parallel(name: str, workers: int) -> bool:
    # other processes see only what is committed: inside a transaction (a test's) the rebuild stays in this one
    return (workers > 1 and _registry[name].by_stream and connection.vendor == "postgresql"
            and not connection.in_atomic_block)


def rebuild(name: str, workers: int = 1) -> int:
    """Empty the projection and replay the whole log into it (set-aside streams included: tried again); in
    ``workers`` processes when the projection's streams are independent (``by_stream``) and the database is
    PostgreSQL, each replaying a share of the streams (eventlog/parallel_rebuild.py), outside a transaction.

    A process is refused (:class:`NotRebuildable`) before anything is touched."""
    if not isinstance(_registry[name], Projection):
        raise NotRebuildable(name)
    if _parallel(name, workers):
        return parallel_rebuild.rebuild(name, workers)
    with transaction.atomic():
        ProjectionCheckpoint.objects.select_for_update().filter(name=name).update(position=0)
        _registry[name].reset()
        ProjectionFailure.objects.filter(projection=name).delete()
    return run(name)
