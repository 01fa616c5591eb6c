"""The compose deployment's backups are the drill's: deploy/compose.yaml parses, every file it mounts or runs is in
the tree, its server archives with the settings scripts/restore_drill.py proves, through the same script, and the
schedule and the restore run that script too. (No container is started here: the drill runs the script itself.)"""

import importlib.util
import os
import socket
import subprocess
from pathlib import Path

import pytest
import yaml

from tests.conftest import ROOT

DEPLOY = ROOT / "deploy"


def _compose() -> dict:
    return yaml.safe_load((DEPLOY / "compose.yaml").read_text())


def _drill():
    spec = importlib.util.spec_from_file_location("restore_drill", ROOT / "scripts" / "restore_drill.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _mounts(service: dict) -> dict[str, str]:
    """Container path -> host path (relative to deploy/) or volume name, of a service's volumes."""
    return {target: source for source, target, *_ in (v.split(":") for v in service.get("volumes", []))}


def _settings(command: list[str]) -> dict[str, str]:
    """The ``-c name=value`` pairs of a postgres command line."""
    pairs = [command[i + 1] for i, arg in enumerate(command) if arg == "-c"]
    return dict(pair.split("=", 1) for pair in pairs)


def test_every_file_the_compose_file_mounts_or_builds_from_exists():
    compose = _compose()
    build = compose["x-crawford"]["build"]
    assert (DEPLOY / build["context"] / build["dockerfile"]).is_file()
    named = set(compose["volumes"])
    for name, service in compose["services"].items():
        for target, source in _mounts(service).items():
            if source.startswith("."):
                assert (DEPLOY / source).is_file(), f"{name} mounts {source} at {target}: no such file"
            else:
                assert source in named, f"{name} mounts volume {source}, not declared"


def test_the_database_archives_as_the_drill_does_through_the_same_script():
    compose, drill = _compose(), _drill()
    db = compose["services"]["db"]
    script = next(t for t, s in _mounts(db).items() if s == "./compose/backup.sh")
    assert (DEPLOY / "compose" / "backup.sh").resolve() == drill.BACKUP_SCRIPT.resolve()
    assert _mounts(db)["/backup"] == "backups"
    assert _settings(db["command"]) == drill.archive_settings(script, "/backup/wal")


@pytest.mark.parametrize("service, step", [("backup", "schedule"), ("restore", "restore")])
def test_the_schedule_and_the_restore_run_the_drills_script_on_the_same_archive(service, step):
    compose = _compose()
    spec = compose["services"][service]
    mounts = _mounts(spec)
    script = next(t for t, s in mounts.items() if s == "./compose/backup.sh")
    command = " ".join(spec["command"])
    assert f"sh {script} {step} " in command
    assert mounts["/backup"] == "backups" and "/backup/wal" in command
    assert spec["image"] == compose["services"]["db"]["image"]  # the same server's client binaries and uid


def test_the_restore_is_never_started_with_the_deployment():
    assert _compose()["services"]["restore"]["profiles"] == ["restore"]


def _script(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run(["sh", str(DEPLOY / "compose" / "backup.sh"), *args], capture_output=True, text=True)


def test_a_restore_into_a_data_directory_in_use_is_refused_and_nothing_is_changed(tmp_path):
    base, data, wal = tmp_path / "base", tmp_path / "data", tmp_path / "wal"
    for d in (base, data, wal):
        d.mkdir()
    (base / "backup_label").write_text("START WAL LOCATION: 0/2000028 (file 000000010000000000000002)\n")
    (data / "PG_VERSION").write_text("15\n")
    done = _script("restore", str(base), str(data), str(wal))
    assert done.returncode == 2 and "is not empty" in done.stderr
    assert sorted(p.name for p in data.iterdir()) == ["PG_VERSION"]


def test_a_restore_from_something_not_a_base_backup_is_refused(tmp_path):
    done = _script("restore", str(tmp_path), str(tmp_path / "data"), str(tmp_path))
    assert done.returncode == 2 and "not a base backup" in done.stderr
    assert not (tmp_path / "data").exists()


@pytest.mark.parametrize("keep", ["0", "-1", "week"])
def test_a_base_backup_keeping_no_whole_number_of_backups_is_refused(tmp_path, keep):
    done = _script("base", str(tmp_path / "base"), str(tmp_path), keep)
    assert done.returncode == 2 and "KEEP" in done.stderr
    assert not (tmp_path / "base").exists()


def test_an_unknown_step_is_refused():
    done = _script("backup-everything")
    assert done.returncode == 2 and "unknown step" in done.stderr


def test_a_failed_base_backup_keeps_nothing_and_prunes_nothing(tmp_path):
    binaries = sorted(Path("/usr/lib/postgresql").glob("*/bin/pg_basebackup"))
    if not binaries:
        pytest.skip("no PostgreSQL client binaries")
    bases, wal = tmp_path / "base", tmp_path / "wal"
    older = bases / "20260101T000000Z"
    older.mkdir(parents=True)
    wal.mkdir()
    with socket.socket() as s:  # a port nobody listens on: the server is down
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    env = dict(os.environ, PATH=f"{binaries[-1].parent}:{os.environ['PATH']}", PGHOST="127.0.0.1",
               PGPORT=str(port), PGUSER="postgres", PGCONNECT_TIMEOUT="5")
    done = subprocess.run(["sh", str(DEPLOY / "compose" / "backup.sh"), "base", str(bases), str(wal), "1"],
                          capture_output=True, text=True, env=env)
    assert done.returncode == 2 and "pg_basebackup failed" in done.stderr
    assert [p.name for p in bases.iterdir()] == [older.name]
