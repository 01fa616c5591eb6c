"""The production service files really start the thing: gunicorn serves, the worker and beat come up."""

import os
import re
import shlex
import signal
import socket
import subprocess
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest

from tests.waiting import WAIT

# the services connect to the test database: it must exist and hold committed data
pytestmark = pytest.mark.django_db(transaction=True)

ROOT = Path(__file__).resolve().parents[2]
SERVICES = ROOT / "deploy" / "services"


def exec_start(unit: str, instance: str = "") -> list[str]:
    """The unit's command as systemd runs it: ``%i`` is the instance (crawford-web@8000: 8000), ``%%`` a ``%``."""
    line = re.search(r"^ExecStart=(.+)$", (SERVICES / unit).read_text(), re.M)[1]
    line = line.replace("%%", "\0").replace("%i", instance).replace("\0", "%")
    return [part.replace("/srv/crawford", str(ROOT)) for part in shlex.split(line)]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def run_until(command, env, ready, timeout=WAIT):
    log = ROOT / "var" / f"service-test-{os.getpid()}.log"
    log.parent.mkdir(exist_ok=True)
    with open(log, "w") as out:
        proc = subprocess.Popen(command, cwd=ROOT, env=env, stdout=out, stderr=subprocess.STDOUT, start_new_session=True)
    try:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if proc.poll() is not None:
                raise AssertionError(f"{command[0]} exited:\n{log.read_text()[-3000:]}")
            if ready(log.read_text()):
                return
            time.sleep(0.3)
        raise AssertionError(f"{command[0]} not ready in {timeout}s:\n{log.read_text()[-3000:]}")
    finally:
        os.killpg(proc.pid, signal.SIGTERM)
        proc.wait(timeout=WAIT)
        log.unlink(missing_ok=True)


@pytest.fixture
def service_env(worker_env):
    env, _ = worker_env
    return dict(env, DEBUG="1", CELERY_BEAT_SCHEDULER="celery.beat:PersistentScheduler")


def test_gunicorn_unit_serves_the_api(service_env):
    port = free_port()
    env = dict(service_env, GUNICORN_WORKERS="1")  # the port is the unit's instance: crawford-web@PORT

    def answers(_log):
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/matches/", timeout=WAIT) as r:
                return r.status == 200
        except OSError:
            return False

    run_until(exec_start("crawford-web@.service", str(port)), env, answers)


def test_live_unit_serves_the_push_through_the_asgi_worker(service_env):
    """crawford-live@: the ASGI app under uvicorn's worker class (its Environment= lines), answering /follow/."""
    unit = (SERVICES / "crawford-live@.service").read_text()
    env = dict(service_env, **dict(pair.split("=", 1) for line in re.findall(r"^Environment=(.+)$", unit, re.M)
                                   for pair in shlex.split(line)))
    env["GUNICORN_WORKERS"] = "1"
    port = free_port()

    def answers(log):
        try:
            urllib.request.urlopen(f"http://127.0.0.1:{port}/matches/no-such-match/follow/", timeout=WAIT)
        except urllib.error.HTTPError as refused:
            return refused.code == 404 and "uvicorn_worker.UvicornWorker" in log
        except OSError:
            return False
        return False

    run_until(exec_start("crawford-live@.service", str(port)), env, answers)


def test_worker_unit_starts_on_the_broker(service_env):
    run_until(exec_start("crawford-worker@.service", "1") + ["-n", f"unit-test-{os.getpid()}@%h"], service_env,
              lambda log: "ready." in log)


def test_beat_unit_starts(service_env, tmp_path):
    command = exec_start("crawford-beat.service") + ["-s", str(tmp_path / "beat-schedule")]
    run_until(command, service_env, lambda log: "beat: Starting" in log)


def test_production_settings_pass_the_deploy_check():
    env = dict(os.environ, DEBUG="0", SECRET_KEY="x" * 60 + "production-like-secret-key-for-the-check",
               ALLOWED_HOSTS="crawford.example.org")
    run = subprocess.run([str(ROOT / ".venv" / "bin" / "python"), "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
                         cwd=ROOT, env=env, capture_output=True, text=True)
    assert run.returncode == 0, run.stdout + run.stderr


def test_the_node_and_worker_units_are_templates_and_beat_is_one():
    """Two web nodes and two workers on one machine: each instance its own port, each worker its own name."""
    web = [exec_start("crawford-web@.service", port) for port in ("8000", "8001")]
    assert [command[command.index("--bind") + 1] for command in web] == ["127.0.0.1:8000", "127.0.0.1:8001"]
    workers = [exec_start("crawford-worker@.service", n) for n in ("1", "2")]
    assert [command[command.index("-n") + 1] for command in workers] == ["worker1@%h", "worker2@%h"]
    # one beat for the whole site: no template to start a second by mistake
    assert not (SERVICES / "crawford-beat@.service").exists() and (SERVICES / "crawford-beat.service").exists()
