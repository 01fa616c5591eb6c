"""The director's run-the-event page in the admin: every button goes through the services."""

import pytest
from django.urls import reverse

from eventlog.models import Event
from players.models import Player
from tournaments.models import Tournament
from tournaments.selectors import ladder_data, tournament_data

pytestmark = pytest.mark.django_db


@pytest.fixture
def director(django_user_model, client):
    user = django_user_model.objects.create_user("dora", password="pw", is_staff=True, is_superuser=True)
    client.force_login(user)
    return user


def run(client, t, **form):
    response = client.post(reverse("admin:tournaments_tournament_run", args=[t.pk]), form)
    assert response.status_code == 302
    return tournament_data(t)


def test_a_whole_event_from_the_admin(client, director):
    players = [Player.objects.create(display_name=f"P{i}") for i in range(4)]
    response = client.post(reverse("admin:tournaments_tournament_add"),
                           {"name": "Club night", "format": "single_elimination", "length": "3", "published": "on"})
    assert response.status_code == 302
    t = Tournament.objects.get(name="Club night")
    for p in players:
        run(client, t, action="enter", player=p.pk)
        run(client, t, action="check_in", player=p.pk)
    data = run(client, t, action="draw", method="random")
    first = [s for s in data["slots"] if s["round"] == 1]
    assert len(first) == 2 and all(s["match_id"] for s in first)
    data = run(client, t, action="report_result", slot=first[0]["key"], winner=first[0]["players"][0],
               winner_points=3, loser_points=1)
    data = run(client, t, action="forfeit", slot=first[1]["key"], winner=first[1]["players"][1])
    final = next(s for s in data["slots"] if s["round"] == 2)
    assert set(final["players"]) == {first[0]["players"][0], first[1]["players"][1]}
    data = run(client, t, action="correct_result", slot=first[0]["key"], winner=first[0]["players"][1],
               winner_points=3, loser_points=2, reason="scoresheet")
    final = next(s for s in data["slots"] if s["round"] == 2)
    assert first[0]["players"][1] in final["players"]
    data = run(client, t, action="withdraw", player=first[1]["players"][1])
    assert data["winner"] == first[0]["players"][1]
    page = client.get(reverse("admin:tournaments_tournament_run", args=[t.pk]))
    assert page.status_code == 200 and b"Correct result" in page.content


def test_refusals_are_shown_and_change_nothing(client, director):
    from tournaments import services

    t = services.tournament_create(actor=director, name="Empty night", format="swiss", settings={"rounds": 3})
    before = Event.objects.count()
    response = client.post(reverse("admin:tournaments_tournament_run", args=[t.pk]), {"action": "draw"}, follow=True)
    assert b"at least two checked-in players" in response.content
    assert Event.objects.count() == before


def test_the_event_log_is_read_only_in_the_admin(client, director):
    response = client.get("/admin/eventlog/event/add/")
    assert response.status_code == 403


def test_the_run_page_records_only_what_the_director_said(client, director):
    """No winner by default, no 7-0 for blank points, a correction's reason in the event's history (issue 16.4)."""
    from tournaments import services

    players = [Player.objects.create(display_name=n) for n in ("Ann", "Bob", "Cid", "Dan")]
    t = services.tournament_create(actor=director, name="Club night", format="single_elimination",
                                   settings={"lengths": {"main": {"default": 7}}})
    for p in players:
        run(client, t, action="enter", player=p.pk)
    data = run(client, t, action="draw", method="random")
    first = [s for s in data["slots"] if s["round"] == 1]
    page = client.get(reverse("admin:tournaments_tournament_run", args=[t.pk])).content.decode()
    assert '<option value="" selected>— winner? —</option>' in page
    before = Event.objects.count()
    url = reverse("admin:tournaments_tournament_run", args=[t.pk])
    for form, said in (
        ({"action": "forfeit", "slot": first[0]["key"]}, "Choose the winner"),
        ({"action": "report_result", "slot": first[0]["key"], "winner": first[0]["players"][0]}, "Give both scores"),
        ({"action": "report_result", "slot": first[0]["key"], "winner": first[0]["players"][0],
          "winner_points": "7", "loser_points": ""}, "Give both scores"),
        ({"action": "report_result", "slot": first[0]["key"], "winner": first[0]["players"][0],
          "winner_points": "seven", "loser_points": "2"}, "must be a whole number"),
    ):
        answer = client.post(url, form, follow=True)
        assert said in answer.content.decode()
        assert Event.objects.count() == before, form
    data = run(client, t, action="report_result", slot=first[0]["key"], winner=first[0]["players"][1],
               winner_points=7, loser_points=3)
    done = next(s for s in data["slots"] if s["key"] == first[0]["key"])
    assert (done["winner"], done["score"]) == (first[0]["players"][1], [7, 3])
    answer = client.post(url, {"action": "correct_result", "slot": first[0]["key"], "winner": first[0]["players"][0],
                               "winner_points": "7", "loser_points": "6"}, follow=True)
    assert "Say why" in answer.content.decode()
    run(client, t, action="correct_result", slot=first[0]["key"], winner=first[0]["players"][0], winner_points=7,
        loser_points=6, reason="the scoresheet was misread")
    data = run(client, t, action="forfeit", slot=first[1]["key"], winner=first[1]["players"][1], reason="no-show")
    assert next(s for s in data["slots"] if s["key"] == first[1]["key"])["winner"] == first[1]["players"][1]
    for page in (client.get(url), client.get(reverse("event-page", args=[t.pk]))):
        text = page.content.decode()
        assert "reason: the scoresheet was misread" in text and "result corrected" in text
        assert "forfeited" in text and "reason: no-show" in text


