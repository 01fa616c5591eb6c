"""Rated or unrated events and single matches, on PostgreSQL, the worker's work done here.

An event created unrated, a rated event whose one slot (a friendly) is marked unrated before play, and a rated
event made unrated after it was played (a later change is an event: ``RatedSet``). Unrated results stay out of
the ratings and of the season tables; the live ratings equal a straight recomputation from the log and a
rebuild, after each change; the season table equals its recomputation."""

import os
import random
from datetime import date

import pytest
from django.core.management import call_command

from players.models import Player
from ratings.models import RatingChange
from seasons import services as seasons
from tests.properties.events import differing, every_table, settled_here
from tests.ratings.from_log import history, live_ratings, recomputed
from tests.seasons.play import RULE_V1, START, new_event, play_on_paper, projected
from tests.seasons.play import recomputed as season_recomputed
from tournaments import services
from tournaments.refusals import TournamentError
from tournaments.selectors import tournament_data
from tournaments.stream import stream_id_of


def rated_keys_of(t) -> set[str]:
    return set(RatingChange.objects.filter(match_key__startswith=f"{stream_id_of(t.pk)}:")
               .values_list("match_key", flat=True))


def agree(what: str) -> None:
    settled_here()
    assert live_ratings() == recomputed(), f"live ratings differ from a recomputation {what}"


def test_unrated_events_and_matches_stay_out_of_ratings_and_seasons(postgres, make_user):
    rnd = random.Random(15)
    director = make_user("dora", official=True, player=False)
    players = [Player.objects.create(display_name=f"P{i}").pk for i in range(12)]
    season = seasons.season_open(actor=director, name="S", rule=RULE_V1, effective_from=START)

    def play(t):
        play_on_paper(director, t, lambda: (settled_here(), tournament_data(t))[1], rnd)

    rated = new_event(director, "Rated", "single_elimination", players[:8])
    unrated = new_event(director, "Unrated", "round_robin", players[6:12], rated=False)
    friendly = new_event(director, "With a friendly", "single_elimination", players[2:6])
    settled_here()
    services.tournament_command(actor=director, tournament=friendly, command={
        "type": "set_rated", "rated": False, "slot": "main:r1:m1"})
    with pytest.raises(TournamentError) as unknown:
        services.tournament_command(actor=director, tournament=friendly, command={
            "type": "set_rated", "rated": False, "slot": "main:r9:m9"})
    assert unknown.value.code == "unknown_slot"
    for day, t in enumerate((rated, unrated, friendly), 1):
        seasons.season_add_event(actor=director, season=season, tournament=t, on=date(2026, 2, day))
        play(t)
    agree("after three events")
    assert len(rated_keys_of(rated)) == 7  # every match of the 8-player knock-out
    assert rated_keys_of(unrated) == set()  # an unrated event: none
    assert rated_keys_of(friendly) == {f"{stream_id_of(friendly.pk)}:main:r2:m1", f"{stream_id_of(friendly.pk)}:main:r1:m2"}
    table = projected(season)
    assert table == season_recomputed(season)
    assert not any(s["tournament_id"] == unrated.pk for r in table for s in r["scores"])  # gives no points

    # the rated event is made unrated after play: its results leave the ratings and the season
    before = live_ratings()
    services.tournament_command(actor=director, tournament=rated, command={"type": "set_rated", "rated": False})
    agree("after an event was made unrated")
    assert rated_keys_of(rated) == set() and live_ratings() != before
    assert projected(season) == season_recomputed(season)
    assert not any(s["tournament_id"] == rated.pk for r in projected(season) for s in r["scores"])

    # and the unrated one rated: its results count from the change's position
    services.tournament_command(actor=director, tournament=unrated, command={"type": "set_rated", "rated": True})
    agree("after an event was made rated")
    assert len(rated_keys_of(unrated)) == 15  # six players, one cycle
    final = projected(season)
    assert final == season_recomputed(season)
    assert any(s["tournament_id"] == unrated.pk for r in final for s in r["scores"])

    live, live_history, tables = live_ratings(), history(), every_table()
    call_command("rebuild_projections", stdout=open(os.devnull, "w"))
    assert live_ratings() == live and history() == live_history
    after = every_table()
    assert after == tables, differing(tables, after)


def test_a_friendly_outside_any_event_is_unrated_until_a_director_rates_it(postgres, make_user, api):
    from games.command_handler import match_command
    from games.commands import SetRated
    from games.creation import match_create
    from games.loading import match_load
    from tests.tournaments.test_running_events import play_to_end

    official = make_user("olga", official=True, player=False)
    ann, bob, cy = (Player.objects.create(display_name=n) for n in ("Ann", "Bob", "Cy"))
    rated = match_create(actor=official, player0=ann, player1=bob, length=3).stream_id
    play_to_end(official, rated, winner_seat=0)
    friendly = api(official).post("/api/matches/", {"player0": bob.pk, "player1": cy.pk, "length": 3, "rated": False},
                                  format="json")
    assert friendly.status_code == 201, friendly.json()
    friendly = friendly.json()["id"]
    play_to_end(official, friendly, winner_seat=1)
    later = match_create(actor=official, player0=ann, player1=cy, length=3).stream_id
    play_to_end(official, later, winner_seat=0)
    agree("with a friendly")
    assert not RatingChange.objects.filter(match_key=friendly).exists()
    assert set(RatingChange.objects.values_list("match_key", flat=True)) == {rated, later}

    # a player may not rate it; its director may, through the match's commands: the ratings re-derive, the
    # friendly counted at its own place in the log (before the later match)
    bob_user = make_user("bobby")
    refused = api(bob_user).post(f"/api/matches/{friendly}/commands/", {
        "type": "set_rated", "rated": True, "expected_version": match_load(friendly).version}, format="json")
    assert refused.status_code == 403
    before = live_ratings()
    answer = api(official).post(f"/api/matches/{friendly}/commands/", {
        "type": "set_rated", "rated": True, "expected_version": match_load(friendly).version}, format="json")
    assert answer.status_code == 200, answer.json()
    agree("after the friendly was rated")
    assert live_ratings() != before and RatingChange.objects.filter(match_key=friendly).count() == 2
    order = list(RatingChange.objects.filter(player_id=cy.pk).order_by("seq").values_list("match_key", flat=True))
    assert order == [friendly, later]

    record = match_load(friendly)
    match_command(actor=official, stream_id=friendly, command=SetRated(False), expected_version=record.version)
    agree("after the friendly was unrated again")
    assert not RatingChange.objects.filter(match_key=friendly).exists()
    live, live_history = live_ratings(), history()
    call_command("rebuild_projections", stdout=open(os.devnull, "w"))
    assert live_ratings() == live and history() == live_history
