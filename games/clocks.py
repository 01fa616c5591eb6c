"""The match clock on the platform: each clock command judged by the engine at a reading of the server's clock.

The reading the engine judges is the server's receipt time, one time line for every device at the board, the
console and the spectators. A tablet's own reading is kept beside it (``ClockPressed.device_at``) for the
record and for a director's review; when the two disagree the server's time counts: a press sent while the
tablet had lost its connection counts when it arrives, so a player whose connection drops presses again on
the tablet of the opponent or calls the director (who pauses the clocks).
"""

from __future__ import annotations

import time

from eventlog.store import NewEvent
from games.engine import commands as engine
from games.engine.clock import PRESETS, SECOND, custom
from games.engine.errors import MatchOver
from games.engine.errors import Reason as EngineReason
from games.engine.match import OPENING, OVER, decide

from . import streams
from .commands import CallMatch, ClaimTime, PauseClock, PressClock, RecordLateness, ResumeClock, SetClock
from .errors import BadCommand, Reason
from .streams import MatchRecord

CUSTOM = "custom"
PRESET_NAMES = (*PRESETS, CUSTOM)
MAX_SECONDS = 24 * 3600  # a figure of a custom clock: a day at most


def now() -> int:
    """The server's reading, in milliseconds since 1970."""
    return time.time_ns() // 1_000_000


def clock_events(command, record: MatchRecord, player: int | None) -> list:
    """The engine's events (or the platform's) for a clock command sent by ``player``'s seat (None: an official)."""
    state, at = record.state, now()
    if isinstance(command, SetClock):
        return decide(state, engine.SetClock(preset_of(command), at))
    if isinstance(command, PressClock):
        return decide(state, engine.PressClock(player, at, command.reading))
    if isinstance(command, ClaimTime):
        return decide(state, engine.ClaimTime(at))
    if isinstance(command, PauseClock):
        return decide(state, engine.PauseClock(at))
    if isinstance(command, ResumeClock):
        return decide(state, engine.ResumeClock(at))
    if isinstance(command, CallMatch):
        if state.phase == OVER:
            raise MatchOver(EngineReason.MATCH_IS_OVER, name=state.players[state.winner], a=state.score[0],
                            b=state.score[1])
        if state.phase != OPENING or state.game or state.games:
            raise BadCommand(Reason.CALLED_BEFORE_PLAY)
        return [NewEvent(streams.CALLED, {"at": at})]
    if isinstance(command, RecordLateness):
        if record.called_at is None:
            raise BadCommand(Reason.NOT_CALLED)
        return decide(state, engine.RecordLateness(command.player, record.called_at, at))
    raise TypeError(f"not a clock command: {command!r}")


def preset_of(command: SetClock):
    """The preset a command names, or the director's own figures (seconds) for ``custom``."""
    if command.preset != CUSTOM:
        if command.preset not in PRESETS:
            raise BadCommand(Reason.CLOCK_PRESET, choices=", ".join(PRESET_NAMES))
        return PRESETS[command.preset]
    figures = (command.per_point, command.per_scored or 0, command.delay or 0, command.overtime or 0)
    if not all(isinstance(f, int) and not isinstance(f, bool) and 0 <= f <= MAX_SECONDS for f in figures) \
            or not command.per_point:
        raise BadCommand(Reason.CLOCK_FIGURES, most=MAX_SECONDS)
    return custom(*(f * SECOND for f in figures))


def clock_data(record: MatchRecord) -> dict | None:
    """The clock as the screens draw it: each reserve and the running delay at the server's reading ``at``, whose
    clock runs (a screen counts down from there by its own timer and asks again on the next event)."""
    clock = record.state.clock
    if clock is None:
        return None
    at = now()
    reserves, delay = clock.shown(at)
    expiry = clock.expiry()
    return {"preset": clock.preset.name, "delay": clock.preset.delay, "overtime": clock.preset.overtime,
            "reserves": list(reserves), "delay_left": delay, "running": clock.running, "paused": clock.paused,
            "at": at, "fallen": expiry is not None and at >= expiry and record.state.in_game,
            "overtime_used": list(clock.overtime_used), "late": list(record.state.late),
            "called_at": record.called_at}
