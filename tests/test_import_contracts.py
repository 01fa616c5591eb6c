"""The import contracts of pyproject.toml ([tool.importlinter]) hold: an arrow that runs up fails the suite.

Each contract is its own test, so a broken one names itself and the others still report. The contracts are
checked by import-linter (grimp reads the source; nothing is imported), every import counted, a function's
lazy ``import`` too. One run checks them all (each run pays a process start and a graph: the run is shared by
the tests that read it), and the upward imports re-read the copy through grimp's cache, which re-reads the one
file a test changed.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
CONFIG = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["importlinter"]
LINT_IMPORTS = Path(sys.executable).with_name("lint-imports")


def lint(where: Path, *contracts: str, cache: Path | None = None) -> subprocess.CompletedProcess:
    """lint-imports on the tree at ``where``: the ``contracts`` named, or all of them."""
    # the tree at `where` first on the path: the shared environment may hold an editable install of another clone;
    # wide lines: one line per contract, its name then KEPT or BROKEN
    env = dict(os.environ, PYTHONPATH=str(where), COLUMNS="10000")
    caching = ["--cache-dir", str(cache)] if cache else ["--no-cache"]
    limits = [a for c in contracts for a in ("--contract", c)]
    return subprocess.run([str(LINT_IMPORTS), *caching, "--no-logo", *limits], cwd=where, env=env,
                          capture_output=True, text=True, timeout=600)


def verdict(result: subprocess.CompletedProcess, contract: str) -> str | None:
    """KEPT or BROKEN, as the run says of ``contract`` (None: the run did not check it)."""
    name = next(c["name"] for c in CONFIG["contracts"] if c["id"] == contract)
    # a contract with ignore_imports says how many it ignored after its verdict: "KEPT (1 ignored import)"
    found = re.search(rf"^{re.escape(name)} (KEPT|BROKEN)( \(\d+ ignored imports?\))?$", result.stdout, re.MULTILINE)
    return found and found.group(1)


@pytest.fixture(scope="module")
def every_contract() -> subprocess.CompletedProcess:
    return lint(ROOT)


@pytest.mark.parametrize("contract", [c["id"] for c in CONFIG["contracts"]])
def test_contract_is_kept(every_contract, contract):
    result = every_contract
    assert verdict(result, contract) == "KEPT", \
        f"import contract {contract!r} is broken:\n{result.stdout}{result.stderr}"


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


@pytest.fixture(scope="module")
def the_copy_untouched(copy_of_the_tree, tmp_path_factory) -> tuple[subprocess.CompletedProcess, Path]:
    """Every contract on the untouched copy (each test puts its file back as it was), and the cache it left."""
    cache = tmp_path_factory.mktemp("grimp-cache")
    return lint(copy_of_the_tree, cache=cache), cache


def add_import(tree: Path, module: str, statement: str) -> Path:
    path = tree / (module.replace(".", "/") + ".py")
    text = path.read_text()
    path.write_text(text + f"\n\ndef _upward():\n    {statement}  # a lazy import is an import all the same\n")
    return path


@pytest.mark.parametrize("contract, module, statement, expected", [
    ("layers", "players.authority", "from tournaments import models",
     "players.authority -> tournaments.models"),
    ("eventlog-imports-no-app", "eventlog.store", "import games.loading",
     "eventlog.store -> games.loading"),
    ("pure-engine", "games.engine.board", "from django.db import models",
     "games.engine.board -> django"),
    ("pure-formats", "tournaments.formats.swiss", "from tournaments import models",
     "tournaments.formats.swiss -> tournaments.models"),
    ("nothing-imports-tests", "ratings.formula", "from tests import waiting",
     "ratings.formula -> tests.waiting"),
])
def test_an_upward_import_breaks_its_contract(copy_of_the_tree, the_copy_untouched, contract, module, statement,
                                              expected):
    before, cache = the_copy_untouched
    assert expected not in before.stdout, before.stdout
    path = add_import(copy_of_the_tree, module, statement)
    original = path.read_text()
    try:
        after = lint(copy_of_the_tree, contract, cache=cache)
    finally:
        path.write_text(original[: original.rindex("\n\ndef _upward():")])
    assert after.returncode == 1, after.stdout + after.stderr
    assert verdict(after, contract) == "BROKEN" and expected in after.stdout, after.stdout
    if contract != "layers":  # the kept contracts pass on the untouched copy: the failure is the added import's
        assert verdict(before, contract) == "KEPT", before.stdout + before.stderr
