#!/bin/sh
# The streaming replica (deploy/compose.yaml, "replica"): made once, when its volume is new, from a base backup of
# "db" written with its standby settings (-R: primary_conninfo and standby.signal), then started read-only; it
# follows the primary from there on. The public pages read it (deploy/replica.py).
set -eu
data=/var/lib/postgresql/data
if [ ! -s "$data/PG_VERSION" ]; then
  until pg_isready -h db -U crawford_owner -q; do sleep 1; done
  pg_basebackup -h db -U crawford_owner -D "$data" -R -X stream -c fast
  chmod 700 "$data"
fi
exec postgres -D "$data" -c hot_standby=on
