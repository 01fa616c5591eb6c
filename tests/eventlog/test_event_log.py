"""The event log: append-only in the database, optimistic concurrency, idempotent commands."""

import threading

import pytest
from django.db import DatabaseError, connection, transaction

from eventlog import store
from eventlog.models import Event
from eventlog.refusals import Reason
from eventlog.store import ConcurrencyError, NewEvent
from tests.games.recorder import Recorder
from tests.refusals import refused


def append(stream: str, expected: int, n: int = 1):
    return store.append(
        stream_id=stream, stream_type="test", expected_version=expected,
        events=[NewEvent("Happened", {"i": i}) for i in range(n)], metadata={"actor": None},
    )


def new_match(client, alice, bob, dice="board") -> Recorder:
    body = {"player0": alice.player.pk, "player1": bob.player.pk, "length": 5, "dice": dice}
    return Recorder(client, client.post("/api/matches/", body, format="json").json())


@pytest.mark.django_db
def test_versions_count_up_per_stream_and_positions_are_gap_free():
    append("a", 0, 2)
    append("b", 0, 1)
    append("a", 2, 1)
    rows = list(Event.objects.order_by("global_position").values_list("stream_id", "version", "global_position"))
    assert rows == [("a", 1, 1), ("a", 2, 2), ("b", 1, 3), ("a", 3, 4)]


@pytest.mark.django_db
def test_a_stale_writer_gets_a_concurrency_error_and_appends_nothing():
    append("a", 0, 2)
    with refused(ConcurrencyError, Reason.MATCH_CHANGED_SENT, sent=1, now=2):
        append("a", 1, 1)
    assert Event.objects.count() == 2


def test_outside_a_transaction_an_append_and_its_receipt_are_one_statement_and_a_taken_key_writes_nothing(
        postgres, transactional_db):
    """The command path's append (no transaction around it): the lock, the receipt and the events go in one call of
    the database's eventlog_append, which PostgreSQL commits as one; a key another command holds leaves the log as
    it was."""
    from django.test.utils import CaptureQueriesContext

    from eventlog.models import CommandResult

    with CaptureQueriesContext(connection) as sent:
        with store.receipt_with_next_append(actor="7", key="k-1", fingerprint="f") as slot:
            append("a", 0, 2)
    assert len(sent.captured_queries) == 1 and "eventlog_append(" in sent.captured_queries[0]["sql"]
    assert slot.kept is True and CommandResult.objects.get(actor="7", key="k-1").body == slot.body
    assert slot.body == {"appended": [{"type": "Happened", "payload": {"i": 0}},
                                      {"type": "Happened", "payload": {"i": 1}}], "version": 2}
    with pytest.raises(store.ReceiptTaken):
        with store.receipt_with_next_append(actor="7", key="k-1", fingerprint="g"):
            append("a", 2, 1)
    assert list(Event.objects.values_list("version", flat=True).order_by("version")) == [1, 2]
    with pytest.raises(ConcurrencyError):  # stale: neither the events nor the receipt
        with store.receipt_with_next_append(actor="7", key="k-2", fingerprint="f"):
            append("a", 1, 1)
    assert Event.objects.count() == 2 and not CommandResult.objects.filter(key="k-2").exists()


@pytest.mark.parametrize("sql", ["UPDATE eventlog_event SET event_type = 'Forged'", "DELETE FROM eventlog_event"])
def test_update_and_delete_fail_in_the_database_itself(postgres, sql):
    append("a", 0, 1)
    with pytest.raises(DatabaseError, match="the event log is append-only"):
        with transaction.atomic(), connection.cursor() as cursor:
            cursor.execute(sql)
    assert Event.objects.get().event_type == "Happened"


def test_truncate_fails_in_the_database_itself(postgres):
    append("a", 0, 1)
    with pytest.raises(DatabaseError, match="append-only"):
        with transaction.atomic(), connection.cursor() as cursor:
            cursor.execute("TRUNCATE eventlog_event")


def test_two_clients_same_version_at_once_exactly_one_is_appended(postgres, transactional_db, make_user, api):
    from players.models import Player

    alice, bob = make_user("alice"), make_user("bob")
    created = api(alice).post(
        "/api/matches/", {"player0": alice.player.pk, "player1": bob.player.pk, "length": 5}, format="json"
    )
    match_id, version = created.json()["id"], created.json()["version"]
    barrier = threading.Barrier(2)
    answers = []

    def send(user):
        from django.db import connections

        client = api(user)
        barrier.wait()
        answers.append(
            client.post(
                f"/api/matches/{match_id}/commands/", {"type": "roll", "expected_version": version}, format="json"
            ).status_code
        )
        connections.close_all()

    threads = [threading.Thread(target=send, args=(u,)) for u in (alice, bob)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(answers) == [200, 409]
    versions = list(Event.objects.filter(stream_id=match_id).order_by("version").values_list("version", flat=True))
    assert versions == list(range(1, len(versions) + 1))
    positions = list(Event.objects.order_by("global_position").values_list("global_position", flat=True))
    assert positions == list(range(1, len(positions) + 1))
    assert Player.objects.count() == 2


@pytest.mark.django_db
def test_same_command_twice_with_one_idempotency_key_appends_once_and_answers_the_same(make_user, api):
    alice, bob = make_user("alice"), make_user("bob")
    client = api(alice)
    match = new_match(client, alice, bob, dice="server")  # a server roll: the retry must not roll again
    command = {"type": "roll", "expected_version": match.version}
    url = f"/api/matches/{match.id}/commands/"
    first = client.post(url, command, format="json", HTTP_IDEMPOTENCY_KEY="roll-1")
    before = Event.objects.count()
    again = client.post(url, command, format="json", HTTP_IDEMPOTENCY_KEY="roll-1")
    assert first.status_code == again.status_code == 200
    assert first.json() == again.json()
    assert Event.objects.count() == before


@pytest.mark.django_db
def test_a_late_retry_answers_what_the_first_answered_though_the_match_moved_on(make_user, api):
    from eventlog.models import CommandResult

    alice, bob = make_user("alice"), make_user("bob")
    client = api(alice)
    match = new_match(client, alice, bob)
    url = f"/api/matches/{match.id}/commands/"
    command = {"type": "roll", "dice": [3, 1], "expected_version": match.version}
    first = match.send(key="opening", **command)
    match.send(type="move", move="8/5 6/5")
    before = Event.objects.count()
    again = client.post(url, command, format="json", HTTP_IDEMPOTENCY_KEY="opening")
    assert again.status_code == 200 and again.json() == first.json()
    assert again.json()["state"]["version"] < match.version and Event.objects.count() == before
    # only a receipt is kept with the key (the answer is rebuilt from the log): small, made under the lock
    stored = CommandResult.objects.get(key="opening").body
    assert set(stored) == {"appended", "version"}


@pytest.mark.django_db
def test_idempotency_key_reused_for_a_different_command_is_refused(make_user, api):
    alice, bob = make_user("alice"), make_user("bob")
    client = api(alice)
    match = new_match(client, alice, bob)
    match.send(type="roll", key="k1", dice=[3, 1])
    before = Event.objects.count()
    refused = match.send(expect=422, key="k1", type="move", move="8/5 6/5")
    assert "already used for a different command" in refused.json()["detail"]
    assert Event.objects.count() == before
