"""An event's visibility is a fact of its stream (``VisibilitySet``), recorded when it changes; an event hidden
before that was recorded (its row's ``published`` only) gets the fact once, from the migration, and its results
leave the ratings from there on, live as in a rebuild."""

import importlib
import os
from types import SimpleNamespace

import pytest
from django.apps import apps
from django.core.management import call_command
from django.db import connection

from eventlog import projections
from eventlog.models import Event
from players.models import Player
from ratings.models import PlayerRating
from tests.ratings.from_log import live_ratings, recomputed
from tournaments import services
from tournaments.models import Tournament
from tournaments.stream import stream_id_of

from .test_running_events import cmd, settle, start

pytestmark = pytest.mark.django_db
migration = importlib.import_module("tournaments.migrations.0012_visibility_in_the_log")


def visibility_facts(t) -> list[dict]:
    return list(Event.objects.filter(stream_id=stream_id_of(t.pk), event_type="VisibilitySet")
                .order_by("version").values_list("payload", flat=True))


def test_publishing_and_hiding_are_recorded_once_each_change(make_user):
    director = make_user("dora", player=False)
    t = services.tournament_create(actor=director, name="Night", format="single_elimination")
    services.tournament_publish(actor=director, tournament=t, published=True)  # already public: nothing to record
    assert visibility_facts(t) == []
    services.tournament_publish(actor=director, tournament=t, published=False)
    services.tournament_publish(actor=director, tournament=t, published=False)
    services.tournament_publish(actor=director, tournament=t, published=True)
    assert visibility_facts(t) == [{"published": False}, {"published": True}]
    assert Tournament.objects.get(pk=t.pk).published and services.tournament_facts(t).published


def test_an_event_hidden_before_its_visibility_was_recorded_gets_the_fact_once(make_user):
    director = make_user("dora", player=False)
    ada, bruno = (Player.objects.create(display_name=n).pk for n in ("Ada", "Bruno"))
    t = start(director, [ada, bruno], lengths={"main": {"default": 3}})
    settle(t)
    cmd(t, director, type="report_result", slot="main:r1:m1", winner=ada, score=[3, 0])
    settle(t)
    assert PlayerRating.objects.get(player_id=ada).matches == 1
    Tournament.objects.filter(pk=t.pk).update(published=False)  # as events were hidden before: the row only

    editor = SimpleNamespace(connection=connection)
    migration.record_visibility(apps, editor)
    migration.record_visibility(apps, editor)  # again: nothing more
    assert visibility_facts(t) == [{"published": False}]
    projections.run_all()
    assert not PlayerRating.objects.filter(player_id=ada).exists() and live_ratings() == recomputed()
    live = live_ratings()
    call_command("rebuild_projections", stdout=open(os.devnull, "w"))
    assert live_ratings() == live
