"""Ratings as a projection of the log: exact, correction-proof, rebuilt identically, kept by a live worker."""

import os

import pytest
from django.core.management import call_command

from eventlog import projections
from eventlog.models import ProjectionCheckpoint
from eventlog.tasks import project_all
from games.command_handler import match_command
from games.commands import CorrectResult, VoidMatch
from games.loading import match_load
from players.models import Player
from ratings.models import PlayerRating, RatingChange
from tests.waiting import wait_for

from .season import recompute, season


def stored() -> dict[int, tuple[float, int]]:
    return {r.player_id: (r.rating, r.experience) for r in PlayerRating.objects.all()}


def expected(results) -> dict[int, tuple[float, int]]:
    return {pid: (r.rating, r.experience) for pid, r in recompute(results).items()}


@pytest.fixture
def players(db):
    return [Player.objects.create(display_name=f"Player {i}").pk for i in range(12)]


@pytest.mark.django_db
def test_ratings_equal_a_sequential_recomputation_to_the_last_bit(players):
    played = season(players, 80)
    projections.run("ratings")
    assert stored() == expected([(w, l, n) for _, w, l, n in played])
    assert RatingChange.objects.count() == 160


@pytest.mark.django_db
def test_rating_history_records_every_rated_match(players):
    played = season(players, 10)
    projections.run("ratings")
    stream, winner, loser, length = played[0]
    first = RatingChange.objects.filter(match_key=stream).order_by("-won")
    assert [(c.player_id, c.won, c.rating_before) for c in first] == [(winner, True, 1500.0), (loser, False, 1500.0)]


@pytest.mark.django_db
def test_a_correction_early_in_the_season_changes_later_ratings_as_a_full_recomputation(players, make_user):
    played = season(players, 60)
    projections.run("ratings")
    before = stored()
    staff = make_user("root", official=True, player=False)
    stream, winner, loser, length = played[2]
    record = match_load(stream)
    loser_seat = record.player_ids.index(loser)
    score = [0, 0]
    score[loser_seat] = length
    match_command(actor=staff, stream_id=stream, command=CorrectResult(loser_seat, tuple(score), "scoresheet"),
                  expected_version=record.version)
    projections.run("ratings")
    corrected = [(w, l, n) for _, w, l, n in played]
    corrected[2] = (loser, winner, length)
    assert stored() == expected(corrected)
    assert stored() != before
    call_command("rebuild_projections", "ratings", stdout=open(os.devnull, "w"))
    assert stored() == expected(corrected)


@pytest.mark.django_db
def test_a_voided_match_no_longer_counts(players, make_user):
    played = season(players, 20)
    staff = make_user("root", official=True, player=False)
    stream = played[5][0]
    match_command(actor=staff, stream_id=stream, command=VoidMatch("wrong players"),
                           expected_version=match_load(stream).version)
    projections.run("ratings")
    assert stored() == expected([(w, l, n) for i, (_, w, l, n) in enumerate(played) if i != 5])


@pytest.mark.worker
def test_a_season_through_a_live_worker_killed_and_restarted_ends_exact(live_worker):
    players = [Player.objects.create(display_name=f"Player {i}").pk for i in range(40)]
    played = season(players, 250, seed=7)
    for _ in range(20):
        project_all.delay()
    wait_for(lambda: RatingChange.objects.count() > 0, what="the worker to start rating")
    live_worker.kill()  # SIGKILL mid-way: unacknowledged tasks go back to the broker
    played += season(players, 250, seed=8)
    live_worker.start()
    for _ in range(10):
        project_all.delay()  # duplicate wake-ups
        project_all.delay()
    from eventlog.models import Event

    last = Event.objects.order_by("-global_position").values_list("global_position", flat=True).first()
    wait_for(lambda: ProjectionCheckpoint.objects.filter(name="ratings", position=last).exists(), timeout=600,
             what="the ratings checkpoint to reach the end of the log")
    assert len(played) == 500
    assert stored() == expected([(w, l, n) for _, w, l, n in played])
    assert RatingChange.objects.count() == 1000


@pytest.mark.django_db
def test_rating_list_and_history_through_the_api(players, api):
    from players.models import Club

    club = Club.objects.create(name="Lyon BG")
    Player.objects.filter(pk__in=players[:6]).update(club=club)
    played = season(players, 30)
    projections.run("ratings")
    listed = api().get(f"/api/ratings/?club={club.pk}").json()
    assert {row["player_id"] for row in listed} <= set(players[:6]) and listed
    assert [r["rating"] for r in listed] == sorted((r["rating"] for r in listed), reverse=True)
    assert all(r["provisional"] == (r["experience"] < 400) for r in listed)
    by_experience = api().get("/api/ratings/?sort=experience").json()
    assert [r["experience"] for r in by_experience] == sorted((r["experience"] for r in by_experience), reverse=True)
    winner = played[0][1]
    history = api().get(f"/api/players/{winner}/ratings/").json()
    assert history["history"][0]["match"] == played[0][0] and history["history"][0]["won"]
    assert history["rating"] == round(history["history"][-1]["rating_after"], 2)


@pytest.mark.django_db
def test_the_formula_is_published(api):
    page = api().get("/ratings/formula/")
    assert page.status_code == 200 and b"P_upset = 1 / (10^(D * sqrt(n) / 2000) + 1)" in page.content


@pytest.mark.django_db
def test_merging_duplicate_players_counts_their_results_as_one(players):
    from players.services import player_merge
    from tests.players.people import registrar

    played = season(players[:4], 20)
    projections.run("ratings")
    # a merge is an event in the log: the projection reads it on its next run
    player_merge(actor=registrar(), kept_id=players[0],
                 duplicate_ids=[players[1]], reason="one person entered twice")
    projections.run("ratings")
    merged = [(players[0] if w == players[1] else w, players[0] if l == players[1] else l, n) for _, w, l, n in played]
    merged = [(w, l, n) for w, l, n in merged if w != l]
    assert stored() == expected(merged)
