#!/bin/sh
# The pooler's start (deploy/compose.yaml, "pgbouncer"): the application role and its password, which PgBouncer
# uses both to check its clients (SCRAM) and to sign in to the servers, then PgBouncer itself.
set -eu
umask 077
printf '"crawford" "%s"\n' "$CRAWFORD_DB_PASSWORD" > /tmp/pgbouncer-users.txt
exec pgbouncer /etc/pgbouncer/pgbouncer.ini
