"""The console's controls for what the event's format offers (stages, re-entry, ladder, league) and rated or
unrated, through its POSTs: each a command through the services, a refusal shown and changing nothing, and
nobody but the director (or an official) sending them."""

import pytest
from django.urls import reverse

from eventlog.models import Event
from players.models import Player
from tournaments import services
from tournaments.selectors import ladder_data, tournament_data, tournament_facts

from .test_running_events import settle, slot

pytestmark = pytest.mark.django_db
STAGED = {"rounds": 2, "qualifiers": 6, "auto_pair": True, "reentry": {"until_round": 1},
          "lengths": {"rounds": {"default": 3}, "main": {"default": 3}}}


@pytest.fixture
def director(make_user, client):
    user = make_user("dora")
    client.force_login(user)
    return user


def post(client, t, **form):
    response = client.post(reverse("event-console", args=[t.pk]), form, follow=True)
    assert response.status_code == 200
    return response.content.decode()


def page(client, t) -> str:
    return client.get(reverse("event-console", args=[t.pk])).content.decode()


def started(director, fmt, n, **settings):
    field = [Player.objects.create(display_name=f"{fmt[:2].upper()}{i}").pk for i in range(1, n + 1)]
    t = services.tournament_create(actor=director, name=f"Club {fmt}", format=fmt, settings=settings)
    for p in field:
        services.tournament_command(actor=director, tournament=t, command={"type": "enter", "player": p})
    services.tournament_command(actor=director, tournament=t, command={"type": "draw", "method": "manual", "seeds": field})
    settle(t)
    return t, field


def decide(client, t, bracket, pick=min):
    for s in settle(t)["slots"]:
        if s["bracket"] == bracket and s["status"] == "ready":
            post(client, t, action="report_result", slot=s["key"], winner=pick(s["players"]), winner_points=s["length"],
                 loser_points=1)
    return settle(t)


def test_stage_one_closed_from_the_console_then_a_reentry(client, director):
    t, field = started(director, "swiss", 8, **STAGED)
    html = page(client, t)
    assert "Close stage one" in html and "Re-enter " not in html and "close_reentry" not in html
    decide(client, t, "swiss")
    before = Event.objects.count()
    html = post(client, t, action="close_stage")
    assert "of stage one undecided" in html and "Done: close stage" not in html  # the refusal, shown
    assert Event.objects.count() == before and not tournament_data(t)["stages"]["closed"]

    decide(client, t, "swiss")
    html = post(client, t, action="close_stage")
    data = settle(t)
    assert data["stages"]["closed"] and len(data["stages"]["seeds"]) == 6
    html = page(client, t)
    assert "The qualifiers" in html and "Close stage one" not in html
    for p in Player.objects.filter(pk__in=data["stages"]["seeds"]):
        assert p.display_name in html

    data = decide(client, t, "main")
    eligible = data["reentry"]["eligible"]
    assert eligible
    html = page(client, t)
    names = dict(Player.objects.filter(pk__in=field).values_list("pk", "display_name"))
    for p in eligible:
        assert f"Re-enter {names[p]}" in html
    winner = next(p for p in data["stages"]["seeds"] if p not in eligible)
    before = Event.objects.count()
    html = post(client, t, action="reenter", player=winner)  # not eliminated: refused, nothing recorded
    assert "Done: reenter" not in html and Event.objects.count() == before
    assert "only a player knocked out of the main bracket re-enters" in html
    post(client, t, action="reenter", player=eligible[0])
    data = settle(t)
    assert data["reentry"]["made"][0]["player"] == eligible[0]
    post(client, t, action="close_reentry")
    data = settle(t)
    assert data["reentry"]["closed"]
    html = page(client, t)
    assert "Re-entry is closed" in html and "close_reentry" not in html


