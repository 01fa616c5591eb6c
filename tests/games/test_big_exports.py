"""A big match's first .mat file of a version is written by a worker, never on a web thread: every reader until
it is there shares one job and is told to come back (a JSON answer with the job's address, or a page that
reloads itself); then the file is served (games/exports.py). A small match's is written in the request as ever."""

from __future__ import annotations

import json
import urllib.error
import urllib.request
from concurrent.futures import ThreadPoolExecutor
from functools import lru_cache

import pytest
from django.core.cache import cache

from eventlog import store
from games import exports, tasks
from games.mat_io import export_cache_key, match_export_mat, match_import_mat
from games.engine.random_play import random_money_session
from games.models import ExportJob
from players.models import Player
from tests.waiting import wait_for


@lru_cache(maxsize=None)
def session(games: int, events: int, seed: int = 19) -> str:
    return random_money_session(games, events, seed)[0]


def imported(official, text: str):
    """A match imported by an official (public at once), its file not in the cache: its first export is to come."""
    players = [Player.objects.create(display_name=name) for name in ("Hammer", "Anvil")]
    record = match_import_mat(actor=official, text=text, player0=players[0], player1=players[1])
    cache.delete(export_cache_key(record.stream_id, record.version))
    return record


def expected(record) -> str:
    return match_export_mat(record, store.read_stream(record.stream_id))


def url(record) -> str:
    return f"/api/matches/{record.stream_id}/export.mat"


@pytest.fixture
def official(make_user):
    return make_user("root", official=True, player=False)


@pytest.mark.django_db
def test_a_big_matchs_first_export_is_left_to_a_worker_and_its_readers_share_one_job(api, official, monkeypatch):
    small = imported(official, session(2, 400))
    assert not exports.is_big(small)
    answer = api().get(url(small))
    assert answer.status_code == 200 and answer.content.decode() == expected(small)  # written in the request
    assert not ExportJob.objects.exists()

    big = imported(official, session(30, 8_000))
    assert exports.is_big(big)
    sent = []
    monkeypatch.setattr(tasks.run_export, "apply_async", lambda args, **kwargs: sent.append(args))
    monkeypatch.setattr(exports, "match_export_mat", lambda *a, **k: pytest.fail("written on the web thread"))
    waiting = [api().get(url(big), HTTP_ACCEPT="application/json") for _ in range(3)]
    assert [w.status_code for w in waiting] == [202] * 3
    job = waiting[0].json()
    assert job["status"] == "queued" and job["match"] == big.stream_id and job["version"] == big.version
    assert {w.json()["id"] for w in waiting} == {job["id"]} and len(sent) == 1  # one job, sent to the worker once
    assert waiting[0]["Location"] == f"/api/exports/{job['id']}/" and waiting[0]["Retry-After"] == "3"
    page = api().get(url(big), HTTP_ACCEPT="text/html,application/xhtml+xml,*/*;q=0.8")  # the match page's link
    assert page.status_code == 202 and page["Retry-After"] == "3" and b'http-equiv="refresh"' in page.content
    assert api().get(f"/api/exports/{job['id']}/").json()["status"] == "queued"

    monkeypatch.undo()
    assert exports.export_run(pk=job["id"]) == "done"  # the worker's turn, here
    assert api().get(f"/api/exports/{job['id']}/").json()["status"] == "done"
    cache.delete(export_cache_key(big.stream_id, big.version))  # served from the job's row as well
    served = api().get(url(big))
    assert served.status_code == 200 and served.content.decode() == expected(big)
    assert served["Content-Disposition"] == f'attachment; filename="match-{big.stream_id}.mat"'


@pytest.mark.django_db
def test_an_export_job_is_seen_only_by_whoever_may_read_the_match(api, official, make_user, monkeypatch):
    monkeypatch.setattr(tasks.run_export, "apply_async", lambda args, **kwargs: None)
    hammer = make_user("hammer")
    anvil = Player.objects.create(display_name="Anvil")
    record = match_import_mat(actor=hammer, text=session(30, 8_000), player0=hammer.player,
                              player1=anvil, published=False)
    cache.delete(export_cache_key(record.stream_id, record.version))
    job = api(hammer).get(url(record), HTTP_ACCEPT="application/json").json()
    assert api(hammer).get(f"/api/exports/{job['id']}/").status_code == 200
    assert api(make_user("eve")).get(f"/api/exports/{job['id']}/").status_code == 404
    assert api().get(f"/api/exports/{job['id']}/").status_code == 404


def test_readers_at_once_get_one_file_written_by_the_worker(live_worker, live_server, official):
    record = imported(official, session(30, 8_000))

    def fetch(path):
        request = urllib.request.Request(live_server.url + path, headers={"Accept": "application/json"})
        try:
            with urllib.request.urlopen(request, timeout=300) as answer:
                return answer.status, answer.read()
        except urllib.error.HTTPError as refused:
            return refused.code, b""

    with ThreadPoolExecutor(max_workers=20) as pool:
        crowd = [f.result() for f in [pool.submit(fetch, url(record)) for _ in range(20)]]
    assert {status for status, _ in crowd} <= {200, 202}
    jobs = {json.loads(body)["id"] for status, body in crowd if status == 202}
    assert len(jobs) <= 1 and ExportJob.objects.count() == 1  # one job, whoever came first

    def written():
        status, body = fetch(url(record))
        return body if status == 200 else None

    text = wait_for(written, timeout=300, what="the worker to write the file")
    assert text.decode() == expected(record)
    assert ExportJob.objects.get().text == text.decode()  # written by the worker, not by a request
