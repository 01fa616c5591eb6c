"""Crawford flags per game: the projection's reading of the scores agrees with the engine and with gnubg."""

import random
from types import SimpleNamespace

import pytest

from eventlog import projections
from games import services, streams
from games.crawford import game_flags
from games.engine.matfile import read_mat
from games.models import GameSummary
from players.models import Player
from tests.games.engine.test_matfile import INDEX, MATCHES
from tests.games.engine.test_properties import play_random_match


def rows(events):
    return [SimpleNamespace(event_type=t, payload=p) for t, p in map(streams.engine_payload, events)]


@pytest.mark.parametrize("path", MATCHES, ids=lambda p: p.name)
def test_flags_agree_with_the_engine_and_gnubg_on_every_gnubg_match(path):
    record = read_mat(path.read_text())
    flags = game_flags(rows(record.events))
    assert [g.game for g in flags if g.crawford] == list(record.state.crawford_games) == INDEX[path.name]["crawford_game"]
    crawford = record.state.crawford_games
    assert all(g.post_crawford == bool(crawford and g.game > crawford[0]) for g in flags)


@pytest.mark.parametrize("seed", range(40))
def test_flags_agree_with_the_engine_on_random_matches(seed):
    length = random.Random(seed).choice([3, 5, 7, 9])
    state, events = play_random_match(random.Random(seed), length, {})
    flags = game_flags(rows(events))
    assert [g.game for g in flags if g.crawford] == list(state.crawford_games)


@pytest.mark.django_db
def test_the_projection_stores_the_flags_of_every_game(make_user):
    staff = make_user("root", official=True, player=False)
    a, b = Player.objects.create(display_name="Alice"), Player.objects.create(display_name="Bob")
    record = services.match_import_mat(actor=staff, text=MATCHES[2].read_text(), player0=a, player1=b)
    projections.run("match_summary")
    stored = list(GameSummary.objects.filter(stream_id=record.stream_id).order_by("game").values_list("game", "crawford", "post_crawford", "winner", "points"))
    assert stored == [(1, False, False, 0, 4), (2, True, False, 1, 1), (3, False, True, 0, 2)]
    from rest_framework.test import APIClient

    shown = APIClient().get(f"/api/matches/{record.stream_id}/games/").json()
    assert [(g["game"], g["crawford"], g["post_crawford"]) for g in shown] == [(1, False, False), (2, True, False), (3, False, True)]
