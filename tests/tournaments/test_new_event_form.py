"""The admin's new-event form says every knockout setting without JSON (consolation, last chance, double
elimination); a combination the formats refuse is a form error that creates nothing."""

import pytest

from tournaments.models import Tournament
from tournaments.selectors import tournament_facts

pytestmark = pytest.mark.django_db

ADD = "/admin/tournaments/tournament/add/"


@pytest.fixture
def official(django_user_model, client):  # as the browser tests create events: with the admin's add permission
    user = django_user_model.objects.create_superuser("olga", password="pw-olga")
    client.force_login(user)
    return user


def form(**fields):
    return {"name": "Club night", "format": "single_elimination", "length": "3", "dice": "server",
            "published": "on", **fields}


def settings_of(name: str) -> dict:
    return tournament_facts(Tournament.objects.get(name=name)).config  # as the event's stream records them


def test_the_form_offers_consolation_last_chance_and_the_grand_final_reset(client, official):
    page = client.get(ADD).content.decode()
    for field in ("id_consolation", "id_consolation_feeds", "id_last_chance", "id_reset"):
        assert f'id="{field}"' in page
    answer = client.post(ADD, form(consolation="on", consolation_feeds="2", last_chance="on"))
    assert answer.status_code == 302, answer.content.decode()[:2000]
    stored = settings_of("Club night")
    assert stored["consolation"] is True and stored["consolation_feeds"] == 2 and stored["last_chance"] is True
    answer = client.post(ADD, form(name="Double", format="double_elimination"))  # reset left unticked
    assert answer.status_code == 302
    assert settings_of("Double")["reset"] is False


def test_a_last_chance_without_a_consolation_is_a_form_error_and_creates_nothing(client, official):
    answer = client.post(ADD, form(last_chance="on"))
    assert answer.status_code == 200
    assert "a Last Chance flight is fed by the Consolation" in answer.content.decode()
    assert not Tournament.objects.filter(name="Club night").exists()
    answer = client.post(ADD, form(format="swiss"))  # a Swiss event without its number of rounds
    assert answer.status_code == 200 and "needs a number of rounds" in answer.content.decode()
    assert not Tournament.objects.exists()
