"""Waiting for what a test expects to happen, never for a fixed time: the machine may be busy (a loaded CI machine
runs ten times slower), so a wait ends as soon as its condition holds, and its timeout is only how long to wait
before saying that the thing never happened."""

import time

# generous: what takes seconds on a quiet machine (a worker's projection run, a browser's redraw) may take a minute
WAIT = 120


def wait_for(predicate, timeout: float = WAIT, what: str = "condition"):
    """Poll ``predicate`` until it returns something true; fail after ``timeout`` seconds."""
    deadline = time.monotonic() + timeout
    while True:
        value = predicate()
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out after {timeout}s waiting for {what}")
        time.sleep(0.2)


def wait_in_page(page, predicate, timeout: float = WAIT, what: str = "condition"):
    """``wait_for`` beside a Playwright page: the page's events (requests, routes) are only dispatched while the
    page is asked something, so the pause between two looks is the page's own wait, not a sleep of this thread."""
    deadline = time.monotonic() + timeout
    while True:
        value = predicate()
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out after {timeout}s waiting for {what}")
        page.wait_for_timeout(100)


WAIT_MS = WAIT * 1000  # the same, for Playwright (milliseconds)
