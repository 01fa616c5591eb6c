"""Ratings of events' results: every slot counts once, live, after a rebuild and in a straight recomputation.

The cases the season tests miss: corrections of slots that feed later rounds, events with several flights,
a correction then a void, a correction of a paper result, a paper result while the slot's server match is
still open."""

import itertools
import os

import pytest
from django.core.management import call_command

from eventlog import projections
from games.command_handler import match_command
from games.commands import RollDice
from games.engine import commands as match_commands
from games.engine.errors import MatchOver
from games.errors import Reason
from games.loading import match_load
from players.models import Player
from tests.refusals import refused
from tests.tournaments.test_running_events import cmd, play_to_end, settle, slot, start

from .from_log import history, live_ratings, rated_results, recomputed

pytestmark = pytest.mark.django_db


@pytest.fixture
def director(make_user):
    return make_user("dora", player=False)


def field(n: int) -> list[int]:
    return [Player.objects.create(display_name=f"Seed {i}").pk for i in range(1, n + 1)]


def rebuilt() -> dict:
    call_command("rebuild_projections", "ratings", stdout=open(os.devnull, "w"))
    return live_ratings()


def check_everywhere(expected_count: int | None = None) -> None:
    """Live ratings = a straight recomputation from the log = a rebuild from position 0; histories start once."""
    projections.run_all()
    live, live_history = live_ratings(), history()
    assert live == recomputed()
    if expected_count is not None:
        assert len(rated_results()) == expected_count
    for rows in live_history.values():
        assert [before for before, *_ in rows].count(1500.0) <= 1 or rows[0][0] == 1500.0
        assert all(a[1] == b[0] for a, b in itertools.pairwise(rows)), "a history that restarts"
    assert rebuilt() == live
    assert history() == live_history


def test_correcting_played_and_paper_results_that_fed_later_rounds_in_two_flights(director):
    players = field(8)
    t = start(director, players, consolation=True, lengths={"main": {"default": 5}, "consolation": {"default": 3}})
    data = settle(t)
    first = [s for s in data["slots"] if s["bracket"] == "main" and s["round"] == 1]
    play_to_end(director, first[0]["match_id"], winner_seat=0)  # at the board
    play_to_end(director, first[1]["match_id"], winner_seat=1)
    for s in first[2:]:  # on paper
        cmd(t, director, type="report_result", slot=s["key"], winner=s["players"][0], score=[5, 2])
    data = settle(t)
    for s in [s for s in data["slots"] if s["status"] == "ready"]:
        cmd(t, director, type="report_result", slot=s["key"], winner=s["players"][1], score=[s["length"], 1])
    data = settle(t)
    check_everywhere(8)
    # a played round-one match and a paper one, both already used by round two, are corrected
    a, b = first[0]["players"]
    cmd(t, director, type="correct_result", slot=first[0]["key"], winner=b, score=[5, 4], reason="scoresheet")
    c, d = first[2]["players"]
    cmd(t, director, type="correct_result", slot=first[2]["key"], winner=d, score=[5, 3], reason="scoresheet")
    data = settle(t)
    check_everywhere()
    assert live_ratings()[a][2] == len([r for r in rated_results() if a in r[:2]])
    # a correction, then the corrected slot's match is voided: the correction is the slot's result still
    cmd(t, director, type="correct_result", slot=first[1]["key"], winner=first[1]["players"][0], score=[5, 0],
        reason="wrong winner entered")
    cmd(t, director, type="void_match", slot=first[1]["key"], reason="played with the wrong dice")
    settle(t)
    check_everywhere()
    # a paper result corrected twice: one result for the slot, the last said
    cmd(t, director, type="correct_result", slot=first[2]["key"], winner=c, score=[5, 1], reason="misread")
    settle(t)
    check_everywhere()


def test_a_paper_result_closes_the_slots_server_match_so_it_is_rated_once(director):
    players = field(4)
    t = start(director, players, lengths={"main": {"default": 3}})
    data = settle(t)
    s = slot(data, "main:r1:m1")
    record = match_load(s["match_id"])
    match_command(actor=director, stream_id=s["match_id"], command=RollDice(), expected_version=record.version)
    cmd(t, director, type="report_result", slot=s["key"], winner=s["players"][0], score=[3, 1])
    # the server match is over: the other player cannot win it at the board afterwards
    record = match_load(s["match_id"])
    assert record.finished and record.winner == 0 and record.score == (3, 1)
    with refused(MatchOver, Reason.OVER, how=Reason.ON_PAPER_SCORE):
        match_command(actor=director, stream_id=s["match_id"],
                      command=match_commands.Resign(0, "backgammon"), expected_version=record.version)
    settle(t)
    check_everywhere(1)
    assert rated_results()[0][:2] == (s["players"][0], s["players"][1])


def test_a_forfeit_closes_the_match_and_is_not_rated(director):
    players = field(4)
    t = start(director, players)
    data = settle(t)
    s = slot(data, "main:r1:m2")
    cmd(t, director, type="forfeit", slot=s["key"], winner=s["players"][1], reason="no-show")
    record = match_load(s["match_id"])
    assert record.finished and record.winner == 1
    with refused(MatchOver, Reason.OVER, how=Reason.FORFEITED):
        match_command(actor=director, stream_id=s["match_id"], command=RollDice(),
                      expected_version=record.version)
    settle(t)
    check_everywhere(0)
