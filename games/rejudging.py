"""A match stream judged again: every command the engine took, decided again from the state before it.

Each stored engine event that a command causes is turned back into that command and given to ``decide`` on the
state folded so far: the events it decides must be the ones stored after it (consequences included: a
``CannotMove``, a ``GameWon``). The platform's own events (registration, corrections) are folded as the read
path folds them. ``manage.py verify_log`` runs it on every match stream.
"""

from __future__ import annotations

import dataclasses

from games.engine import commands as c
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
}


def rejudge(engine_events: list, positions: list[int] | None = None) -> MatchState:
    """The state after re-deciding every command; :class:`Misjudged` at the first event the engine disagrees on.
    ``positions``: each engine event's position in the log, to name it (its index otherwise)."""
    positions = positions or list(range(len(engine_events)))
    state, i = MatchState(), 0
    while i < len(engine_events):
        event = engine_events[i]
        make = _COMMAND_OF.get(type(event).__name__)
        if make is None:
            raise Misjudged(positions[i], f"{type(event).__name__} is not caused by any command at that point")
        try:
            produced = decide(state, make(event))
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
    judged = rejudge(engine, [r.global_position for r in engine_rows])
    folded = streams.fold(stream_id, rows)
    if folded.state != judged:
        raise Misjudged(rows[-1].global_position, "the stream's fold differs from the engine's re-judged state")
