"""The process manager as a Celery task: thin, idempotent (the append's expected version guards it)."""

from celery import shared_task

from eventlog.store import ConcurrencyError


@shared_task(acks_late=True, name="tournaments.tasks.advance_tournament", autoretry_for=(ConcurrencyError,),
             retry_backoff=True, max_retries=5)
def advance_tournament(tournament_pk: int) -> list[str]:
    from .models import Tournament
    from .services import tournament_advance

    tournament = Tournament.objects.filter(pk=tournament_pk).first()
    return tournament_advance(tournament) if tournament else []
