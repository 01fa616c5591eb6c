"""Celery tasks: thin, idempotent wrappers around the projection runner."""

from celery import shared_task

from . import projections


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
    project_all.delay()
