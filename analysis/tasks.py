"""Celery tasks of the analysis, routed to their own ``analysis`` queue (settings: CELERY_TASK_ROUTES) so a
slow analysis never delays standings or ratings."""

from celery import shared_task

from . import services


@shared_task(acks_late=True, name="analysis.tasks.analyse_match")
def analyse_match(pk: int) -> str:
    return services.analysis_run(pk=pk)


@shared_task(acks_late=True, name="analysis.tasks.sweep_analyses")
def sweep_analyses() -> int:
    """Periodic (celery beat): queues again the analyses a lost message or a killed worker left behind."""
    return services.analyses_sweep()
