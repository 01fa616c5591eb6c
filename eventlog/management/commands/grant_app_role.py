"""Give the application's database role what it needs, and on the event log no more than INSERT and SELECT.

Run by the owner role that ran the migrations (PostgreSQL only), after every ``migrate``:

    DATABASE_URL=postgres://crawford_owner@db/crawford manage.py migrate
    DATABASE_URL=postgres://crawford_owner@db/crawford manage.py grant_app_role crawford

The application then connects as ``crawford``: it reads and writes the read models, reads the log and appends
to it through ``eventlog_append`` alone (eventlog/migrations/0006), and cannot INSERT into the log directly, UPDATE, DELETE or TRUNCATE ``eventlog_event`` (no privilege) nor disable or drop the trigger
that refuses those (only the table's owner may alter it), nor create tables. Tables a later migration adds get
the same grants through the owner's default privileges.
"""

from __future__ import annotations

from django.core.management.base import BaseCommand, CommandError
from django.db import connection, transaction

EVENT_LOG = "eventlog_event"
APPEND_FUNCTION = ("eventlog_append(bigint, text, text, integer, jsonb, jsonb, timestamptz, "
                   "text, text, text, jsonb)")


def grants(role: str, database: str) -> list[str]:
    q = connection.ops.quote_name
    role, database = q(role), q(database)
    return [
        f"GRANT CONNECT ON DATABASE {database} TO {role}",
        f"GRANT USAGE ON SCHEMA public TO {role}",
        f"REVOKE CREATE ON SCHEMA public FROM {role}",
        f"GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA public TO {role}",
        f"GRANT USAGE, SELECT ON ALL SEQUENCES IN SCHEMA public TO {role}",
        # the log: read it, and append through its function alone (SECURITY DEFINER: the lock, the version check
        # and the position are the function's; a direct INSERT could skip them). The grant above gave the role
        # INSERT, UPDATE and DELETE on the log like on the read models.
        f"REVOKE ALL ON {q(EVENT_LOG)} FROM {role}",
        f"GRANT SELECT ON {q(EVENT_LOG)} TO {role}",
        f"GRANT EXECUTE ON FUNCTION {APPEND_FUNCTION} TO {role}",
        f"ALTER DEFAULT PRIVILEGES IN SCHEMA public GRANT SELECT, INSERT, UPDATE, DELETE ON TABLES TO {role}",
        f"ALTER DEFAULT PRIVILEGES IN SCHEMA public GRANT USAGE, SELECT ON SEQUENCES TO {role}",
    ]


class Command(BaseCommand):
    help = ("Grant the application's role its privileges: on eventlog_event only SELECT, appends through "
            "eventlog_append (PostgreSQL).")

    def add_arguments(self, parser):
        parser.add_argument("role", help="the role the application connects as (it must exist)")

    def handle(self, *args, role: str, **options):
        if connection.vendor != "postgresql":
            raise CommandError("database roles are a PostgreSQL matter; SQLite has none")
        with connection.cursor() as cursor:
            cursor.execute("SELECT rolsuper FROM pg_roles WHERE rolname = %s", [role])
            row = cursor.fetchone()
            if row is None:
                raise CommandError(f"no role {role!r}: CREATE ROLE {role} LOGIN PASSWORD '…' first")
            if row[0]:
                raise CommandError(f"{role!r} is a superuser: it could disable the log's trigger; use a plain role")
            cursor.execute("SELECT tableowner = current_user FROM pg_tables WHERE tablename = %s", [EVENT_LOG])
            owned = cursor.fetchone()
            if not owned or not owned[0]:
                raise CommandError("run this as the role that owns the tables (the one that ran the migrations)")
        with transaction.atomic(), connection.cursor() as cursor:
            for statement in grants(role, connection.settings_dict["NAME"]):
                cursor.execute(statement)
        self.stdout.write(f"{role}: SELECT, INSERT, UPDATE, DELETE on the read models; SELECT on {EVENT_LOG}; EXECUTE on eventlog_append")
