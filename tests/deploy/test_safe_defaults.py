"""Production is the default: a forgotten variable must never serve tracebacks or sign cookies with a known key.

Each check starts ``manage.py`` in a clean environment (no variable of the test run leaks in), as an operator
would with only ``/etc/crawford/env``.
"""

from __future__ import annotations

import os
import secrets
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
ENV_EXAMPLE = ROOT / "deploy" / "services" / "env.example"
PROBE = "from django.conf import settings as s; print('DEBUG=%s' % s.DEBUG)"


def _clean_env(tmp_path, **variables) -> dict:
    """Only what a process needs to run at all, plus ``variables``; no database is touched."""
    env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": str(tmp_path), "LANG": "C.UTF-8",
           "CRAWFORD_VAR_DIR": str(tmp_path)}
    env.update(variables)
    return env


def _manage(env, *args) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "manage.py", *args], cwd=ROOT, env=env, capture_output=True, text=True,
                          timeout=600)


def test_without_debug_in_the_environment_the_site_runs_with_debug_off(tmp_path):
    run = _manage(_clean_env(tmp_path, SECRET_KEY=secrets.token_urlsafe(50)), "shell", "-c", PROBE)
    assert run.returncode == 0, run.stderr
    assert "DEBUG=False" in run.stdout


def test_without_a_secret_key_the_site_refuses_to_start(tmp_path):
    """No DEBUG, no SECRET_KEY: production, and no fixed fallback key to sign sessions with."""
    run = _manage(_clean_env(tmp_path), "shell", "-c", PROBE)
    assert run.returncode != 0
    assert "SECRET_KEY must be set" in run.stderr
    assert "DEBUG=" not in run.stdout


def test_even_with_debug_on_there_is_no_fallback_secret_key(tmp_path):
    """Only `make run` and the tests provide a key of their own; the settings never invent one."""
    run = _manage(_clean_env(tmp_path, DEBUG="1"), "shell", "-c", PROBE)
    assert run.returncode != 0 and "SECRET_KEY must be set" in run.stderr


def env_example() -> dict:
    values = {}
    for line in ENV_EXAMPLE.read_text().splitlines():
        line = line.strip()
        if line and not line.startswith("#"):
            name, _, value = line.partition("=")
            values[name] = value
    return values


def test_check_deploy_is_clean_with_only_the_variables_of_env_example(tmp_path):
    values = env_example()
    assert "SECRET_KEY" in values
    values["SECRET_KEY"] = secrets.token_urlsafe(50)  # what the operator puts in place of the placeholder
    run = _manage(_clean_env(tmp_path, **values), "check", "--deploy", "--fail-level", "WARNING")
    assert run.returncode == 0, run.stdout + run.stderr
