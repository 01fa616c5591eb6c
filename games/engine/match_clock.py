"""The clock's commands judged against a match's state, and its facts applied (the arithmetic: clock.py).

A flag is judged when a press or a claim shows it fell, at the reading it fell: a player who presses after
their reserve ran out loses at that reading, or is given the preset's overtime then and is judged again on it.
"""

from __future__ import annotations

from . import commands as cmd
from . import events as ev
from . import match as m
from .clock import Clock, Preset, late_loses, late_points
from .errors import InvalidAction, NotYourTurn, Reason
from .events import SINGLE


def _set(state: m.MatchState, c: cmd.SetClock) -> list:
    if state.is_money:
        raise InvalidAction(Reason.CLOCK_MATCHES_ONLY)
    if state.clock is not None:
        raise InvalidAction(Reason.CLOCK_ALREADY_SET)
    if state.phase != m.OPENING:
        raise InvalidAction(Reason.CLOCK_AT_GAME_START)
    p = c.preset
    reserve = p.reserve(state.length, state.score)
    return [ev.ClockSet(p.name, p.per_point, p.per_scored, p.delay, p.overtime, (reserve, reserve), c.at, p.per_match)]


def _press(state: m.MatchState, c: cmd.PressClock) -> list:
    clock = _running_clock(state, c.at)
    m._check_player(c.player)
    if clock.running is None:
        if not state.in_game:
            raise InvalidAction(Reason.CLOCK_STANDING)
        if c.player != (presser := presser_of(state)):
            raise NotYourTurn(Reason.NOT_YOUR_CLOCK, name=state.players[c.player], other=state.players[presser])
        return [ev.ClockPressed(c.player, c.at, c.device_at)]
    if c.player != clock.running:
        raise NotYourTurn(Reason.NOT_YOUR_CLOCK, name=state.players[c.player], other=state.players[clock.running])
    if not state.in_game:
        return [ev.ClockPressed(c.player, c.at, c.device_at)]  # the game is over: the press stops both, no flag
    return _unless_lost(_flag(state, clock, c.at), ev.ClockPressed(c.player, c.at, c.device_at))


