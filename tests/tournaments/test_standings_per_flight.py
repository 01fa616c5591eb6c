"""Standings per flight with the event's winner first; forfeits and withdrawals marked; a Swiss event's
tie-breaks shown."""

import pytest
from django.test import Client

from players.models import Player
from tests.tournaments.test_running_events import cmd, settle, start
from tournaments import services

pytestmark = pytest.mark.django_db


@pytest.fixture
def director(make_user):
    return make_user("dora", player=False)


def names(n):
    return [Player.objects.create(display_name=f"Player {chr(65 + i)}").pk for i in range(n)]


def finish(t, director, winner_of=lambda s: s["players"][0]):
    for _ in range(10):
        data = settle(t)
        ready = [s for s in data["slots"] if s["status"] == "ready"]
        if not ready:
            return data
        for s in ready:
            cmd(t, director, type="report_result", slot=s["key"], winner=winner_of(s), score=[s["length"], 0])
    raise AssertionError("the event did not end")


def test_main_and_consolation_have_their_own_tables_with_the_events_winner_first(director):
    players = names(8)
    t = start(director, players, consolation=True, lengths={"main": {"default": 3}, "consolation": {"default": 3}})
    data = settle(t)
    first = [s for s in data["slots"] if s["bracket"] == "main" and s["round"] == 1]
    cmd(t, director, type="forfeit", slot=first[3]["key"], winner=first[3]["players"][0], reason="no-show")
    data = finish(t, director)
    main = [r for r in data["standings"] if r["flight"] == "main"]
    consolation = [r for r in data["standings"] if r["flight"] == "consolation"]
    assert main and consolation and len(main) + len(consolation) == len(data["standings"])
    assert data["standings"][0]["player_id"] == data["winner"] == main[0]["player_id"]
    assert consolation[0]["player_id"] == data["champions"]["consolation"]
    assert [r["rank"] for r in main] == [1, 2, 3, 3, 5, 5, 5, 5]  # out in the same round: the same place
    forfeiter = first[3]["players"][1]
    assert next(r for r in main if r["player_id"] == forfeiter)["forfeits"] == 1
    page = Client().get(f"/events/{t.pk}/?partial=1").content.decode()
    assert "Standings · Main" in page and "Standings · Consolation" in page
    assert page.index("Standings · Main") < page.index("Standings · Consolation")
    assert "(winner)" in page and "(Consolation winner)" in page and "1 forfeit lost" in page


def test_swiss_shows_its_tie_breaks_by_default_and_marks_a_withdrawal(director):
    players = names(6)
    t = services.tournament_create(actor=director, name="Swiss", format="swiss", settings={"rounds": 3})
    for p in players:
        cmd(t, director, type="enter", player=p)
    cmd(t, director, type="draw", method="manual", seeds=players)
    settle(t)
    cmd(t, director, type="withdraw", player=players[5], reason="ill")
    data = finish(t, director)
    assert set(data["standings"][0]["tiebreaks"]) == {"buchholz", "median_buchholz", "sonneborn_berger"}
    assert next(r for r in data["standings"] if r["player_id"] == players[5])["withdrawn"]
    page = Client().get(f"/events/{t.pk}/?partial=1").content.decode()
    assert ">Buchholz</abbr>" in page and ">Sonneborn-Berger</abbr>" in page and "(withdrew)" in page


def test_a_flight_is_named_in_the_readers_words_on_the_event_and_player_pages(director):
    t = start(director, names(8), consolation=True, lengths={"main": {"default": 3}, "consolation": {"default": 3}})
    data = finish(t, director)
    champion = data["champions"]["consolation"]
    best = Client(HTTP_ACCEPT_LANGUAGE="en").get(f"/players/{champion}/").content.decode()
    best = best[best.index('id="best-results"'):best.index("</table>", best.index('id="best-results"'))]
    assert '<span class="muted">(Consolation)</span>' in best and "(consolation)" not in best
    french = Client(HTTP_ACCEPT_LANGUAGE="fr").get(f"/players/{champion}/").content.decode()
    assert '<span class="muted">(Consolante)</span>' in french
    assert "(vainqueur de la Consolante)" in Client(HTTP_ACCEPT_LANGUAGE="fr").get(f"/events/{t.pk}/").content.decode()
