"""The match clock on the platform: each clock command judged by the engine at a reading of the server's clock.

The reading the engine judges is the server's receipt time, one time line for every device at the board, the
console and the spectators. A tablet's own reading is kept beside it (``ClockPressed.device_at``) for the
record and for a director's review; when the two disagree the server's time counts: a press sent while the
tablet had lost its connection counts when it arrives, so a player whose connection drops presses again on
the tablet of the opponent or calls the director (who pauses the clocks).

A match of an event carries its round's clock rule from its registration (``MatchRecord.clock_rule``, set by
whoever created it): ``required`` (the clock is set with the match: :func:`required_clock`), ``allowed`` (either
player or an official sets it at the start of a game, with the round's preset) or ``none`` (no clock is set).
A match with no rule takes any clock.
"""

from __future__ import annotations

import time

from eventlog.store import NewEvent
from games.engine import commands as engine
from games.engine.clock import (  # noqa: F401 - USES and the rest are the platform's words too
    ALLOWED, CUSTOM, FIGURES, MAX_SECONDS, NONE, PRESET_NAMES, REQUIRED, USES, figures_of, preset_named,
)
from games.engine.errors import MatchOver
from games.engine.errors import Reason as EngineReason
from games.engine.match import OPENING, OVER, decide

from . import streams
from .commands import CallMatch, ClaimTime, PauseClock, PressClock, RecordLateness, ResumeClock, SetClock
from .errors import BadCommand, Reason
from .streams import MatchRecord


def now() -> int:
    """The server's reading, in milliseconds since 1970."""
    return time.time_ns() // 1_000_000


def clock_events(command, record: MatchRecord, player: int | None) -> list:
    """The engine's events (or the platform's) for a clock command sent by ``player``'s seat (None: an official)."""
    state, at = record.state, now()
    if isinstance(command, SetClock):
        return decide(state, engine.SetClock(preset_of(command, record.clock_rule), at))
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


def preset_of(command: SetClock, rule: dict | None = None):
    """The preset a command names (a custom clock's figures in seconds), within its round's ``rule``: none where
    clocks are not used, the round's own where it names one (a command may leave it out)."""
    if rule and rule["use"] == NONE:
        raise BadCommand(Reason.NO_CLOCKS)
    if rule and rule.get("preset"):
        ruled = preset_named(rule["preset"], rule)
        if command.preset and (command.preset != ruled.name or (
                command.preset == CUSTOM and _figures(command) != {f: rule.get(f) or 0 for f in FIGURES})):
            raise BadCommand(Reason.CLOCK_OF_ROUND, preset=ruled.name)
        return ruled
    if command.preset not in PRESET_NAMES:
        raise BadCommand(Reason.CLOCK_PRESET, choices=", ".join(PRESET_NAMES))
    try:
        return preset_named(command.preset, _figures(command))
    except ValueError:
        raise BadCommand(Reason.CLOCK_FIGURES, most=MAX_SECONDS) from None


def _figures(command: SetClock) -> dict:
    return {f: getattr(command, f) or 0 for f in FIGURES}


def checked_rule(rule: dict | None) -> dict | None:
    """A round's clock rule as a creator hands it to a match (``use``, and with a clock its ``preset`` and a
    custom one's figures in seconds: ``games.engine.clock.figures_of``), checked: the match trusts it."""
    if rule is None:
        return None
    if rule.get("use") not in USES:
        raise BadCommand(Reason.CLOCK_USE, choices=", ".join(USES))
    if rule["use"] == NONE:
        return {"use": NONE}
    try:
        preset = preset_named(rule.get("preset"), rule)
    except KeyError:
        raise BadCommand(Reason.CLOCK_PRESET, choices=", ".join(PRESET_NAMES)) from None
    except ValueError:
        raise BadCommand(Reason.CLOCK_FIGURES, most=MAX_SECONDS) from None
    return {"use": rule["use"], **figures_of(preset)}


def required_clock(state, rule: dict | None, at: int) -> list:
    """The engine's events that set a match's clock with its match, where its round requires one: both clocks
    standing still until the opening roll's lower die presses."""
    if not rule or rule["use"] != REQUIRED or state.is_money:
        return []
    return decide(state, engine.SetClock(preset_named(rule["preset"], rule), at))


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
