"""Big ``.mat`` records imported by a worker: the request answers at once, the member follows the job.

Judging every action of a long record takes the engine tens of seconds (125 games, 23,000 actions: ~30 s), too
long for a web thread that bystanders need. A record past :data:`BIG_RECORD_BYTES` or :data:`BIG_RECORD_GAMES`
becomes an :class:`~games.models.ImportJob` run by a worker (``games.tasks.run_import``), one at a time per
member. Every import, small or big, is also counted by its cost, its games, at ``settings.IMPORT_GAMES_RATE``
per member: a request is cheap to send, a record of many games is not. An event's director imports into the
event the same way (``ImportJob.tournament_id``): the events' app registers how such a record is stored
(:func:`register_event_recorder`), since games knows nothing of events.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Callable
from datetime import timedelta

from django.conf import settings
from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.utils import timezone

from apikit.refusals import stored

from . import limits
from .engine.errors import EngineError
from .errors import BadCommand, Reason
from .models import ImportJob

log = logging.getLogger(__name__)

BIG_RECORD_BYTES = 32_000  # a 7-point match is ~5-15 kB and is judged in a fraction of a second
BIG_RECORD_GAMES = 25
MAX_ATTEMPTS = 3
PROGRESS_REPORTS = 50  # at most this many progress writes a job, whatever its length
STALE_AFTER = timedelta(minutes=10)  # a job queued or running this long lost its message or its worker

_GAME_HEADER = re.compile(r"^\s*Game\s+\d+\s*$", re.MULTILINE)


class ImportUnderWay(BadCommand):
    """The member's previous big import is still being judged."""

    code = "import_under_way"


class ImportBudgetSpent(BadCommand):
    """The member imported as many games as an hour allows."""

    code = "import_budget_spent"

    def __init__(self, reason: Reason, /, *, retry_after: int, **params):
        super().__init__(reason, **params)
        self.retry_after = retry_after


# how a job into an event is recorded: (job, its record read) -> MatchRecord, raising as the event's synchronous
# import does
_event_recorder: Callable | None = None


def register_event_recorder(recorder: Callable) -> None:
    global _event_recorder
    _event_recorder = recorder


