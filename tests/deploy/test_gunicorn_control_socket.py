"""Two gunicorn nodes of one host on deploy/services/gunicorn.conf.py: neither claims gunicorn's shared control socket
(gunicorn 25.1+ puts it at one path per user, and the second node's control server failed on it), and a node given
a path of its own by GUNICORN_CONTROL_SOCKET has its socket there."""

import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
GUNICORN = str(Path(sys.executable).with_name("gunicorn"))
WAIT = 120  # seconds a node may take to boot on a busy machine (a few on a quiet one)
CONTROL_SERVER_SAID = ("Control socket disabled", "Control socket listening", "Control server error",
                       "Failed to start control socket")


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _env(home: Path, **extra) -> dict:
    env = {k: v for k, v in os.environ.items() if k != "XDG_RUNTIME_DIR"}
    env.update(HOME=str(home), DJANGO_SETTINGS_MODULE="deploy.settings", DEBUG="1", SECRET_KEY="control-socket-test",
               GUNICORN_WORKERS="1", GUNICORN_BIND=f"127.0.0.1:{_free_port()}", **extra)
    return env


def _start(home: Path, log: Path, **extra) -> subprocess.Popen:
    # at debug level the arbiter says when it passed over its control server: "Control socket disabled"
    return subprocess.Popen([GUNICORN, "-c", "deploy/services/gunicorn.conf.py", "--log-level", "debug",
                             "deploy.wsgi:application"],
                            cwd=ROOT, env=_env(home, **extra), stdout=log.open("w"), stderr=subprocess.STDOUT)


def _resolved(home: Path, **extra) -> dict[str, str]:
    """gunicorn's own reading of the file (--print-config): its control settings."""
    out = subprocess.run([GUNICORN, "-c", "deploy/services/gunicorn.conf.py", "--print-config",
                          "deploy.wsgi:application"], cwd=ROOT, env=_env(home, **extra), capture_output=True,
                         text=True, timeout=WAIT, check=True).stdout
    pairs = (line.split("=", 1) for line in out.splitlines() if line.startswith("control_socket"))
    return {name.strip(): value.strip() for name, value in pairs}


def _until(done, what: str, timeout: float = WAIT) -> None:
    deadline = time.time() + timeout
    while not done():
        if time.time() > deadline:
            raise AssertionError(what)
        time.sleep(0.2)


def _booted(log: Path) -> None:
    _until(lambda: "Booting worker" in log.read_text(), f"gunicorn did not boot: {log.read_text()[-2000:]}")


def _stop(*nodes: subprocess.Popen) -> None:
    for node in nodes:
        node.send_signal(signal.SIGTERM)
    for node in nodes:
        node.wait(timeout=WAIT)


def test_a_node_has_no_control_socket_unless_given_a_path(tmp_path):
    assert _resolved(tmp_path)["control_socket_disable"] == "True"
    given = _resolved(tmp_path, GUNICORN_CONTROL_SOCKET=str(tmp_path / "web-8001.ctl"))
    assert given["control_socket_disable"] == "False" and given["control_socket"] == str(tmp_path / "web-8001.ctl")


def test_two_nodes_of_one_host_claim_no_shared_control_socket(tmp_path):
    # one after the other, as systemd starts the units: started at the same instant, the second took the first's
    # path without a word (neither found a live socket there)
    logs, nodes = [tmp_path / "node1.log", tmp_path / "node2.log"], []
    try:
        for log in logs:
            nodes.append(_start(tmp_path, log))
            _booted(log)
            # the arbiter turns to its control server once its workers are spawned: it says it is off, or (on)
            # its thread says where it listens or why it cannot
            _until(lambda: any(said in log.read_text() for said in CONTROL_SERVER_SAID),
                   f"the node never came to its control server: {log.read_text()[-2000:]}")
        texts = [log.read_text() for log in logs]
        shared = (tmp_path / ".gunicorn" / "gunicorn.ctl").exists()
    finally:
        _stop(*nodes)
    for text in texts:
        assert "Control server error" not in text, text
        assert "Control socket listening" not in text, text
    assert not shared
    assert all("Control socket disabled" in text for text in texts), texts


def test_a_node_given_a_control_socket_has_it_at_its_own_path(tmp_path):
    path = tmp_path / "node-8001.ctl"
    log = tmp_path / "node.log"
    node = _start(tmp_path, log, GUNICORN_CONTROL_SOCKET=str(path))
    try:
        _booted(log)
        _until(path.is_socket, f"no control socket at {path}: {log.read_text()[-2000:]}")
        assert "Control server error" not in log.read_text()
    finally:
        _stop(node)
