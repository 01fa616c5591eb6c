"""The pure tests' run (tests/pure.py) fails when one of them imports Django: proven on a test that does."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def pure_run(tmp_path: Path, body: str) -> subprocess.CompletedProcess:
    test = tmp_path / "test_one.py"
    test.write_text(body)
    env = {k: v for k, v in os.environ.items() if k != "DJANGO_SETTINGS_MODULE"}
    env["PYTHONPATH"] = str(ROOT)
    return subprocess.run([sys.executable, "-m", "pytest", "-p", "no:django", "-p", "tests.pure", "-q",
                           "-p", "no:cacheprovider", "--rootdir", str(tmp_path), str(test)],
                          cwd=tmp_path, env=env, capture_output=True, text=True, timeout=600)


def test_a_pure_test_runs(tmp_path):
    result = pure_run(tmp_path, "from games.engine.board import Position\n\n"
                                "def test_start():\n    assert Position.start()\n")
    assert result.returncode == 0 and "1 passed" in result.stdout, result.stdout + result.stderr


def test_a_pure_test_that_reaches_django_fails_the_run(tmp_path):
    result = pure_run(tmp_path, "def test_reaches():\n    from games import loading  # imports Django\n")
    assert result.returncode == 1 and "imported by a pure test" in result.stdout, result.stdout + result.stderr


def test_the_makefile_runs_the_pure_tests_without_django():
    makefile = (ROOT / "Makefile").read_text()
    assert "-p no:django -p tests.pure $(PURE_TESTS)" in makefile
    assert "$(addprefix --ignore=,$(PURE_TESTS))" in makefile
