"""Hints sent after a commit, off the answer's path: the projections' wake-up and the live pages' push.

Both are hints. A wake-up that is lost is made up by the beat's sweep; a push that is lost, by the page's next
message or its reconnection (eventlog/tasks.py, eventlog/live.py). So a command's answer does not wait for them:
the request hands them to one thread of its process, which sends them one at a time in the order given, while
the answer goes out. That keeps the wake-up's Redis round trip (and, when a worker has taken the last one, the
Celery message of the next) off every move's answer; and a broker that hangs delays hints, never an answer.

The thread starts at a process's first hint, again in a forked child (gunicorn's and Celery's workers fork), and
sends what it still holds when the process exits normally (a worker recycled or reloaded).
"""

from __future__ import annotations

import atexit
import logging
import os
import queue
import threading
from collections.abc import Callable

log = logging.getLogger(__name__)

_lock = threading.Lock()
_queue: queue.SimpleQueue | None = None
_owner: int | None = None  # the process whose thread reads _queue


def send(hint: Callable[[], None]) -> None:
    """Have ``hint`` called by the process's hints thread, after the hints handed over before it."""
    _hints().put(hint)


def flush(timeout: float = 10.0) -> bool:
    """Wait until every hint handed over so far has been sent; False if that took over ``timeout`` seconds."""
    if _owner != os.getpid():
        return True  # none handed over in this process
    sent = threading.Event()
    _hints().put(sent.set)
    return sent.wait(timeout)


def _hints() -> queue.SimpleQueue:
    global _queue, _owner
    if _owner != os.getpid():
        with _lock:
            if _owner != os.getpid():  # a fork copies the queue but not its thread: a child starts its own
                hints: queue.SimpleQueue = queue.SimpleQueue()
                threading.Thread(target=_send_in_order, args=(hints,), name="crawford-hints", daemon=True).start()
                _queue, _owner = hints, os.getpid()
    return _queue


def _send_in_order(hints: queue.SimpleQueue) -> None:
    while True:
        hint = hints.get()
        try:
            hint()
        except Exception:  # noqa: BLE001 - a hint that fails is made up later; the next ones still go
            log.exception("a hint after a commit was not sent")


atexit.register(flush, 5.0)
