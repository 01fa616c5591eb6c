"""The process manager's second half as Celery tasks (``tournaments/process.py`` asks for them): thin, idempotent
(the append's expected version guards it)."""

import logging

from celery import shared_task

from eventlog.store import ConcurrencyError

log = logging.getLogger(__name__)


@shared_task(acks_late=True, name="tournaments.tasks.advance_tournament", autoretry_for=(ConcurrencyError,),
             retry_backoff=True, max_retries=5)
def advance_tournament(tournament_pk: int) -> list[str]:
    from .models import Tournament
    from .services import tournament_advance

    tournament = Tournament.objects.filter(pk=tournament_pk).first()
    return tournament_advance(tournament) if tournament else []


@shared_task(acks_late=True, name="tournaments.tasks.advance_pending")
def advance_pending() -> dict:
    """Periodic (celery beat): advance every event whose wake-up was lost.

    One event that cannot be advanced (its stream set aside by the projection, or failing here)
    is logged and left; every other event is still advanced."""
    from eventlog.projections import quarantined

    from .models import TournamentState
    from .projections import TournamentViewProjection
    from .stream import stream_id_of

    from .process import TournamentProcess

    set_aside = quarantined(TournamentViewProjection.name) | quarantined(TournamentProcess.name)
    done = {}
    for pk in TournamentState.objects.filter(needs_advance=True).values_list("tournament_id", flat=True):
        if stream_id_of(pk) in set_aside:
            continue
        try:
            done[pk] = advance_tournament(pk)
        except Exception as failure:  # noqa: BLE001 - one event's failure must not hold up the others
            log.error("event %s could not be advanced: %s", pk, failure)
    from .notices import send_pending

    send_pending()  # the players' e-mails whose task was lost (a broker restart)
    return done


def request_advance(tournament_pk: int) -> None:
    try:
        advance_tournament.apply_async((tournament_pk,), retry=False)
    except Exception as broker_down:  # noqa: BLE001 - the periodic advance_pending catches up
        log.warning("advance of event %s not sent (%s)", tournament_pk, broker_down)


@shared_task(acks_late=True, name="tournaments.tasks.send_match_notice")
def send_match_notice(match_id: str) -> list[int]:
    """Tell a match's players where to play (``tournaments/notices.py``): sent at most once per match."""
    from .notices import match_notice_send

    return match_notice_send(match_id)


@shared_task(acks_late=True, name="tournaments.tasks.send_match_notices")
def send_match_notices(match_ids: list[str]) -> dict[str, list[int]]:
    """Tell the players of these matches (a round's) where to play, reading the event once for them all."""
    from .notices import match_notices_send

    return match_notices_send(match_ids)


@shared_task(acks_late=True, name="tournaments.tasks.send_bye_notice")
def send_bye_notice(notice_pk: int) -> bool:
    """Tell a Swiss round's bye holder they have the bye (``tournaments/notices.py``): sent at most once."""
    from .notices import bye_notice_send

    return bye_notice_send(notice_pk)


@shared_task(acks_late=True, name="tournaments.tasks.sweep_deadlines")
def sweep_deadlines() -> dict:
    """Periodic (celery beat): settle, by each event's rules, the ladder challenges and league matches past their
    deadline. The decider judges against the clock reading the service takes now; nothing due appends nothing,
    so a duplicate or late run changes nothing. One event failing is logged and the others are still swept."""
    from .models import Tournament, TournamentState
    from .services import tournament_apply_deadlines
    from .stream import Format

    done = {}
    pks = TournamentState.objects.filter(format__in=(Format.LADDER, Format.LEAGUE), drawn=True).values_list(
        "tournament_id", flat=True)
    for tournament in Tournament.objects.filter(pk__in=list(pks)):
        try:
            done[tournament.pk] = len(tournament_apply_deadlines(tournament=tournament))
        except Exception as failure:  # noqa: BLE001 - one event's failure must not hold up the others
            log.error("deadlines of event %s not applied: %s", tournament.pk, failure)
    return done
