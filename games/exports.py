"""A big match's ``.mat`` file written by a worker the first time a version of it is asked for.

A version's file never changes: it is written once and served from the cache (games/api/views.py). Writing the
file of a long session (hundreds of games, tens of thousands of actions) takes seconds of a web thread, so past
the size that sends an import to a worker (:data:`BIG_EXPORT_GAMES`, :data:`BIG_EXPORT_EVENTS`: games/imports.py's
measures) the first request claims an :class:`~games.models.ExportJob` for the version and sends it to a worker
(``games.tasks.run_export``); every request until the file is there shares that job and is told to come back,
as the season's PDF (seasons/printing.py). The embedded default's tasks run in-process: there the first request
writes it and is served at once.
"""

from __future__ import annotations

import logging

from django.core.cache import cache
from django.db import IntegrityError, transaction
from django.db.models import F
from django.utils import timezone

from eventlog import store

from . import imports
from .loading import match_load
from .mat_io import export_cache_key, match_export_mat
from .models import ExportJob
from .streams import MatchRecord

log = logging.getLogger(__name__)

BIG_EXPORT_GAMES = imports.BIG_RECORD_GAMES
BIG_EXPORT_EVENTS = 2_500  # a .mat file spends ~12.5 bytes an action: imports.BIG_RECORD_BYTES' worth of actions
CACHE_SECONDS = 24 * 3600


def is_big(record: MatchRecord) -> bool:
    return record.state.game > BIG_EXPORT_GAMES or record.version > BIG_EXPORT_EVENTS


def export_or_job(record: MatchRecord) -> str | ExportJob:
    """The version's file if it is written (or small enough to write now); else the job that writes it, claimed
    and sent to a worker by the first request that finds none."""
    key = export_cache_key(record.stream_id, record.version)
    text = cache.get(key)
    if text is not None:
        return text
    if not is_big(record):
        text = match_export_mat(record, store.read_stream(record.stream_id))
        cache.set(key, text, timeout=CACHE_SECONDS)
        return text
    job = ExportJob.objects.filter(stream_id=record.stream_id, version=record.version).first()
    if job is None or (job.text is None and _stale(job)):
        job = _claim(record, job)
        if job is None:  # another request claimed it first
            job = ExportJob.objects.get(stream_id=record.stream_id, version=record.version)
        else:
            send(job.pk)
            job.refresh_from_db()  # written in-process, in the embedded default
    if job.text is not None:
        cache.set(key, job.text, timeout=CACHE_SECONDS)
        return job.text
    return job


def _stale(job: ExportJob) -> bool:
    return timezone.now() - job.claimed_at > imports.STALE_AFTER


def _claim(record: MatchRecord | None, job: ExportJob | None) -> ExportJob | None:
    now = timezone.now()
    if job is None:
        try:
            with transaction.atomic():
                return ExportJob.objects.create(stream_id=record.stream_id, version=record.version,
                                                games=record.state.game, claimed_at=now)
        except IntegrityError:
            return None
    reclaimed = ExportJob.objects.filter(pk=job.pk, text__isnull=True, claimed_at=job.claimed_at).update(
        status=ExportJob.QUEUED, claimed_at=now)
    return ExportJob.objects.get(pk=job.pk) if reclaimed else None


def send(pk: int) -> None:
    from .tasks import run_export

    try:
        run_export.apply_async((pk,), retry=False)
    except Exception as broker_down:  # noqa: BLE001 - the next request past the stale claim sends it again
        log.warning("export %s not queued (%s)", pk, broker_down)


def export_run(*, pk: int) -> str:
    """Write the job's version of the match (the worker's part); return the job's status. Older versions' files
    of the match go: a reader asks for the newest."""
    job = ExportJob.objects.filter(pk=pk).first()
    if job is None or job.status == ExportJob.DONE:
        return job.status if job else "gone"
    ExportJob.objects.filter(pk=pk).update(status=ExportJob.RUNNING, games_done=0, progress=[],
                                           attempts=F("attempts") + 1)
    record = match_load(job.stream_id)
    progress = imports.Progress(ExportJob, pk, job.games)
    text = match_export_mat(record, store.read_stream(job.stream_id, until=job.version), on_game=progress)
    ExportJob.objects.filter(pk=pk).update(status=ExportJob.DONE, text=text, finished_at=timezone.now(),
                                           **progress.finished())
    cache.set(export_cache_key(job.stream_id, job.version), text, timeout=CACHE_SECONDS)
    ExportJob.objects.filter(stream_id=job.stream_id, version__lt=job.version).delete()
    return ExportJob.DONE


def exports_sweep() -> int:
    """Send again the jobs whose message or worker was lost (claimed too long ago, no file yet), each at most
    ``imports.MAX_ATTEMPTS`` runs: a version whose writing crashes every time waits for a reader to ask again."""
    stale = timezone.now() - imports.STALE_AFTER
    lost = ExportJob.objects.filter(text__isnull=True, claimed_at__lt=stale, attempts__lt=imports.MAX_ATTEMPTS)
    sent = 0
    for job in lost:
        if _claim(None, job) is not None:  # not claimed again meanwhile by a reader
            send(job.pk)
            sent += 1
    return sent
