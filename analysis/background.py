"""The embedded default's deeper analyses, off the request: a thread of the serving process runs them.

With no broker (``make run``: SQLite, tasks in-process) a task runs where it is sent. The quick depth still does
(under a CPU-second a 7-point match), but a 2-ply analysis costs gnubg tens of CPU-seconds a match: run there, it
held the request that recorded a match's last move, and ``load_demo`` for minutes. So in the embedded default a
deeper analysis stays ``queued``, and the process that serves the site analyses the queued rows one at a time on
a thread of its own, started by the first request it serves and woken by each analysis queued after. A process
that serves nothing (a management command: the demo's load) leaves them queued for the next one that does.

``ANALYSIS_IN_THE_BACKGROUND`` (on when there is no ``REDIS_URL``) turns this on; with a broker the analysis
worker runs every depth (the ``analysis`` queue).
"""

from __future__ import annotations

import logging
import threading

from celery import current_app
from django.conf import settings
from django.db import connections
from django.db.models import Q
from django.utils import timezone

log = logging.getLogger(__name__)

_lock = threading.Lock()
_wake = threading.Event()
_stop = threading.Event()
_runner: threading.Thread | None = None
IDLE_SECONDS = 30.0  # a queued row no wake-up told of (a crash's, another process's) is found within this


def active() -> bool:
    return bool(settings.ANALYSIS_IN_THE_BACKGROUND) and bool(current_app.conf.task_always_eager)


def leaves(plies: int) -> bool:
    """Whether an analysis at this depth is left queued for the serving process's thread, not run where sent."""
    return active() and plies > settings.ANALYSIS_QUICK_PLIES


def queued_one() -> None:
    """An analysis was left queued: the thread, if this process runs one, takes it now."""
    _wake.set()


def on_request(**_) -> None:
    """Django's ``request_started``: the first request a process serves starts its thread."""
    global _runner
    if _runner is not None or not active():
        return
    with _lock:
        if _runner is None:
            _runner = threading.Thread(target=_run, name="crawford-analyses", daemon=True)
            _runner.start()


def stop() -> None:
    """The thread ends after the analysis in hand (a test's process ends its thread before its database goes)."""
    global _runner
    with _lock:
        runner, _runner = _runner, None
    if runner is not None:
        _stop.set()
        _wake.set()
        runner.join()
        _stop.clear()


def _run() -> None:
    from .models import MatchAnalysis
    from .services import analysis_run

    while not _stop.is_set():
        _wake.clear()
        try:
            # the quick ones first, then the oldest: as the worker's queue takes them; and a run whose lease has
            # run out (the server stopped mid-analysis: the embedded default has no beat to sweep it)
            pk = (MatchAnalysis.objects.filter(Q(status=MatchAnalysis.QUEUED)
                                               | Q(status=MatchAnalysis.RUNNING, lease_until__lt=timezone.now()))
                  .order_by("plies", "queued_at", "pk").values_list("pk", flat=True).first())
            if pk is not None:
                analysis_run(pk=pk)
        except Exception:  # noqa: BLE001 - one analysis that fails must not stop the others
            log.exception("a background analysis failed")
            _wake.wait(IDLE_SECONDS)  # not straight back to the same row
            pk = 0
        finally:
            connections.close_all()  # this thread's own connection: none kept between analyses
        if pk is None:
            _wake.wait(IDLE_SECONDS)
