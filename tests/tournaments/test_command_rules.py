"""A command's rules across its fields (a manual draw lists its seeds, a forfeit names one player) refuse with a
reason as data: the text in the reader's language, from the API as from a plain
dict (tournaments/commands.py ``Rule``)."""

import pytest

from players.models import Player
from tests.refusals import refused
from tournaments import commands, services
from tournaments.refusals import BadCommand, Reason

pytestmark = pytest.mark.django_db


def test_a_rule_across_fields_refuses_a_plain_dict_with_its_reason():
    with refused(BadCommand, Reason.BAD_SEEDS):
        commands.parse({"type": "draw", "method": "manual"})
    with refused(BadCommand, Reason.TWO_PLAYERS_APART):
        commands.parse({"type": "forbid", "players": [1, 1]})


def test_the_api_says_a_rule_in_the_readers_language(make_user, api):
    director = make_user("dora", official=True)
    t = services.tournament_create(actor=director, name="Night", format="single_elimination")
    for name in ("Ada", "Bruno"):
        p = Player.objects.create(display_name=name).pk
        services.tournament_command(actor=director, tournament=t, command={"type": "enter", "player": p})
    url = f"/api/tournaments/{t.pk}/commands/"
    english = api(director).post(url, {"type": "draw", "method": "manual"}, format="json")
    french = api(director).post(url, {"type": "draw", "method": "manual"}, format="json", HTTP_ACCEPT_LANGUAGE="fr")
    assert english.status_code == french.status_code == 400
    # a field's refusal, named by the field as DRF names its own
    assert english.json() == {"seeds": ["'seeds' must list every checked-in player exactly once"]}
    assert french.json() == {"seeds": ["« seeds » doit citer chaque joueur pointé exactement une fois"]}
