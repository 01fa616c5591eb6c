"""Celery tasks: thin, idempotent wrappers around the projection runner."""

import threading
from contextlib import contextmanager

from celery import shared_task

from . import projections

_local = threading.local()


@shared_task(acks_late=True, name="eventlog.tasks.project_all")
def project_all() -> dict:
    """Woken after each append commits."""
    return projections.run_all()


@shared_task(acks_late=True, name="eventlog.tasks.sweep_projections")
def sweep_projections() -> dict:
    """Periodic (celery beat): catches up anything a lost wake-up missed."""
    return projections.run_all()


def wake_projections() -> None:
    """Ask a worker to run the projections; with no broker it runs here and now."""
    if getattr(_local, "deferred", None) is not None:
        _local.deferred = True
        return
    project_all.delay()


@contextmanager
def one_wake_up():
    """Batch work (a demo, an import): wake the projections once at the end, not after every append."""
    _local.deferred = False
    try:
        yield
    finally:
        pending, _local.deferred = _local.deferred, None
        if pending:
            project_all.delay()
