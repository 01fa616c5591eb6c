"""A big import's or export's job tells how far it is: games done of games, and a percentage, written by the worker
as it goes (a row update every few games, never per action), shown at the job's address and on the export's
waiting page (games/imports.py Progress)."""

from __future__ import annotations

import threading
from functools import lru_cache

import pytest
from django.core.cache import cache
from django.db import connection, transaction

from eventlog import store
from games import exports, imports, tasks
from games.mat_io import export_cache_key, match_import_mat
from games.engine.random_play import random_money_session
from games.models import ExportJob, ImportJob
from players.models import Player
from tests.waiting import wait_for


@lru_cache(maxsize=None)
def session(games: int, events: int, seed: int = 19) -> str:
    return random_money_session(games, events, seed)[0]


@pytest.fixture
def official(make_user):
    return make_user("root", official=True, player=False)


@pytest.fixture
def pair():
    return [Player.objects.create(display_name=name).pk for name in ("Hammer", "Anvil")]


class LogHeld:
    """The event log's append lock, held by another connection until released: an import that has judged its
    record waits there to store it, its progress written and readable."""

    def __init__(self):
        self.taken, self.release = threading.Event(), threading.Event()
        self.thread = threading.Thread(target=self._hold)

    def _hold(self):
        try:
            with transaction.atomic():
                store.lock_log()
                self.taken.set()
                self.release.wait(timeout=900)
        finally:
            connection.close()

    def __enter__(self):
        self.thread.start()
        assert self.taken.wait(timeout=60)
        return self

    def __exit__(self, *exc):
        self.release.set()
        self.thread.join()


def monotonic_to(log: list[int], total: int) -> bool:
    return log == sorted(log) and len(set(log)) == len(log) and log[-1] == total


def test_an_import_tells_its_games_judged_while_the_worker_goes_and_all_once_stored(live_worker, api, official,
                                                                                     pair):
    client = api(official)
    text = session(30, 8_000)
    with LogHeld():
        answer = client.post("/api/matches/import/", {"text": text, "player0": pair[0], "player1": pair[1]},
                             format="json")
        assert answer.status_code == 202 and answer.json()["games_done"] == 0 and answer.json()["percent"] == 0

        def judged():
            body = client.get(answer["Location"]).json()
            return body if body["games_done"] == body["games"] else None

        # every game judged, the match not yet stored (the log is held): the job says so, part-way
        waiting = wait_for(judged, timeout=600, what="the worker to judge every game")
        assert waiting["status"] == "running" and waiting["games"] == 30 and waiting["percent"] == 99
    def stored():
        body = client.get(answer["Location"]).json()
        return body if body["status"] == "done" else None

    done = wait_for(stored, timeout=600, what="the worker to store the match")
    assert done["games_done"] == 30 and done["percent"] == 100
    log = ImportJob.objects.get(pk=done["id"]).progress
    assert monotonic_to(log, 30) and len(log) > 1  # told as it went, not once at the end


def test_an_export_tells_its_games_written(live_worker, official, pair, api):
    record = match_import_mat(actor=official, text=session(30, 8_000), player0=Player.objects.get(pk=pair[0]),
                              player1=Player.objects.get(pk=pair[1]))
    cache.delete(export_cache_key(record.stream_id, record.version))
    url = f"/api/matches/{record.stream_id}/export.mat"
    first = api().get(url, HTTP_ACCEPT="application/json")
    assert first.status_code == 202, first.status_code
    wait_for(lambda: api().get(url).status_code == 200, timeout=600, what="the worker to write the file")
    job = api().get(first["Location"]).json()
    assert job["status"] == "done" and job["games_done"] == job["games"] == 30 and job["percent"] == 100
    log = ExportJob.objects.get(pk=job["id"]).progress
    assert monotonic_to(log, 30) and len(log) > 1


@pytest.mark.django_db
def test_the_waiting_page_and_the_jobs_address_show_how_far_the_worker_is(api, official, pair, monkeypatch):
    monkeypatch.setattr(tasks.run_export, "apply_async", lambda args, **kwargs: None)
    record = match_import_mat(actor=official, text=session(30, 8_000), player0=Player.objects.get(pk=pair[0]),
                              player1=Player.objects.get(pk=pair[1]))
    cache.delete(export_cache_key(record.stream_id, record.version))
    url = f"/api/matches/{record.stream_id}/export.mat"
    job = api().get(url, HTTP_ACCEPT="application/json").json()
    assert (job["games_done"], job["games"], job["percent"]) == (0, 30, 0)
    progress = imports.Progress(ExportJob, job["id"], 30)  # what the worker tells, game by game
    for done in range(1, 13):
        progress(done)
    page = api().get(url, HTTP_ACCEPT="text/html")
    assert page.status_code == 202 and "12 of 30 games written (40%)" in page.content.decode()
    assert api().get(f"/api/exports/{job['id']}/").json()["percent"] == 40


@pytest.mark.django_db
def test_a_long_record_is_told_every_few_games_not_every_game(official):
    job = ImportJob.objects.create(user=official, text="", games=500, status=ImportJob.RUNNING)
    progress = imports.Progress(ImportJob, job.pk, 500)
    seen = []
    for done in range(1, 501):
        progress(done)
        seen.append(ImportJob.objects.get(pk=job.pk).games_done)
    told = list(range(10, 501, 10))
    assert ImportJob.objects.get(pk=job.pk).progress == told and len(told) == imports.PROGRESS_REPORTS
    assert seen[:10] == [0] * 9 + [10] and seen[-1] == 500
    assert progress.finished() == {"games_done": 500, "progress": told}
