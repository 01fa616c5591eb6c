"""The console's online rules: the director marks a round or the whole event online from the console's form (the
disconnect clock in minutes, the start deadline and the lateness in minutes), sees the rules listed in their
language, and the event's next matches are created online."""

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
    return services.tournament_create(actor=director, name="Online Swiss", format="swiss", settings={"rounds": 4})


def _post(client, event, **form):
    return client.post(reverse("event-console", args=[event.pk]), {"action": "set_round_online", **form}, follow=True)


def _page(client, event, language="en") -> str:
    return unescape(strip_tags(client.get(reverse("event-console", args=[event.pk]), HTTP_ACCEPT_LANGUAGE=language)
                               .content.decode()))


def test_the_director_marks_rounds_online_from_the_console_and_sees_them_listed(client, director, event):  # noqa: F811
    assert "Every match is played at the board." in _page(client, event)
    answer = _post(client, event, online="1", start_within="60", late="20", disconnect_minutes="3")
    assert "Done: set online play." in strip_tags(answer.content.decode())
    _post(client, event, online="0", round="4", late="20")
    assert services.tournament_facts(event).config["online"] == {
        "default": {"online": True, "disconnect": 180, "start_within": 60, "late": 20}, "4": {"online": False}}
    page = _page(client, event)
    assert ("Every round online, to start within 60 min of its pairing; a player 20 min late loses; "
            "disconnect clock 180 s") in page
    assert "Round 4 at the board" in page
    assert "Ronde 4 à la table" in _page(client, event, "fr")


def test_a_form_with_a_bad_figure_records_nothing(client, director, event):  # noqa: F811
    before = Event.objects.filter(stream_id=stream_id_of(event.pk)).count()
    answer = _post(client, event, online="1", late="twenty")
    assert "must be a whole number: nothing was recorded" in strip_tags(answer.content.decode())
    assert Event.objects.filter(stream_id=stream_id_of(event.pk)).count() == before
