"""Celery tasks of the seasons: thin wrappers (seasons/printing.py)."""

from celery import shared_task

from . import printing


@shared_task(acks_late=True, name="seasons.tasks.print_season_table")
def print_season_table(season_pk: int, base_url: str, language: str, claimed: str) -> str | None:
    return printing.print_table(season_pk=season_pk, base_url=base_url, language=language, claimed=claimed)
