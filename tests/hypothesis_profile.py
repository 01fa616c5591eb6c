"""Hypothesis with no clock, in both of `make test`'s runs: no deadline, no health check on slow generation.

An example's duration is the machine's, not the code's: on a loaded CI machine a round trip of the engine's took
338 ms against Hypothesis's default deadline of 200 ms and failed the run. Registered as a pytest plugin by
tests/conftest.py (the main run) and by tests/pure.py (the pure run, which may load it without that conftest).
A test whose own ``@settings`` brings a deadline or the ``too_slow`` health check back fails, saying so.
"""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, settings

PROFILE = "crawford"

# too_slow is the one health check that reads the clock (input generation's time); the others count examples
settings.register_profile(PROFILE, deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile(PROFILE)


def clocked(test) -> str | None:
    """What of a test's Hypothesis settings depends on the machine's speed, or None."""
    own = getattr(test, "_hypothesis_internal_use_settings", None)
    if own is None or not hasattr(test, "hypothesis"):
        return None  # not a @given test
    if own.deadline is not None:
        return f"deadline={own.deadline}"
    if HealthCheck.too_slow not in own.suppress_health_check:
        return "the too_slow health check"
    return None


def pytest_runtest_setup(item):
    found = clocked(getattr(item, "obj", None))
    if found:
        pytest.fail(f"{item.nodeid}: its Hypothesis settings bring back {found}; a test may not depend on the "
                    f"machine's speed (tests/hypothesis_profile.py)", pytrace=False)
