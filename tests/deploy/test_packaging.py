"""The wheel ships the whole site: every app, its templates, static files and migrations, the gnubg script.

`make` installs the project editable, which hides a file missing from the package list; this test builds the
wheel, installs it (not editable) in a fresh virtual environment beside nothing of the source tree, and
asks Django there for every template, static file and migration the source tree has.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import sysconfig
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = ["deploy", "apikit", "eventlog", "published", "players", "games", "tournaments", "ratings", "analysis", "seasons"]

# Runs in the new environment: prints nothing and exits 0 when everything is where Django looks for it.
CHECK = r"""
import json, sys
from pathlib import Path

expected = json.loads(sys.argv[1])
site = Path(sys.argv[2]).resolve()

import django
django.setup()

import importlib
from django.conf import settings
from django.contrib.staticfiles import finders
from django.core.management import call_command
from django.db.migrations.loader import MigrationLoader
from django.template.loader import get_template

problems = []
for app in expected["packages"]:
    where = Path(importlib.import_module(app).__file__).resolve()
    if site not in where.parents:
        problems.append(f"{app} imported from {where}, not from the installed wheel")
for name in expected["templates"]:
    origin = Path(get_template(name).origin.name).resolve()
    if site not in origin.parents:
        problems.append(f"template {name} found at {origin}")
for name in expected["static"]:
    found = finders.find(name)
    if not found or site not in Path(found).resolve().parents:
        problems.append(f"static file {name}: {found}")
on_disk = set(MigrationLoader(None, ignore_no_migrations=True).disk_migrations)
for app, name in expected["migrations"]:
    if (app, name) not in on_disk:
        problems.append(f"migration {app}.{name} missing")
for name in expected["data"]:
    if not (site / name).is_file():
        problems.append(f"{name} missing")
from analysis import gnubg
if not gnubg.SCRIPT.is_file():
    problems.append(f"gnubg's script {gnubg.SCRIPT} missing")
from django.utils import translation
with translation.override("fr"):  # the compiled French catalogue ships in the wheel (deploy/locale/)
    if translation.gettext("Ratings") != "Cotes":
        problems.append(f"the French catalogue is missing (LOCALE_PATHS {settings.LOCALE_PATHS})")
call_command("check", "--fail-level", "ERROR")
print("\n".join(problems))
sys.exit(1 if problems else 0)
"""


def expected_files() -> dict:
    templates, static, migrations, data = [], [], [], []
    for package in PACKAGES:
        base = ROOT / package
        templates += [str(p.relative_to(base / "templates")) for p in (base / "templates").rglob("*") if p.is_file()]
        static += [str(p.relative_to(base / "static")) for p in (base / "static").rglob("*") if p.is_file()]
        migrations += [(package, p.stem) for p in (base / "migrations").glob("[0-9]*.py")]
    data += [str(p.relative_to(ROOT)) for p in (ROOT / "deploy" / "services").iterdir() if p.is_file()]
    return {"packages": PACKAGES, "templates": templates, "static": static, "migrations": migrations, "data": data}


def test_every_app_is_packaged():
    include = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]["packages"]["find"]["include"]
    apps = {p.parent.name for p in ROOT.glob("*/__init__.py")} - {"tests"}  # every package, an app or not
    assert {name.rstrip("*") for name in include} == apps
    assert set(PACKAGES) == apps


def test_the_wheel_installs_a_working_site(tmp_path):
    source = tmp_path / "source"  # setuptools writes build/ and *.egg-info beside the sources: not in the clone
    for package in PACKAGES:
        shutil.copytree(ROOT / package, source / package, ignore=shutil.ignore_patterns("__pycache__"))
    for name in ("pyproject.toml", "README.md"):
        shutil.copy(ROOT / name, source)
    pip = [sys.executable, "-m", "pip", "--disable-pip-version-check", "-q"]
    # no build isolation: the test environment's setuptools (the dev extras pin it) builds it, offline
    subprocess.run([*pip, "wheel", "--no-deps", "--no-build-isolation", "-w", str(tmp_path / "dist"), str(source)],
                   check=True, cwd=tmp_path)
    [wheel] = (tmp_path / "dist").glob("crawford-*.whl")

    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True)
    python = venv / "bin" / "python"
    site = Path(subprocess.run([str(python), "-c", "import sysconfig; print(sysconfig.get_path('purelib'))"],
                               check=True, capture_output=True, text=True).stdout.strip())
    # the dependencies come from the test environment (a plain path: its .pth files, the editable install of
    # this clone among them, are not run); the project itself only from the wheel
    (site / "dependencies.pth").write_text(sysconfig.get_path("purelib") + "\n")
    subprocess.run([*pip, "install", "--no-deps", "--no-index", "--target", str(site), str(wheel)], check=True)

    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "DATABASE_URL", "REDIS_URL")}
    env.update(DJANGO_SETTINGS_MODULE="deploy.settings", SECRET_KEY="packaging-test-" + "k" * 40,
               CRAWFORD_VAR_DIR=str(tmp_path / "var"))
    result = subprocess.run([str(python), "-c", CHECK, json.dumps(expected_files()), str(site)],
                            cwd=tmp_path, env=env, capture_output=True, text=True, timeout=600)
    assert result.returncode == 0, result.stdout + result.stderr

