"""A move costs two SQL round trips, three where the process has not the match at hand, counted through the real
API view.

``POST /api/matches/{id}/commands/`` with an ``Idempotency-Key`` and a real API token (no forced
authentication: reading the token is part of the cost), on PostgreSQL, outside any test transaction (as in
production: the command's transaction is the outermost one, so a savepoint would be counted where one is
taken). Counted with Django's ``CaptureQueriesContext``, which lists every statement sent through Django's
connection and, since Django 4.2, the BEGIN and COMMIT around a transaction too: each is a round trip of its own.

The two: the token with its user, player and officials' permission; the log's lock, then the version check, the
idempotency receipt and the insert, in one call of the database's eventlog_append (eventlog/store.py), which
PostgreSQL runs as one implicit transaction (no BEGIN, no COMMIT). A process whose snapshot of the match is not at
the version sent (its first command of the match, or the other node's last) reads the match's events after it
first: three.

Through a session (the recording screen's way) one more: the session's row; the user is read with their player
and powers by the same statement as the token's (players.authentication.ModelBackend). Before: seven (the user,
then the player, then two permission queries from ``has_perm``)."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from eventlog.models import CommandResult, Event

pytestmark = pytest.mark.django_db(transaction=True)

MOVE_QUERIES = 2
COLD_MOVE_QUERIES = MOVE_QUERIES + 1  # the match's events read: no snapshot at the version sent
SESSION_MOVE_QUERIES = MOVE_QUERIES + 1


@pytest.fixture(autouse=True)
def _postgres():
    if connection.vendor != "postgresql":
        pytest.skip("counts PostgreSQL's round trips: run `make test`, or set DATABASE_URL")


def signed_in(user) -> APIClient:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION="Token " + Token.objects.create(user=user).key)
    return client


def in_session(user) -> APIClient:
    client = APIClient()
    client.force_login(user)  # a session cookie, as the recording screen has it
    return client


def opened(client, ann, bob) -> dict:
    """A board-dice match whose opening roll (3-1 to seat 0) is in: seat 0 is to play."""
    created = client.post("/api/matches/", {"player0": ann.player.pk, "player1": bob.player.pk, "length": 7,
                                            "dice": "board"}, format="json").json()
    rolled = client.post(f"/api/matches/{created['id']}/commands/",
                         {"type": "roll", "dice": [3, 1], "expected_version": created["version"]},
                         format="json", HTTP_IDEMPOTENCY_KEY="open-" + created["id"])
    assert rolled.status_code == 200, rolled.json()
    state = rolled.json()["state"]
    assert state["phase"] == "move" and state["turn"] == 0
    return state


def move_counted(client, state) -> tuple[object, list[str]]:
    before = Event.objects.count()
    with CaptureQueriesContext(connection) as queries:
        answer = client.post(f"/api/matches/{state['id']}/commands/",
                             {"type": "move", "move": "8/5 6/5", "expected_version": state["version"]},
                             format="json", HTTP_IDEMPOTENCY_KEY="move-" + state["id"])
    statements = [q["sql"] for q in queries.captured_queries]
    assert answer.status_code == 200, answer.json()
    assert Event.objects.count() == before + 1  # the play, stored
    return answer, statements


def check_answer(answer, state) -> None:
    """What the recording screens use, still in the answer."""
    body = answer.json()
    assert [e["type"] for e in body["appended"]] == ["CheckersMoved"]
    now = body["state"]
    assert now["version"] == state["version"] + 1 and answer["X-Match-Version"] == str(now["version"])
    assert now["phase"] == "roll" and now["turn"] == 1
    for field in ("position_id", "match_id", "xgid", "board", "pips", "may_double", "score", "cube"):
        assert now[field] is not None, field
    assert now["position_id"] != state["position_id"]
    assert CommandResult.objects.filter(key="move-" + state["id"]).count() == 1  # the receipt, kept


def test_a_player_moving_in_their_own_seat(make_user):
    ann, bob = make_user("ann"), make_user("bob")
    client = signed_in(ann)
    state = opened(client, ann, bob)
    answer, statements = move_counted(client, state)
    check_answer(answer, state)
    assert len(statements) <= MOVE_QUERIES, "\n".join(statements)


def test_an_official_recording_for_a_player(make_user):
    ann, bob = make_user("ann"), make_user("bob")
    client = signed_in(make_user("dora", official=True, player=False))
    state = opened(client, ann, bob)
    answer, statements = move_counted(client, state)
    check_answer(answer, state)
    assert len(statements) <= MOVE_QUERIES, "\n".join(statements)


def test_the_director_the_match_names_recording(make_user):
    from games.director import match_assign_official

    ann, bob = make_user("ann"), make_user("bob")
    director = make_user("dirk", player=False)  # no federation powers: named by the match as its official
    official = signed_in(make_user("dora", official=True, player=False))
    state = opened(official, ann, bob)
    assert match_assign_official(stream_id=state["id"], officiating_director_id=director.pk)
    state = official.get(f"/api/matches/{state['id']}/").json()
    answer, statements = move_counted(signed_in(director), state)
    check_answer(answer, state)
    assert len(statements) <= MOVE_QUERIES, "\n".join(statements)


def test_a_player_moving_through_a_session(make_user):
    ann, bob = make_user("ann"), make_user("bob")
    client = in_session(ann)
    state = opened(client, ann, bob)
    answer, statements = move_counted(in_session(ann), state)  # a new client: nothing of the session kept
    check_answer(answer, state)
    assert len(statements) <= SESSION_MOVE_QUERIES, "\n".join(statements)


def test_an_official_recording_through_a_session(make_user):
    ann, bob = make_user("ann"), make_user("bob")
    dora = make_user("dora", official=True, player=False)
    state = opened(in_session(dora), ann, bob)
    answer, statements = move_counted(in_session(dora), state)
    check_answer(answer, state)
    assert len(statements) <= SESSION_MOVE_QUERIES, "\n".join(statements)


def test_a_retried_move_answers_the_first_answer_and_appends_nothing(make_user):
    ann, bob = make_user("ann"), make_user("bob")
    client = signed_in(ann)
    state = opened(client, ann, bob)
    first, _ = move_counted(client, state)
    count = Event.objects.count()
    again = client.post(f"/api/matches/{state['id']}/commands/",
                        {"type": "move", "move": "8/5 6/5", "expected_version": state["version"]},
                        format="json", HTTP_IDEMPOTENCY_KEY="move-" + state["id"])
    assert again.status_code == 200 and again.json() == first.json()
    assert Event.objects.count() == count


def test_a_server_roll_costs_what_a_move_costs(make_user):
    """The dice's seed is read once per game and process, and the roll's index comes from the log: after a
    game's first roll, a server roll sends no statement a move does not (before: the seed's row locked and its
    counter updated, two more)."""
    ann, bob = make_user("ann"), make_user("bob")
    seats = signed_in(ann), signed_in(bob)
    client = seats[0]
    state = client.post("/api/matches/", {"player0": ann.player.pk, "player1": bob.player.pk, "length": 7},
                        format="json").json()
    state = client.post(f"/api/matches/{state['id']}/commands/", {"type": "roll", "expected_version": state["version"]},
                        format="json", HTTP_IDEMPOTENCY_KEY="open-" + state["id"]).json()["state"]
    assert state["phase"] == "move"
    state = seats[state["turn"]].post(f"/api/matches/{state['id']}/commands/",
                        {"type": "move", "move": state["legal_moves"][0], "expected_version": state["version"]},
                        format="json", HTTP_IDEMPOTENCY_KEY="play-" + state["id"]).json()["state"]
    roller = seats[state["turn"]]
    with CaptureQueriesContext(connection) as queries:
        answer = roller.post(f"/api/matches/{state['id']}/commands/", {"type": "roll", "expected_version": state["version"]},
                             format="json", HTTP_IDEMPOTENCY_KEY="roll-" + state["id"])
    statements = [q["sql"] for q in queries.captured_queries]
    assert answer.status_code == 200, answer.json()
    assert [e["type"] for e in answer.json()["appended"]] == ["DiceRolled"]
    assert len(statements) <= MOVE_QUERIES, "\n".join(statements)


def test_a_move_in_a_process_without_the_match_at_hand_reads_its_events(make_user):
    """Another node answered the match's last command (or this process was restarted): its snapshot is not at the
    version sent, and the match's events after it are read first."""
    from games import loading

    ann, bob = make_user("ann"), make_user("bob")
    client = signed_in(ann)
    state = opened(client, ann, bob)
    loading.SNAPSHOTS.forget(state["id"])
    answer, statements = move_counted(client, state)
    check_answer(answer, state)
    assert len(statements) == COLD_MOVE_QUERIES, "\n".join(statements)
    assert any("eventlog_event" in sql and "version" in sql and "INSERT" not in sql for sql in statements)
