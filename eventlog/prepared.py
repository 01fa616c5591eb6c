"""Statements PostgreSQL plans once per connection, for the few statements every command sends (the token's
read, the match's events, the append's call).

Django turns psycopg's prepared statements off (``prepare_threshold=None``, for transaction-pooling connection
poolers) and binds parameters on the client, so PostgreSQL plans each statement anew: 0.35 ms of the server's CPU
for the token's read of its user and authority alone, more than running it. Here a statement runs through a psycopg cursor that binds on the server and is asked to prepare it:
planned at its first run on a connection, then only executed. Still inside Django's cursor wrapper, so it is
counted, logged and its errors are Django's. ``DATABASE_PREPARED_READS=0`` turns this off (a pooler in transaction
mode older than PgBouncer 1.21 does not carry prepared statements between its server connections).
"""

from __future__ import annotations

from contextlib import contextmanager

import psycopg
from django.conf import settings
from django.db import connections
from django.db.backends.postgresql.psycopg_any import register_tzloader
from django.utils.connection import ConnectionProxy
from psycopg.pq import Format

_TIMESTAMPTZ = psycopg.adapters.types["timestamptz"].oid


class _PreparingCursor(psycopg.Cursor):
    """psycopg's server-side binding cursor, asking for every statement to be prepared (Django passes no
    ``prepare`` to ``execute``)."""

    def execute(self, query, params=None, *, prepare=None, binary=None):
        return super().execute(query, params, prepare=True if prepare is None else prepare, binary=binary)

    def _maybe_prepare_gen(self, pgq, *, prepare=None, binary=None):
        # psycopg keeps the statement sent (``query``, which Django's query log reads) only for those it does not
        # prepare: kept here for these too (psycopg 3.3's internals, as pinned)
        self._query = pgq
        yield from super()._maybe_prepare_gen(pgq, prepare=prepare, binary=binary)


@contextmanager
def cursor(connection):
    """A Django cursor on ``connection`` whose statements are prepared (PostgreSQL, when allowed).

    The server-binding cursor is made once per database connection and kept on it: every command sends two or
    three of these statements, and making a cursor (Django's, then this one in its place) cost more than binding
    their parameters. A use inside another (a statement sent while a kept cursor's rows are still being read) gets
    a cursor of its own. Errors, the query log and the execute wrappers are still Django's."""
    # the thread's own wrapper, read once rather than through the proxy at every use
    db = connections[connection.alias] if isinstance(connection, ConnectionProxy) else connection
    if db.vendor != "postgresql" or not settings.DATABASE_PREPARED_READS:
        with db.cursor() as wrapper:
            yield wrapper
        return
    db.close_if_health_check_failed()
    db.ensure_connection()
    db.validate_thread_sharing()
    raw = db.connection
    kept = getattr(raw, _KEPT, None)
    if kept is None or kept.in_use or kept.closed or kept.timezone != db.timezone:
        server_side = _preparing_cursor(db, raw)
        if kept is None or not kept.in_use:
            setattr(raw, _KEPT, server_side)
    else:
        server_side = kept
    server_side.in_use = True
    try:
        yield db.make_debug_cursor(server_side) if db.queries_logged else db.make_cursor(server_side)
    finally:
        server_side.in_use = False
        if getattr(raw, _KEPT, None) is not server_side:
            server_side.close()


_KEPT = "_crawford_preparing_cursor"


def _preparing_cursor(db, raw) -> _PreparingCursor:
    if raw.prepare_threshold is None:  # Django's None turns preparing off even when asked for; only
        raw.prepare_threshold = 5  # server-binding cursors prepare, and Django's own cursors bind on the client
    server_side = _PreparingCursor(raw)
    # as Django's create_cursor: a connection made before a change of time zone reads in the new one
    if raw.adapters.get_loader(_TIMESTAMPTZ, Format.TEXT).timezone != db.timezone:
        register_tzloader(db.timezone, server_side)
    server_side.timezone, server_side.in_use = db.timezone, False
    return server_side
