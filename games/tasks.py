"""Celery tasks of the matches: thin wrappers of games/imports.py and games/exports.py, idempotent (the job's row is
claimed)."""

from celery import shared_task

from . import exports, imports


@shared_task(acks_late=True, name="games.tasks.run_import")
def run_import(pk: int) -> str:
    return imports.import_run(pk=pk)


@shared_task(acks_late=True, name="games.tasks.sweep_imports")
def sweep_imports() -> int:
    """Periodic (celery beat): sends again the imports a lost message or a killed worker left behind."""
    return imports.imports_sweep()


@shared_task(acks_late=True, name="games.tasks.run_export")
def run_export(pk: int) -> str:
    return exports.export_run(pk=pk)


@shared_task(acks_late=True, name="games.tasks.sweep_exports")
def sweep_exports() -> int:
    """Periodic (celery beat): sends again the exports a lost message or a killed worker left unwritten."""
    return exports.exports_sweep()
