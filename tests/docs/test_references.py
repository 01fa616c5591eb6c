"""The docs cannot go stale silently: every file path and every dotted Python name they write between backquotes
exists in the repository as it is.

What is checked, in ``README.md``, ``docs/*.md`` and ``bench/README.md``:

- a path (``games/streams.py``, ``tournaments/formats/``, a glob such as ``deploy/services/crawford-*.service``)
  whose first part is a top-level entry of the repository, or which names a source file: it must exist;
- a test's node id (``tests/docs/test_recipes.py::test_…``): the file, and a test of that name in it;
- a dotted name that starts with one of the project's packages (``eventlog.store.append``): it must import.

Addresses of the site (``/api/matches/``), URLs, commands with spaces and names of other things are left alone.
"""

from __future__ import annotations

import importlib
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
DOCS = sorted([ROOT / "README.md", ROOT / "bench" / "README.md", *(ROOT / "docs").glob("*.md")])
PACKAGES = ("deploy", "apikit", "eventlog", "published", "players", "games", "tournaments", "ratings", "analysis", "seasons",
            "tests", "bench")
TOP_LEVEL = {p.name for p in ROOT.iterdir() if not p.name.startswith(".")} - {"var", "staticfiles"}
SOURCE = re.compile(r"\.(py|md|js|css|html|sh|toml|yaml|yml|conf|service|target|example|po|mo|jsonl|mat|txt)$")
DOTTED = re.compile(r"[a-z_][a-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)+")
QUOTED = re.compile(r"`([^`\n]+)`")


def _spans(doc: Path) -> list[str]:
    text = doc.read_text()
    text = re.sub(r"^```.*?^```", "", text, flags=re.DOTALL | re.MULTILINE)  # blocks are shell and tables: not names
    return QUOTED.findall(text)


def _is_path(token: str) -> bool:
    if " " in token or token.startswith(("/", ".", "~")) or "://" in token or any(c in token for c in "{}<>…$"):
        return False
    if "..." in token or "/" not in token:
        return False
    return token.split("/", 1)[0] in TOP_LEVEL or bool(SOURCE.search(token.split("::")[0]))


def _references() -> list[tuple[str, str, str]]:
    found = []
    for doc in DOCS:
        for token in _spans(doc):
            token = token.strip()
            if _is_path(token):
                found.append((doc.relative_to(ROOT).as_posix(), "path", token))
            elif DOTTED.fullmatch(token) and token.split(".", 1)[0] in PACKAGES:
                found.append((doc.relative_to(ROOT).as_posix(), "name", token))
    return found


REFERENCES = _references()


def test_the_docs_name_things_at_all():
    """A check that finds nothing would pass forever: the docs do name paths and Python names."""
    kinds = {kind for _, kind, _ in REFERENCES}
    assert kinds == {"path", "name"}, kinds
    assert (ROOT / "docs" / "architecture.md") in DOCS


@pytest.mark.parametrize("doc, kind, token", REFERENCES, ids=[f"{d}:{t}" for d, _, t in REFERENCES])
def test_every_named_thing_exists(doc, kind, token):
    if kind == "path":
        path, _, test = token.partition("::")
        matches = list(ROOT.glob(path.rstrip("/"))) if "*" in path else [ROOT / path.rstrip("/")]
        assert matches and all(m.exists() for m in matches), f"{doc} names {token}, which does not exist"
        if test:
            assert re.search(rf"^(async )?def {re.escape(test)}\b", matches[0].read_text(), re.MULTILINE), \
                f"{doc} names the test {token}, which does not exist"
        return
    assert _resolves(token), f"{doc} names {token}, which does not import"


def _resolves(dotted: str) -> bool:
    parts = dotted.split(".")
    for cut in range(len(parts), 0, -1):
        try:
            target = importlib.import_module(".".join(parts[:cut]))
        except ModuleNotFoundError:
            continue
        for name in parts[cut:]:
            if not hasattr(target, name):
                return False
            target = getattr(target, name)
        return True
    return False
