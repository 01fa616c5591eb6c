"""A big .mat record is judged by a worker, not on the request's thread: answered at once (202 and the job's
address), one at a time per member, counted by its games, followed to its match (games/imports.py)."""

from __future__ import annotations

from functools import lru_cache

import pytest

from eventlog.models import Event
from games import imports, limits
from games.engine.random_play import random_money_session
from games.models import ImportJob
from tests.waiting import wait_for


@lru_cache(maxsize=None)
def session(games: int, events: int, seed: int = 19) -> str:
    return random_money_session(games, events, seed)[0]


def big() -> str:
    text = session(30, 8_000)  # 30 games
    assert imports.is_big(text)
    return text


@pytest.fixture
def member(make_user):
    from players.models import Player

    user = make_user("hammer")  # "Hammer", the file's first player
    Player.objects.create(display_name="Anvil")
    return user


@pytest.mark.django_db(transaction=True)
def test_the_largest_legal_record_is_answered_at_once_and_imported_by_the_worker(live_worker, api, make_user):
    official = api(make_user("root", official=True, player=False))
    text, games, _ = random_money_session(limits.MAX_IMPORT_GAMES, limits.MAX_IMPORT_EVENTS)
    before = Event.objects.count()
    answer = official.post("/api/matches/import/", {"text": text}, format="json")
    assert answer.status_code == 202, answer.json()
    job = answer.json()
    assert job["status"] in ("queued", "running") and job["games"] == games and job["match"] is None
    assert answer["Location"] == f"/api/imports/{job['id']}/"

    def done():
        body = official.get(answer["Location"]).json()
        return body if body["status"] in ("done", "failed") else None

    finished = wait_for(done, timeout=900, what="the worker to import the record")
    assert finished["status"] == "done", finished
    match = official.get(f"/api/matches/{finished['match']}/").json()
    assert match["finished"] is False and match["game"] == games  # a money session, every game of it
    # every action of the file stored, judged by the engine as a small import's are
    from games.engine.matfile import read_mat

    assert Event.objects.filter(stream_id=finished["match"]).count() == len(read_mat(text).events) + 1
    assert Event.objects.count() - before == Event.objects.filter(stream_id=finished["match"]).count()


@pytest.mark.django_db
def test_a_member_has_one_big_import_under_way_at_a_time(api, member):
    client = api(member)
    first = client.post("/api/matches/import/", {"text": big()}, format="json")
    assert first.status_code == 202
    second = client.post("/api/matches/import/", {"text": session(30, 8_000, seed=20)}, format="json")
    assert second.status_code == 409 and second.json()["code"] == "import_under_way"
    assert ImportJob.objects.count() == 1
    imports.import_run(pk=first.json()["id"])  # the worker's turn, here
    assert ImportJob.objects.get().status == "done"
    third = client.post("/api/matches/import/", {"text": session(30, 8_000, seed=20)}, format="json")
    assert third.status_code == 202


@pytest.mark.django_db
def test_a_refused_big_record_fails_its_job_with_the_reason_and_stores_nothing(api, member):
    text = big()
    line = next(ln for ln in text.splitlines() if ": " in ln and "/" in ln.split(":")[-1])
    play = line.split(":")[-1].strip().split()[0]  # the line's first play, e.g. 24/18
    start, _, _ = play.partition("/")
    broken = text.replace(line, line.replace(play, f"{start}/{int(start.rstrip('*') or 0) + 30}", 1), 1)
    before = Event.objects.count()
    job = api(member).post("/api/matches/import/", {"text": broken}, format="json").json()
    assert imports.import_run(pk=job["id"]) == "failed"
    body = api(member).get(f"/api/imports/{job['id']}/").json()
    assert body["status"] == "failed" and body["refusal"]["code"] == "invalid_mat_file"
    assert "game" in body["refusal"] and body["match"] is None
    assert Event.objects.count() == before


@pytest.mark.django_db
def test_another_member_cannot_see_the_job(api, member, make_user):
    job = api(member).post("/api/matches/import/", {"text": big()}, format="json").json()
    assert api(make_user("eve")).get(f"/api/imports/{job['id']}/").status_code == 404
    assert api().get(f"/api/imports/{job['id']}/").status_code in (401, 403)


@pytest.mark.django_db
def test_imports_are_counted_by_their_games_not_their_requests(api, member, settings, throttle_clock_stopped):
    from apikit import throttling

    throttling.forget_counts()
    settings.IMPORT_GAMES_RATE = "50/hour"
    client = api(member)
    spent = client.post("/api/matches/import/", {"text": session(60, 20_000)}, format="json")
    assert spent.status_code == 429 and int(spent["Retry-After"]) > 0
    assert "60 games" in spent.json()["detail"] and not ImportJob.objects.exists()
    first = client.post("/api/matches/import/", {"text": big()}, format="json")  # 30 games: within the hour's 50
    assert first.status_code == 202
    imports.import_run(pk=first.json()["id"])
    again = client.post("/api/matches/import/", {"text": session(21, 6_000, seed=21)}, format="json")
    assert again.status_code == 429  # 30 + 21 > 50, although only the second request


@pytest.mark.django_db
def test_the_request_reads_only_the_records_head_and_the_worker_refuses_what_it_cannot_read(api, member):
    """The request queues a big record having read its head alone (its headers, length and first game); a line
    further on that cannot be read fails the job with the reason a small import is answered, and stores nothing.
    A name past the read model's, in the head, is refused at once."""
    from games.engine import matfile

    text = big()
    reads = []
    real = matfile.parse_mat
    matfile.parse_mat = lambda t: reads.append(len(t)) or real(t)
    try:
        unreadable = text.replace(" Game 2\n", " Game 2\n this is no line of a match file\n", 1)
        job = api(member).post("/api/matches/import/", {"text": unreadable}, format="json")
    finally:
        matfile.parse_mat = real
    assert job.status_code == 202 and reads and max(reads) < len(text) / 10
    before = Event.objects.count()
    assert imports.import_run(pk=job.json()["id"]) == "failed"
    refusal = ImportJob.objects.get(pk=job.json()["id"]).refusal
    assert refusal["code"] == "invalid_mat_file" and "this is no line" in refusal["detail"]
    assert Event.objects.count() == before
    # the worker had no reader: the job keeps the refusal's reason, and says it in the language of whoever reads it
    address = f"/api/imports/{job.json()['id']}/"
    english = api(member).get(address, HTTP_ACCEPT_LANGUAGE="en").json()["refusal"]
    french = api(member).get(address, HTTP_ACCEPT_LANGUAGE="fr").json()["refusal"]
    assert english["detail"] == "game 2: cannot read the line 'this is no line of a match file'"
    assert french["detail"] == "partie 2 : la ligne « this is no line of a match file » est illisible"
    assert french["code"] == english["code"] == "invalid_mat_file" and french["game"] == 2 and "said" not in french

    named = text.replace("Anvil", "N" * (limits.MAX_NAME + 1))
    refused = api(member).post("/api/matches/import/", {"text": named}, format="json")
    assert refused.status_code == 400 and refused.json()["code"] == "not_representable"
    assert ImportJob.objects.count() == 1 and Event.objects.count() == before


@pytest.mark.django_db
def test_a_big_file_without_a_game_is_refused_at_once(api, member):
    answer = api(member).post("/api/matches/import/", {"text": "; no game here\n" * 3_000}, format="json")
    assert answer.status_code == 400 and answer.json()["code"] == "invalid_mat_file"
    assert not ImportJob.objects.exists()
