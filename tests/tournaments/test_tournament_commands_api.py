"""Tournament commands through the API: Idempotency-Key, expected version, and checked Swiss pairings.

Eight identical pairings sent at once once made two extra rounds of rematches while round 1 was
unplayed: a round is paired only once the one before it is decided, a retry under the same key
returns the first answer and appends nothing, and a stale expected version answers 409.
"""

from __future__ import annotations

import json
import threading

import pytest

from eventlog import store
from eventlog.models import Event
from players.models import Player
from tournaments import services
from tournaments.stream import stream_id_of


def _swiss(director, players: int = 4):
    t = services.tournament_create(actor=director, name="Swiss", format="swiss",
                                   settings={"rounds": 3, "auto_pair": False})
    field = [Player.objects.create(display_name=f"P{i}").pk for i in range(players)]
    for p in field:
        services.tournament_command(actor=director, tournament=t, command={"type": "enter", "player": p})
    services.tournament_command(actor=director, tournament=t, command={"type": "draw", "method": "manual",
                                                                       "seeds": field})
    return t, field


def _finish_round(director, t, round_no: int) -> None:
    _, view = services.tournament_view(t)
    for s in view.slots:
        if s.round == round_no and not s.bye and s.result is None:
            services.tournament_command(actor=director, tournament=t, command={
                "type": "report_result", "slot": s.key, "winner": s.players[0], "score": [s.length, 0]})


def _rounds_paired(t) -> int:
    return Event.objects.filter(stream_id=stream_id_of(t.pk), event_type="RoundPaired").count()


def _at_once(n: int, send) -> list:
    """``n`` requests released together, each on its own thread (and so its own database connection)."""
    from django.db import connection

    gate, answers = threading.Barrier(n), [None] * n

    def run(i):
        try:
            gate.wait()
            answers[i] = send()
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=(i,)) for i in range(n)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return answers


@pytest.fixture
def director(make_user):
    return make_user("dora", official=True)


def _client(user):
    from rest_framework.authtoken.models import Token
    from rest_framework.test import APIClient

    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {Token.objects.get_or_create(user=user)[0].key}")
    return client


@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("postgres")  # eight connections at once: SQLite's in-memory test database has one
def test_eight_concurrent_pairings_while_round_one_is_unplayed_pair_nothing(director):
    t, _ = _swiss(director)
    url = f"/api/tournaments/{t.pk}/commands/"
    answers = _at_once(8, lambda: _client(director).post(url, {"type": "pair_round"}, format="json"))
    assert {a.status_code for a in answers} == {400}, [a.content[:200] for a in answers]
    assert "round 1 is not finished" in answers[0].json()["detail"]
    assert _rounds_paired(t) == 1


@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("postgres")  # eight connections at once: SQLite's in-memory test database has one
def test_eight_concurrent_identical_pairings_under_one_key_append_one_round(director):
    t, _ = _swiss(director)
    _finish_round(director, t, 1)
    url = f"/api/tournaments/{t.pk}/commands/"
    version = store.stream_version(stream_id_of(t.pk))
    answers = _at_once(8, lambda: _client(director).post(
        url, {"type": "pair_round", "expected_version": version}, format="json", HTTP_IDEMPOTENCY_KEY="pair-2"))
    ok = [a for a in answers if a.status_code == 200]
    assert ok and all(a.status_code in (200, 409) for a in answers), [a.content[:200] for a in answers]
    assert len({json.dumps(a.json(), sort_keys=True) for a in ok}) == 1  # every success is the first answer
    assert _rounds_paired(t) == 2
    again = _client(director).post(url, {"type": "pair_round", "expected_version": version}, format="json",
                                   HTTP_IDEMPOTENCY_KEY="pair-2")
    assert again.status_code == 200 and again.json() == ok[0].json()
    assert _rounds_paired(t) == 2


@pytest.mark.django_db
def test_a_retried_command_under_the_same_key_returns_the_first_answer_and_appends_nothing(director, make_user):
    t = services.tournament_create(actor=director, name="Night", format="single_elimination", settings={})
    player = Player.objects.create(display_name="Walk-in").pk
    client, url = _client(director), f"/api/tournaments/{t.pk}/commands/"
    first = client.post(url, {"type": "enter", "player": player}, format="json", HTTP_IDEMPOTENCY_KEY="enter-1")
    assert first.status_code == 200
    count = Event.objects.count()
    second = client.post(url, {"type": "enter", "player": player}, format="json", HTTP_IDEMPOTENCY_KEY="enter-1")
    assert second.status_code == 200 and second.json() == first.json()
    assert Event.objects.count() == count
    assert first.json()["version"] == store.stream_version(stream_id_of(t.pk))
    reused = client.post(url, {"type": "withdraw", "player": player}, format="json", HTTP_IDEMPOTENCY_KEY="enter-1")
    assert reused.status_code == 422 and Event.objects.count() == count


@pytest.mark.django_db
def test_a_stale_expected_version_answers_409(director):
    t = services.tournament_create(actor=director, name="Night", format="single_elimination", settings={})
    player = Player.objects.create(display_name="Walk-in").pk
    response = _client(director).post(f"/api/tournaments/{t.pk}/commands/",
                                      {"type": "enter", "player": player, "expected_version": 7}, format="json")
    assert response.status_code == 409


@pytest.mark.django_db
@pytest.mark.parametrize("bad_round", ["x", "2", 0, -1, 2.0, True, None, [2], 2**63, 4, 3])
def test_pair_round_checks_the_round(director, bad_round):
    t, field = _swiss(director)
    _finish_round(director, t, 1)
    before = Event.objects.count()
    response = _client(director).post(f"/api/tournaments/{t.pk}/commands/",
                                      {"type": "pair_round", "round": bad_round}, format="json")
    assert response.status_code == 400, (bad_round, response.content[:300])
    assert Event.objects.count() == before


@pytest.mark.django_db
def test_manual_pairings_keep_the_swiss_rules(director):
    t, (a, b, c, d) = _swiss(director)
    round_one = services.tournament_facts(t).rounds[0]
    _finish_round(director, t, 1)
    client, url = _client(director), f"/api/tournaments/{t.pk}/commands/"
    before = Event.objects.count()
    rematch = [list(round_one[0]), list(round_one[1])]
    for pairings in (rematch, [[a, None], [b, None], [c, d]], [[a, b], [c, c]], [[a, b]]):
        response = client.post(url, {"type": "pair_round", "pairings": pairings}, format="json")
        assert response.status_code == 400, (pairings, response.content[:300])
    assert Event.objects.count() == before
    fresh = [[round_one[0][0], round_one[1][0]], [round_one[0][1], round_one[1][1]]]
    response = client.post(url, {"type": "pair_round", "round": 2, "pairings": fresh}, format="json")
    assert response.status_code == 200, response.content[:300]
    # paired again before anyone played: allowed; a round ahead of an unfinished one: not
    again = client.post(url, {"type": "pair_round", "round": 2, "pairings": fresh[::-1]}, format="json")
    assert again.status_code == 200, again.content[:300]
    ahead = client.post(url, {"type": "pair_round", "round": 3}, format="json")
    assert ahead.status_code == 400
