"""The backup drill: a base backup and archived WAL restored to a point in time, on a throwaway cluster.

    .venv/bin/python scripts/restore_drill.py [--before 300] [--after 300] [--keep]

What docs/operations.md ("Backups") asks of production, done end to end where nothing real is at stake:

1. ``initdb`` a cluster in a temporary directory, on a free port, with WAL archiving on (``archive_command``
   copying each finished segment to an archive directory, as production's does); ``manage.py migrate``.
2. ``--before`` commands (engine-judged match commands, appended as the API appends them), the projections run.
3. ``pg_basebackup`` (the base backup), then ``--before`` more commands: the point in time to come back to is
   taken after them (its head hash, its event count, every projection's digest are noted).
4. ``--after`` commands more: what the restore must not bring back. The WAL is switched (archived), the cluster
   stopped and its data directory deleted: the server is lost.
5. The restore: the base backup copied into a new data directory, ``restore_command`` reading the archive,
   ``recovery_target_time`` the noted point, started, promoted. **Recovery time**: from the copy to the server
   answering as a primary; then, in a new process (as after a restore every service starts again), every
   projection rebuilt from the restored log (timed too).
6. The checks: the log's head position and head hash are the noted ones, ``verify_log`` (the chain and every
   stream re-judged) passes, and every projection's digest, rebuilt, is the one noted before the loss.

Exit status 0 when every check passes. Needs PostgreSQL's server binaries (initdb, pg_ctl, pg_basebackup: the
``postgresql`` package), nothing else; run as root, the cluster is run as the ``postgres`` user.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import secrets
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "scripts"))

import pg_clusters  # noqa: E402 - scripts/pg_clusters.py


# the compose deployment's backup script: the drill archives, backs up, prunes and restores through it
BACKUP_SCRIPT = ROOT / "deploy" / "compose" / "backup.sh"


def archive_settings(script: str | Path, archive: str | Path) -> dict[str, str]:
    """The server settings of continuous archiving, as deploy/compose.yaml's "db" service passes them."""
    return {"wal_level": "replica", "archive_mode": "on",
            "archive_command": f"sh {script} archive %p %f {archive}", "archive_timeout": "300"}


class Cluster(pg_clusters.Cluster):
    """A throwaway cluster (scripts/pg_clusters.py) that also runs the compose deployment's backup steps."""

    def backup(self, step: str, *args: str) -> str:
        """A step of deploy/compose/backup.sh, the compose deployment's own, against this cluster; its last line."""
        env = [f"PATH={self.bin}:{os.environ['PATH']}", "PGHOST=127.0.0.1", f"PGPORT={self.port}", "PGUSER=postgres"]
        argv = ["env", *env, "sh", str(BACKUP_SCRIPT), step, *args]
        if os.geteuid() == 0:
            argv = ["runuser", "-u", "postgres", "--", *argv]
        done = subprocess.run(argv, check=True, capture_output=True, text=True)
        return (done.stdout.strip().splitlines() or [""])[-1]


def _start_segment(base: Path) -> str:
    """The WAL segment a base backup starts from (its backup_label), the oldest one its restore needs."""
    return (base / "backup_label").read_text().split("(file ")[1].split(")")[0]


def _commands(club, count: int) -> int:
    from eventlog import projections, store
    from eventlog.store import NewEvent

    events = 0
    for _ in range(count):
        stream_id, expected, new = club.next()
        store.append(stream_id=stream_id, stream_type="match", expected_version=expected,
                     events=[NewEvent(kind, payload) for kind, payload in new], metadata={"actor": None})
        events += len(new)
    projections.run_all()
    return events


def _state() -> dict:
    from django.db import connection

    from eventlog import projections, verification
    from eventlog.models import Event

    connection.close()
    position, head_hash = verification.head()
    return {"position": position, "head_hash": head_hash, "events": Event.objects.count(),
            "digests": projections.digests(),
            "rows": {name: projections.digested_rows(name) for name in projections.rebuildable()}}


def _check_restored() -> None:
    """In a new process on the restored server: every projection rebuilt (timed), the state, verify_log."""
    import io

    import django

    django.setup()
    from django.core.management import call_command

    from eventlog import projections

    started = time.perf_counter()
    for name in projections.rebuildable():
        projections.rebuild(name)
    rebuild = time.perf_counter() - started
    out, verified = io.StringIO(), True
    try:
        call_command("verify_log", stdout=out, stderr=out)
    except Exception as failed:  # noqa: BLE001 - reported as the failed check
        out.write(f"{failed}\n")
        verified = False
    state = _state()
    print(json.dumps({**state, "rebuild": rebuild, "verified": verified, "verify_output": out.getvalue()},
                     default=str))


def main() -> None:
    if sys.argv[1:] == ["--check-restored"]:
        return _check_restored()
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--before", type=int, default=300, help="commands before the backup, and again after it")
    parser.add_argument("--after", type=int, default=300, help="commands after the point restored to (lost)")
    parser.add_argument("--keep", action="store_true", help="keep the temporary directory (its logs)")
    args = parser.parse_args()

    work = Path(tempfile.mkdtemp(prefix="crawford-restore-drill-"))
    archive, run = work / "archive", work / "run"
    archive.mkdir()
    run.mkdir()
    pg_clusters.owned_by_postgres(work, archive, run)
    port = pg_clusters.free_port()
    primary = Cluster(work / "primary", port, run)
    restored = Cluster(work / "restored", port, run)  # the same port: the application's settings do not change
    try:
        _drill(args, work, archive, primary, restored)
    finally:
        primary.stop()
        restored.stop()
        if args.keep:
            print(f"kept: {work}")
        else:
            shutil.rmtree(work, ignore_errors=True)


