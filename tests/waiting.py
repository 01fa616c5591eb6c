import time


def wait_for(predicate, timeout: float = 30, what: str = "condition"):
    """Poll ``predicate`` until it returns something true; fail after ``timeout`` seconds."""
    deadline = time.time() + timeout
    while time.time() < deadline:
        value = predicate()
        if value:
            return value
        time.sleep(0.2)
    raise AssertionError(f"timed out after {timeout}s waiting for {what}")
