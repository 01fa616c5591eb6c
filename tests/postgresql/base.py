"""The test databases' PostgreSQL backend: production's (deploy/postgresql/base.py), with a cheaper flush.

A transactional test (a live server, a live worker, real commits) ends with a flush of every table. Django's is
one TRUNCATE of them all, which gives each table and index new files: seconds per test on a busy machine, where
the few rows a test wrote go in milliseconds with DELETE. The same locks are taken first (TRUNCATE's), so a
writer still at work is waited for as before; the foreign keys are checked at the end of the flush, when every
table is empty. Sequences are not reset (Django's flush resets them only when asked: then it is TRUNCATE's).
The content types and permissions stay: they are what the migrations made, and the flush's post_migrate signal
would make every one of them again (two seconds a test on a busy machine) where it now finds them there.
"""

from django.db.backends.postgresql import operations

from deploy.postgresql import base

KEPT = {"django_content_type", "auth_permission"}


class DatabaseOperations(operations.DatabaseOperations):
    def sql_flush(self, style, tables, *, reset_sequences=False, allow_cascade=False):
        if not tables or reset_sequences or allow_cascade:
            return super().sql_flush(style, tables, reset_sequences=reset_sequences, allow_cascade=allow_cascade)
        names = [self.quote_name(table) for table in tables if table not in KEPT]
        return [f"LOCK TABLE {', '.join(names)} IN ACCESS EXCLUSIVE MODE; SET CONSTRAINTS ALL DEFERRED; "
                + " ".join(f"DELETE FROM {name};" for name in names)]


class DatabaseWrapper(base.DatabaseWrapper):
    ops_class = DatabaseOperations
