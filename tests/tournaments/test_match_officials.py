"""A match knows its official from its own stream. Matches registered before registrations named
one get it, once, from the data migration (a fact appended, nothing edited); new ones are named at creation."""

import importlib

import pytest
from django.apps import apps

from eventlog import store
from eventlog.models import Event
from eventlog.store import NewEvent
from games import loading, streams
from games.creation import match_create
from games.director import match_assign_official
from games.engine import commands as cmd
from games.engine.match import MatchState, decide
from games.loading import match_load
from games.rights import is_official
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db

migration = importlib.import_module("tournaments.migrations.0005_match_officials")


def old_match(stream_id: str, players, tournament_id) -> None:
    """A match stream stored with schema 1 of MatchRegistered: no official named."""
    started = decide(MatchState(), cmd.StartMatch((players[0].display_name, players[1].display_name), 5))
    store.append(stream_id=stream_id, stream_type=streams.STREAM_TYPE, expected_version=0, events=[
        NewEvent(streams.REGISTERED, {"player_ids": [p.pk for p in players], "tournament_id": tournament_id,
                                      "published": True, "rating_ramp": "fibs", "dice": "board"}),
        *(NewEvent(*streams.engine_payload(e)) for e in started),
    ])


@pytest.fixture
def world(make_user):
    director, stranger = make_user("dora", player=False), make_user("sam", player=False)
    seats = make_user("alice").player, make_user("bob").player
    event = Tournament.objects.create(name="Club night", director=director)
    return director, stranger, seats, event


def test_an_old_event_match_is_officiated_by_its_events_director_after_the_migration(world, api):
    director, stranger, seats, event = world
    old_match("old-event-match", seats, event.pk)
    old_match("old-casual-match", seats, None)
    record = match_load("old-event-match")
    assert record.officiating_director_id is None and not is_official(director, record)

    migration.name_the_officials(apps, None)
    loading.SNAPSHOTS.forget()  # the test's transaction never commits: no snapshot was kept, none may be
    record = match_load("old-event-match")
    assert record.officiating_director_id == director.pk
    assert is_official(director, record) and not is_official(stranger, record)
    assert match_load("old-casual-match").officiating_director_id is None
    answered = api(director).post("/api/matches/old-event-match/commands/",
                                  {"type": "roll", "dice": [3, 1], "expected_version": record.version}, format="json")
    assert answered.status_code == 200, answered.json()
    # once: a second run appends nothing; the stored registration is as it was
    count = Event.objects.count()
    migration.name_the_officials(apps, None)
    assert Event.objects.count() == count
    registered = Event.objects.get(stream_id="old-event-match", version=1)
    assert registered.schema_version == 1 and "officiating_director_id" not in registered.payload


def test_a_new_match_names_its_official_and_the_migration_leaves_it_alone(world):
    director, stranger, seats, event = world
    record = match_create(actor=director, player0=seats[0], player1=seats[1], length=5,
                          officiating_director_id=director.pk, tournament_id=event.pk, rating_ramp="club")
    registered = Event.objects.get(stream_id=record.stream_id, version=1)
    assert registered.schema_version == streams.REGISTERED_SCHEMA
    assert (registered.payload["officiating_director_id"], registered.payload["rating_ramp"]) == (director.pk, "club")
    assert is_official(director, record) and not is_official(stranger, record)
    count = Event.objects.count()
    migration.name_the_officials(apps, None)
    assert Event.objects.count() == count


def test_an_events_director_changing_hands_is_a_new_fact(world):
    director, stranger, seats, event = world
    record = match_create(actor=director, player0=seats[0], player1=seats[1], length=5,
                          officiating_director_id=director.pk, tournament_id=event.pk)
    assert match_assign_official(stream_id=record.stream_id, officiating_director_id=stranger.pk)
    assert not match_assign_official(stream_id=record.stream_id, officiating_director_id=stranger.pk)
    record = match_load(record.stream_id)
    assert is_official(stranger, record) and not is_official(director, record)
