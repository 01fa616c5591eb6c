"""The README is a door, not a manual: short, its two commands real Makefile targets, its map of the repository
complete."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
README = (ROOT / "README.md").read_text()


def test_the_readme_stays_short():
    assert len(README.splitlines()) <= 200


def test_its_two_commands_are_the_makefiles_targets():
    block = README.split("## Set up", 1)[1].split("```")[1]
    commands = re.findall(r"^make (\S+)", block, re.MULTILINE)
    assert commands == ["run", "test"]
    targets = set(re.findall(r"^([a-z][\w-]*):", (ROOT / "Makefile").read_text(), re.MULTILINE))
    assert set(commands) <= targets


def test_its_map_names_every_top_level_directory():
    tracked = subprocess.run(["git", "ls-files"], cwd=ROOT, capture_output=True, text=True, check=True).stdout
    directories = {line.split("/", 1)[0] for line in tracked.splitlines() if "/" in line and not line.startswith(".")}
    layout = README.split("## The repository", 1)[1].split("```")[1]
    named = set(re.findall(r"^([\w.-]+)/", layout, re.MULTILINE))
    assert directories <= named, f"the README's map lacks {sorted(directories - named)}"
    assert named <= directories, f"the README's map names {sorted(named - directories)}, which are not in the repository"
