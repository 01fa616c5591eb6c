"""A match stream judged again: every command the engine took, decided again from the state before it.

Each stored engine event that a command causes is turned back into that command and given to ``decide`` on the
state folded so far: the events it decides must be the ones stored after it (consequences included: a
``CannotMove``, a ``GameWon``). The platform's own events (registration, corrections) are folded as the read
path folds them. ``manage.py verify_log`` runs it on every match stream.
"""

from __future__ import annotations

import dataclasses

from games.engine import commands as c
from games.engine.clock import Preset
from games.engine.match import MatchState, decide, evolve

from . import streams


class Misjudged(Exception):
    """The engine would not have written the stream as stored; ``position`` is the first event it disagrees on."""

    def __init__(self, position: int, message: str):
        super().__init__(message)
        self.position = position


_COMMAND_OF = {  # stored engine event -> the command that causes it
    "MatchStarted": lambda e: c.StartMatch(**{f.name: getattr(e, f.name) for f in dataclasses.fields(c.StartMatch)}),
    "OpeningRollTied": lambda e: c.Roll(None, (e.die, e.die), e.source),
    "GameStarted": lambda e: c.Roll(None, e.dice, e.source),
    "DiceRolled": lambda e: c.Roll(e.player, e.dice, e.source),
    "CheckersMoved": lambda e: c.Move(e.player, e.move),
    "DoubleOffered": lambda e: c.Double(e.player),
    "DoubleTaken": lambda e: c.Take(e.player),
    "DoubleDropped": lambda e: c.Drop(e.player),
    "Beavered": lambda e: c.Beaver(e.player),
    "Raccooned": lambda e: c.Raccoon(e.player),
    "ResignationOffered": lambda e: c.Resign(e.player, e.kind),
    "ResignationAccepted": lambda e: c.AcceptResignation(e.player),
    "ResignationDeclined": lambda e: c.DeclineResignation(e.player),
    # a game won by no play of its own: the match given (an import's "Termination", an online forfeit)
    "GameWon": lambda e: c.GiveMatch(e.winner, e.reason),
    # the clock: each fact carries the reading of the command that caused it
    "ClockSet": lambda e: c.SetClock(Preset(e.preset, e.per_point, e.per_scored, e.delay, e.overtime, e.per_match),
                                     e.at),
    "ClockPressed": lambda e: c.PressClock(e.player, e.at, e.device_at),
    "ClockPaused": lambda e: c.PauseClock(e.at),
    "ClockResumed": lambda e: c.ResumeClock(e.at),
}

# A flag that fell (with the overtime it may have been given first) was shown by a press, a pause or a claim at a
# reading past it: the command is the one whose own fact follows in the same group, else a claim. Any reading from
# the expiry on decides the same facts, so the flag's own reading stands for the command's.
_AFTER_FLAG = {"ClockPressed": _COMMAND_OF["ClockPressed"], "ClockPaused": _COMMAND_OF["ClockPaused"],
               "FlagFell": lambda e: c.ClaimTime(e.at)}


def _command(events: list, i: int, called_at: int | None):
    """The command that caused ``events[i]`` and the facts after it in its group, or None."""
    name = type(events[i]).__name__
    if name == "OvertimeGiven":
        for later in events[i + 1: i + 3]:
            if (make := _AFTER_FLAG.get(type(later).__name__)) is not None:
                return make(later)
        return None
    if name == "FlagFell":
        return c.ClaimTime(events[i].at)
    if name == "LatePenalty":  # judged against the call its match had then (the stream's MatchCalled)
        return None if called_at is None else c.RecordLateness(events[i].player, called_at, events[i].at)
    make = _COMMAND_OF.get(name)
    return make(events[i]) if make is not None else None


def rejudge(engine_events: list, positions: list[int] | None = None,
            calls: list[tuple[int, int]] = ()) -> MatchState:
    """The state after re-deciding every command; :class:`Misjudged` at the first event the engine disagrees on.
    ``positions``: each engine event's position in the log, to name it (its index otherwise); ``calls``: the
    match's calls to the board, (position, reading), that lateness is counted from."""
    positions = positions or list(range(len(engine_events)))
    state, i = MatchState(), 0
    while i < len(engine_events):
        event = engine_events[i]
        called_at = next((at for position, at in reversed(calls) if position < positions[i]), None)
        command = _command(engine_events, i, called_at)
        if command is None:
            raise Misjudged(positions[i], f"{type(event).__name__} is not caused by any command at that point")
        try:
            produced = decide(state, command)
        except Exception as refused:  # noqa: BLE001 - the engine's refusal is the finding
            raise Misjudged(positions[i], f"the engine refuses {type(event).__name__}: {refused}") from refused
        stored = engine_events[i: i + len(produced)]
        if produced != stored:
            raise Misjudged(positions[i], f"the engine decides {produced}, the stream holds {stored}")
        for e in produced:
            state = evolve(state, e)
        i += len(produced)
    return state


def judge_match_stream(stream_id: str, rows: list) -> None:
    """For eventlog.verification: the engine's events re-decided, and the whole stream folded as the read path
    folds it (the platform's events included) to the same engine state."""
    for row in rows:  # an online forfeit is given only once its clock had run out, by the readings it names
        if row.event_type == streams.ONLINE_FORFEIT and row.payload["at"] < row.payload["due"]:
            raise Misjudged(row.global_position, "an online forfeit claimed before it was due")
    engine_rows = [r for r in rows if r.event_type not in streams.PLATFORM_EVENTS]
    engine = [streams.engine_event(r.event_type, r.payload) for r in engine_rows]
    calls = [(r.global_position, int(r.payload["at"])) for r in rows if r.event_type == streams.CALLED]
    judged = rejudge(engine, [r.global_position for r in engine_rows], calls)
    folded = streams.fold(stream_id, rows)
    if folded.state != judged:
        raise Misjudged(rows[-1].global_position, "the stream's fold differs from the engine's re-judged state")
