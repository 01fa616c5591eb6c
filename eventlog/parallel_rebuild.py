"""A rebuild spread over the machine's cores, for a projection whose rows of a stream depend on that stream alone.

The streams are shared among ``workers`` processes by a hash of their ids: each process replays, in log order,
the events of its streams only, so every stream still sees its own events in order and no two processes write
a stream's rows. The tables are those of the sequential rebuild (a test compares their digests).

While it runs, the projection's ordinary runs wait (they take :func:`shared_lock` in each batch's transaction;
the rebuild holds it exclusively, on a connection of its own): the processes replay up to the log's head as it
was when they began, and the runs then catch up from there, as after any rebuild. PostgreSQL only; elsewhere
(SQLite, the embedded default) a rebuild is sequential.
"""

from __future__ import annotations

import multiprocessing
import zlib
from collections.abc import Callable
from contextlib import contextmanager

from django.db import connection, connections, transaction
from django.db.models import Max

from .models import Event, ProjectionCheckpoint, ProjectionFailure

_NAMESPACE = 0x43524250  # "CRBP": the projections' rebuild locks, one per projection (the second key)


def _key(name: str) -> int:
    """The projection's lock key: its name's CRC-32 as PostgreSQL's signed integer."""
    crc = zlib.crc32(name.encode())
    return crc - 2**32 if crc >= 2**31 else crc


def shared_lock(name: str) -> None:
    """Within a transaction: wait while ``name`` is being rebuilt in parallel (PostgreSQL; elsewhere nothing)."""
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_advisory_xact_lock_shared(%s, %s)", [_NAMESPACE, _key(name)])


def shared_locks(names) -> None:
    """:func:`shared_lock` for several projections at once, in one statement."""
    if connection.vendor == "postgresql" and names:
        with connection.cursor() as cursor:
            cursor.execute("SELECT count(pg_advisory_xact_lock_shared(%s, k)) FROM unnest(%s::integer[]) AS k",
                           [_NAMESPACE, sorted(_key(name) for name in names)])


@contextmanager
def _exclusive(name: str):
    """The rebuild's hold on the projection, on a connection of its own (the worker processes start with none of
    the parent's: Django's connections are closed before they fork, and this one is never theirs to use).

    Held by a transaction left open for the rebuild's length: a pooler in transaction mode (PgBouncer) keeps one
    server connection for it, where a session's lock would stay on whichever server connection took it, held
    after the rebuild or released by another client's reset."""
    # the backend's own connection, made as Django makes its (the same options), but never handed to Django
    with connection.get_new_connection(connection.get_connection_params()) as held:
        held.autocommit = True
        with held.transaction():
            held.execute("SELECT pg_advisory_xact_lock(%s, %s)", [_NAMESPACE, _key(name)])
            yield


def rebuild(name: str, workers: int, meanwhile: Callable[[], None] = lambda: None) -> int:
    """Empty projection ``name`` and replay the log into it in ``workers`` processes, then catch up as a run does.
    ``meanwhile`` runs here while they work (the other projections' rebuilds: the machine's every core busy).
    Returns the events applied."""
    from . import projections

    projection = projections.registered()[name]
    with _exclusive(name):
        with transaction.atomic():
            ProjectionCheckpoint.objects.get_or_create(name=name)
            ProjectionCheckpoint.objects.select_for_update().filter(name=name).update(position=0)
            projection.reset()
            ProjectionFailure.objects.filter(projection=name).delete()
        top = Event.objects.aggregate(top=Max("global_position"))["top"] or 0
        connections.close_all()  # each process opens its own
        with multiprocessing.get_context("fork").Pool(workers) as pool:
            shares = pool.starmap_async(_replay_share, [(name, share, workers, top) for share in range(workers)])
            meanwhile()
            applied = sum(shares.get())
        with transaction.atomic():
            ProjectionCheckpoint.objects.select_for_update().filter(name=name).update(position=top)
    return applied + projections.run(name)


def _replay_share(name: str, share: int, shares: int, top: int) -> int:
    """One process's part: the events up to ``top`` of the streams whose hash falls in ``share``."""
    from . import projections

    projection = projections.registered()[name]
    # the log read a window of positions at a time, about a batch of this share's events in each: bounded so, the
    # query walks the log's index from ``after``, where "the next batch of this share" (a LIMIT under a filter on
    # the hash, whose share the planner cannot guess) was planned as a scan and sort of the whole rest of the log,
    # batch after batch
    window, after, applied = projections.BATCH * projection.batch_factor * shares, 0, 0
    try:
        while after < top:
            upto = min(after + window, top)
            with transaction.atomic():
                batch = projections._batch(projection, after, upto, window, share=(share, shares))
                wanted = [e for e in batch if projection.event_types is None or e.event_type in projection.event_types]
                if wanted:
                    projections._apply_guarded(projection, wanted)
            applied += len(batch)
            after = upto
        return applied
    finally:
        connections.close_all()
