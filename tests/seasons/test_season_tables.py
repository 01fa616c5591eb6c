"""A season through the services, in process: tables, versions from a date, corrections, removal, rebuilds,
and who may do what."""

import random
from datetime import date

import pytest
from django.core.exceptions import PermissionDenied
from django.core.management import call_command

from eventlog import projections
from players.models import Club, Player
from seasons import services as seasons
from seasons.decider import SeasonError
from seasons.models import SeasonEvent
from seasons.selectors import season_data
from tests.tournaments.test_running_events import settle
from tournaments import services

from .play import RULE_V1, RULE_V2, START, new_event, play_on_paper, projected, recomputed

pytestmark = pytest.mark.django_db


@pytest.fixture
def director(make_user):
    return make_user("dora", official=True, player=False)


def run_events(director, players, rnd):
    formats = [("single_elimination", 8, {"consolation": True}), ("swiss", 6, {"rounds": 3}),
               ("round_robin", 4, {}), ("double_elimination", 4, {})]
    out = []
    for i, (fmt, n, settings) in enumerate(formats, 1):
        t = new_event(director, f"Night {i}", fmt, rnd.sample(players, n), **settings)
        play_on_paper(director, t, lambda t=t: settle(t), rnd)
        out.append(t)
    return out


def test_a_season_table_equals_its_recomputation_through_versions_corrections_and_rebuilds(director):
    rnd = random.Random(5)
    players = [Player.objects.create(display_name=f"P{i}").pk for i in range(12)]
    events = run_events(director, players, rnd)
    season = seasons.season_open(actor=director, name="Thursday nights 2026", kind="series", rule=RULE_V1,
                                 effective_from=START)
    for i, t in enumerate(events):
        seasons.season_add_event(actor=director, season=season, tournament=t, on=date(2026, 1 + i, 10))
    projections.run_all()
    table = projected(season)
    assert table == recomputed(season) and len(table) >= 8
    assert all(s["rule_version"] == 1 for row in table for s in row["scores"])
    first = season_data(season)
    assert [e["finished"] for e in first["events"]] == [True] * 4

    # a new version from March: only the events dated from then (the 3rd and 4th) change
    seasons.season_set_rule(actor=director, season=season, rule=RULE_V2, effective_from=date(2026, 3, 1))
    projections.run_all()
    after = projected(season)
    assert after == recomputed(season)
    before_scores = {(r["player_id"], s["tournament_id"]): s for r in table for s in r["scores"]}
    for row in after:
        for s in row["scores"]:
            old = before_scores[row["player_id"], s["tournament_id"]]
            if s["tournament_id"] in (events[0].pk, events[1].pk):
                assert (s["points"], s["rule_version"]) == (old["points"], 1)
            else:
                assert s["rule_version"] == 2
    assert [e["rule_version"] for e in season_data(season)["events"]] == [1, 1, 2, 2]

    # a correction in the first event: its winner's final is given to the other player
    data = settle(events[0])
    final = next(s for s in data["slots"] if s["key"] == "main:r3:m1")
    loser = next(p for p in final["players"] if p != final["winner"])
    services.tournament_command(actor=director, tournament=events[0], command={
        "type": "correct_result", "slot": final["key"], "winner": loser, "score": [final["length"], 0],
        "reason": "scoresheet"})
    settle(events[0])
    corrected = projected(season)
    assert corrected == recomputed(season) and corrected != after
    champion = next(r for r in corrected if any(s["tournament_id"] == events[0].pk for s in r["scores"])
                    and r["player_id"] == loser)
    assert champion  # the new champion's points come from the corrected result

    # an event removed; then a rebuild gives the very same tables
    seasons.season_remove_event(actor=director, season=season, tournament_id=events[2].pk)
    projections.run_all()
    removed = projected(season)
    assert removed == recomputed(season)
    assert all(s["tournament_id"] != events[2].pk for r in removed for s in r["scores"])
    whole = season_data(season)
    call_command("rebuild_projections")
    assert season_data(season) == whole


def test_an_unfinished_event_gives_nothing_yet(director):
    players = [Player.objects.create(display_name=f"P{i}").pk for i in range(4)]
    t = new_event(director, "Open", "single_elimination", players)
    season = seasons.season_open(actor=director, name="S", rule=RULE_V1, effective_from=START)
    seasons.season_add_event(actor=director, season=season, tournament=t, on=date(2026, 2, 1))
    settle(t)
    data = season_data(season)
    assert data["events"][0]["finished"] is False and data["table"] == []


def test_refusals_change_nothing(director, make_user):
    club = Club.objects.create(name="Club")
    stranger = make_user("sam")
    players = [Player.objects.create(display_name=f"P{i}").pk for i in range(4)]
    t = new_event(director, "Open", "single_elimination", players)
    with pytest.raises(PermissionDenied):
        seasons.season_open(actor=stranger, name="Mine", club=club)
    season = seasons.season_open(actor=director, name="S", club=club)
    with pytest.raises(PermissionDenied):
        seasons.season_add_event(actor=stranger, season=season, tournament=t)
    seasons.season_add_event(actor=director, season=season, tournament=t, on=date(2026, 2, 1))
    with pytest.raises(SeasonError) as twice:
        seasons.season_add_event(actor=director, season=season, tournament=t)
    assert twice.value.code == "already_in_season"
    with pytest.raises(SeasonError) as bad:
        seasons.season_set_rule(actor=director, season=season, rule={"components": [{"kind": "lottery"}]},
                                effective_from=START)
    assert bad.value.code == "bad_rule"
    with pytest.raises(SeasonError) as gone:
        seasons.season_remove_event(actor=director, season=season, tournament_id=t.pk + 100)
    assert gone.value.code == "not_in_season"
    projections.run_all()
    assert seasons.season_state(season).version == 2
    assert SeasonEvent.objects.filter(season_id=season.pk).count() == 1
