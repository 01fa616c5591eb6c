"""A big import or export whose message was lost (a broker down at the moment it was sent, a worker killed while it
ran) is sent again by beat's sweep once its claim is stale, and done by the worker; a job that died at every one
of its attempts is left alone (games/imports.py, games/exports.py)."""

from __future__ import annotations

from functools import lru_cache

import pytest
from django.core.cache import cache
from django.utils import timezone

from games import exports, imports, tasks
from games.engine.random_play import random_money_session
from games.mat_io import export_cache_key, match_import_mat
from games.models import ExportJob, ImportJob
from players.models import Player
from tests.waiting import wait_for


@lru_cache(maxsize=None)
def session(games: int, events: int, seed: int = 19) -> str:
    return random_money_session(games, events, seed)[0]


def lost(monkeypatch, module):
    """Messages sent through ``module.send`` go nowhere until the returned function is called."""
    real = module.send
    monkeypatch.setattr(module, "send", lambda pk: None)
    return lambda: monkeypatch.setattr(module, "send", real)


def long_ago():
    return timezone.now() - imports.STALE_AFTER - imports.STALE_AFTER


def test_an_export_whose_message_was_lost_is_written_after_the_sweep(live_worker, api, make_user, monkeypatch):
    official = make_user("root", official=True, player=False)
    players = [Player.objects.create(display_name=name) for name in ("Hammer", "Anvil")]
    record = match_import_mat(actor=official, text=session(30, 8_000), player0=players[0], player1=players[1])
    cache.delete(export_cache_key(record.stream_id, record.version))
    restore = lost(monkeypatch, exports)
    answer = api().get(f"/api/matches/{record.stream_id}/export.mat", HTTP_ACCEPT="application/json")
    assert answer.status_code == 202
    restore()
    job = ExportJob.objects.get()
    assert tasks.sweep_exports() == 0  # not stale yet: its worker may be writing it
    ExportJob.objects.filter(pk=job.pk).update(claimed_at=long_ago())
    assert tasks.sweep_exports() == 1
    wait_for(lambda: ExportJob.objects.get(pk=job.pk).text, timeout=300, what="the worker to write the file")
    written = api().get(f"/api/matches/{record.stream_id}/export.mat")
    assert written.status_code == 200 and written.content.decode() == ExportJob.objects.get().text
    assert ExportJob.objects.get().attempts == 1


@pytest.mark.django_db
def test_an_export_that_died_at_every_attempt_is_not_sent_again(monkeypatch):
    sent = []
    monkeypatch.setattr(exports, "send", sent.append)
    job = ExportJob.objects.create(stream_id="m-gone", version=9_000, games=40, claimed_at=long_ago(),
                                   attempts=imports.MAX_ATTEMPTS)
    assert tasks.sweep_exports() == 0
    ExportJob.objects.filter(pk=job.pk).update(attempts=imports.MAX_ATTEMPTS - 1)
    assert tasks.sweep_exports() == 1 and sent == [job.pk]
    assert tasks.sweep_exports() == 0  # claimed again: the next sweep waits for this attempt


def test_an_import_whose_message_was_lost_is_imported_after_the_sweep(live_worker, api, make_user, monkeypatch):
    member = make_user("hammer")  # "Hammer", the file's first player
    Player.objects.create(display_name="Anvil")
    restore = lost(monkeypatch, imports)
    answer = api(member).post("/api/matches/import/", {"text": session(30, 8_000)}, format="json")
    assert answer.status_code == 202
    restore()
    pk = answer.json()["id"]
    assert tasks.sweep_imports() == 0
    ImportJob.objects.filter(pk=pk).update(created_at=long_ago())
    assert tasks.sweep_imports() == 1

    def finished():
        job = ImportJob.objects.get(pk=pk)
        return job if job.status in (ImportJob.DONE, ImportJob.FAILED) else None

    job = wait_for(finished, timeout=300, what="the worker to import the record")
    assert job.status == ImportJob.DONE and job.stream_id
