"""Crawford flags per game: the engine's record of each game (MatchState.games) agrees with gnubg and with the
rule, and the projection stores it."""

import random

import pytest

from eventlog import projections
from games.engine.matfile import read_mat
from games.mat_io import match_import_mat
from games.models import GameSummary
from players.models import Player
from tests.games.engine.test_matfile import INDEX, MATCHES
from tests.games.engine.test_properties import play_random_match


def crawford_by_the_rule(games, length: int) -> list[int]:
    """The Crawford game read off the scores alone: the first game begun with exactly one side at length - 1."""
    for g in games:
        if (g.score_before[0] == length - 1) != (g.score_before[1] == length - 1):
            return [g.game]
    return []


@pytest.mark.parametrize("path", MATCHES, ids=lambda p: p.name)
def test_the_engines_flags_agree_with_gnubg_on_every_gnubg_match(path):
    record = read_mat(path.read_text())
    flags = record.state.games
    assert [g.game for g in flags if g.crawford] == list(record.state.crawford_games) == INDEX[path.name]["crawford_game"]
    crawford = record.state.crawford_games
    assert all(g.post_crawford == bool(crawford and g.game > crawford[0]) for g in flags)
    assert [g.game for g in flags] == list(range(1, len(flags) + 1)) and all(g.finished for g in flags)
    assert [g.points for g in flags] == [abs(a - b) for a, b in zip(
        [sum(g.score_before) for g in flags[1:]] + [sum(record.state.score)], [sum(g.score_before) for g in flags])]


@pytest.mark.parametrize("seed", range(40))
def test_the_engines_flags_follow_the_rule_on_random_matches(seed):
    length = random.Random(seed).choice([3, 5, 7, 9])
    state, events = play_random_match(random.Random(seed), length, {})
    assert [g.game for g in state.games if g.crawford] == list(state.crawford_games)
    assert list(state.crawford_games) == crawford_by_the_rule(state.games, length)
    assert all(g.post_crawford == bool(state.crawford_games and g.game > state.crawford_games[0])
               for g in state.games)


@pytest.mark.django_db
def test_the_projection_stores_the_flags_of_every_game(make_user):
    staff = make_user("root", official=True, player=False)
    a, b = Player.objects.create(display_name="Alice"), Player.objects.create(display_name="Bob")
    record = match_import_mat(actor=staff, text=MATCHES[2].read_text(), player0=a, player1=b)
    projections.run("match_summary")
    stored = list(GameSummary.objects.filter(stream_id=record.stream_id).order_by("game").values_list("game", "crawford", "post_crawford", "winner", "points"))
    assert stored == [(1, False, False, 0, 4), (2, True, False, 1, 1), (3, False, True, 0, 2)]
    from rest_framework.test import APIClient

    shown = APIClient().get(f"/api/matches/{record.stream_id}/games/").json()
    assert [(g["game"], g["crawford"], g["post_crawford"]) for g in shown] == [(1, False, False), (2, True, False), (3, False, True)]
