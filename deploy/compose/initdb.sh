#!/bin/sh
# Run once by the postgres image when its volume is new: the application's role (a plain one, not the owner).
# deploy/compose.yaml's "migrate" service then grants it INSERT and SELECT on the log (manage.py grant_app_role).
set -eu
psql -v ON_ERROR_STOP=1 --username "$POSTGRES_USER" --dbname "$POSTGRES_DB" \
     -v pw="$CRAWFORD_DB_PASSWORD" <<'SQL'
CREATE ROLE crawford LOGIN PASSWORD :'pw';
SQL