def _claim(state: m.MatchState, c: cmd.ClaimTime) -> list:
    clock = _running_clock(state, c.at)
    if clock.running is None or not state.in_game:
        raise InvalidAction(Reason.CLOCK_STANDING)
    fell = _flag(state, clock, c.at)
    if not fell:
        left, delay = clock.shown(c.at)
        raise InvalidAction(Reason.FLAG_NOT_FALLEN, name=state.players[clock.running],
                            seconds=(left[clock.running] + delay) // 1000)
    return fell


def _flag(state: m.MatchState, clock: Clock, at: int) -> list:
    """The facts of the running player's flag falling by reading ``at`` (none when it has not)."""
    player, out = clock.running, []
    expiry = clock.expiry()
    if expiry is None or at < expiry:
        return []
    if clock.may_overtime(player):
        out.append(ev.OvertimeGiven(player, expiry))
        expiry += clock.preset.overtime
        if at < expiry:
            return out  # the press or claim then stands on the overtime
    return out + [ev.FlagFell(player, expiry)] + _given(state, 1 - player, "time")


def _unless_lost(flag: list, then) -> list:
    """``then`` after what the flag did, unless it lost the match (overtime given: the game goes on)."""
    return flag if flag and isinstance(flag[-1], ev.MatchWon) else flag + [then]


def _pause(state: m.MatchState, c: cmd.PauseClock) -> list:
    clock = _clock(state, c.at)
    if clock.paused:
        raise InvalidAction(Reason.CLOCK_PAUSED)
    if clock.running is None:
        raise InvalidAction(Reason.CLOCK_STANDING)
    return _unless_lost(_flag(state, clock, c.at), ev.ClockPaused(c.at))


def _resume(state: m.MatchState, c: cmd.ResumeClock) -> list:
    clock = _clock(state, c.at)
    if not clock.paused:
        raise InvalidAction(Reason.CLOCK_NOT_PAUSED)
    return [ev.ClockResumed(c.at)]


def _lateness(state: m.MatchState, c: cmd.RecordLateness) -> list:
    m._check_player(c.player)
    if state.is_money:
        raise InvalidAction(Reason.LATE_MATCHES_ONLY)
    if state.phase != m.OPENING or state.games or state.game:
        raise InvalidAction(Reason.LATE_ONLY_BEFORE_PLAY)
    due = late_points(c.called_at, c.at) - state.late[c.player]
    if due <= 0:
        raise InvalidAction(Reason.NO_PENALTY_DUE)
    out: list = [ev.LatePenalty(c.player, due, c.at)]
    if late_loses(state.late[c.player] + due, state.length) or state.score[1 - c.player] + due >= state.length:
        out += _given(m.evolve(state, out[0]), 1 - c.player, "late")
    return out


def _give(state: m.MatchState, c: cmd.GiveMatch) -> list:
    m._check_player(c.winner)
    if c.reason not in GIVEN_FOR:
        raise InvalidAction(Reason.GIVEN_FOR, reasons=", ".join(GIVEN_FOR))
    if state.is_money:
        raise InvalidAction(Reason.CLOCK_MATCHES_ONLY)
    return _given(state, c.winner, c.reason)


# the reasons a match is given (a GameWon's reason): a flag, lateness at the board, and online an absence that
# outlasted the disconnect clock or a player who never came by the start deadline
GIVEN_FOR = ("time", "late", "disconnect", "no_show")


def _given(state: m.MatchState, winner: int, reason: str) -> list:
    """The match given to ``winner``: the game under way (or the next, unplayed) won for what they needed."""
    score = list(state.score)
    needed = max(0, state.length - score[winner])
    score[winner] = max(score[winner], state.length)
    game = state.game + 1 if state.phase == m.OPENING or state.resumed_phase == m.OPENING else state.game
    return [ev.GameWon(game, winner, SINGLE, state.cube, needed, reason, tuple(score)),
            ev.MatchWon(winner, tuple(score))]


def _clock(state: m.MatchState, at: int) -> Clock:
    if state.clock is None:
        raise InvalidAction(Reason.NO_CLOCK)
    if at < state.clock.since:
        raise InvalidAction(Reason.READING_BEFORE)
    return state.clock


def _running_clock(state: m.MatchState, at: int) -> Clock:
    clock = _clock(state, at)
    if clock.paused:
        raise InvalidAction(Reason.CLOCK_PAUSED)
    return clock


def presser_of(state: m.MatchState) -> int | None:
    """Who presses now: the player whose clock runs; with both standing still in a game (its opening roll), the
    player whose action the game does not wait for, the lower die; None without a clock or between games."""
    clock = state.clock
    if clock is None:
        return None
    if clock.running is not None:
        return clock.running
    return 1 - _to_act(state) if state.in_game else None


def _to_act(state: m.MatchState) -> int:
    """Whose action the game waits for: the roller or mover, the player answering a double or a resignation."""
    if state.phase == m.DOUBLED:
        return state.answerer
    if state.phase == m.RESIGNED:
        return 1 - state.resignation[0]
    return state.turn


def _on_set(state: m.MatchState, e: ev.ClockSet) -> m.MatchState:
    preset = Preset(e.preset, e.per_point, e.per_scored, e.delay, e.overtime, e.per_match)
    return m._r(state, clock=Clock(preset, tuple(e.reserves), since=e.at))


def _on_pressed(state: m.MatchState, e: ev.ClockPressed) -> m.MatchState:
    stopped = state.clock.stopped(e.at)
    between_games = state.phase in (m.OPENING, m.OVER) and state.clock.running is not None
    return m._r(state, clock=stopped if between_games else stopped.started(1 - e.player, e.at))


def _on_paused(state: m.MatchState, e: ev.ClockPaused) -> m.MatchState:
    return m._r(state, clock=state.clock.paused_at(e.at))


def _on_resumed(state: m.MatchState, e: ev.ClockResumed) -> m.MatchState:
    return m._r(state, clock=state.clock.resumed_at(e.at))


def _on_overtime(state: m.MatchState, e: ev.OvertimeGiven) -> m.MatchState:
    return m._r(state, clock=state.clock.overtime(e.player, e.at))


def _on_flag(state: m.MatchState, e: ev.FlagFell) -> m.MatchState:
    return m._r(state, clock=state.clock.stopped(e.at))


def _on_late(state: m.MatchState, e: ev.LatePenalty) -> m.MatchState:
    late, score = list(state.late), list(state.score)
    late[e.player] += e.points
    score[1 - e.player] += e.points
    after = m._r(state, late=tuple(late), score=tuple(score))
    return m._r(after, crawford=m._is_crawford_game(after))


DECIDERS = {
    cmd.SetClock: _set,
    cmd.PressClock: _press,
    cmd.ClaimTime: _claim,
    cmd.PauseClock: _pause,
    cmd.ResumeClock: _resume,
    cmd.RecordLateness: _lateness,
    cmd.GiveMatch: _give,
}

EVOLVERS = {
    ev.ClockSet: _on_set,
    ev.ClockPressed: _on_pressed,
    ev.ClockPaused: _on_paused,
    ev.ClockResumed: _on_resumed,
    ev.OvertimeGiven: _on_overtime,
    ev.FlagFell: _on_flag,
    ev.LatePenalty: _on_late,
}
