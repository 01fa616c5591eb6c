"""What the benchmark scripts share: the code they ran on, a fresh database, where the CPU went."""

from __future__ import annotations

import functools
import os
import socket
import subprocess
import time
from pathlib import Path
from urllib.parse import urlunparse

ROOT = Path(__file__).resolve().parent.parent


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_port(port: int, proc, log: Path) -> None:
    """Until a server answers on ``port`` (``proc`` started it, ``log`` says why it did not)."""
    deadline = time.time() + 120
    while True:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            return
        except OSError:
            if time.time() > deadline or proc.poll() is not None:
                raise RuntimeError(f"a node did not start:\n{log.read_text()[-2000:]}") from None
            time.sleep(0.2)


def percentile(values: list[float], q: float) -> float:
    """The value at quantile ``q`` of ``values`` (0.0 for none)."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * q))] if ordered else 0.0


def node_log_errors(logs: Path) -> list[str]:
    """The tracebacks and ERROR lines the live and web nodes logged (``live.log``, ``web.log`` in ``logs``)."""
    return [line for name in ("live.log", "web.log") for line in (logs / name).read_text().splitlines()
            if "Traceback" in line or "[ERROR]" in line]


@functools.cache
def code_version() -> str:
    """The commit benchmarked, and any app file changed in the working tree (bench/ and the Makefile aside).

    Read once, at the first call (the run's start: the code it imported): a commit made while a long run goes on
    is not the code it ran."""
    git = ["git", "-C", str(ROOT)]
    head = subprocess.run(git + ["rev-parse", "--short", "HEAD"], capture_output=True, text=True).stdout.strip()
    status = subprocess.run(git + ["status", "--porcelain", "--untracked-files=no"],
                            capture_output=True, text=True).stdout
    changed = [line[3:] for line in status.splitlines() if not line[3:].startswith("bench/") and line[3:] != "Makefile"]
    return f"code at {head or '?'}" + (f" + uncommitted changes to {', '.join(changed)}" if changed else "")


def recreate_database(url, name: str) -> None:
    """Drop and create database ``name`` on the server of ``url`` (a parsed DATABASE_URL)."""
    import psycopg

    with psycopg.connect(urlunparse(url._replace(path="/postgres")), autocommit=True) as conn:
        conn.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")
        conn.execute(f"CREATE DATABASE {name}")


class CpuMeter:
    """Where the machine's CPU time went between two snapshots, from /proc (Linux).

    The bench's parts are the processes of the given process groups (gunicorn's and
    the worker's) and this script (the HTTP clients); PostgreSQL is every process of the server (all its databases),
    exited backends included (their time is in the postmaster's children's time);
    "other" is the rest of the machine's busy time: whatever else was running.
    """

    def __init__(self, groups: dict[str, int]):
        self.groups = groups
        self.tick = os.sysconf("SC_CLK_TCK")

    def snapshot(self) -> dict[str, float]:
        with open("/proc/stat") as f:
            fields = [int(x) for x in f.readline().split()[1:]]
        busy = (sum(fields) - fields[3] - fields[4]) / self.tick  # all but idle and iowait
        parts = {name: 0.0 for name in self.groups}
        parts["postgres"] = 0.0
        for pid in filter(str.isdigit, os.listdir("/proc")):
            try:
                with open(f"/proc/{pid}/stat") as f:
                    raw = f.read()
            except OSError:
                continue
            comm = raw[raw.index("(") + 1: raw.rindex(")")]
            rest = raw[raw.rindex(")") + 2:].split()
            pgid = int(rest[2])
            own = (int(rest[11]) + int(rest[12])) / self.tick
            for name, group in self.groups.items():
                if pgid == group:
                    parts[name] += own
            if comm == "postgres":
                parts["postgres"] += own
                if _is_postmaster(int(pid)):
                    parts["postgres"] += (int(rest[13]) + int(rest[14])) / self.tick  # reaped backends
        times = os.times()
        parts["this script"] = times.user + times.system
        return {"busy": busy, **parts}

    def report(self, before: dict, after: dict, seconds: float) -> str:
        cpus = os.cpu_count() or 1
        delta = {k: after[k] - before[k] for k in before}
        ours = sum(v for k, v in delta.items() if k != "busy")
        delta["other processes"] = max(0.0, delta["busy"] - ours)
        shares = ", ".join(f"{k} {100 * v / seconds:.0f}%" for k, v in delta.items() if k != "busy")
        return (f"CPU: machine busy {100 * delta['busy'] / (seconds * cpus):.0f}% of {cpus} CPUs "
                f"(in CPU-% of one core: {shares}); load average {os.getloadavg()[0]:.2f}")


def _is_postmaster(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/cmdline", "rb") as f:
            return b"-D" in f.read()
    except OSError:
        return False
