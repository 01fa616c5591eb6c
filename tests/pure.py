"""A pytest plugin for the pure tests: the engine's, the formats', the tournament decider's, without Django.

`make test` runs them first in a process of their own: ``pytest -p no:django -p tests.pure <their paths>``
(the Makefile's PURE_TESTS). There, importing Django or the web stack — from a test, a helper, or the code
under test — raises ImportError, so the run fails: these libraries are usable by a stranger without Django
(the import contracts say the same of the code; this says it of their tests too, at run time).
"""

from __future__ import annotations

import importlib.abc
import sys

import pytest

REFUSED = ("django", "rest_framework", "drf_spectacular", "celery", "django_celery_beat", "redis", "psycopg",
           "pytest_django")


class RefuseTheWebStack(importlib.abc.MetaPathFinder):
    def find_spec(self, fullname, path=None, target=None):
        if fullname.split(".", 1)[0] in REFUSED:
            raise ImportError(f"{fullname} imported by a pure test: the engine, the formats and the tournament's "
                              f"decider are tested without Django (tests/pure.py)")
        return None


def pytest_configure(config):
    if config.pluginmanager.has_plugin("django"):
        raise pytest.UsageError("tests.pure runs without pytest-django: pytest -p no:django -p tests.pure ...")
    already = sorted(name for name in sys.modules if name.split(".", 1)[0] in REFUSED)
    if already:
        raise pytest.UsageError(f"imported before the pure tests began: {already}")
    sys.meta_path.insert(0, RefuseTheWebStack())
    config.pluginmanager.import_plugin("tests.hypothesis_profile")  # as the main run: no deadline (tests/conftest.py)


def pytest_addoption(parser):
    # pyproject's [tool.pytest.ini_options] is pytest-django's too: known here, so no "unknown option" warning
    parser.addini("DJANGO_SETTINGS_MODULE", "pytest-django's (not loaded in the pure run)")
