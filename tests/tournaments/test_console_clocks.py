"""The console lists every running clock of the matches in play: each player's reserve, whose clock runs, a pause,
a fallen flag; a match without a clock shows none (and costs the console no read of its stream)."""

from __future__ import annotations

import pytest
from django.urls import reverse
from django.utils.html import strip_tags

from games import clocks
from games import commands as match_commands
from games.command_handler import match_command
from games.loading import match_load
from players.models import Player
from tournaments import console, services

from .test_console import director  # noqa: F401 (fixture: an official, logged in)
from .test_running_events import settle

pytestmark = pytest.mark.django_db


@pytest.fixture
def server_time(monkeypatch):
    clock = {"at": 1_800_000_000_000}
    monkeypatch.setattr(clocks, "now", lambda: clock["at"])
    return clock


def send(director, match_id: str, command) -> None:
    match_command(actor=director, stream_id=match_id, command=command, expected_version=match_load(match_id).version)


def test_the_console_shows_each_clock_of_the_matches_in_play(client, director, server_time):
    event = services.tournament_create(actor=director, name="Clocked night", format="single_elimination",
                                       settings={"lengths": {"main": {"default": 3}}, "dice": "board"})
    players = [Player.objects.create(display_name=name) for name in ("Ada", "Bruno", "Cleo", "Dmitri")]
    for p in players:
        services.tournament_command(actor=director, tournament=event, command={"type": "enter", "player": p.pk})
    services.tournament_command(actor=director, tournament=event,
                                command={"type": "draw", "method": "manual", "seeds": [p.pk for p in players]})
    settle(event)
    board = console.console_data(event)["board"]
    assert len(board) == 2 and all(row["clock"] is None for row in board)
    clocked = board[0]["match_id"]
    send(director, clocked, match_commands.SetClock("us"))  # 6 minutes each in a 3-point match
    send(director, clocked, match_commands.RollDice(dice=(3, 1)))  # seat 0's 3: seat 1 starts seat 0's clock
    send(director, clocked, match_commands.PressClock(1))
    server_time["at"] += 20_000
    record = match_load(clocked)
    first, second = record.state.players

    row = next(r for r in console.console_data(event)["board"] if r["match_id"] == clocked)
    assert row["clock"]["sides"] == [{"name": first, "left": "5:52", "running": True},
                                     {"name": second, "left": "6:00", "running": False}]
    page = strip_tags(client.get(reverse("event-console", args=[event.pk])).content.decode())
    assert f"{first} 5:52 ◀ · {second} 6:00" in page

    send(director, clocked, match_commands.PauseClock())
    server_time["at"] += 10 * 60_000
    row = next(r for r in console.console_data(event)["board"] if r["match_id"] == clocked)
    assert row["clock"]["paused"] and row["clock"]["sides"][0]["left"] == "5:52"
    send(director, clocked, match_commands.ResumeClock())
    server_time["at"] += 6 * 60_000
    row = next(r for r in console.console_data(event)["board"] if r["match_id"] == clocked)
    assert row["clock"]["fallen"] and row["clock"]["sides"][0]["left"] == "0:00"
    french = strip_tags(client.get(reverse("event-console", args=[event.pk]), HTTP_ACCEPT_LANGUAGE="fr")
                        .content.decode())
    assert "drapeau tombé" in french
