"""A Swiss whose top six go on to a knockout with re-entry, run through the API and the services on PostgreSQL:
the refusals answer with their codes, the knockout is drawn from the Swiss table, a buy-back is played to the
end, and ``rebuild_projections`` gives the same read models."""

from __future__ import annotations

import pytest
from django.core.management import call_command
from django.forms.models import model_to_dict

from players.models import Player
from tournaments import services
from tournaments.models import TournamentSlot, TournamentStanding, TournamentState
from tournaments.selectors import tournament_data

from .test_running_events import settle, slot

pytestmark = pytest.mark.django_db
SETTINGS = {"rounds": 2, "qualifiers": 6, "auto_pair": True, "reentry": {"until_round": 1},
            "lengths": {"rounds": {"default": 3}, "main": {"default": 3}}}


def send(api, user, t, **command):
    return api(user).post(f"/api/tournaments/{t.pk}/commands/", command, format="json")


def decide_ready(api, director, t, bracket, pick=min):
    """Every ready slot of ``bracket`` reported on paper, won by ``pick`` of its two players."""
    data = settle(t)
    for s in data["slots"]:
        if s["bracket"] == bracket and s["status"] == "ready":
            answer = send(api, director, t, type="report_result", slot=s["key"], winner=pick(s["players"]),
                          score=[s["length"], 1])
            assert answer.status_code == 200, answer.json()
    return settle(t)


def test_a_swiss_then_a_knockout_with_a_reentry_played_to_the_end(api, make_user):
    director = make_user("dora", official=True, player=False)
    stranger = make_user("sam")
    field = [Player.objects.create(display_name=f"S{i}").pk for i in range(1, 9)]
    t = services.tournament_create(actor=director, name="Youth cup", format="swiss", settings=SETTINGS)
    for p in field:
        assert send(api, director, t, type="enter", player=p).status_code == 200
    assert send(api, director, t, type="draw", method="manual", seeds=field).status_code == 200

    data = decide_ready(api, director, t, "swiss")
    early = send(api, director, t, type="close_stage")
    assert early.status_code == 400 and early.json()["code"] == "stage_not_finished"
    assert send(api, stranger, t, type="close_stage").status_code == 403
    data = decide_ready(api, director, t, "swiss")
    assert data["stages"] == {"first": "swiss", "groups": 1, "qualifiers": 6, "closed": False, "table": [], "seeds": []}
    swiss_table = [r["player_id"] for r in data["standings"] if r["flight"] == "swiss"]

    closed = send(api, director, t, type="close_stage")
    assert closed.status_code == 200
    assert [e["type"] for e in closed.json()["appended"]] == ["StageClosed", "StageDrawMade"]
    data = settle(t)
    assert data["stages"]["seeds"] == swiss_table[:6] and data["stages"]["table"] == swiss_table
    seeds = data["stages"]["seeds"]
    assert slot(data, "main:r1:m1")["open_place"] and slot(data, "main:r1:m1")["status"] == "waiting"
    assert data["reentry"]["open"] == ["main:r1:m3", "main:r1:m1"] and data["reentry"]["eligible"] == []
    assert send(api, director, t, type="close_stage").json()["code"] == "stage_closed"

    # seed 5 loses to seed 4, buys back in and takes the place facing seed 2
    data = decide_ready(api, director, t, "main")
    loser = slot(data, "main:r1:m2")["players"][1]
    assert loser == seeds[4] and data["reentry"]["eligible"] == [seeds[4], seeds[5]]
    assert send(api, stranger, t, type="reenter", player=loser).status_code == 403
    assert send(api, director, t, type="reenter", player=seeds[0]).json()["code"] == "not_eliminated"
    assert send(api, director, t, type="reenter", player=loser).status_code == 200
    data = settle(t)
    place = slot(data, "main:r1:m3")
    assert place["players"] == [seeds[1], loser] and place["entries"] == [1, 2] and place["match_id"]
    assert send(api, director, t, type="reenter", player=loser).json()["code"] == "not_eliminated"
    assert send(api, director, t, type="close_reentry").status_code == 200
    data = settle(t)
    assert slot(data, "main:r1:m1")["status"] == "bye" and data["reentry"]["closed"]
    assert send(api, director, t, type="reenter", player=seeds[5]).json()["code"] == "reentry_closed"

    # the re-entrant wins through to the end on their second entry
    for _ in range(3):
        data = decide_ready(api, director, t, "main", pick=lambda ps: loser if loser in ps else min(ps))
    final = slot(data, "main:r3:m1")
    assert data["winner"] == loser and final["entries"][final["players"].index(loser)] == 2
    page = api().get(f"/events/{t.pk}/")
    assert page.status_code == 200 and b"entry 2" in page.content and b"Stage 2" in page.content

    def tables():
        return [[{k: v for k, v in model_to_dict(r).items() if k != "id"} for r in model.objects.order_by(*order)]
                for model, order in ((TournamentState, ["tournament_id"]), (TournamentSlot, ["tournament_id", "key"]),
                                     # a shared place's rows in the order they were derived in
                                     (TournamentStanding, ["tournament_id", "flight", "rank", "position"]))]

    before = tables()
    call_command("rebuild_projections", stdout=open("/dev/null", "w"))
    assert tables() == before
    assert tournament_data(t)["reentry"]["made"] == [{"player": loser, "place": "main:r1:m3", "entry": 2}]


def test_settings_refused_by_name(api, make_user):
    director = make_user("dora", official=True, player=False)
    answer = api(director).post("/api/tournaments/", {"name": "x", "format": "single_elimination",
                                                      "settings": {"qualifiers": 4}}, format="json")
    assert answer.status_code == 400 and "qualifiers" in answer.json()["detail"]


def test_a_round_robin_in_groups_then_a_knockout(api, make_user):
    director = make_user("dora", official=True, player=False)
    field = [Player.objects.create(display_name=f"G{i}").pk for i in range(1, 9)]
    t = services.tournament_create(actor=director, name="Groups", format="round_robin",
                                   settings={"groups": 2, "qualifiers": 4, "lengths": {"rounds": {"default": 3}}})
    for p in field:
        send(api, director, t, type="enter", player=p)
    send(api, director, t, type="draw", method="manual", seeds=field)
    data = decide_ready(api, director, t, "group1")
    data = decide_ready(api, director, t, "group2")
    assert {r["flight"] for r in data["standings"]} == {"group1", "group2"}
    assert send(api, director, t, type="close_stage").status_code == 200
    data = settle(t)
    a, b = [field[i] for i in (0, 3)], [field[i] for i in (1, 2)]  # snake: A holds seeds 1 4 5 8, B 2 3 6 7
    assert data["stages"]["seeds"] == [a[0], b[0], a[1], b[1]] and data["stages"]["groups"] == 2
    assert [set(s["players"]) for s in data["slots"] if s["bracket"] == "main" and s["round"] == 1] == [
        {a[0], b[1]}, {b[0], a[1]}]
    page = api().get(f"/events/{t.pk}/").content.decode()
    assert "Stage 1 · Group A" in page and "Round robin in 2 groups" in page and "Group B · 1" in page
