"""A season of 10 events among 40 players, run through the services with the live Celery
worker on PostgreSQL. Its table equals a straight recomputation (the events' published standings and slots,
the season's stream, the pure rules) after every event, after a rule version from a date, after a correction
in event 2; ``rebuild_projections`` gives the same tables."""

import os
import random
import time
from datetime import date, timedelta

import pytest
from django.core.management import call_command

from players.models import Player
from seasons import services as seasons
from seasons.selectors import season_data
from tests.properties.events import differing, every_table, settled_by_the_worker
from tournaments import services
from tournaments.selectors import tournament_data

from .play import RULE_V1, RULE_V2, START, new_event, play_on_paper, projected, recomputed

pytestmark = [pytest.mark.worker]

FORMATS = [  # (format, field, settings): every format, fields of 4 to 16
    ("single_elimination", 16, {"consolation": True}),
    ("single_elimination", 8, {}),
    ("swiss", 12, {"rounds": 4}),
    ("round_robin", 6, {}),
    ("double_elimination", 8, {}),
    ("single_elimination", 8, {"consolation": True, "last_chance": True}),
    ("swiss", 10, {"rounds": 3}),
    ("round_robin", 5, {}),
    ("double_elimination", 6, {}),
    ("single_elimination", 16, {}),
]


def by_the_worker():
    settled_by_the_worker()


def test_a_season_of_ten_events_and_forty_players_equals_its_recomputation(postgres, live_worker, make_user):
    rnd = random.Random(2026)
    director = make_user("dora", official=True, player=False)
    players = [Player.objects.create(display_name=f"Player {i:02}").pk for i in range(40)]
    season = seasons.season_open(actor=director, name="Season 2026", rule=RULE_V1, effective_from=START)
    pool = list(players)
    rnd.shuffle(pool)
    events, timings = [], []
    for i, (fmt, n, settings) in enumerate(FORMATS):
        # the first events take the shuffled players in turn, so all 40 play; then random fields
        field = pool[:n] if len(pool) >= n else pool + rnd.sample([p for p in players if p not in pool], n - len(pool))
        pool = pool[n:]
        t = new_event(director, f"Event {i + 1}", fmt, field, **settings)
        seasons.season_add_event(actor=director, season=season, tournament=t, on=START + timedelta(days=7 * i))
        started = time.monotonic()
        play_on_paper(director, t, lambda t=t: (by_the_worker(), tournament_data(t))[1], rnd)
        by_the_worker()
        timings.append(time.monotonic() - started)
        events.append(t)
        assert projected(season) == recomputed(season), f"after event {i + 1}"
    table = projected(season)
    assert len(table) == 40 and len({s["tournament_id"] for r in table for s in r["scores"]}) == 10
    assert any(not s["counted"] for r in table for s in r["scores"])  # best 2: a player of three events or more has one left out

    # a new rule version from event 6's date: events 1 to 5 keep their numbers, 6 to 10 are scored again
    cut = START + timedelta(days=7 * 5)
    seasons.season_set_rule(actor=director, season=season, rule=RULE_V2, effective_from=cut)
    by_the_worker()
    versioned = projected(season)
    assert versioned == recomputed(season)
    early = {e.pk for e in events[:5]}
    old = {(r["player_id"], s["tournament_id"]): (s["points"], s["rule_version"]) for r in table for s in r["scores"]}
    for row in versioned:
        for s in row["scores"]:
            if s["tournament_id"] in early:
                assert (s["points"], s["rule_version"]) == old[row["player_id"], s["tournament_id"]]
            else:
                assert s["rule_version"] == 2

    # a correction in event 2: its final given to the other finalist
    second = events[1]
    final = next(s for s in tournament_data(second)["slots"] if s["key"] == "main:r3:m1")
    loser = next(p for p in final["players"] if p != final["winner"])
    services.tournament_command(actor=director, tournament=second, command={
        "type": "correct_result", "slot": final["key"], "winner": loser, "score": [final["length"], 1],
        "reason": "the scoresheet says otherwise"})
    by_the_worker()
    corrected = projected(season)
    assert corrected == recomputed(season)
    assert corrected != versioned
    points = {(r["player_id"], s["tournament_id"]): s["points"] for r in corrected for s in r["scores"]}
    assert points[loser, second.pk] > points[final["winner"], second.pk]  # the champion now
    for row in corrected:  # the other events' numbers are untouched
        for s in row["scores"]:
            if s["tournament_id"] != second.pk:
                assert s["points"] == old_or(versioned, row["player_id"], s["tournament_id"])

    whole, tables = season_data(season), every_table()
    call_command("rebuild_projections", stdout=open(os.devnull, "w"))
    assert season_data(season) == whole
    after = every_table()
    assert after == tables, differing(tables, after)
    print(f"\nseason of 10 events, 40 players: seconds per event (play + worker) {[round(t, 1) for t in timings]}")


def old_or(table, player, tournament):
    return next(s["points"] for r in table if r["player_id"] == player for s in r["scores"]
                if s["tournament_id"] == tournament)