class Progress:
    """How many of a job's ``total`` games are done, written to its row as the worker goes: every
    ``total / PROGRESS_REPORTS`` games, never per action (a row update costs more than judging a move). Every
    figure written is kept, in order, in the row's ``progress``."""

    def __init__(self, model, pk: int, total: int):
        self.model, self.pk, self.total = model, pk, total
        self.step = max(1, total // PROGRESS_REPORTS)
        self.written: list[int] = []

    def __call__(self, done: int) -> None:
        done = min(done, self.total)  # a file whose "Game" headers miscount its games
        if (done % self.step and done < self.total) or self.written[-1:] == [done]:
            return
        self.written.append(done)
        self.model.objects.filter(pk=self.pk).update(games_done=self.written[-1], progress=self.written)

    def finished(self) -> dict:
        """The row's fields once the job is done: every game."""
        last = self.written[-1:] == [self.total]
        return {"games_done": self.total, "progress": self.written if last else [*self.written, self.total]}


def percent_done(job) -> int:
    """100 once done; until then at most 99, the last games' storing (or writing) still to come."""
    if job.status == "done":
        return 100
    return min(99, 100 * job.games_done // job.games) if job.games else 0


def games_in(text: str) -> int:
    return len(_GAME_HEADER.findall(text))


def check_head(text: str) -> int:
    """The record's games, counted by their headers, and what its head says (its headers, its length, the first
    game's names) checked now: a file without a game, with a name the read model cannot hold or a length past the
    platform's is refused at once. The rest (every other line and action) is read by the worker, whose refusal the
    job reports as a small import's: reading the largest record's syntax takes a web thread most of a second."""
    from .engine.errors import Reason as FileReason
    from .engine.matfile import MatFileError, names_of, parse_mat

    heads = list(_GAME_HEADER.finditer(text))
    if not heads:
        raise MatFileError(FileReason.MAT_NO_GAME)
    headers, length, games = parse_mat(text[: heads[1].start()] if len(heads) > 1 else text)
    limits.check_start(length, names_of(headers, games))
    return len(heads)


def is_big(text: str) -> bool:
    return len(text.encode()) > BIG_RECORD_BYTES or games_in(text) > BIG_RECORD_GAMES


def charge(*, user, games: int) -> None:
    """Count the record's games against the member's hourly budget; :class:`ImportBudgetSpent` past it."""
    from apikit.throttling import _rate, spend

    wait = spend(settings.IMPORT_GAMES_RATE, "import-games", str(user.pk), cost=max(1, games), what="import budget")
    if wait is None:
        return
    retry = max(1, int(wait))
    raise ImportBudgetSpent(Reason.IMPORT_BUDGET, n=_rate(settings.IMPORT_GAMES_RATE).amount, games=games, s=retry,
                            retry_after=retry)


def import_submit(*, user, text: str, player0_id: int | None, player1_id: int | None,
                  tournament_id: int | None = None) -> ImportJob:
    """A job for a big record (into the event ``tournament_id``, if given), queued for a worker once committed;
    refused while the member has one under way, casual or into an event."""
    games = check_head(text)
    with transaction.atomic():
        # one at a time per member: the row lock makes two submissions at once queue behind each other
        type(user).objects.select_for_update().filter(pk=user.pk).first()
        busy = ImportJob.objects.filter(user=user, status__in=[ImportJob.QUEUED, ImportJob.RUNNING]).first()
        if busy is not None:
            raise ImportUnderWay(Reason.IMPORT_UNDER_WAY, job=busy.pk)
        charge(user=user, games=games)
        job = ImportJob.objects.create(user=user, text=text, player0_id=player0_id, player1_id=player1_id,
                                       tournament_id=tournament_id, games=games)
        transaction.on_commit(lambda: send(job.pk))
    return job


def send(pk: int) -> None:
    from .tasks import run_import

    try:
        run_import.apply_async((pk,), retry=False)
    except Exception as broker_down:  # noqa: BLE001 - the sweep sends it again
        log.warning("import %s not queued (%s); the sweep will", pk, broker_down)


def import_run(*, pk: int) -> str:
    """Judge and store the job's record, as a small import is in the request; return the job's status."""
    from .engine.matfile import read_mat
    from .mat_io import match_import_mat, players_for_import
    from .rights import check_may_create

    with transaction.atomic():
        job = ImportJob.objects.select_for_update().filter(pk=pk).first()
        if job is None or job.status in (ImportJob.DONE, ImportJob.FAILED):
            return job.status if job else "gone"
        if job.status == ImportJob.RUNNING and job.started_at and timezone.now() - job.started_at < STALE_AFTER:
            return "busy"  # a redelivered message while the first run goes on
        if job.attempts >= MAX_ATTEMPTS:  # every run so far died with its worker (a time limit, the kernel)
            job.status, job.finished_at = ImportJob.FAILED, timezone.now()
            job.refusal = {"code": "server_error", "detail": f"the import stopped {job.attempts} times before "
                                                             "finishing; it is not tried again"}
            job.save(update_fields=["status", "finished_at", "refusal"])
            return job.status
        job.status, job.started_at, job.attempts = ImportJob.RUNNING, timezone.now(), job.attempts + 1
        job.games_done, job.progress = 0, []  # an attempt judges the record from its start
        job.save(update_fields=["status", "started_at", "attempts", "games_done", "progress"])
    progress = Progress(ImportJob, pk, job.games)
    try:
        # judged outside the transaction that stores it: each progress figure is committed as it is written
        read = read_mat(job.text, on_game=progress)
        with transaction.atomic():  # players named in a refused file are not kept
            if job.tournament_id is not None:
                record = _event_recorder(job, read)
            else:
                player0, player1 = players_for_import(job.text, job.player0_id, job.player1_id)
                check_may_create(job.user, (player0, player1))
                record = match_import_mat(actor=job.user, text=job.text, player0=player0, player1=player1,
                                          read=read)
    except (BadCommand, EngineError, PermissionDenied) as refused:
        return _finish(pk, status=ImportJob.FAILED, refusal=refusal_of(refused))
    except Exception as crashed:  # noqa: BLE001 - an attempt; the sweep tries again, at most MAX_ATTEMPTS
        log.exception("import %s crashed", pk)
        final = ImportJob.objects.filter(pk=pk).values_list("attempts", flat=True).first() or 0
        if final >= MAX_ATTEMPTS:
            return _finish(pk, status=ImportJob.FAILED,
                           refusal={"code": "server_error", "detail": f"the import failed {final} times: {crashed}"})
        ImportJob.objects.filter(pk=pk).update(status=ImportJob.QUEUED)
        return ImportJob.QUEUED
    from . import viewer

    viewer.game_bounds(record.stream_id)  # where each game begins, cached now: no visitor pays for it
    return _finish(pk, status=ImportJob.DONE, stream_id=record.stream_id, **progress.finished())


def _finish(pk: int, *, status: str, stream_id: str = "", refusal: dict | None = None, **done) -> str:
    ImportJob.objects.filter(pk=pk).update(status=status, stream_id=stream_id, refusal=refusal,
                                           finished_at=timezone.now(), **done)
    return status


def refusal_of(exc: Exception) -> dict:
    """The API's body for a refused record (deploy/api_errors.py answers the same for a small import)."""
    from .engine.matfile import MatFileError

    own = getattr(exc, "code", None)
    code = str(getattr(own, "value", own)) if own else (
        "permission_denied" if isinstance(exc, PermissionDenied) else "bad_command")
    body = {"detail": str(exc), "code": code}
    said = stored(exc)
    if said is not None:  # said in the language of whoever reads the job
        body["said"] = said
    if isinstance(exc, MatFileError):
        body.update({k: v for k, v in (("game", exc.game), ("move", exc.move)) if v is not None})
    return body


def imports_sweep() -> int:
    """Send again the jobs whose message or worker was lost (queued or running for too long)."""
    stale = timezone.now() - STALE_AFTER
    pks = list(ImportJob.objects.filter(status=ImportJob.QUEUED, created_at__lt=stale).values_list("pk", flat=True))
    pks += list(ImportJob.objects.filter(status=ImportJob.RUNNING, started_at__lt=stale)
                .values_list("pk", flat=True))
    for pk in pks:
        send(pk)
    return len(pks)
