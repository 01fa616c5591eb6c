"""docs/operations.md lists every environment variable the site reads: an operator never has to read the settings
to find one."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
READERS = ["deploy/settings.py", "deploy/asgi.py", "deploy/services/gunicorn.conf.py"]
READ = re.compile(r"""(?:environ\.get|environ\[|env_bool)\(?\s*["']([A-Z][A-Z0-9_]+)["']""")


def test_every_variable_the_settings_read_is_documented():
    read = {name for path in READERS for name in READ.findall((ROOT / path).read_text())}
    assert {"DATABASE_PREPARED_READS", "SECRET_KEY", "GUNICORN_WORKERS", "LIVE_REQUESTS_AT_ONCE"} <= read  # it reads
    guide = (ROOT / "docs" / "operations.md").read_text()
    missing = sorted(name for name in read - {"DJANGO_SETTINGS_MODULE"} if f"`{name}`" not in guide)
    assert not missing, f"docs/operations.md does not name {missing}"


def test_the_example_environment_names_only_documented_variables():
    example = (ROOT / "deploy" / "services" / "env.example").read_text()
    names = set(re.findall(r"^([A-Z][A-Z0-9_]+)=", example, re.MULTILINE)) - {"DJANGO_SETTINGS_MODULE"}
    guide = (ROOT / "docs" / "operations.md").read_text()
    assert names and not sorted(n for n in names if f"`{n}`" not in guide)
