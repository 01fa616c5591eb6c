"""An event's director imports a big .mat record as a member does: answered at once (202 and the job's address),
recorded into the event by the worker with the refusals of the event's own import, one job under way per director,
counted by its games (games/imports.py, tournaments/services.py)."""

from __future__ import annotations

from functools import lru_cache

import pytest

from eventlog.models import Event
from games import imports
from games.engine.random_play import random_money_session
from games.models import ImportJob
from players.models import Player
from tests.waiting import wait_for
from tournaments import services


@lru_cache(maxsize=None)
def session(games: int, events: int, seed: int = 19) -> str:
    return random_money_session(games, events, seed)[0]


def big(seed: int = 19) -> str:
    text = session(30, 8_000, seed)  # 30 games
    assert imports.is_big(text)
    return text


@pytest.fixture
def director(make_user):
    return make_user("dora", player=False)


@pytest.fixture
def hidden_event(director):
    event = services.tournament_create(actor=director, name="Draft night", format="single_elimination")
    services.tournament_publish(actor=director, tournament=event, published=False)
    return event


@pytest.fixture
def pair():
    return [Player.objects.create(display_name=name).pk for name in ("Ada", "Bruno")]


def url(event) -> str:
    return f"/api/tournaments/{event.pk}/matches/import/"


def test_a_directors_big_record_is_answered_at_once_and_recorded_into_the_event_by_the_worker(
        live_worker, api, director, hidden_event, pair):
    client = api(director)
    before = Event.objects.count()
    answer = client.post(url(hidden_event), {"text": big(), "player0": pair[0], "player1": pair[1]}, format="json")
    assert answer.status_code == 202, answer.json()
    job = answer.json()
    assert job["status"] in ("queued", "running") and job["games"] == 30 and job["match"] is None
    assert job["tournament"] == hidden_event.pk and answer["Location"] == f"/api/imports/{job['id']}/"

    def done():
        body = client.get(answer["Location"]).json()
        return body if body["status"] in ("done", "failed") else None

    finished = wait_for(done, timeout=600, what="the worker to import the record into the event")
    assert finished["status"] == "done", finished
    match = client.get(f"/api/matches/{finished['match']}/").json()
    assert match["tournament_id"] == hidden_event.pk and [p["player_id"] for p in match["players"]] == pair
    # recorded as the event's own import records it: hidden while the event is, its director officiating
    from games.loading import match_load

    record = match_load(finished["match"])
    assert record.published is False and record.officiating_director_id == director.pk
    from games.engine.matfile import read_mat

    stored = Event.objects.filter(stream_id=finished["match"]).count()
    assert stored == len(read_mat(big()).events) + 1
    assert Event.objects.count() - before == stored


@pytest.mark.django_db
def test_a_director_has_one_import_under_way_at_a_time(api, director, hidden_event, pair, make_user):
    refused = api(make_user("eve")).post(url(hidden_event), {"text": big(), "player0": pair[0], "player1": pair[1]},
                                         format="json")
    assert refused.status_code in (403, 404) and not ImportJob.objects.exists()  # only its director, as ever
    client = api(director)
    first = client.post(url(hidden_event), {"text": big(), "player0": pair[0], "player1": pair[1]}, format="json")
    assert first.status_code == 202
    second = client.post(url(hidden_event), {"text": big(20), "player0": pair[0], "player1": pair[1]}, format="json")
    assert second.status_code == 409 and second.json()["code"] == "import_under_way"
    casual = client.post("/api/matches/import/", {"text": big(20)}, format="json")  # the same queue: the director's
    assert casual.status_code == 409 and ImportJob.objects.count() == 1
    assert imports.import_run(pk=first.json()["id"]) == "done"
    third = client.post(url(hidden_event), {"text": big(20), "player0": pair[0], "player1": pair[1]}, format="json")
    assert third.status_code == 202


@pytest.mark.django_db
def test_the_event_imports_refusals_fail_the_job_with_their_reason_and_store_nothing(api, director, hidden_event,
                                                                                     pair, make_user):
    client = api(director)
    body = {"text": big(), "player0": pair[0], "player1": pair[1]}
    first = client.post(url(hidden_event), body, format="json").json()
    assert imports.import_run(pk=first["id"]) == "done"
    before = Event.objects.count()
    again = client.post(url(hidden_event), body, format="json").json()  # the same record of moves
    assert imports.import_run(pk=again["id"]) == "failed"
    refused = client.get(f"/api/imports/{again['id']}/").json()
    assert refused["refusal"]["code"] == "bad_command" and "already been imported" in refused["refusal"]["detail"]
    # the event changes hands while the record waits for the worker: its old director may no longer add to it
    queued = client.post(url(hidden_event), {"text": big(20), "player0": pair[0], "player1": pair[1]},
                         format="json").json()
    hidden_event.director = make_user("newcomer", player=False)
    hidden_event.save(update_fields=["director"])
    assert imports.import_run(pk=queued["id"]) == "failed"
    assert client.get(f"/api/imports/{queued['id']}/").json()["refusal"]["code"] == "permission_denied"
    assert Event.objects.count() == before


@pytest.mark.django_db
def test_an_event_import_is_counted_by_its_games_with_the_members_own(api, director, hidden_event, pair, settings,
                                                                    throttle_clock_stopped):
    from apikit import throttling

    throttling.forget_counts()
    settings.IMPORT_GAMES_RATE = "50/hour"
    client = api(director)
    small = client.post(url(hidden_event), {"text": session(2, 400), "player0": pair[0], "player1": pair[1]},
                        format="json")
    assert small.status_code == 201 and small.json()["tournament"] == hidden_event.pk  # imported in the request
    spent = client.post(url(hidden_event), {"text": session(60, 20_000), "player0": pair[0], "player1": pair[1]},
                        format="json")
    assert spent.status_code == 429 and int(spent["Retry-After"]) > 0 and "60 games" in spent.json()["detail"]
    assert not ImportJob.objects.exists()
    first = client.post(url(hidden_event), {"text": big(), "player0": pair[0], "player1": pair[1]}, format="json")
    assert first.status_code == 202  # 2 + 30 games: within the hour's 50
    imports.import_run(pk=first.json()["id"])
    small = session(21, 6_000, seed=21)
    again = client.post(url(hidden_event), {"text": small, "player0": pair[0], "player1": pair[1]}, format="json")
    assert again.status_code == 429  # 2 + 30 + 21 > 50


def test_an_import_with_no_file_is_refused_with_its_code_and_records_nothing(api, director, hidden_event, pair):
    before = Event.objects.count()
    answer = api(director).post(url(hidden_event), {"player0": pair[0], "player1": pair[1]}, format="json")
    assert answer.status_code == 400 and answer.json()["code"] == "bad_command", answer.json()
    french = api(director).post(url(hidden_event), {"player0": pair[0]}, format="json", HTTP_ACCEPT_LANGUAGE="fr")
    assert french.status_code == 400 and french.json()["code"] == "bad_command"
    assert french.json()["detail"] != answer.json()["detail"]  # said in the reader's language
    assert Event.objects.count() == before
