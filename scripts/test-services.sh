#!/usr/bin/env bash
# Make sure the real servers the test suite needs are there, then run the command given.
#   PostgreSQL: $DATABASE_URL, else 127.0.0.1:5432 if a server answers, else a throwaway cluster.
#   Redis:      $REDIS_URL, else 127.0.0.1:6379 if a server answers, else a throwaway server.
#   GNU Backgammon (the test oracle) and Chromium (the browser tests): Debian's packages, when missing.
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
run_dir=${CRAWFORD_TEST_RUN_DIR:-/tmp/crawford-test-$(id -u)}
mkdir -p "$run_dir"

as_root() { if [ "$(id -u)" = 0 ]; then "$@"; else sudo -n "$@"; fi; }
apt_updated=
apt_install() {
  [ -n "$apt_updated" ] || { as_root apt-get update -qq >/dev/null; apt_updated=1; }
  DEBIAN_FRONTEND=noninteractive as_root apt-get install -y -qq "$@" >/dev/null
}
answers() { (exec 3<>"/dev/tcp/$1/$2") 2>/dev/null; }

if [ ! -x /usr/games/gnubg ]; then
  echo "installing GNU Backgammon (gnubg) ..." >&2
  apt_install gnubg
fi
if [ ! -x /usr/bin/chromium ]; then
  echo "installing Chromium for the browser tests ..." >&2
  apt_install chromium chromium-driver
fi

if [ -z "${DATABASE_URL:-}" ]; then
  if answers 127.0.0.1 5432; then
    export DATABASE_URL=postgres://postgres@127.0.0.1:5432/crawford
  else
    port=55432
    pgdata="$run_dir/pg"
    if ! answers 127.0.0.1 $port; then
      command -v pg_ctlcluster >/dev/null || ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 || apt_install postgresql
      bin=$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -1)
      owner=postgres; id -u postgres >/dev/null 2>&1 || owner=$(id -un)
      runas() { if [ "$(id -un)" = "$owner" ]; then "$@"; else as_root runuser -u "$owner" -- "$@"; fi; }
      if [ ! -f "$pgdata/PG_VERSION" ]; then
        mkdir -p "$pgdata"; as_root chown -R "$owner" "$run_dir" 2>/dev/null || true
        runas "$bin/initdb" -D "$pgdata" -U postgres --auth=trust >/dev/null
      fi
      echo "starting a throwaway PostgreSQL on 127.0.0.1:$port" >&2
      runas "$bin/pg_ctl" -D "$pgdata" -l "$run_dir/pg.log" -o "-p $port -k $run_dir -c listen_addresses=127.0.0.1" -w start >/dev/null
    fi
    export DATABASE_URL=postgres://postgres@127.0.0.1:$port/crawford
  fi
fi

if [ -z "${REDIS_URL:-}" ]; then
  if answers 127.0.0.1 6379; then
    export REDIS_URL=redis://127.0.0.1:6379/15
  else
    port=56379
    if ! answers 127.0.0.1 $port; then
      command -v redis-server >/dev/null || apt_install redis-server
      echo "starting a throwaway Redis on 127.0.0.1:$port" >&2
      redis-server --daemonize yes --bind 127.0.0.1 --port $port --save "" --appendonly no \
        --dir "$run_dir" --logfile "$run_dir/redis.log" >/dev/null
      for _ in $(seq 50); do answers 127.0.0.1 $port && break; sleep 0.1; done
    fi
    export REDIS_URL=redis://127.0.0.1:$port/15
  fi
fi

echo "tests use DATABASE_URL=$DATABASE_URL REDIS_URL=$REDIS_URL" >&2
cd "$here"
exec "$@"
