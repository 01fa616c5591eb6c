"""The demo's director (``load_demo``) is a club's director with exactly a director's rights, not a
superuser's: whoever opens the demo's admin as the club's director sees neither the log, the projections'
checkpoints nor Celery's periodic tasks."""

import os

import pytest
from django.core.management import call_command

from players.models import Club
from seasons.models import Season
from tests.conftest import _set_replication_role
from tournaments.models import Tournament

# each test in a transaction rolled back at its end, over the demo loaded once for the module (below)
pytestmark = pytest.mark.django_db

MACHINERY = ("/admin/django_celery_beat/", "/admin/eventlog/", "/admin/auth/", "/admin/players/", "/admin/ratings/",
             "/admin/analysis/", "/admin/seasons/", "/admin/authtoken/", "/admin/axes/", "/admin/games/")


@pytest.fixture(scope="module")
def demo_loaded(django_db_setup, django_db_blocker):
    """The demo committed as `make run` commits it: each command of the demo's matches then starts from the match's
    record held since the last one (kept on commit, games/loading.py), not from a read of its stream. Loaded once
    (seconds of play): the tests change it only inside their own transactions; emptied at the end as a
    transactional test's database is."""
    from django.core.cache import cache

    with django_db_blocker.unblock():
        _set_replication_role("origin")
        call_command("load_demo", stdout=open(os.devnull, "w"))
        yield
        cache.clear()  # what the pages kept of the demo
        _set_replication_role("replica")  # the event log refuses DELETE but to the maintenance role
        call_command("flush", interactive=False, verbosity=0)


@pytest.fixture
def demo(demo_loaded, django_user_model):
    return django_user_model.objects.get(username="director")


def test_the_demo_admin_shows_the_clubs_director_their_events_and_none_of_the_machinery(demo, client):
    assert demo.is_staff and not demo.is_superuser
    assert not demo.get_all_permissions()  # no model permission, no Officials group: only what directing gives
    assert list(Club.objects.filter(directors=demo).values_list("name", flat=True)) == ["Crawford Demo Backgammon Club"]
    client.force_login(demo)
    index = client.get("/admin/").content.decode()
    assert "/admin/tournaments/tournament/" in index
    for path in MACHINERY:
        assert path not in index, path
    for path in ("/admin/django_celery_beat/periodictask/", "/admin/django_celery_beat/crontabschedule/",
                 "/admin/eventlog/projectioncheckpoint/", "/admin/eventlog/event/", "/admin/auth/user/"):
        assert client.get(path).status_code in (302, 403, 404), path
    listed = client.get("/admin/tournaments/tournament/").content.decode()
    for event in Tournament.objects.all():  # every demo event is theirs: listed, and run from the console
        assert event.name in listed
        assert client.get(f"/events/{event.pk}/run/").status_code == 200


def test_the_demo_director_runs_the_demo_season_and_not_another_clubs_event(demo, client, django_user_model):
    client.force_login(demo)
    season = Season.objects.get()
    assert 'id="controls"' in client.get(f"/seasons/{season.pk}/").content.decode()
    other = django_user_model.objects.create_user("oscar", password="pw-oscar")
    elsewhere = Club.objects.create(name="Cercle d'ailleurs")
    elsewhere.directors.add(other)
    from tournaments import services
    theirs = services.tournament_create(actor=other, name="Their night", format="single_elimination", club=elsewhere)
    assert client.get(f"/events/{theirs.pk}/run/").status_code == 403
    assert "Their night" not in client.get("/admin/tournaments/tournament/").content.decode()
