"""A forfeit named by the player who forfeits (the absent one): the other wins. The console offers one button per
player ("Victor forfeits") instead of asking who won; the API's forfeit takes ``loser`` as well as ``winner`` (one
of the two), so the old bodies keep working."""

import pytest
from django.urls import reverse

from eventlog.models import Event
from players.models import Player
from tests.tournaments.test_running_events import settle, start
from tournaments.selectors import tournament_data

pytestmark = pytest.mark.django_db


@pytest.fixture
def director(make_user):
    return make_user("dora", player=False)


def a_first_round(director):
    ids = {n: Player.objects.create(display_name=n).pk for n in ("Ada", "Victor", "Bruno", "Chloé")}
    t = start(director, [ids["Ada"], ids["Chloé"], ids["Bruno"], ids["Victor"]], lengths={"main": {"default": 3}})
    data = settle(t)
    slot = next(s for s in data["slots"] if ids["Victor"] in s["players"])
    assert set(slot["players"]) == {ids["Ada"], ids["Victor"]}
    return t, ids, slot


def slot_now(t, key):
    return next(s for s in tournament_data(t)["slots"] if s["key"] == key)


def test_the_api_takes_the_player_who_forfeits(director, api):
    t, ids, slot = a_first_round(director)
    client = api(director)
    url = f"/api/tournaments/{t.pk}/commands/"
    answer = client.post(url, {"type": "forfeit", "slot": slot["key"], "loser": ids["Victor"]}, format="json")
    assert answer.status_code == 200, answer.content
    (forfeited,) = [e["payload"] for e in answer.json()["appended"] if e["type"] == "MatchForfeited"]
    assert (forfeited["winner"], forfeited["loser"]) == (ids["Ada"], ids["Victor"])
    settle(t)
    now = slot_now(t, slot["key"])
    assert now["winner"] == ids["Ada"] and now["forfeit"]


def test_the_api_still_takes_the_winner_and_refuses_both_or_neither_or_a_stranger(director, api):
    t, ids, slot = a_first_round(director)
    client = api(director)
    url = f"/api/tournaments/{t.pk}/commands/"
    before = Event.objects.count()
    for body in ({"loser": ids["Victor"], "winner": ids["Ada"]}, {}):
        answer = client.post(url, {"type": "forfeit", "slot": slot["key"], **body}, format="json")
        assert answer.status_code == 400 and "one of the two" in answer.content.decode(), answer.content
    answer = client.post(url, {"type": "forfeit", "slot": slot["key"], "loser": ids["Bruno"]}, format="json")
    assert answer.status_code == 400 and "player who forfeits must be one of the slot's players" in answer.json()["detail"]
    assert Event.objects.count() == before
    answer = client.post(url, {"type": "forfeit", "slot": slot["key"], "winner": ids["Victor"]}, format="json")
    assert answer.status_code == 200
    settle(t)
    assert slot_now(t, slot["key"])["winner"] == ids["Victor"]


def test_the_console_forfeit_names_who_forfeits_and_the_other_wins(client, director):
    t, ids, slot = a_first_round(director)
    client.force_login(director)
    page = client.get(reverse("event-console", args=[t.pk])).content.decode()
    assert f'<button name="forfeit" value="{ids["Victor"]}">Victor forfeits</button>' in page
    assert f'<button name="forfeit" value="{ids["Ada"]}">Ada forfeits</button>' in page
    assert 'value="forfeit">Forfeit<' not in page  # no "who won?" for a forfeit
    # the winner box left as it was (nobody), or even set to the absent player: the button decides
    response = client.post(reverse("event-console", args=[t.pk]),
                           {"slot": slot["key"], "winner": str(ids["Victor"]), "reason": "", "forfeit": ids["Victor"]})
    assert response.status_code == 302
    settle(t)
    now = slot_now(t, slot["key"])
    assert now["winner"] == ids["Ada"] and now["forfeit"]
