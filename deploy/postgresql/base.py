"""Django's PostgreSQL backend, with a health check that costs no round trip when the connection is quiet.

A connection kept across requests (CONN_MAX_AGE) is checked at each request's first query. Django's check sends
``SELECT 1`` and waits for it: one more round trip to the server on every request, a query's worth of the server's
CPU, on a node that answers hundreds a second. A connection the server has ended (a restart, an administrator's
``pg_terminate_backend``, a pooler's idle timeout) has been told so on its socket: the server's last message, then
its end of the stream. So a socket with nothing to read, on a connection idle between transactions that psycopg
has not seen fail, is taken as usable without asking; anything else there (the server's goodbye, or any message
nobody asked for) is checked the old way, the round trip reading it.

A link cut without a word (a host gone, a cable pulled) shows nothing on the socket; neither does ``SELECT 1``
learn of it before the kernel gives up on the link. The request's query fails instead, and Django closes the
connection at the end of that request, as for any connection an error occurred on.
"""

from __future__ import annotations

import select

from django.db.backends.postgresql import base
from psycopg.pq import TransactionStatus


class DatabaseWrapper(base.DatabaseWrapper):
    def is_usable(self):
        raw = self.connection
        if raw is None or raw.closed or raw.broken:
            return False
        if raw.info.transaction_status != TransactionStatus.IDLE:
            return super().is_usable()  # mid-transaction or failed: only the server can say
        poller = select.poll()  # not select.select: a busy worker's descriptors may number over 1024
        try:
            poller.register(raw.fileno(), select.POLLIN | select.POLLPRI)
            waiting = poller.poll(0)
        except (OSError, ValueError):
            return False
        return super().is_usable() if waiting else True
