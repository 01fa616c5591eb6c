"""Throwaway PostgreSQL servers on this machine: a cluster, a streaming replica of it, and PgBouncer in front.

The restore drill (scripts/restore_drill.py) restores into them; the scale-out bench (bench/load.py ``--pooler``,
``--replica``) runs the platform through PgBouncer in transaction mode with the public pages on a replica, as
deploy/compose.yaml does. Each server runs as ``postgres`` when this runs as root (initdb and PgBouncer refuse
root), on a free port of 127.0.0.1, its data, sockets and logs in the directory given.

Needs PostgreSQL's server binaries (Debian's ``postgresql``), installed when missing and this runs as root, and for
the pooler a PgBouncer of 1.21 or later, which carries prepared statements in transaction mode: the PATH's, else one
scripts/install-pgbouncer.sh builds from Debian's source (Debian 12's package is 1.18). Without one, Debian's
``pgbouncer`` runs with prepared statements off.
"""

from __future__ import annotations

import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path


def _apt_install(package: str) -> None:
    if os.geteuid() != 0:
        sys.exit(f"{package} is not installed (apt-get install {package})")
    subprocess.run(["apt-get", "update", "-qq"], check=True, capture_output=True)
    subprocess.run(["apt-get", "install", "-y", "-qq", package], check=True, capture_output=True,
                   env=dict(os.environ, DEBIAN_FRONTEND="noninteractive"))


def server_bin() -> Path:
    """The newest installed PostgreSQL server's binaries."""
    found = sorted(Path("/usr/lib/postgresql").glob("*/bin/initdb"), key=lambda p: int(p.parent.parent.name))
    if not found:
        _apt_install("postgresql")
        return server_bin()
    return found[-1].parent


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _as_postgres(argv: list[str]) -> list[str]:
    return ["runuser", "-u", "postgres", "--", *argv] if os.geteuid() == 0 else argv


def owned_by_postgres(*paths: Path) -> None:
    """The servers write there: give ``paths`` to ``postgres`` when this runs as root."""
    if os.geteuid() == 0:
        for path in paths:
            shutil.chown(path, "postgres")


class Cluster:
    """A throwaway PostgreSQL cluster: ``data`` its directory, served on ``port`` with its socket in ``run``."""

    def __init__(self, data: Path, port: int, run: Path):
        self.data, self.port, self.run, self.bin = data, port, run, server_bin()

    def url(self, database: str) -> str:
        return f"postgres://postgres@127.0.0.1:{self.port}/{database}"

    def cmd(self, name: str, *args: str, check: bool = True) -> subprocess.CompletedProcess:
        return subprocess.run(_as_postgres([str(self.bin / name), *args]), check=check, capture_output=True, text=True)

    def init(self, settings: dict[str, str] | None = None) -> None:
        """initdb (trust on 127.0.0.1, replication included), with ``settings`` added to postgresql.conf."""
        self.cmd("initdb", "-D", str(self.data), "-U", "postgres", "--auth=trust")
        if settings:
            with open(self.data / "postgresql.conf", "a") as conf:
                conf.write("".join(f"\n{name} = '{value}'" for name, value in settings.items()))

    def start(self) -> None:
        self.cmd("pg_ctl", "-D", str(self.data), "-l", str(self.run / f"{self.data.name}.log"), "-w", "-t", "300",
                 "-o", f"-p {self.port} -k {self.run} -c listen_addresses=127.0.0.1", "start")

    def stop(self) -> None:
        self.cmd("pg_ctl", "-D", str(self.data), "-m", "fast", "-w", "stop", check=False)

    def sql(self, statement: str, database: str = "postgres") -> str:
        return self.cmd("psql", "-h", "127.0.0.1", "-p", str(self.port), "-U", "postgres", "-d", database, "-tAc",
                        statement).stdout.strip()

    def replica(self, data: Path, port: int) -> Cluster:
        """A streaming replica of this running cluster: a base backup written with its standby settings (``-R``),
        started read-only (hot standby). It follows every database of the cluster."""
        replica = Cluster(data, port, self.run)
        self.cmd("pg_basebackup", "-h", "127.0.0.1", "-p", str(self.port), "-U", "postgres", "-D", str(data), "-R",
                 "-X", "stream", "-c", "fast")
        replica.start()
        return replica

    def replayed(self, primary: Cluster, timeout: float = 60.0) -> bool:
        """Wait until this replica has replayed everything ``primary`` has written by now; False after ``timeout``."""
        target = primary.sql("SELECT pg_current_wal_lsn()")
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.sql(f"SELECT pg_last_wal_replay_lsn() >= '{target}'::pg_lsn") == "t":
                return True
            time.sleep(0.1)
        return False


# The pooling deploy/compose/pgbouncer.ini sets, as the bench's pooler runs it (tests/deploy/test_compose_pooling.py)
POOLING = {"pool_mode": "transaction", "default_pool_size": "20", "max_client_conn": "1000",
           # psycopg sends none of these; libpq-based tools may
           "ignore_startup_parameters": "extra_float_digits,options"}
