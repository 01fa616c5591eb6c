"""The admin as a club director sees it: a director who is staff but not a superuser sees the events, and creates
them under the club's name, but none of the site's machinery (periodic tasks, crontabs, projection checkpoints)."""

import pytest

from players.models import Club
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db

MACHINERY = ("Periodic tasks", "Crontabs", "Intervals", "Clocked", "Solar events", "Projection checkpoints",
             "Projection failures", "/admin/django_celery_beat/", "/admin/eventlog/")


@pytest.fixture
def club_director(django_user_model, client):
    user = django_user_model.objects.create_user("clara", password="pw-clara", is_staff=True)
    club = Club.objects.create(name="Cercle de Nîmes", country="FR")
    club.directors.add(user)
    client.force_login(user)
    return user


def test_a_club_director_sees_the_events_and_none_of_the_machinery(client, club_director):
    index = client.get("/admin/").content.decode()
    assert "/admin/tournaments/tournament/" in index
    for name in MACHINERY:
        assert name not in index, name
    assert client.get("/admin/django_celery_beat/periodictask/").status_code in (302, 403, 404)
    assert client.get("/admin/eventlog/projectioncheckpoint/").status_code in (302, 403, 404)


def test_a_club_director_creates_an_event_under_the_clubs_name_from_the_admin(client, club_director):
    club = Club.objects.get()
    assert 'id="id_consolation"' in client.get("/admin/tournaments/tournament/add/").content.decode()
    answer = client.post("/admin/tournaments/tournament/add/", {
        "name": "Jeudi", "club": club.pk, "format": "single_elimination", "length": "5", "dice": "server"})
    assert answer.status_code == 302
    assert Tournament.objects.get(name="Jeudi").club_id == club.pk


def test_the_event_log_is_read_only_in_the_admin(client, django_user_model):
    client.force_login(django_user_model.objects.create_user("root", password="pw", is_staff=True, is_superuser=True))
    assert client.get("/admin/eventlog/event/add/").status_code == 403


def test_the_event_lists_actions_read_in_the_directors_language(client, club_director):
    """The actions over the list of events (the draw, pairing a Swiss round) in French for a director who reads
    French, in English for one who reads English."""
    club = Club.objects.get()
    client.post("/admin/tournaments/tournament/add/", {
        "name": "Jeudi", "club": club.pk, "format": "single_elimination", "length": "5", "dice": "server"})
    assert Tournament.objects.filter(name="Jeudi").exists()  # a list with an event in it shows its actions
    french = client.get("/admin/tournaments/tournament/", HTTP_ACCEPT_LANGUAGE="fr").content.decode()
    assert ">Faire le tirage au sort (têtes de série au hasard)</option>" in french
    assert ">Apparier la ronde suivante (suisse)</option>" in french
    assert "Make the draw" not in french and "Pair the next round" not in french
    english = client.get("/admin/tournaments/tournament/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert ">Make the draw (random seeding)</option>" in english and ">Pair the next round (Swiss)</option>" in english
