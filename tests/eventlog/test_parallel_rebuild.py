"""A rebuild in several processes, each replaying a share of the streams, gives the tables of the sequential one
(their digests equal, row for row), leaves the checkpoint at the log's head, and takes the events appended after it
in the next run."""

from __future__ import annotations

import random

import pytest

from eventlog import projections
from eventlog.models import Event, ProjectionCheckpoint
from games.command_handler import match_command
from games.commands import RollDice
from games.creation import match_create
from games.engine import commands as cmd
from games.engine.match import MOVE, OPENING
from games.loading import match_load
from games.models import GameSummary, MatchSummary
from players.models import Player

pytestmark = pytest.mark.django_db(transaction=True)  # the processes read what this one committed


def _play(actor, match_id: str, commands: int, rnd: random.Random) -> None:
    for _ in range(commands):
        record = match_load(match_id)
        state = record.state
        if state.phase == "over":
            return
        dice = (rnd.randint(1, 6), rnd.randint(1, 6))
        if state.phase == OPENING:
            while dice[0] == dice[1]:
                dice = (rnd.randint(1, 6), rnd.randint(1, 6))
            command = RollDice(dice=dice)
        elif state.phase == MOVE:
            plays = state.legal_plays()
            command = cmd.Move(state.turn, str(rnd.choice(plays)) if plays else "")
        else:
            command = RollDice(dice=dice)
        match_command(actor=actor, stream_id=match_id, command=command, expected_version=record.version)


@pytest.mark.parametrize("batch", [projections.BATCH, 3])  # 3: the log read in many windows, some empty for a share
def test_a_rebuild_in_two_processes_gives_the_sequential_rebuilds_tables(make_user, monkeypatch, batch):
    monkeypatch.setattr(projections, "BATCH", batch)  # the processes are forks: they read it too
    director = make_user("root", official=True, player=False)
    rnd = random.Random(11)
    players = [Player.objects.create(display_name=f"P{i}") for i in range(12)]
    matches = [match_create(actor=director, player0=players[2 * i], player1=players[2 * i + 1],
                            length=(1, 3, 5, 0)[i % 4], dice="board").stream_id for i in range(6)]
    for round_ in range(3):  # interleaved in the log, as tables play at once
        for match_id in matches:
            _play(director, match_id, 25, rnd)
    projections.run_all()

    sequential = projections.rebuild("match_summary")
    digest, rows = projections.digest("match_summary"), projections.digested_rows("match_summary")
    assert MatchSummary.objects.count() == 6 and GameSummary.objects.exists()

    parallel = projections.rebuild("match_summary", workers=2)
    assert projections.digested_rows("match_summary") == rows
    assert projections.digest("match_summary") == digest and parallel == sequential
    top = Event.objects.order_by("-global_position").values_list("global_position", flat=True).first()
    assert ProjectionCheckpoint.objects.get(name="match_summary").position == top

    digests = projections.digests()
    counts = projections.rebuild_every(workers=2)  # as rebuild_projections: the others here meanwhile
    assert set(counts) == set(projections.rebuildable()) and projections.digests() == digests

    _play(director, matches[3], 4, rnd)  # the money session goes on: the next run takes it
    projections.run("match_summary")
    summary = MatchSummary.objects.get(stream_id=matches[3])
    assert summary.version == match_load(matches[3]).version


def test_a_projection_across_streams_is_rebuilt_in_one_process_whatever_is_asked(make_user):
    """A rating reads both players' histories: its rebuild asked of two processes runs in this one."""
    director = make_user("root", official=True, player=False)
    a, b = Player.objects.create(display_name="Ada"), Player.objects.create(display_name="Bruno")
    match_id = match_create(actor=director, player0=a, player1=b, length=1, dice="board").stream_id
    _play(director, match_id, 200, random.Random(3))
    projections.run_all()
    before = projections.digest("ratings")
    assert not projections.registered()["ratings"].by_stream
    projections.rebuild("ratings", workers=2)
    assert projections.digest("ratings") == before
