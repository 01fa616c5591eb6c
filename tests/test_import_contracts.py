"""The import contracts of pyproject.toml ([tool.importlinter]) hold: an arrow that runs up fails the suite.

Each contract is its own test, so a broken one names itself and the others still report. The contracts are
checked by import-linter (grimp reads the source; nothing is imported), every import counted, a function's
lazy ``import`` too.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
CONFIG = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["importlinter"]
LINT_IMPORTS = Path(sys.executable).with_name("lint-imports")


def lint(where: Path, contract: str) -> subprocess.CompletedProcess:
    # the tree at `where` first on the path: the shared environment may hold an editable install of another clone
    env = dict(os.environ, PYTHONPATH=str(where))
    return subprocess.run([str(LINT_IMPORTS), "--no-cache", "--no-logo", "--contract", contract], cwd=where, env=env,
                          capture_output=True, text=True, timeout=600)


@pytest.mark.parametrize("contract", [c["id"] for c in CONFIG["contracts"]])
def test_contract_is_kept(contract):
    result = lint(ROOT, contract)
    assert result.returncode == 0, f"import contract {contract!r} is broken:\n{result.stdout}{result.stderr}"


def test_every_app_is_under_the_contracts():
    """A new app left out of root_packages would be checked by nothing."""
    apps = {p.parent.name for p in ROOT.glob("*/__init__.py")} - {"bench", "scripts"}
    assert apps == set(CONFIG["root_packages"])


@pytest.fixture(scope="module")
def copy_of_the_tree(tmp_path_factory) -> Path:
    where = tmp_path_factory.mktemp("tree")
    for package in CONFIG["root_packages"]:
        shutil.copytree(ROOT / package, where / package, ignore=shutil.ignore_patterns(
            "__pycache__", "fixtures", "static", "templates"))
    shutil.copy(ROOT / "pyproject.toml", where)
    return where


def add_import(tree: Path, module: str, statement: str) -> Path:
    path = tree / (module.replace(".", "/") + ".py")
    text = path.read_text()
    path.write_text(text + f"\n\ndef _upward():\n    {statement}  # a lazy import is an import all the same\n")
    return path


@pytest.mark.parametrize("contract, module, statement, expected", [
    ("layers", "players.authority", "from tournaments import models",
     "players.authority -> tournaments.models"),
    ("eventlog-imports-no-app", "eventlog.store", "import games.services",
     "eventlog.store -> games.services"),
    ("pure-engine", "games.engine.board", "from django.db import models",
     "games.engine.board -> django"),
    ("pure-formats", "tournaments.formats.swiss", "from tournaments import models",
     "tournaments.formats.swiss -> tournaments.models"),
    ("nothing-imports-tests", "ratings.formula", "from tests import waiting",
     "ratings.formula -> tests.waiting"),
])
def test_an_upward_import_breaks_its_contract(copy_of_the_tree, contract, module, statement, expected):
    before = lint(copy_of_the_tree, contract)
    assert expected not in before.stdout, before.stdout
    path = add_import(copy_of_the_tree, module, statement)
    original = path.read_text()
    try:
        after = lint(copy_of_the_tree, contract)
    finally:
        path.write_text(original[: original.rindex("\n\ndef _upward():")])
    assert after.returncode == 1, after.stdout + after.stderr
    assert "BROKEN" in after.stdout and expected in after.stdout, after.stdout
    if contract != "layers":  # the kept contracts pass on the untouched copy: the failure is the added import's
        assert before.returncode == 0, before.stdout + before.stderr
