"""The home page shows today's events first."""

import datetime

import pytest
from django.utils import timezone

from tournaments.models import Tournament

pytestmark = pytest.mark.django_db


def test_todays_events_come_first_then_the_others_latest_first(client):
    today = timezone.localdate()
    old = Tournament.objects.create(name="Autumn open", starts_on=today - datetime.timedelta(days=30))
    later = Tournament.objects.create(name="Next week", starts_on=today + datetime.timedelta(days=7))
    tonight = Tournament.objects.create(name="Tuesday night", starts_on=today)
    undated = Tournament.objects.create(name="Pick-up night")  # no start date, created today: today's
    Tournament.objects.create(name="Hidden", starts_on=today, published=False)
    Tournament.objects.filter(pk=old.pk).update(created_at=timezone.now() - datetime.timedelta(days=40))
    html = client.get("/").content.decode()
    today_part, others = html.split('id="today-title"')[1].split("Other events")
    assert "Tuesday night" in today_part and "Pick-up night" in today_part
    assert "Autumn open" not in today_part and "Next week" not in today_part and "Hidden" not in html
    assert others.index(later.name) < others.index(old.name)
    assert tonight.name not in others and undated.name not in others


def test_a_one_point_match_is_said_in_the_singular_in_english_and_french(client, api, make_user):
    from eventlog import projections

    alice, bob = make_user("alice"), make_user("bob")
    for length in (1, 3):
        answer = api(alice).post("/api/matches/", {"player0": alice.player.pk, "player1": bob.player.pk,
                                                   "length": length}, format="json")
        assert answer.status_code == 201, answer.json()
    projections.run_all()
    english = client.get("/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "<td>1 point</td>" in english and "<td>3 points</td>" in english and "1 points" not in english
    french = client.get("/", HTTP_ACCEPT_LANGUAGE="fr").content.decode()
    assert "<td>1 point</td>" in french and "<td>3 points</td>" in french and "1 points" not in french
