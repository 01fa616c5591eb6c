"""Random events of every format with random board results, paper results, forfeits, corrections, voids,
withdrawals and merges of players: after every step every read model (ratings and their history, brackets,
standings, match summaries) equals a straight recomputation from the log and a rebuild from position 0.
A fast in-process variant with many examples, and one long example with the live
Celery worker doing the projections and the process manager's work."""

import os

import pytest
from django.db import transaction
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from eventlog.models import Event
from players.models import Player

from .events import HypothesisChooser, SeededChooser, World, check_read_models, settled_by_the_worker, settled_here

STEPS = 12


@pytest.mark.django_db
# no shrinking: a failure names its steps (World.log) already, and shrinking whole events takes minutes
@settings(max_examples=int(os.environ.get("PROPERTY_EXAMPLES", 12)), deadline=None, phases=(Phase.explicit, Phase.reuse, Phase.generate),
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(data=st.data())
def test_every_read_model_is_a_function_of_the_log(make_user, data):
    with transaction.atomic():  # each example starts from an empty world
        director = make_user(f"dora{Player.objects.count()}", player=False)
        world = World(director, HypothesisChooser(data), settled_here,
                      players=[Player.objects.create(display_name=f"P{i}").pk for i in range(8)])
        for _ in range(data.draw(st.integers(3, STEPS), label="steps")):
            world.step()
            check_read_models(world.log)
        transaction.set_rollback(True)


@pytest.mark.worker
def test_a_long_run_with_the_live_worker(live_worker, make_user):
    director = make_user("dora", player=False)
    players = [Player.objects.create(display_name=f"P{i}").pk for i in range(10)]
    world = World(director, SeededChooser(19), settled_by_the_worker, players=players)
    for _ in range(40):
        world.step()
        check_read_models(world.log)
    assert len(world.events) >= 3 and Event.objects.filter(stream_type="match", event_type="MatchWon").exists()
    assert Event.objects.filter(event_type="VisibilitySet").exists()  # an event hidden (and maybe shown again)
