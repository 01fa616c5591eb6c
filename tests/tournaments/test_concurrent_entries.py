"""Four players entering an event at the same moment are all entered: none is told "the match has changed"."""

import threading

import pytest
from django.db import connection

from players.models import Player
from tournaments import services
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db(transaction=True)


def test_four_players_entering_at_once_are_all_entered_without_a_409(postgres, make_user, api):
    director = make_user("dora", official=True, player=False)
    event = services.tournament_create(actor=director, name="Club night", format="round_robin")
    players = [make_user(name) for name in ("ann", "bob", "cid", "dee")]
    barrier = threading.Barrier(len(players))
    answers: dict[str, tuple[int, dict]] = {}

    def enter(user):
        try:
            client = api(user)
            barrier.wait()
            response = client.post(f"/api/tournaments/{event.pk}/commands/",
                                   {"type": "enter", "player": user.player.pk}, format="json")
            answers[user.username] = (response.status_code, response.json())
        finally:
            connection.close()

    threads = [threading.Thread(target=enter, args=(user,)) for user in players]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    assert {name: status for name, (status, _) in answers.items()} == {u.username: 200 for u in players}, answers
    entered = services.tournament_facts(Tournament.objects.get(pk=event.pk)).entered
    assert sorted(entered) == sorted(Player.objects.filter(user__in=players).values_list("pk", flat=True))
