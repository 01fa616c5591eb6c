"""Reads that tolerate lag go to a PostgreSQL replica, when one is configured (``DATABASE_REPLICA_URL``).

Only with that variable set does deploy/settings.py add the ``replica`` database, this router and the middleware
below; without it nothing here runs and every query goes to ``default``, the primary.

What may lag: the public pages, i.e. a GET or HEAD that carries no credentials (no ``Authorization`` header, no
signed-in session): a spectator a second behind sees the board a second later, which a poll does anyway. Anybody
who is signed in, or sends a token, reads the primary, so a director or a recording tablet always reads its own
writes (a replica is behind by its replay lag: a tablet that read the replica after its POST could be shown the
board before its move and send a stale ``expected_version``).

What never goes to the replica, whatever the request:
- writes (``db_for_write`` is always the primary), and every read inside a transaction on the primary (a
  command's load-decide-append, a projection's batch): what a transaction reads must be what it locks and appends
  after;
- the tables of sign-in and security (auth, sessions, tokens, axes lockouts, admin log, beat schedule): a session
  or token just created, or a lockout just counted, must be seen at once.
"""

from __future__ import annotations

import contextvars
from contextlib import contextmanager

from django.db import DEFAULT_DB_ALIAS, connections

REPLICA = "replica"

# the read models and the log: what a public page shows. Everything else (auth, sessions, authtoken, axes, admin,
# contenttypes, django_celery_beat) always reads the primary
LAG_TOLERANT_APPS = frozenset({"eventlog", "players", "games", "tournaments", "ratings", "analysis"})

_lag_tolerant = contextvars.ContextVar("crawford_reads_tolerate_lag", default=False)


@contextmanager
def reads_tolerate_lag():
    """Within this block, reads outside a transaction may be answered by the replica (a public page's)."""
    token = _lag_tolerant.set(True)
    try:
        yield
    finally:
        _lag_tolerant.reset(token)


class ReplicaRouter:
    """Django database router: lag-tolerant reads to ``replica``, everything else to the primary."""

    def db_for_read(self, model, **hints):
        if not _lag_tolerant.get() or model._meta.app_label not in LAG_TOLERANT_APPS:
            return DEFAULT_DB_ALIAS
        if connections[DEFAULT_DB_ALIAS].in_atomic_block:
            return DEFAULT_DB_ALIAS  # a transaction on the primary reads what it will write after
        return REPLICA

    def db_for_write(self, model, **hints):
        return DEFAULT_DB_ALIAS

    def allow_relation(self, obj1, obj2, **hints):
        return True  # one database, two ways of reaching it: rows of either are the same rows

    def allow_migrate(self, db, app_label, model_name=None, **hints):
        return db == DEFAULT_DB_ALIAS  # a replica replays the primary's schema; migrate never runs on it


class LagTolerantReadsMiddleware:
    """Marks a request's reads as lag-tolerant when it is a public page's: GET/HEAD without credentials."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        if request.method not in ("GET", "HEAD") or "HTTP_AUTHORIZATION" in request.META:
            return self.get_response(request)
        user = getattr(request, "user", None)  # after AuthenticationMiddleware: a session's user is on the primary
        if user is not None and user.is_authenticated:
            return self.get_response(request)
        with reads_tolerate_lag():
            return self.get_response(request)
