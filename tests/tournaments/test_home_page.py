"""The home page shows today's events first (issue 17, item 8)."""

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
