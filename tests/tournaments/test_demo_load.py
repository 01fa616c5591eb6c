"""``load_demo`` is all or nothing: a load cut short (Ctrl-C while ``make run`` starts for the first time) leaves
no part of the demo behind, which the next start would take for the whole of it ("demo already loaded")."""

import io

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command

from eventlog.models import Event
from players.models import Club, Player
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db


def cut_short(**_):
    """A demo extra (``DEMO_EXTRAS``) that is the newcomer's Ctrl-C, once the first event has been played."""
    raise KeyboardInterrupt


def test_a_load_cut_short_leaves_nothing_and_the_next_start_loads_the_demo_again(settings):
    settings.DEMO_EXTRAS = [f"{__name__}.{cut_short.__name__}"]
    for start in (1, 2):  # the second start is not told the demo is there: it loads it, and is cut short again
        with pytest.raises(KeyboardInterrupt):
            call_command("load_demo", stdout=io.StringIO())
        left = {model.__name__: model.objects.count() for model in (Club, Player, Tournament, Event, get_user_model())}
        assert set(left.values()) == {0}, (start, left)
