"""The e-mail telling a player where to play is written in that player's language: the
language the club's member list gives, the one the player chose with the switch while logged in, or through the API;
the site's language for a player who never said. Each of the two players of one match reads it in their own."""

import pytest
from django.core import mail
from django.urls import reverse

from players.models import Player
from tournaments import console as console_service
from tournaments import notices, services
from tournaments.models import MatchNotice
from tournaments.selectors import tournament_data

pytestmark = pytest.mark.django_db

FOUR = "Anne, anne@example.org, C1, fr\nBob, bob@example.org, C2, en\nCléo, cleo@example.org, C3, Français\n" \
       "Dan, dan@example.org, C4"


@pytest.fixture
def director(make_user, client):
    user = make_user("dora", official=True, player=False)
    client.force_login(user)
    return user


def console(client, event, **form) -> str:
    response = client.post(reverse("event-console", args=[event.pk]), form, follow=True)
    assert response.status_code == 200
    return response.content.decode()


def mail_to(address: str):
    (found,) = [m for m in mail.outbox if m.to == [address]]
    return found


def drawn(client, director, members: str, seeds: list[str]):
    event = services.tournament_create(actor=director, name="Jeudi", format="single_elimination",
                                       settings={"lengths": {"main": {"default": 3}}})
    assert "members entered" in console(client, event, action="import", members=members)
    console(client, event, action="check_in_all")
    order = [Player.objects.get(display_name=n).pk for n in seeds]
    services.tournament_command(actor=director, tournament=event,
                                command={"type": "draw", "method": "manual", "seeds": order})
    console_service.settle(event)  # the process manager makes the matches; the notices' follower, a notice each
    for notice in MatchNotice.objects.filter(tournament_id=event.pk):
        notices.match_notice_send(notice.match_id)
    return event


def test_the_players_of_one_match_read_its_email_each_in_their_language(client, director):
    drawn(client, director, FOUR, ["Anne", "Cléo", "Dan", "Bob"])  # seeds 1-4 and 2-3: Anne v Bob, Cléo v Dan
    assert dict(Player.objects.values_list("display_name", "language")) == {
        "Anne": "fr", "Bob": "en", "Cléo": "fr", "Dan": ""}
    anne, bob = mail_to("anne@example.org"), mail_to("bob@example.org")
    assert "votre match est prêt à la table" in anne.subject
    assert "Votre prochain match de Jeudi est prêt." in anne.body and "Adversaire : Bob" in anne.body
    assert "Demi-finale" in anne.body and "Longueur" in anne.body
    assert "your match is ready at table" in bob.subject
    assert "Your next match in Jeudi is ready." in bob.body and "Opponent: Anne" in bob.body
    assert "Semi-final" in bob.body and "Demi" not in bob.body
    # a language the member list spells out is the site's code; nobody said for Dan: the site's language
    assert "Adversaire : Dan" in mail_to("cleo@example.org").body
    assert "Opponent: Cléo" in mail_to("dan@example.org").body


def test_a_list_naming_a_language_the_site_does_not_speak_is_refused_whole(client, director):
    event = services.tournament_create(actor=director, name="Jeudi", format="single_elimination")
    html = console(client, event, action="import", members="Anne, anne@example.org, C1, klingon")
    assert "Nothing was imported" in html and "klingon is not a language of the site" in html
    assert not Player.objects.exists()


def test_a_logged_in_player_chooses_the_language_of_their_emails_with_the_switch(client, director, make_user):
    bob = make_user("bob")
    bob_player = Player.objects.get(user=bob)
    bob_player.email = "bob@example.org"
    bob_player.save()
    player = client.__class__()
    player.force_login(bob)
    answer = player.post(reverse("set_language"), {"language": "fr", "next": "/"})
    assert answer.status_code == 302 and answer.cookies["django_language"].value == "fr"
    bob_player.refresh_from_db()
    assert bob_player.language == "fr"
    # a visitor's switch remembers the page's language only: nobody's e-mails change
    client.__class__().post(reverse("set_language"), {"language": "en", "next": "/"})
    bob_player.refresh_from_db()
    assert bob_player.language == "fr"

    drawn(client, director, f"{bob_player.display_name}, bob@example.org, C9\nAnne, anne@example.org, C1, en",
          [bob_player.display_name, "Anne"])
    assert "Adversaire : Anne" in mail_to("bob@example.org").body
    assert "Opponent: " in mail_to("anne@example.org").body


def test_the_player_reads_and_sets_their_language_through_the_api(api, make_user):
    ann = make_user("ann")
    me = api(ann).get("/api/players/me/").json()
    assert me["language"] == "" and me["written_in"] == "en"
    answer = api(ann).patch("/api/players/me/", {"language": "fr"}, format="json")
    assert answer.status_code == 200 and answer.json()["written_in"] == "fr"
    assert Player.objects.get(user=ann).language == "fr"
    refused = api(ann).patch("/api/players/me/", {"language": "xx"}, format="json")
    assert refused.status_code == 400 and Player.objects.get(user=ann).language == "fr"
    assert api(make_user("nobody", player=False)).get("/api/players/me/").status_code == 404
    assert api(None).get("/api/players/me/").status_code in (401, 403)
