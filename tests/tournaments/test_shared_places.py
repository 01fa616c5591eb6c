"""An eight-player knockout: the semi-final losers share 3rd and the quarter-final losers 5th in the event's API,
on its page and its players' pages, and a club's season gives them the mean of the places they cover; their seeds
decide nothing."""

from datetime import date

import pytest
from django.test import Client

from eventlog import projections
from players.models import Player
from seasons import services as seasons
from tests.tournaments.test_running_events import cmd, settle, start
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db

# the club's wall table: 3rd and 4th, 5th to 8th are worth different points
WALL = {"components": [{"kind": "placement", "table": [{"min_field": 8, "points": [10, 6, 4, 2, 1, 1, 0.5, 0.5]}]}],
        "best": None}


def play_on_paper(director, t, winner=max):
    """Every ready match won by ``winner`` of its two players (max: the lower seed, an upset each time)."""
    data = settle(t)
    while data["winner"] is None:
        for s in [s for s in data["slots"] if s["status"] == "ready"]:
            cmd(t, director, type="report_result", slot=s["key"], winner=winner(s["players"]), score=[3, 1])
        data = settle(t)
    return data


def test_players_out_in_the_same_round_share_the_place_and_its_points(make_user, api):
    director = make_user("dora", official=True, player=False)
    seeds = [Player.objects.create(display_name=f"Seed {i}").pk for i in range(1, 9)]
    t = start(director, seeds, lengths={"main": {"default": 3}})
    Tournament.objects.filter(pk=t.pk).update(published=True)
    season = seasons.season_open(actor=director, name="Wall", rule=WALL, effective_from=date(2026, 1, 1))
    seasons.season_add_event(actor=director, season=season, tournament=t, on=date(2026, 3, 1))
    play_on_paper(director, t)
    projections.run_all()

    rows = api().get(f"/api/tournaments/{t.pk}/").json()["standings"]
    assert [(r["rank"], r["shared"], r["place"]) for r in rows] == [
        (1, False, "1"), (2, False, "2"), (3, True, "3="), (3, True, "3="),
        (5, True, "5="), (5, True, "5="), (5, True, "5="), (5, True, "5=")]
    semi_losers = [r["player_id"] for r in rows if r["rank"] == 3]
    assert sorted(semi_losers) == sorted(seeds[4:6])  # seeds 5 and 6, beaten in the semi-finals
    page = Client().get(f"/events/{t.pk}/").content.decode()
    assert page.count("<td>3=</td>") == 2 and page.count("<td>5=</td>") == 4

    semi = semi_losers[0]
    assert api().get(f"/api/players/{semi}/best-results/").json()[0]["place"] == 3
    assert api().get(f"/api/players/{semi}/best-results/").json()[0]["shared"] is True
    player_page = Client().get(f"/players/{semi}/").content.decode()
    assert player_page.count("<td>3=</td>") == 2  # best results, and results by event

    table = {r["player_id"]: r["total"] for r in api().get(f"/api/seasons/{season.pk}/").json()["table"]}
    assert [table[p] for p in semi_losers] == [3.0, 3.0]  # the mean of 3rd and 4th: 4 and 2
    assert sorted(table.values()) == [0.75] * 4 + [3.0, 3.0, 6.0, 10.0]
