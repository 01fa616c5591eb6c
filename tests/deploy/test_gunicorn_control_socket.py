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


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _start(home: Path, log: Path, **extra) -> subprocess.Popen:
    env = {k: v for k, v in os.environ.items() if k != "XDG_RUNTIME_DIR"}
    env.update(HOME=str(home), DJANGO_SETTINGS_MODULE="deploy.settings", DEBUG="1", SECRET_KEY="control-socket-test",
               GUNICORN_WORKERS="1", GUNICORN_BIND=f"127.0.0.1:{_free_port()}", **extra)
    return subprocess.Popen([GUNICORN, "-c", "deploy/services/gunicorn.conf.py", "deploy.wsgi:application"],
                            cwd=ROOT, env=env, stdout=log.open("w"), stderr=subprocess.STDOUT)


def _booted(log: Path, timeout: float = 60) -> str:
    deadline = time.time() + timeout
    while time.time() < deadline:
        text = log.read_text()
        if "Booting worker" in text:
            time.sleep(1.5)  # the arbiter opens its control server after the first worker boots
            return log.read_text()
        time.sleep(0.2)
    raise AssertionError(f"gunicorn did not boot: {log.read_text()[-2000:]}")


def _stop(*nodes: subprocess.Popen) -> None:
    for node in nodes:
        node.send_signal(signal.SIGTERM)
    for node in nodes:
        node.wait(timeout=30)


def test_two_nodes_of_one_host_claim_no_shared_control_socket(tmp_path):
    # one after the other, as systemd starts the units: started at the same instant, the second took the first's
    # path without a word (neither found a live socket there)
    logs, nodes, texts = [tmp_path / "node1.log", tmp_path / "node2.log"], [], []
    try:
        for log in logs:
            nodes.append(_start(tmp_path, log))
            texts.append(_booted(log))
        texts = [log.read_text() for log in logs]
        shared = (tmp_path / ".gunicorn" / "gunicorn.ctl").exists()
    finally:
        _stop(*nodes)
    for text in texts:
        assert "Control server error" not in text, text
        assert "Control socket listening" not in text, text
    assert not shared


def test_a_node_given_a_control_socket_has_it_at_its_own_path(tmp_path):
    path = tmp_path / "node-8001.ctl"
    log = tmp_path / "node.log"
    node = _start(tmp_path, log, GUNICORN_CONTROL_SOCKET=str(path))
    try:
        text = _booted(log)
        assert path.is_socket(), text
    finally:
        _stop(node)
