"""A director's second press of the same command, sent while the first is still being recorded: the 409 names the
version the director sent (the event's) and where the event is now, not a version of the slot's match stream that
the director never saw."""

import threading

import pytest
from django.db import connection, transaction

from eventlog import store
from players.models import Player
from tests.tournaments.test_running_events import settle, slot, start
from tests.waiting import WAIT, wait_for
from tournaments import services
from tournaments.events import stream_id_of

pytestmark = pytest.mark.django_db(transaction=True)


def test_a_second_press_of_a_result_is_refused_with_the_events_version_it_sent(postgres, make_user, api):
    director = make_user("dora", player=False)
    players = [Player.objects.create(display_name=n).pk for n in ("Ann", "Bob")]
    t = start(director, players, lengths={"main": {"default": 5}})
    final = slot(settle(t), "main:r1:m1")
    assert final["match_id"]  # the process manager made the slot's match: a paper result closes it
    sent = store.stream_version(stream_id_of(t.pk))
    press = {"type": "report_result", "slot": "main:r1:m1", "winner": players[0], "score": [5, 1],
             "expected_version": sent}
    second: dict = {}

    def press_again():
        try:
            with connection.cursor() as cursor:
                cursor.execute("SELECT pg_backend_pid()")
                second["pid"] = cursor.fetchone()[0]
            second["answer"] = api(director).post(f"/api/tournaments/{t.pk}/commands/", press, format="json")
        finally:
            connection.close()

    def waiting_for_the_log():
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_stat_clear_snapshot()")
            cursor.execute("SELECT 1 FROM pg_stat_activity WHERE pid = %s AND wait_event_type = 'Lock'"
                           " AND wait_event = 'advisory'", [second.get("pid", -1)])
            return cursor.fetchone() is not None or "answer" in second

    with transaction.atomic():  # the first press, recorded but not yet committed when the second arrives
        services.tournament_command(actor=director, tournament=t, command=press)
        thread = threading.Thread(target=press_again)
        thread.start()
        wait_for(waiting_for_the_log, what="the second press to wait for the log")
    thread.join(WAIT)
    assert not thread.is_alive(), "the second press never answered"
    now = store.stream_version(stream_id_of(t.pk))
    answer = second["answer"]
    body = answer.json()
    assert answer.status_code == 409 and body["code"] == "stale_version", body
    assert body["detail"] == (f"the event has changed: you sent version {sent} but it is at version {now}; "
                              "reload and try again")
    assert body["current_version"] == now and body["sent_version"] == sent
    assert services.tournament_facts(t).paper["main:r1:m1"].winner_points == 5  # the first press stands, once
