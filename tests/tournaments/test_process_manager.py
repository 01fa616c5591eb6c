"""The process manager: a match's result reaches its event's own stream once, whatever reruns, and a database
from before it gets the missing facts once (``manage.py backfill_tournament_facts``)."""

from __future__ import annotations

import pytest
from django.core.management import call_command

from eventlog import projections, store
from eventlog.models import Event, ProjectionCheckpoint
from games.commands import VoidMatch
from players.models import Player
from ratings.models import PlayerRating
from tournaments import services
from tournaments.events import MATCH_FACTS
from tournaments.process import TournamentProcess
from tournaments.selectors import tournament_data, tournament_history
from tournaments.stream import stream_id_of

from .test_running_events import play_to_end

pytestmark = pytest.mark.django_db


@pytest.fixture
def director(make_user):
    return make_user("dora", player=False)


def _event_with_a_match(director):
    """Two players, drawn; the final's match created: nothing has followed the log yet (no projection ran)."""
    t = services.tournament_create(actor=director, name="Final", format="single_elimination",
                                   settings={"lengths": {"main": {"default": 3}}})
    a, b = (Player.objects.create(display_name=n).pk for n in ("Ann", "Ben"))
    for p in (a, b):
        services.tournament_command(actor=director, tournament=t, command={"type": "enter", "player": p})
    services.tournament_command(actor=director, tournament=t, command={"type": "draw", "method": "manual",
                                                                       "seeds": [a, b]})
    [match_id] = services.tournament_advance(t)
    return t, match_id, a, b


def _read_the_log_again() -> None:
    """The whole log delivered to the process once more (a process is never rebuilt: its checkpoint is moved back
    by hand here, as a lost checkpoint would): every fact it appends is guarded by the match version it records."""
    ProjectionCheckpoint.objects.filter(name=TournamentProcess.name).update(position=0)
    projections.run(TournamentProcess.name)


def _facts(t) -> list[tuple[str, dict]]:
    rows = Event.objects.filter(stream_id=stream_id_of(t.pk), event_type__in=MATCH_FACTS).order_by("version")
    return [(r.event_type, r.payload) for r in rows]


def test_a_result_at_the_board_reaches_the_event_once_and_reruns_add_nothing(director):
    t, match_id, a, b = _event_with_a_match(director)
    play_to_end(director, match_id, winner_seat=1)
    assert services.tournament_view(t)[1].slots[0].result is None  # the event knows only its own stream
    projections.run_all()
    facts = _facts(t)
    assert [kind for kind, _ in facts] == ["SlotMatchStarted", "SlotFinished"]
    finished = facts[1][1]
    assert (finished["winner"], finished["loser"], finished["how"], finished["match_id"]) == (b, a, "board", match_id)
    assert finished["winner_points"] >= 3 and finished["loser_points"] == 0
    assert tournament_data(t)["winner"] == b
    _read_the_log_again()  # every fact is known already
    projections.run_all()
    assert _facts(t) == facts


def test_a_paper_result_records_the_matchs_closing_at_once_and_the_follower_adds_nothing(director):
    t, match_id, a, b = _event_with_a_match(director)
    services.tournament_command(actor=director, tournament=t, command={
        "type": "report_result", "slot": "main:r1:m1", "winner": a, "score": [3, 1]})
    assert [kind for kind, _ in _facts(t)] == ["SlotFinished"]
    assert _facts(t)[0][1]["how"] == "paper"
    projections.run_all()
    assert [kind for kind, _ in _facts(t)] == ["SlotFinished"]


def test_backfill_appends_the_missing_facts_once_and_old_corrections_read_as_the_events_own(director):
    t, match_id, a, b = _event_with_a_match(director)
    play_to_end(director, match_id, winner_seat=0)
    # as a database from before the process manager: a correction stored under its old name, schema 1
    version = store.stream_version(stream_id_of(t.pk))
    store.append(stream_id=stream_id_of(t.pk), stream_type="tournament", expected_version=version, events=[
        store.NewEvent("ResultCorrected", {"slot": "main:r1:m1", "winner": b, "loser": a, "winner_points": 3,
                                           "loser_points": 2, "length": 3, "rating_ramp": "fibs",
                                           "reason": "scoresheet"}, 1)])
    before = Event.objects.count()
    call_command("backfill_tournament_facts")
    assert [kind for kind, _ in _facts(t)] == ["SlotMatchStarted", "SlotFinished"]
    assert Event.objects.count() == before + 2
    call_command("backfill_tournament_facts")
    _read_the_log_again()
    assert Event.objects.count() == before + 2, "a second run appended again"
    projections.run_all()
    data = tournament_data(t)
    assert data["winner"] == b and data["slots"][0]["score"] == [3, 2]  # the correction, read through its upcaster
    history = [line["text"] for line in tournament_history(t)]
    assert any("result corrected" in text for text in history)
    ratings = dict(PlayerRating.objects.values_list("player_id", "matches"))
    assert ratings == {a: 1, b: 1}  # the slot rated once, with the corrected winner
    assert PlayerRating.objects.get(player_id=b).rating > PlayerRating.objects.get(player_id=a).rating


def test_a_void_on_the_match_itself_reaches_the_event_and_the_slot_gets_a_new_match(director):
    from games.command_handler import match_command
    from games.loading import match_load

    t, match_id, a, b = _event_with_a_match(director)
    record = match_load(match_id)
    match_command(actor=director, stream_id=match_id, command=VoidMatch("wrong players"),
                  expected_version=record.version)
    projections.run_all()
    assert [kind for kind, _ in _facts(t)] == ["SlotMatchVoided"]
    [new] = services.tournament_advance(t)
    assert new != match_id and tournament_data(t)["slots"][0]["match_id"] in (match_id, new)
    projections.run_all()
    assert tournament_data(t)["slots"][0]["match_id"] == new


def test_an_event_whose_stream_cannot_be_read_is_set_aside_and_the_others_go_on(director):
    from eventlog.models import ProjectionFailure

    t, match_id, a, b = _event_with_a_match(director)
    broken, broken_match, _, _ = _event_with_a_match(director)
    play_to_end(director, broken_match, winner_seat=0)
    store.append(stream_id=stream_id_of(broken.pk), stream_type="tournament",
                 expected_version=store.stream_version(stream_id_of(broken.pk)),
                 events=[store.NewEvent("PlayerEntered", {"who": "nobody"})])  # a row no fold can read
    play_to_end(director, match_id, winner_seat=1)
    projections.run_all()
    failed = ProjectionFailure.objects.filter(projection=TournamentProcess.name).values_list("stream_id", flat=True)
    assert list(failed) == [stream_id_of(broken.pk)]
    assert [kind for kind, _ in _facts(t)] == ["SlotMatchStarted", "SlotFinished"] and _facts(broken) == []
    assert tournament_data(t)["winner"] == b
