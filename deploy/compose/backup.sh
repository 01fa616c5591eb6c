#!/bin/sh
# PostgreSQL's continuous archiving for Crawford: the WAL archived as it is written, base backups taken and pruned,
# and a base backup laid out to be restored to a point in time. One script for the compose deployment (its "db"
# service archives through it, its "backup" service runs the schedule, its "restore" service the restore) and for
# scripts/restore_drill.py, which runs the same steps end to end on a throwaway cluster: what the drill proves is
# what the deployment does.
#
#   backup.sh archive PATH NAME ARCHIVE        archive_command: 'sh backup.sh archive %p %f /backup/wal'
#   backup.sh base BASES ARCHIVE [KEEP]         a base backup into BASES/<UTC time>, then all but the KEEP newest
#                                               pruned (default 7) and the WAL the oldest kept one no longer needs
#   backup.sh schedule BASES ARCHIVE            base, then again every BACKUP_INTERVAL seconds (default 86400)
#   backup.sh restore BASE PGDATA ARCHIVE [TIME]  BASE copied into the empty PGDATA, recovery from ARCHIVE to TIME
#                                               (none: to the end of the archive), then promoted
#
# The server is reached by libpq's variables (PGHOST, PGPORT, PGUSER, PGPASSWORD): a role with REPLICATION.
# Needs the PostgreSQL client binaries on PATH (pg_basebackup, pg_archivecleanup, pg_isready).
set -eu

die() { echo "backup.sh: $*" >&2; exit 2; }

archive() {  # never overwrite a segment already archived: a second server archiving here would be a mistake
    [ $# -eq 3 ] || die "usage: archive PATH NAME ARCHIVE"
    test ! -f "$3/$2" && cp "$1" "$3/$2.tmp" && mv "$3/$2.tmp" "$3/$2"
}

base() {
    [ $# -ge 2 ] && [ $# -le 3 ] || die "usage: base BASES ARCHIVE [KEEP]"
    bases=$1 wal=$2 keep=${3:-7}
    case $keep in '' | *[!0-9]* | 0) die "KEEP must be a whole number of backups, at least 1: $keep" ;; esac
    [ -d "$wal" ] || die "no archive directory $wal"
    mkdir -p "$bases"
    # named by its second: a second base backup within the same second (a drill on a fast machine) waits for the
    # next one, so no backup takes another's name and the newest is always the last by name
    target=$bases/$(date -u +%Y%m%dT%H%M%SZ)
    while [ -e "$target" ] || [ -e "$target.partial" ]; do
        sleep 1
        target=$bases/$(date -u +%Y%m%dT%H%M%SZ)
    done
    # written under a temporary name: a backup interrupted half way is never taken for one to restore. Each
    # step checked by hand: under "schedule" this runs on the left of ||, where set -e does not stop it
    if ! pg_basebackup -D "$target.partial" -Fp -Xstream -c fast; then
        rm -rf "$target.partial"
        die "pg_basebackup failed: nothing kept, nothing pruned"
    fi
    mv "$target.partial" "$target" || die "could not move $target.partial into place"
    prune "$bases" "$wal" "$keep" || die "pruning after $target failed"
    echo "$target"
}

prune() {  # all but the KEEP newest base backups, then the archived WAL older than the oldest one kept
    ls -1 "$1" | grep -E '^[0-9]{8}T[0-9]{6}Z$' | sort -r | tail -n +$(($3 + 1)) | while read -r old; do
        rm -rf "${1:?}/$old"
    done
    oldest=$(ls -1 "$1" | grep -E '^[0-9]{8}T[0-9]{6}Z$' | sort | head -n 1)
    [ -n "$oldest" ] || return 0
    segment=$(sed -n 's/^START WAL LOCATION: .*(file \([0-9A-F]\{24\}\))$/\1/p' "$1/$oldest/backup_label")
    [ -n "$segment" ] || die "no start segment in $1/$oldest/backup_label"
    pg_archivecleanup "$2" "$segment" || return 1
    for history in "$2"/*.backup; do  # the pruned backups' history files too (pg_archivecleanup keeps them)
        name=$(basename "$history")
        if [ -e "$history" ] && [ "${name%%.*}" != "$segment" ] \
            && [ "$(printf '%s\n' "${name%%.*}" "$segment" | sort | head -n 1)" = "${name%%.*}" ]; then
            rm -f "$history"
        fi
    done
}

schedule() {
    [ $# -eq 2 ] || die "usage: schedule BASES ARCHIVE"
    interval=${BACKUP_INTERVAL:-86400}
    mkdir -p "$1" "$2"
    # the server's archiver writes as postgres (uid 999 in the postgres image, which this container runs too)
    if [ "$(id -u)" = 0 ] && id postgres >/dev/null 2>&1; then chown postgres:postgres "$2"; fi
    while true; do
        until pg_isready -q; do sleep 5; done
        # in a subshell: a failed backup (its die) ends that attempt, not the schedule
        (base "$1" "$2" "${BACKUP_KEEP:-7}") || echo "backup.sh: the base backup failed; next try in $interval s" >&2
        sleep "$interval"
    done
}

restore() {
    [ $# -ge 3 ] && [ $# -le 4 ] || die "usage: restore BASE PGDATA ARCHIVE [TIME]"
    [ -f "$1/backup_label" ] || die "$1 is not a base backup (no backup_label)"
    [ -d "$3" ] || die "no archive directory $3"
    mkdir -p "$2"
    [ -z "$(ls -A "$2")" ] || die "$2 is not empty: move the damaged data directory away first"
    cp -a "$1/." "$2/"
    {
        echo "restore_command = 'cp $3/%f %p'"
        [ -z "${4:-}" ] || echo "recovery_target_time = '$4'"
        echo "recovery_target_action = 'promote'"
    } >>"$2/postgresql.auto.conf"
    touch "$2/recovery.signal"
    if [ "$(id -u)" = 0 ] && id postgres >/dev/null 2>&1; then chown -R postgres:postgres "$2"; fi
    chmod 700 "$2"
}

latest() {  # the newest complete base backup in BASES
    [ $# -eq 1 ] || die "usage: latest BASES"
    newest=$(ls -1 "$1" | grep -E '^[0-9]{8}T[0-9]{6}Z$' | sort | tail -n 1)
    [ -n "$newest" ] || die "no base backup in $1"
    echo "$1/$newest"
}

[ $# -ge 1 ] || die "usage: backup.sh archive|base|schedule|restore|latest ..."
step=$1
shift
case $step in
    archive | base | schedule | restore | latest) "$step" "$@" ;;
    *) die "unknown step $step (archive, base, schedule, restore, latest)" ;;
esac
