#!/bin/sh
# Run once by the postgres image when its volume is new: the "backup" service's base backups connect over the
# network with the replication protocol, which the image's own pg_hba.conf line ("all" databases) does not cover.
set -eu
echo "host replication all all scram-sha-256" >> "$PGDATA/pg_hba.conf"
