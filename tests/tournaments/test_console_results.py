"""Running a whole event from the director's console, the one place an event is run (the admin's old run page leads
here): entries, check-in, the draw, results, forfeits, corrections and withdrawals, each a command through the
services; what the director did not say is never recorded (no winner by default, no score for a blank, a correction
only with its reason), a refusal shown and nothing changed. Moved here from the admin run page's tests when that
page was removed."""

import pytest
from django.urls import reverse

from eventlog.models import Event
from players.models import Player
from tournaments import services
from tournaments.models import Tournament
from tournaments.selectors import ladder_data, tournament_data

from .test_running_events import settle

pytestmark = pytest.mark.django_db


@pytest.fixture
def director(django_user_model, client):
    user = django_user_model.objects.create_user("dora", password="pw", is_staff=True, is_superuser=True)
    client.force_login(user)
    return user


def run(client, t, **form):
    response = client.post(reverse("event-console", args=[t.pk]), form)
    assert response.status_code == 302
    return tournament_data(t)


def said(client, t, **form) -> str:
    return client.post(reverse("event-console", args=[t.pk]), form, follow=True).content.decode()


def test_an_event_made_in_the_admin_is_run_from_the_console(client, director):
    players = [Player.objects.create(display_name=f"P{i}") for i in range(4)]
    response = client.post(reverse("admin:tournaments_tournament_add"),
                           {"name": "Club night", "format": "single_elimination", "length": "3", "published": "on"})
    assert response.status_code == 302
    t = Tournament.objects.get(name="Club night")
    console = reverse("event-console", args=[t.pk])
    assert console == f"/events/{t.pk}/run/"
    assert console in client.get(reverse("admin:tournaments_tournament_changelist")).content.decode()
    old = client.get(f"/admin/tournaments/tournament/{t.pk}/run/")
    assert old.status_code == 302 and old["Location"] == console  # the admin's old address leads to the console
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
    page = client.get(console)
    assert page.status_code == 200 and b'value="correct_result"' in page.content


def test_refusals_are_shown_and_change_nothing(client, director):
    t = services.tournament_create(actor=director, name="Empty night", format="swiss", settings={"rounds": 3})
    before = Event.objects.count()
    assert "at least two checked-in players" in said(client, t, action="draw")
    assert Event.objects.count() == before


def test_the_console_records_only_what_the_director_said(client, director):
    """No winner by default, no 7-0 for blank points, a correction's reason in the event's history."""
    players = [Player.objects.create(display_name=n) for n in ("Ann", "Bob", "Cid", "Dan")]
    t = services.tournament_create(actor=director, name="Club night", format="single_elimination",
                                   settings={"lengths": {"main": {"default": 7}}})
    for p in players:
        run(client, t, action="enter", player=p.pk)
    data = run(client, t, action="draw", method="random")
    first = [s for s in data["slots"] if s["round"] == 1]
    page = client.get(reverse("event-console", args=[t.pk])).content.decode()
    winner = page.split('<select name="winner"')[1].split("</select>")[0]
    assert winner.split("<option")[1].startswith(' value="">') and " selected" not in winner  # nobody chosen
    before = Event.objects.count()
    for form, why in (
        ({"action": "forfeit", "slot": first[0]["key"]}, "Choose who forfeits"),
        ({"action": "report_result", "slot": first[0]["key"], "winner": first[0]["players"][0]}, "Give both scores"),
        ({"action": "report_result", "slot": first[0]["key"], "winner": first[0]["players"][0],
          "winner_points": "7", "loser_points": ""}, "Give both scores"),
        ({"action": "report_result", "slot": first[0]["key"], "winner": first[0]["players"][0],
          "winner_points": "seven", "loser_points": "2"}, "must be a whole number"),
        ({"action": "report_result", "slot": first[0]["key"], "winner": first[0]["players"][0],
          "winner_points": "7", "loser_points": "-2"}, "cannot be negative"),
    ):
        assert why in said(client, t, **form)
        assert Event.objects.count() == before, form
    data = run(client, t, action="report_result", slot=first[0]["key"], winner=first[0]["players"][1],
               winner_points=7, loser_points=3)
    done = next(s for s in data["slots"] if s["key"] == first[0]["key"])
    assert (done["winner"], done["score"]) == (first[0]["players"][1], [7, 3])
    before = Event.objects.count()
    assert "Say why" in said(client, t, action="correct_result", slot=first[0]["key"], winner=first[0]["players"][0],
                             winner_points="7", loser_points="6")
    assert Event.objects.count() == before
    run(client, t, action="correct_result", slot=first[0]["key"], winner=first[0]["players"][0], winner_points=7,
        loser_points=6, reason="the scoresheet was misread")
    data = run(client, t, action="forfeit", slot=first[1]["key"], winner=first[1]["players"][1], reason="no-show")
    assert next(s for s in data["slots"] if s["key"] == first[1]["key"])["winner"] == first[1]["players"][1]
    for page in (client.get(reverse("event-console", args=[t.pk])), client.get(reverse("event-page", args=[t.pk]))):
        text = page.content.decode()
        assert "reason: the scoresheet was misread" in text and "result corrected" in text
        assert "forfeited" in text and "reason: no-show" in text