def test_a_ladder_and_a_league_from_the_run_page(client, director):
    """The director's controls of a ladder (challenge, decline, newcomer, deadlines) and a league (the next season
    drawn from the previous one's tables) on the run page; the public page shows the ladder and the divisions."""
    players = [Player.objects.create(display_name=f"L{i}") for i in range(5)]
    response = client.post(reverse("admin:tournaments_tournament_add"),
                           {"name": "Ladder", "format": "ladder", "length": "5", "published": "on", "reach": "2",
                            "challenge_days": "3"})
    assert response.status_code == 302
    t = Tournament.objects.get(name="Ladder")
    for p in players[:4]:
        run(client, t, action="enter", player=p.pk)
    run(client, t, action="draw", method="random")
    rungs = [r["player_id"] for r in ladder_data(t)["rungs"]]
    data = run(client, t, action="issue_challenge", challenger=rungs[3], defender=rungs[1])
    assert data["slots"][0]["match_id"] and data["slots"][0]["length"] == 5
    run(client, t, action="decline_challenge", number=1, reason="away")
    run(client, t, action="enter", player=players[4].pk)
    page = client.get(reverse("admin:tournaments_tournament_run", args=[t.pk]))
    assert b"Issue the challenge" in page.content and b"Apply the deadlines now" in page.content
    public = client.get(reverse("event-page", args=[t.pk])).content.decode()
    assert "Ladder history" in public and "challenge refused" in public and "L4" in public

    response = client.post(reverse("admin:tournaments_tournament_add"),
                           {"name": "League 1", "format": "league", "published": "on", "division_size": "2",
                            "round_days": "7", "promote": "1", "relegate": "1"})
    first = Tournament.objects.get(name="League 1")
    for p in players[:4]:
        run(client, first, action="enter", player=p.pk)
    data = run(client, first, action="draw", method="random")
    for s in data["slots"]:
        run(client, first, action="report_result", slot=s["key"], winner=s["players"][1], winner_points=7,
            loser_points=0)
    public = client.get(reverse("event-page", args=[first.pk])).content.decode()
    assert "Division 2" in public and "▲" in public and "▼" in public
    client.post(reverse("admin:tournaments_tournament_add"), {"name": "League 2", "format": "league",
                                                              "division_size": "2"})
    second = Tournament.objects.get(name="League 2")
    for p in players[:4]:
        run(client, second, action="enter", player=p.pk)
    page = client.get(reverse("admin:tournaments_tournament_run", args=[second.pk]))
    assert b"League 1" in page.content
    data = run(client, second, action="draw", method="previous", previous=first.pk)
    assert data["drawn"] and {s["bracket"] for s in data["slots"]} == {"d1", "d2"}
    run(client, second, action="apply_deadlines")


def test_the_run_page_offers_to_pair_a_swiss_round_only_when_the_event_does_not_pair_itself(client, director):
    """Issue 17, "Measured": Swiss rounds paired themselves while "Pair next round" was offered."""
    from tests.tournaments.test_running_events import settle
    from tournaments import services

    itself = services.tournament_create(actor=director, name="Swiss", format="swiss", settings={"rounds": 3})
    by_hand = services.tournament_create(actor=director, name="Swiss by hand", format="swiss",
                                         settings={"rounds": 3, "auto_pair": False})
    for t in (itself, by_hand):  # drawn: the matches' part of the page is shown
        for name in ("Ann", "Bob", "Cid", "Dan"):
            player = Player.objects.get_or_create(display_name=name)[0].pk
            for kind in ("enter", "check_in"):
                services.tournament_command(actor=director, tournament=t, command={"type": kind, "player": player})
        services.tournament_command(actor=director, tournament=t, command={"type": "draw", "method": "random"})
        settle(t)
    page = client.get(reverse("admin:tournaments_tournament_run", args=[itself.pk])).content.decode()
    assert "<h2>Matches</h2>" in page and 'value="pair_round"' not in page
    page = client.get(reverse("admin:tournaments_tournament_run", args=[by_hand.pk])).content.decode()
    assert 'value="pair_round"' in page and "Pair the next round now" in page
