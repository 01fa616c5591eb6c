"""The console's clock rules: the director sets clocks required, allowed or none for a round from the console's
form (minutes and seconds, as directors count), sees the event's rules listed in their language, and a form that
does not say a whole rule records nothing."""

from __future__ import annotations

from html import unescape

import pytest
from django.urls import reverse
from django.utils.html import strip_tags

from eventlog.models import Event
from tournaments import services
from tournaments.stream import stream_id_of

from .test_console import director  # noqa: F401 (fixture: an official, logged in)

pytestmark = pytest.mark.django_db


@pytest.fixture
def event(director):  # noqa: F811
    return services.tournament_create(actor=director, name="Clocked Swiss", format="swiss", settings={"rounds": 4})


def _post(client, event, **form):
    return client.post(reverse("event-console", args=[event.pk]), {"action": "set_round_clock", **form}, follow=True)


def _page(client, event, language="en") -> str:
    return unescape(strip_tags(client.get(reverse("event-console", args=[event.pk]), HTTP_ACCEPT_LANGUAGE=language)
                               .content.decode()))


def test_the_director_sets_rules_from_the_console_and_sees_them_listed(client, director, event):  # noqa: F811
    assert "No clock rule" in _page(client, event)
    answer = _post(client, event, use="required", preset="us")
    assert "Done: set the clocks." in strip_tags(answer.content.decode())
    _post(client, event, use="allowed", preset="custom", round="3", per_match_minutes="20", delay_seconds="8",
          overtime_minutes="2")
    _post(client, event, use="none", round="4", bracket="swiss", preset="aba")  # no clocks: the preset is not sent
    rules = services.tournament_facts(event).config["clock"]
    assert rules == {"default": {"use": "required", "preset": "us"},
                     "3": {"use": "allowed", "preset": "custom", "per_match": 1200, "per_point": 0, "per_scored": 0,
                           "delay": 8, "overtime": 120},
                     "swiss:4": {"use": "none"}}
    page = _page(client, event)
    assert "Every match of the event clocks required (US)" in page
    assert ("Round 3 clocks allowed (custom: 20 min a match, 0 min a point, less 0 min a point scored, 8 s delay, "
            "2 min overtime)") in page
    assert "Bracket swiss, round 4 no clocks" in page
    french = _page(client, event, "fr")
    assert "Tous les matchs du tournoi pendules obligatoires (US)" in french
    assert "Tableau swiss, ronde 4 sans pendule" in french


@pytest.mark.parametrize("form, said", [
    ({"use": "sometimes", "preset": "us"}, "Choose required, allowed or no clocks"),
    ({"use": "required", "preset": "us", "round": "two"}, "The round must be a whole number"),
    ({"use": "required", "preset": "custom", "per_point_minutes": "-2"}, "Minutes a point cannot be negative"),
    ({"use": "required", "preset": "custom"}, "a custom clock gives 'per_point' or 'per_match'"),
    ({"use": "required", "preset": "us", "bracket": "Main bracket"}, "'bracket' is a bracket's name"),
])
def test_a_form_that_says_no_whole_rule_records_nothing(client, director, event, form, said):  # noqa: F811
    before = Event.objects.filter(stream_id=stream_id_of(event.pk)).count()
    answer = unescape(strip_tags(_post(client, event, **form).content.decode()))
    assert said in answer
    assert Event.objects.filter(stream_id=stream_id_of(event.pk)).count() == before
