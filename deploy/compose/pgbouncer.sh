#!/bin/sh
# The pooler's start (deploy/compose.yaml, "pgbouncer"): the application role and its password, which PgBouncer
# uses both to check its clients (SCRAM) and to sign in to the servers, then PgBouncer itself: the image's, 1.25, which
# carries prepared statements in transaction mode (max_prepared_statements in pgbouncer.ini; 1.21 and later).
set -eu
umask 077
printf '"crawford" "%s"\n' "$CRAWFORD_DB_PASSWORD" > /tmp/pgbouncer-users.txt
exec pgbouncer /etc/pgbouncer/pgbouncer.ini
