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
from django.db.backends.postgresql.psycopg_any import register_tzloader
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
    """A Django cursor on ``connection`` whose statements are prepared (PostgreSQL, when allowed)."""
    with connection.cursor() as wrapper:
        if connection.vendor == "postgresql" and settings.DATABASE_PREPARED_READS:
            client_side, raw = wrapper.cursor, connection.connection
            if raw.prepare_threshold is None:  # Django's None turns preparing off even when asked for; only
                raw.prepare_threshold = 5  # server-binding cursors prepare, and Django's own cursors bind on the client
            server_side = _PreparingCursor(raw)
            # as Django's create_cursor: a connection made before a change of time zone reads in the new one
            if raw.adapters.get_loader(_TIMESTAMPTZ, Format.TEXT).timezone != connection.timezone:
                register_tzloader(connection.timezone, server_side)
            wrapper.cursor = server_side
            client_side.close()
        yield wrapper