def test_the_console_offers_to_pair_a_swiss_round_only_when_the_event_does_not_pair_itself(client, director):
    """A Swiss event that pairs its rounds itself offers no "Pair next round"; one paired by hand does."""
    itself = services.tournament_create(actor=director, name="Swiss", format="swiss", settings={"rounds": 3})
    by_hand = services.tournament_create(actor=director, name="Swiss by hand", format="swiss",
                                         settings={"rounds": 3, "auto_pair": False})
    for t in (itself, by_hand):  # drawn: the board of matches is shown
        for name in ("Ann", "Bob", "Cid", "Dan"):
            player = Player.objects.get_or_create(display_name=name)[0].pk
            for kind in ("enter", "check_in"):
                services.tournament_command(actor=director, tournament=t, command={"type": kind, "player": player})
        services.tournament_command(actor=director, tournament=t, command={"type": "draw", "method": "random"})
        settle(t)
    page = client.get(reverse("event-console", args=[itself.pk])).content.decode()
    assert 'id="board"' in page and 'value="pair_round"' not in page
    page = client.get(reverse("event-console", args=[by_hand.pk])).content.decode()
    assert 'value="pair_round"' in page and "Pair the next round now" in page


def test_a_ladder_and_a_league_made_in_the_admin_are_run_from_the_console(client, director):
    """The admin form's ladder and league settings (reach, days, length, divisions) reach the events the console
    runs: challenges, a refusal, a newcomer after the draw, deadlines; a league's results and its next season drawn
    from its tables; the public page shows the ladder's history and the divisions' promotion and relegation."""
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
    assert "at most 2 rungs above them" in said(client, t, action="issue_challenge", challenger=rungs[3],
                                                defender=rungs[0])
    data = run(client, t, action="issue_challenge", challenger=rungs[3], defender=rungs[1])
    assert data["slots"][0]["match_id"] and data["slots"][0]["length"] == 5
    run(client, t, action="decline_challenge", number=1, reason="away")
    run(client, t, action="enter", player=players[4].pk)
    assert ladder_data(t)["rungs"][-1]["player_id"] == players[4].pk
    page = client.get(reverse("event-console", args=[t.pk]))
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
    page = client.get(reverse("event-console", args=[second.pk]))
    assert b"League 1" in page.content
    data = run(client, second, action="draw", method="previous", previous=first.pk)
    assert data["drawn"] and {s["bracket"] for s in data["slots"]} == {"d1", "d2"}
    assert "Done: apply deadlines" in said(client, second, action="apply_deadlines")