def _drill(args, work: Path, archive: Path, primary: Cluster, restored: Cluster) -> None:
    primary.init(archive_settings(BACKUP_SCRIPT, archive))
    primary.start()
    primary.sql("CREATE DATABASE crawford")

    os.environ.update(DATABASE_URL=f"postgres://postgres@127.0.0.1:{primary.port}/crawford",
                      DJANGO_SETTINGS_MODULE="deploy.settings", SECRET_KEY="drill-" + secrets.token_hex(24))
    os.environ.pop("REDIS_URL", None)  # no broker: nothing is woken, the projections are run here
    import django

    django.setup()
    from django.core.management import call_command
    from django.db import connection

    sys.path.insert(0, str(ROOT / "bench"))  # here, not at import: bench's module names would shadow the apps'
    from events import Club  # bench/events.py: matches at many tables, every command judged by the engine
    from players.models import Player

    call_command("migrate", verbosity=0)
    players = [p.pk for p in Player.objects.bulk_create(Player(display_name=f"Drill {i}") for i in range(40))]
    club = Club(8, players, random.Random(2026))
    print(f"primary: PostgreSQL {primary.sql('SHOW server_version')} on port {primary.port}, archiving to {archive}")

    bases = work / "base"
    first = Path(primary.backup("base", str(bases), str(archive)))  # a schedule's earlier one, pruned by the next
    first_segment = _start_segment(first)
    n = _commands(club, args.before)
    while primary.sql("SELECT coalesce(last_archived_wal, '') FROM pg_stat_archiver") < first_segment:
        time.sleep(0.1)  # archived before the next backup: its removal below is the cleanup's, not a late archive's
    started = time.perf_counter()
    base = Path(primary.backup("base", str(bases), str(archive), "1"))  # keep 1: the first one pruned
    size = subprocess.run(["du", "-sh", str(base)], capture_output=True, text=True).stdout.split()[0]
    print(f"{args.before} commands ({n} events), then the base backup (deploy/compose/backup.sh base): {size} in "
          f"{time.perf_counter() - started:.1f} s")
    pruned = not first.exists() and [p.name for p in bases.iterdir()] == [base.name]
    cleaned = (not any(p.name.startswith(first_segment) for p in archive.iterdir())
               and (archive / _start_segment(base)).exists())

    n = _commands(club, args.before)
    target = _state()
    time.sleep(1.5)  # the point in time lies strictly between the last commit kept and the first one lost
    connection.close()
    target_time = primary.sql("SELECT clock_timestamp()")
    time.sleep(1.5)
    print(f"{args.before} more commands ({n} events): the point to restore to, {target_time}: "
          f"{target['events']} events, head position {target['position']}, head hash {target['head_hash'][:16]}…")
    n = _commands(club, args.after)
    connection.close()
    segment = primary.sql("SELECT pg_walfile_name(pg_switch_wal())")
    while primary.sql("SELECT coalesce(last_archived_wal, '') FROM pg_stat_archiver") < segment:
        time.sleep(0.1)  # until the segment holding the last commit is in the archive
    print(f"{args.after} commands more ({n} events), not to come back; the WAL archived, the server lost")
    primary.stop()
    shutil.rmtree(primary.data)

    started = time.perf_counter()
    latest = primary.backup("latest", str(bases))
    restored.backup("restore", latest, str(restored.data), str(archive), target_time)
    restored.start()
    while restored.sql("SELECT pg_is_in_recovery()") != "f":
        time.sleep(0.1)
    recovery = time.perf_counter() - started
    # the rest in a new process, as after a restore every service is started again: a process that lived through
    # the lost commands holds snapshots of streams folded with them (eventlog/snapshots.py), which a restored stream must not meet
    connection.close()
    done = subprocess.run([sys.executable, __file__, "--check-restored"], env=dict(os.environ), capture_output=True,
                          text=True)
    if done.returncode != 0:
        sys.exit(f"the check of the restored server failed:\n{done.stdout}{done.stderr}")
    after = json.loads(done.stdout.splitlines()[-1])
    print(f"restored: the server answering as a primary {recovery:.1f} s after the copy began; every projection "
          f"rebuilt in {after['rebuild']:.1f} s (a new process); recovery time {recovery + after['rebuild']:.1f} s "
          f"in all")

    checks = {
        "head position and head hash as noted": (after["position"], after["head_hash"]) == (
            target["position"], target["head_hash"]),
        "event count as noted": after["events"] == target["events"],
        "every projection's digest, rebuilt, as noted": after["digests"] == target["digests"],
        "verify_log: the chain whole, every stream re-judged": after["verified"],
        "the older base backup pruned, the WAL before the kept one's start cleaned": pruned and cleaned,
    }
    print(after["verify_output"].rstrip())
    for name, ok in checks.items():
        print(f"  {'ok  ' if ok else 'FAIL'} {name}")
    if after["digests"] != target["digests"]:
        for name in sorted(target["digests"]):
            if after["digests"].get(name) != target["digests"][name]:
                print(f"       {name}: {target['digests'][name][:16]} noted, {after['digests'].get(name, '')[:16]} now")
                for table, rows in target["rows"][name].items():
                    now = after["rows"][name].get(table, [])
                    for row in sorted(set(rows) ^ set(now))[:6]:
                        print(f"         {table} {'noted' if row in rows else 'now  '}: {row[:300]}")
    if not all(checks.values()):
        sys.exit(1)


if __name__ == "__main__":
    main()