def test_a_ladders_challenges_and_deadlines_from_the_console(client, director):
    t, field = started(director, "ladder", 5, reach=2, challenge_days=3)
    rungs = [r["player_id"] for r in ladder_data(t)["rungs"]]
    assert "Issue the challenge" in page(client, t) and "Apply the deadlines now" in page(client, t)
    before = Event.objects.count()
    html = post(client, t, action="issue_challenge", challenger=rungs[4], defender=rungs[0])  # beyond the reach
    assert Event.objects.count() == before and not ladder_data(t)["open"]
    assert "at most 2 rungs above them" in html and "Done: issue challenge" not in html
    assert "Choose the challenger" in post(client, t, action="issue_challenge", challenger=rungs[4])
    post(client, t, action="issue_challenge", challenger=rungs[3], defender=rungs[1])
    open_ = ladder_data(t)["open"]
    assert [(c["challenger"], c["defender"]) for c in open_] == [(rungs[3], rungs[1])]
    html = page(client, t)
    assert f"{open_[0]['names'][1]} declines" in html
    post(client, t, action="decline_challenge", number=open_[0]["number"], reason="away")
    after = ladder_data(t)
    assert not after["open"] and after["history"][0]["how"] == "refused"  # a walkover by default
    rungs = [r["player_id"] for r in after["rungs"]]
    assert rungs[1] == open_[0]["challenger"]
    assert "Done: apply deadlines" in post(client, t, action="apply_deadlines")
    assert [r["player_id"] for r in ladder_data(t)["rungs"]] == rungs  # nothing was past its deadline


def test_a_leagues_next_season_drawn_from_the_console(client, director):
    first, field = started(director, "league", 4, division_size=2, promote=1, relegate=1)
    decide(client, first, "d1", pick=max)
    decide(client, first, "d2", pick=max)
    second = services.tournament_create(actor=director, name="Next season", format="league", settings={"division_size": 2})
    for p in field:
        services.tournament_command(actor=director, tournament=second, command={"type": "enter", "player": p})
    html = page(client, second)
    assert "Next season of" in html and "Club league" in html
    assert "Next season of" not in page(client, first)
    post(client, second, action="draw", method="previous", previous=first.pk)
    data = settle(second)
    assert data["drawn"] and {s["bracket"] for s in data["slots"]} == {"d1", "d2"}


def test_a_leagues_deadlines_from_the_console(client, director):
    t, _ = started(director, "league", 4, division_size=2, round_days=7)
    html = page(client, t)
    assert "Apply the deadlines now" in html and "Round 1" in html and "Issue the challenge" not in html
    assert "Done: apply deadlines" in post(client, t, action="apply_deadlines")


def test_only_a_formats_own_controls_are_shown(client, director):
    t, _ = started(director, "single_elimination", 4)
    html = page(client, t)
    for absent in ("Close stage one", "close_reentry", "Issue the challenge", "Apply the deadlines now"):
        assert absent not in html
    assert "Make the event unrated" in html


def test_the_event_and_a_match_rated_or_unrated(client, director):
    t, _ = started(director, "single_elimination", 4)
    key = settle(t)["slots"][0]["key"]
    post(client, t, action="set_rated", rated="0")
    assert not tournament_facts(t).event_rated
    assert "The event is unrated" in page(client, t)
    post(client, t, action="set_rated", rated="1", slot=key)
    facts = tournament_facts(t)
    assert facts.slot_rated(key) and not facts.slot_rated(settle(t)["slots"][1]["key"])
    before = Event.objects.count()
    assert "Say rated or unrated" in post(client, t, action="set_rated", rated="maybe")
    html = post(client, t, action="set_rated", rated="0", slot="main:r9:m9")
    assert "main:r9:m9" in html and Event.objects.count() == before


def test_others_may_not_send_them(client, director, make_user):
    t, field = started(director, "ladder", 4)
    rungs = [r["player_id"] for r in ladder_data(t)["rungs"]]
    client.force_login(make_user("pat"))
    before = Event.objects.count()
    url = reverse("event-console", args=[t.pk])
    for form in ({"action": "issue_challenge", "challenger": rungs[2], "defender": rungs[1]},
                 {"action": "apply_deadlines"}, {"action": "set_rated", "rated": "0"}, {"action": "close_stage"},
                 {"action": "close_reentry"}, {"action": "reenter", "player": field[0]},
                 {"action": "decline_challenge", "number": 1}):
        assert client.post(url, form).status_code == 403
    assert Event.objects.count() == before and tournament_facts(t).event_rated
