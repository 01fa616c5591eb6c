"""Celery tasks: thin, idempotent wrappers around the projection runner."""

import logging
import threading
from contextlib import contextmanager

from celery import shared_task
from celery.signals import worker_ready

from . import hints, live, projections, wake_ups

_local = threading.local()
log = logging.getLogger(__name__)


@shared_task(acks_late=True, name="eventlog.tasks.project_all")
def project_all() -> dict:
    """Woken after appends commit (one queued wake-up at a time: see ``wake_ups``)."""
    wake_ups.release()  # first: an append committed from here on queues a fresh wake-up
    return _told(projections.run_all())


@shared_task(acks_late=True, name="eventlog.tasks.sweep_projections")
def sweep_projections() -> dict:
    """Periodic (celery beat): catches up anything a lost wake-up missed."""
    return _told(projections.run_all())


def _told(applied: dict[str, int]) -> dict[str, int]:
    # the event pages (eventlog/live.py) show projections: they are told once these have moved on
    live.projections_moved(applied)
    return applied


@worker_ready.connect
def wake_up_on_start(**_) -> None:
    """A worker that starts sends a fresh wake-up, whatever the flag says.

    A worker SIGKILLed after taking the queued wake-up, before starting it, leaves the flag set (until its TTL)
    and the message in the broker's unacknowledged set (until the visibility timeout, an hour): meanwhile no
    append sends another. A worker started again, or another one, then catches the projections up now rather
    than at the beat's sweep. An extra wake-up costs one run with nothing to apply."""
    wake_ups.release()
    _send_wake_up()


def wake_projections() -> None:
    """Ask a worker to run the projections; with no broker it runs here and now."""
    if getattr(_local, "deferred", None) is not None:
        _local.deferred = True
        return
    _send_wake_up()


def wake_projections_and_tell(topic: str, number: int) -> None:
    """After a commit: wake the projections and tell the pages following ``topic`` (eventlog/live.py) that it
    reached ``number``. Every match command does both: when the broker is the live pages' Redis server, they go
    in one round trip, sent by the process's hints thread while the answer goes out (eventlog/hints.py)."""
    if getattr(_local, "deferred", None) is not None or not wake_ups.merged() \
            or not live.same_server(wake_ups.celery_settings()[1]):
        wake_projections()
        live.publish(topic, number)
        return
    message = live.message(topic, number)
    hints.send(lambda: _send_wake_up(publish=message))


def _send_wake_up(publish: tuple[str, str] | None = None) -> None:
    # The command is committed already: a broker that is down must not turn its success into an
    # error. The wake-up is only a hint; the beat sweep catches up whatever it missed (and a live page, at
    # its next message or reconnection).
    claimed = False
    try:
        claimed = wake_ups.claim(publish=publish)  # else one is queued and not started: its run will read this commit
        if claimed:
            project_all.apply_async(retry=False)
    except Exception as broker_down:  # noqa: BLE001 - any transport error means the same here
        if claimed:
            wake_ups.release()  # the flag promised a wake-up that was not sent
        log.warning("projection wake-up not sent (%s); the sweep will catch up", broker_down)


@contextmanager
def one_wake_up():
    """Batch work (a demo, an import): wake the projections once at the end, not after every append. Inside
    another, it is part of the outer one's batch."""
    if getattr(_local, "deferred", None) is not None:
        yield
        return
    _local.deferred = False
    try:
        yield
    finally:
        pending, _local.deferred = _local.deferred, None
        if pending:
            _send_wake_up()
