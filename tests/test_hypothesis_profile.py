"""Hypothesis has no deadline in either of `make test`'s runs (tests/hypothesis_profile.py): an example slower than
the default 200 ms passes, and a test's own deadline is refused, so no test fails because the machine is busy."""

from __future__ import annotations

import time

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.test_pure_run import pure_run

SLOW = """
import time

from hypothesis import given, settings
from hypothesis import strategies as st


@settings(max_examples=2, database=None)
@given(st.integers())
def test_slower_than_the_default_deadline(n):
    time.sleep(0.25)
"""


def test_the_main_run_has_no_deadline_and_no_slowness_health_check(request):
    assert request.config.pluginmanager.has_plugin("tests.hypothesis_profile")
    assert settings.default.deadline is None
    assert HealthCheck.too_slow in settings.default.suppress_health_check


@settings(max_examples=2, database=None)
@given(st.integers())
def test_an_example_slower_than_the_default_deadline_passes_in_the_main_run(n):
    time.sleep(0.25)  # over Hypothesis's default deadline (200 ms) on any machine


def test_an_example_slower_than_the_default_deadline_passes_in_the_pure_run(tmp_path):
    result = pure_run(tmp_path, SLOW)
    assert result.returncode == 0 and "1 passed" in result.stdout, result.stdout + result.stderr


def test_a_tests_own_deadline_is_refused(tmp_path):
    result = pure_run(tmp_path, SLOW.replace("max_examples=2,", "max_examples=2, deadline=1000,"))
    assert result.returncode == 1, result.stdout + result.stderr
    assert "its Hypothesis settings bring back deadline=0:00:01" in result.stdout, result.stdout


def test_a_tests_own_health_checks_keep_too_slow_suppressed(tmp_path):
    body = SLOW.replace("import given, settings", "import HealthCheck, given, settings").replace(
        "database=None", "database=None, suppress_health_check=[HealthCheck.filter_too_much]")
    result = pure_run(tmp_path, body)
    assert result.returncode == 1 and "bring back the too_slow health check" in result.stdout, result.stdout
