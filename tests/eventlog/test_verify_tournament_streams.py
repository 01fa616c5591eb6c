"""verify_log re-judges a tournament's stream: a fact edited behind the application's back into one the decider
would never have appended (its hashes recomputed, so the chain alone does not show it) is named by position."""

import io

import pytest
from django.core.management import CommandError, call_command

from eventlog import verification
from eventlog.models import Event
from players.models import Player
from tests.eventlog.test_portable_log import forge
from tests.tournaments.test_running_events import cmd, settle, slot, start

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("postgres")]


@pytest.fixture
def director(make_user):
    return make_user("dora", player=False)


def a_played_event(director) -> tuple[list[int], str]:
    """A four-player knockout, one slot's result reported on paper: its stream id."""
    players = [Player.objects.create(display_name=n).pk for n in ("Ann", "Bob", "Cid", "Dan")]
    t = start(director, players, lengths={"main": {"default": 5}})
    paper = slot(settle(t), "main:r1:m1")
    cmd(t, director, type="report_result", slot=paper["key"], winner=paper["players"][1], score=[5, 2])
    settle(t)
    return players, Event.objects.get(event_type="ResultReported").stream_id


def forged_result(players: list[int], stream_id: str) -> tuple[Event, str]:
    result = Event.objects.get(stream_id=stream_id, event_type="ResultReported")
    stranger = Player.objects.create(display_name="Eve").pk  # never entered
    forge(result, winner=stranger)
    return result, "not entered"


def forged_entry(players: list[int], stream_id: str) -> tuple[Event, str]:
    second = Event.objects.filter(stream_id=stream_id, event_type="PlayerEntered").order_by("version")[1]
    forge(second, player_id=players[0])  # the first player entered again, while still in
    return second, "entered already"


def forged_draw(players: list[int], stream_id: str) -> tuple[Event, str]:
    draw = Event.objects.get(stream_id=stream_id, event_type="DrawMade")
    forge(draw, seeds=[players[0], players[0], players[1], players[2]])
    return draw, "seeded twice"


@pytest.mark.parametrize("forged", [forged_result, forged_entry, forged_draw])
def test_a_tournament_fact_the_decider_would_never_have_appended_is_named(director, forged):
    players, stream_id = a_played_event(director)
    before = verification.judge_streams()
    assert before.ok and before.streams_judged >= 3  # the event's stream and its matches'

    event, why = forged(players, stream_id)

    assert verification.walk().ok  # the hashes were rewritten: only the rules can tell
    report = verification.judge_streams()
    assert [(p.position, p.stream_id, p.reason) for p in report.problems] == [
        (event.global_position, stream_id, "judged")]
    assert why in report.problems[0].detail
    err = io.StringIO()
    with pytest.raises(CommandError, match=f"first at position {event.global_position}"):
        call_command("verify_log", stdout=io.StringIO(), stderr=err)
    assert f"position {event.global_position} (stream {stream_id})" in err.getvalue()
