"""gunicorn's worker hook (deploy/services/gunicorn.conf.py) imports the URLconf before the first request, then
freezes what it imported out of the garbage collector's full collections."""

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

CHECK = """
import runpy, sys, django
django.setup()
conf = runpy.run_path("deploy/services/gunicorn.conf.py")
assert "games.api.views" not in sys.modules, "imported before the hook: the check would prove nothing"
import gc
assert gc.get_freeze_count() == 0
conf["post_worker_init"](None)
print("games.api.views" in sys.modules, "deploy.urls" in sys.modules, gc.get_freeze_count() > 50_000)
"""


def test_a_worker_has_every_view_imported_before_its_first_request():
    env = dict(os.environ, DJANGO_SETTINGS_MODULE="deploy.settings", DEBUG="1", SECRET_KEY="warm-up-test")
    out = subprocess.run([sys.executable, "-c", CHECK], cwd=ROOT, env=env, capture_output=True, text=True, timeout=600)
    assert out.returncode == 0, out.stderr[-2000:]
    assert out.stdout.split() == ["True", "True", "True"]
