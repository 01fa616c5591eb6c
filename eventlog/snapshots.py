"""Snapshots of folded streams: a state folded from a stream's first N events, kept so that the next read folds
only the events after N.

A stream only ever grows, so such a state stays a valid start for every later read of it. Each process keeps the
states it folded last (:meth:`Snapshots.held`); a state folded from many events is also put in the shared cache
(Django's: Redis in production), where every other process starts from it instead of folding the stream again.
A state is remembered only once the transaction that read it commits: a rolled-back append is never remembered.

The states are values the caller never changes (a frozen record), or are copied on the way out (``copy``).
"""

from __future__ import annotations

import logging
import re
import threading
from collections import OrderedDict
from collections.abc import Callable
from typing import Generic, TypeVar

from django.db import transaction

log = logging.getLogger(__name__)

T = TypeVar("T")

_SHAREABLE_ID = re.compile(r"[0-9A-Za-z_:.-]{1,64}")  # a stream id as made here; anything else is no cache key
SHARED_SECONDS = 24 * 3600


class Snapshots(Generic[T]):
    """The snapshots of one kind of stream. ``key``: the shared cache's prefix, with the shape's version in it
    (a new shape of state must not read an old one); ``kind``: the states' type, checked on the way in from the
    shared cache; ``copy``: applied to every state handed out, for states the caller folds further in place."""

    def __init__(self, key: str, kind: type, *, limit: int = 1024, copy: Callable[[T], T] | None = None,
                 share_every: int = 0):
        self.key, self.kind, self.limit, self.copy = key, kind, limit, copy
        # a long stream read one event at a time is shared again each ``share_every`` events (0: never): a process
        # that starts cold (a restart, a new worker) then folds at most that many events past the shared state
        self.share_every = share_every
        self._held: OrderedDict[str, T] = OrderedDict()
        self._lock = threading.Lock()

    def held(self, stream_id: str, *, copied: bool = True) -> T | None:
        """This process's snapshot of the stream, if it holds one: the newest committed, or one the transaction
        under way remembered (its own appends, which only it can see until it commits). ``copied=False``: the
        held state itself, for a reader that changes nothing of it (``copy`` is for those that do)."""
        with self._lock:
            state = self._held.get(stream_id)
        pending = self._pending(stream_id)
        if pending is not None and (state is None or pending.version > state.version):
            state = pending
        return self._out(state) if copied else state

    def _pending(self, stream_id: str) -> T | None:
        """The state this transaction remembered for the stream, while its commit is still to come: its entry in
        the connection's on-commit queue, at the place it was put, is what says so (a rollback, of the transaction
        or of the savepoint it was remembered in, takes the entry out of the queue)."""
        connection = transaction.get_connection()
        pending = getattr(connection, "_snapshots_pending", None)
        if not pending or (entry := pending.get((self, stream_id))) is None:
            return None
        index, callback, state = entry
        queue = connection.run_on_commit
        if index < len(queue) and queue[index][1] is callback:
            return state
        del pending[(self, stream_id)]
        return None

    def shared(self, stream_id: str) -> T | None:
        """The shared cache's snapshot of the stream, if any."""
        from django.core.cache import cache

        if not _SHAREABLE_ID.fullmatch(stream_id):
            return None  # an address nobody made (a client's typing): not worth, nor fit for, a cache lookup
        try:
            state = cache.get(self.key + stream_id)
        except Exception:  # noqa: BLE001 - the cache is an optimisation: without it, fold the stream
            return None
        return self._out(state) if isinstance(state, self.kind) else None

    def latest(self, stream_id: str, *, copied: bool = True) -> T | None:
        """This process's snapshot, else the shared one (a state of its own: read from the cache)."""
        held = self.held(stream_id, copied=copied)
        return held if held is not None else self.shared(stream_id)

    def remember_on_commit(self, stream_id: str, state: T, *, share: bool | None = None,
                           copied: bool = True) -> None:
        """Keep ``state`` (and share it, if ``share``; None: when it passes a multiple of ``share_every``) once the
        transaction under way commits, unless a newer one is held by then. Outside a transaction: at once.
        ``copied=False``: a state its caller only reads, kept as it is."""
        if share is None and self.share_every:
            with self._lock:
                known = self._held.get(stream_id)
            pending = self._pending(stream_id)  # within a transaction, the last one it remembered is the known
            known = pending if pending is not None and (known is None or pending.version > known.version) else known
            share = known is not None and state.version // self.share_every > known.version // self.share_every
        share = bool(share)
        if self.copy is not None and copied:
            state = self.copy(state)  # the caller may go on folding its own
        connection = transaction.get_connection()

        def keep() -> None:
            self.hold(stream_id, state, share=share)

        connection.on_commit(keep)
        if connection.in_atomic_block:  # the transaction's next reads of the stream start here too
            if not hasattr(connection, "_snapshots_pending"):
                connection._snapshots_pending = {}
            connection._snapshots_pending[(self, stream_id)] = (len(connection.run_on_commit) - 1, keep, state)

    def hold(self, stream_id: str, state: T, *, share: bool = False) -> None:
        """Keep ``state`` now, unless a newer one is held: for a state known to be committed."""
        with self._lock:
            known = self._held.get(stream_id)
            if known is None or known.version < state.version:
                self._held[stream_id] = state
            self._held.move_to_end(stream_id)
            while len(self._held) > self.limit:
                self._held.popitem(last=False)
        if share and _SHAREABLE_ID.fullmatch(stream_id):
            from django.core.cache import cache

            try:
                cache.set(self.key + stream_id, state, timeout=SHARED_SECONDS)
            except Exception as down:  # noqa: BLE001 - an optimisation only
                log.debug("snapshot of %s not shared: %s", stream_id, down)

    def forget(self, stream_id: str | None = None) -> None:
        """Drop this process's snapshot of the stream (all of them: None). For tests, and for a stream rewritten
        outside the application (an import into an empty log)."""
        with self._lock:
            if stream_id is None:
                self._held.clear()
            else:
                self._held.pop(stream_id, None)
        pending = getattr(transaction.get_connection(), "_snapshots_pending", None)
        if pending:
            for key in [k for k in pending if k[0] is self and stream_id in (None, k[1])]:
                del pending[key]

    def _out(self, state: T | None) -> T | None:
        return self.copy(state) if state is not None and self.copy is not None else state
