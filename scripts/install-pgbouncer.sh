#!/usr/bin/env bash
# A PgBouncer that carries prepared statements in transaction mode (1.21 and later, `max_prepared_statements`),
# for the pooler scripts/pg_clusters.py runs (`make bench-scale`, the pooler's system tests). Debian 12's package
# is 1.18, which passes a client's prepared statement to whichever server connection it holds at that moment, so
# behind it the application must turn its prepared reads off (DATABASE_PREPARED_READS=0). When no PgBouncer 1.21+ is
# on the PATH, Debian 13's source (its package archive, checked against the digest below) is built once into a cache
# of this user's; later runs find it there at once. Prints the binary's path; exit 1 (and why) when it has none.
set -euo pipefail

VERSION=1.24.1
TARBALL=pgbouncer_${VERSION}.orig.tar.gz
URL=${PGBOUNCER_SOURCE_URL:-http://deb.debian.org/debian/pool/main/p/pgbouncer/$TARBALL}
SHA256=da72a3aba13072876d055a3e58dd4aba4a5de4ed6148e73033185245598fd3e0
# root runs PgBouncer as postgres (scripts/pg_clusters.py), which may not read root's home
if [ "$(id -u)" = 0 ]; then default_cache=/var/cache/crawford; else default_cache=${XDG_CACHE_HOME:-$HOME/.cache}/crawford; fi
cache=${CRAWFORD_CACHE_DIR:-$default_cache}
prefix=$cache/pgbouncer-$VERSION
built=$prefix/bin/pgbouncer

carries_prepared() {  # a PgBouncer binary of 1.21 or later
  local version
  version=$("$1" --version 2>/dev/null | sed -n 's/^PgBouncer \([0-9]*\.[0-9]*\).*/\1/p' | head -1)
  [ -n "$version" ] && [ "$(printf '%s\n1.21\n' "$version" | sort -V | head -1)" = 1.21 ]
}

for candidate in "$(command -v pgbouncer || true)" /usr/sbin/pgbouncer "$built"; do
  if [ -n "$candidate" ] && [ -x "$candidate" ] && carries_prepared "$candidate"; then
    echo "$candidate"
    exit 0
  fi
done

as_root() { if [ "$(id -u)" = 0 ]; then "$@"; else sudo -n "$@"; fi; }
mkdir -p "$cache"
# one build at a time: two test processes, or a test run and the bench, may ask at once
exec 9>"$cache/pgbouncer.lock"
flock 9
if [ -x "$built" ] && carries_prepared "$built"; then echo "$built"; exit 0; fi

echo "building PgBouncer $VERSION (Debian's source) into $prefix: Debian 12's 1.18 carries no prepared statements" \
     "in transaction mode ..." >&2
needed=()
for package in gcc make pkg-config libevent-dev libssl-dev libc-ares-dev; do
  dpkg-query -W -f '${Status}' "$package" 2>/dev/null | grep -q "ok installed" || needed+=("$package")
done
if [ ${#needed[@]} -gt 0 ]; then
  echo "installing the build's dependencies: ${needed[*]}" >&2
  if ! { as_root apt-get update -qq >/dev/null &&
         DEBIAN_FRONTEND=noninteractive as_root apt-get install -y -qq "${needed[@]}" >/dev/null; }; then
    echo "could not install ${needed[*]} (apt-get install them as root)" >&2
    exit 1
  fi
fi

work=$(mktemp -d "$cache/build.XXXXXX")
trap 'rm -rf "$work"' EXIT
if ! curl -fsSL --retry 3 -o "$work/$TARBALL" "$URL"; then
  echo "could not download $URL" >&2
  exit 1
fi
if ! echo "$SHA256  $work/$TARBALL" | sha256sum -c --status; then
  echo "$URL is not the source expected (sha256 $SHA256): not built" >&2
  exit 1
fi
tar -xzf "$work/$TARBALL" -C "$work"
(
  cd "$work/pgbouncer-$VERSION"
  # the manual pages come built in the tarball: no pandoc
  ./configure -q --prefix="$prefix" --with-cares --without-systemd >/dev/null
  make -s -j"$(nproc)" >/dev/null 2>"$work/make.log" || { cat "$work/make.log" >&2; exit 1; }
  make -s install >/dev/null
) || { echo "the build of PgBouncer $VERSION failed" >&2; exit 1; }
carries_prepared "$built" || { echo "$built does not report PgBouncer $VERSION" >&2; exit 1; }
echo "$built"