PREPARED_STATEMENTS = {"max_prepared_statements": "200"}  # PgBouncer 1.21 and later


def pgbouncer_binary() -> str:
    """A PgBouncer that carries prepared statements (scripts/install-pgbouncer.sh finds or builds one); else, saying
    so, the PATH's or Debian's package, which may not."""
    script = Path(__file__).resolve().parent / "install-pgbouncer.sh"
    found = subprocess.run([str(script)], stdout=subprocess.PIPE, text=True)
    if found.returncode == 0 and found.stdout.strip():
        return found.stdout.strip().splitlines()[-1]
    print("no PgBouncer 1.21+ (scripts/install-pgbouncer.sh): Debian's, without prepared statements", file=sys.stderr)
    binary = shutil.which("pgbouncer") or "/usr/sbin/pgbouncer"
    if not Path(binary).exists():
        _apt_install("pgbouncer")
    return binary


class PgBouncer:
    """PgBouncer in transaction mode on ``port``: each of ``databases`` (its name for clients -> the cluster and
    database it pools) reached as postgres, trusted, on 127.0.0.1.

    Transaction mode hands a server connection to a client for one transaction at a time: what a session sets
    (a ``SET``, a session-level advisory lock, a prepared statement before PgBouncer 1.21) is not carried from one
    transaction to the next. ``prepared_statements`` says whether this one carries them
    (``max_prepared_statements``, 1.21 and later)."""

    def __init__(self, run: Path, port: int, databases: dict[str, tuple[Cluster, str]], binary: str | None = None,
                 prepared_statements: bool | None = None):
        self.run, self.port, self.databases = run, port, databases
        self.binary = binary or pgbouncer_binary()
        self.version = self._version()
        # ``prepared_statements=False``: max_prepared_statements 0 even where the binary could carry them
        self.prepared_statements = self.version >= (1, 21) and prepared_statements is not False
        self.process: subprocess.Popen | None = None

    def _version(self) -> tuple[int, int]:
        out = subprocess.run([self.binary, "--version"], capture_output=True, text=True, check=True).stdout
        found = re.search(r"PgBouncer (\d+)\.(\d+)", out)
        return (int(found[1]), int(found[2])) if found else (0, 0)

    def url(self, name: str) -> str:
        return f"postgres://postgres@127.0.0.1:{self.port}/{name}"

    def config(self) -> str:
        databases = "".join(f"{name} = host=127.0.0.1 port={cluster.port} dbname={database}\n"
                            for name, (cluster, database) in self.databases.items())
        settings = {
            "listen_addr": "127.0.0.1", "listen_port": str(self.port), "unix_socket_dir": str(self.run),
            "auth_type": "trust", "auth_file": str(self.run / "pgbouncer-users.txt"), "admin_users": "postgres",
            **POOLING,
            "logfile": str(self.run / "pgbouncer.log"), "pidfile": str(self.run / "pgbouncer.pid"),
        }
        if self.prepared_statements:
            settings.update(PREPARED_STATEMENTS)
        elif self.version >= (1, 21):
            settings["max_prepared_statements"] = "0"  # 1.24's default is 200
        return "[databases]\n" + databases + "\n[pgbouncer]\n" + "".join(f"{k} = {v}\n" for k, v in settings.items())

    def start(self) -> None:
        ini = self.run / "pgbouncer.ini"
        ini.write_text(self.config())
        (self.run / "pgbouncer-users.txt").write_text('"postgres" ""\n')
        owned_by_postgres(ini, self.run / "pgbouncer-users.txt")
        self.process = subprocess.Popen(_as_postgres([self.binary, str(ini)]), stdout=subprocess.DEVNULL,
                                        stderr=subprocess.DEVNULL, start_new_session=True)
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                log = self.run / "pgbouncer.log"
                raise RuntimeError(f"PgBouncer did not start: {log.read_text()[-2000:] if log.exists() else ''}")
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=1):
                    return
            except OSError:
                time.sleep(0.1)
        raise RuntimeError("PgBouncer did not answer within 30 s")

    def show(self, what: str) -> list[dict[str, str]]:
        """A table of PgBouncer's admin console (``SHOW STATS``, ``SHOW POOLS``...), as rows of column -> value."""
        cluster = next(iter(self.databases.values()))[0]
        out = cluster.cmd("psql", "-h", "127.0.0.1", "-p", str(self.port), "-U", "postgres", "-d", "pgbouncer",
                          "-A", "-F", "\t", "-P", "footer=off", "-c", f"SHOW {what}").stdout
        header, *rows = out.strip().splitlines()
        names = header.split("\t")
        return [dict(zip(names, row.split("\t"))) for row in rows]

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGTERM)
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                os.killpg(self.process.pid, signal.SIGKILL)
                self.process.wait()
