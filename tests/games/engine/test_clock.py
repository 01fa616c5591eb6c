"""The match clock judged by the engine with time as data, against examples worked by hand from the federations'
rules (games/engine/clock.py): reserves, the delay never banked, overtime, a flag falling during a cube answer,
lateness up to the win, and the refusals."""

from __future__ import annotations

import pytest

from games.engine import commands as c
from games.engine import events as ev
from games.engine.clock import CUSTOM, MINUTE, PRESETS, SECOND, custom, figures_of, preset_named
from games.engine.errors import InvalidAction, NotYourTurn, Reason
from games.engine.match import OVER, MatchState, decide, evolve


class Table:
    """A match played command by command; ``events`` keeps what each command recorded."""

    def __init__(self, length: int = 7, score=(0, 0), crawford_done: bool = False):
        self.state, self.events = MatchState(), []
        self(c.StartMatch(("Ann", "Ben"), length, initial_score=score, crawford_done=crawford_done))

    def __call__(self, command) -> list:
        recorded = decide(self.state, command)
        for e in recorded:
            self.state = evolve(self.state, e)
        self.events += recorded
        return recorded

    def reserves(self, at: int) -> tuple[int, int]:
        return self.state.clock.shown(at)[0]


def minutes(n: float) -> int:
    return int(n * MINUTE)


@pytest.mark.parametrize("preset, length, score, reserve", [
    # US: 2 minutes a point less 1 a point scored by either player
    ("us", 11, (0, 0), minutes(22)), ("us", 11, (3, 5), minutes(22 - 8)), ("us", 11, (10, 6), minutes(22 - 16)),
    # UK / WBGF: 2 minutes a point, whatever the score (an 11-point match: 22 minutes each)
    ("uk", 11, (0, 0), minutes(22)), ("uk", 11, (3, 5), minutes(22)), ("uk", 11, (10, 6), minutes(22)),
    # ABA standard clock: 6 minutes a point less 3 a point scored
    ("aba", 11, (0, 0), minutes(66)), ("aba", 11, (3, 5), minutes(66 - 24)), ("aba", 11, (10, 6), minutes(66 - 48)),
    # US doubles: 2.5 minutes a point less 1.25 a point scored
    ("us_doubles", 11, (0, 0), minutes(27.5)), ("us_doubles", 11, (3, 5), minutes(27.5 - 10)),
    ("us_doubles", 7, (6, 2), minutes(17.5 - 10)),
])
def test_the_reserve_set_at_the_start_of_a_game_at_0_0_3_5_and_in_the_crawford_game(preset, length, score, reserve):
    table = Table(length, score)
    assert table.state.crawford == (max(score) == length - 1)
    table(c.SetClock(PRESETS[preset], at=0))
    assert table.state.clock.reserves == (reserve, reserve)
    assert table.events[-1] == ev.ClockSet(preset, *(getattr(PRESETS[preset], f) for f in
                                                     ("per_point", "per_scored", "delay", "overtime")),
                                           (reserve, reserve), 0)


def opening(table: Table, at: int) -> None:
    """Ann rolls 3 against Ben's 1: Ben, the lower die, starts Ann's clock; Ann plays first."""
    table(c.Roll(None, (3, 1)))
    table(c.PressClock(1, at))
    assert table.state.clock.running == 0


def test_the_delay_is_used_first_and_never_banked():
    table = Table(7)
    table(c.SetClock(PRESETS["us"], at=0))  # 14 minutes each, 12 s a move
    opening(table, at=1 * SECOND)
    table(c.Move(0, "8/5 6/5"))
    table(c.PressClock(0, at=6 * SECOND))  # 5 s: inside the delay, the reserve untouched, 7 s not kept
    assert table.reserves(6 * SECOND) == (minutes(14), minutes(14))
    table(c.Roll(1, (6, 5)))
    table(c.Move(1, "24/13"))
    table(c.PressClock(1, at=26 * SECOND))  # 20 s: 12 s of delay, 8 s off Ben's reserve
    assert table.reserves(26 * SECOND) == (minutes(14), minutes(14) - 8 * SECOND)
    table(c.Roll(0, (2, 1)))
    # while Ann thinks: her delay runs down first, then her reserve
    assert table.state.clock.shown(26 * SECOND + 10 * SECOND) == ((minutes(14), minutes(14) - 8 * SECOND), 2 * SECOND)
    assert table.state.clock.shown(26 * SECOND + 15 * SECOND)[0][0] == minutes(14) - 3 * SECOND
    table(c.Move(0, "13/11 6/5"))
    table(c.PressClock(0, at=26 * SECOND + 12 * SECOND))  # exactly the delay: nothing off, nothing banked
    assert table.reserves(40 * SECOND) == (minutes(14), minutes(14) - 8 * SECOND)


def test_the_opening_press_is_the_lower_die_and_a_player_presses_only_their_own_running_clock():
    table = Table(7)
    table(c.SetClock(PRESETS["uk"], at=0))
    with pytest.raises(InvalidAction) as standing:
        table(c.PressClock(0, at=1))  # before the opening roll nothing runs
    assert standing.value.reason == Reason.CLOCK_STANDING
    table(c.Roll(None, (3, 1)))
    with pytest.raises(NotYourTurn) as higher:
        table(c.PressClock(0, at=1))  # Ann rolled the higher die: Ben starts her clock
    assert (higher.value.reason, higher.value.params) == (Reason.NOT_YOUR_CLOCK, {"name": "Ann", "other": "Ben"})
    table(c.PressClock(1, at=1))
    with pytest.raises(NotYourTurn):
        table(c.PressClock(1, at=2))  # Ann's clock runs, not Ben's
    with pytest.raises(InvalidAction) as backwards:
        table(c.PressClock(0, at=0))
    assert backwards.value.reason == Reason.READING_BEFORE
    before = table.state
    for refused in (c.SetClock(PRESETS["us"], at=5), c.ResumeClock(at=5), c.ClaimTime(at=5)):
        with pytest.raises(InvalidAction):
            table(refused)
    assert table.state is before


def test_a_clock_is_set_only_at_the_start_of_a_game_of_a_match():
    table = Table(7)
    table(c.Roll(None, (3, 1)))
    with pytest.raises(InvalidAction) as mid_game:
        table(c.SetClock(PRESETS["us"], at=0))
    assert mid_game.value.reason == Reason.CLOCK_AT_GAME_START
    money = Table(0)
    with pytest.raises(InvalidAction) as session:
        money(c.SetClock(PRESETS["us"], at=0))
    assert session.value.reason == Reason.CLOCK_MATCHES_ONLY


def test_a_flag_falling_during_a_cube_answer_loses_the_match_on_time():
    table = Table(5, score=(1, 2))
    table(c.SetClock(custom(per_point=MINUTE, per_scored=0, delay=10 * SECOND), at=0))  # 5 minutes each
    opening(table, at=0)
    table(c.Move(0, "8/5 6/5"))
    table(c.PressClock(0, at=3 * SECOND))
    table(c.Roll(1, (6, 4)))
    table(c.Move(1, "24/14"))
    table(c.PressClock(1, at=5 * SECOND))
    table(c.Double(0))
    table(c.PressClock(0, at=8 * SECOND))  # Ben's clock runs for his answer
    fell_at = 8 * SECOND + 10 * SECOND + minutes(5)  # his delay, then his whole reserve
    with pytest.raises(InvalidAction) as early:
        table(c.ClaimTime(at=fell_at - 1))
    assert early.value.reason == Reason.FLAG_NOT_FALLEN and early.value.params["name"] == "Ben"
    recorded = table(c.ClaimTime(at=fell_at + 30 * SECOND))
    assert recorded == [ev.FlagFell(1, fell_at), ev.GameWon(1, 0, "single", 1, 4, "time", (5, 2)),
                        ev.MatchWon(0, (5, 2))]
    assert table.state.phase == OVER and table.state.winner == 0


def test_overtime_after_the_first_expiry_and_the_second_expiry_loses():
    table = Table(3)
    table(c.SetClock(PRESETS["us_overtime_1"], at=0))  # 6 minutes each, then 1 minute of overtime
    opening(table, at=0)
    table(c.Move(0, "8/5 6/5"))
    first = 12 * SECOND + minutes(6)
    recorded = table(c.PressClock(0, at=first + 20 * SECOND))  # 20 s into the overtime
    assert recorded == [ev.OvertimeGiven(0, first), ev.ClockPressed(0, first + 20 * SECOND)]
    assert table.reserves(first + 20 * SECOND) == (40 * SECOND, minutes(6))
    table(c.Roll(1, (6, 4)))
    table(c.Move(1, "24/14"))
    table(c.PressClock(1, at=first + 21 * SECOND))
    table(c.Roll(0, (2, 1)))
    table(c.Move(0, "13/11 6/5"))
    second = first + 21 * SECOND + 12 * SECOND + 40 * SECOND  # the delay, then the 40 s of overtime left
    recorded = table(c.PressClock(0, at=second + 1))
    assert recorded[0] == ev.FlagFell(0, second) and recorded[-1] == ev.MatchWon(1, (0, 3))
    assert recorded[1].reason == "time" and recorded[1].points == 3


def test_a_pause_for_a_directors_call_stops_the_running_clock_and_keeps_its_delay():
    table = Table(7)
    table(c.SetClock(PRESETS["uk"], at=0))
    opening(table, at=0)
    table(c.PauseClock(at=5 * SECOND))
    with pytest.raises(InvalidAction) as paused:
        table(c.PressClock(0, at=6 * SECOND))
    assert paused.value.reason == Reason.CLOCK_PAUSED
    assert table.state.clock.shown(10 * MINUTE) == ((minutes(14), minutes(14)), 7 * SECOND)
    table(c.ResumeClock(at=10 * MINUTE))
    table(c.Move(0, "8/5 6/5"))
    table(c.PressClock(0, at=10 * MINUTE + 17 * SECOND))  # 7 s of delay left, 10 s off the reserve
    assert table.reserves(10 * MINUTE + 17 * SECOND) == (minutes(14) - 10 * SECOND, minutes(14))


def test_once_a_game_is_over_the_running_players_press_stops_both_clocks_and_no_flag_falls():
    table = Table(3)
    table(c.SetClock(PRESETS["uk"], at=0))  # 6 minutes each
    opening(table, at=0)
    table(c.Resign(0, "single"))
    table(c.AcceptResignation(1))
    recorded = table(c.PressClock(0, at=minutes(10)))  # long after the game's end: stopped, not lost
    assert recorded == [ev.ClockPressed(0, minutes(10))]
    assert table.state.clock.running is None and table.state.phase != OVER
    assert table.reserves(minutes(20)) == (0, minutes(6))
    with pytest.raises(InvalidAction) as standing:
        table(c.ClaimTime(at=minutes(21)))
    assert standing.value.reason == Reason.CLOCK_STANDING


@pytest.mark.parametrize("late_minutes, points", [(4.99, 0), (5, 1), (9.99, 1), (10, 2), (14, 2)])
def test_lateness_gives_a_penalty_point_each_full_five_minutes(late_minutes, points):
    table = Table(7)
    if not points:
        with pytest.raises(InvalidAction) as none:
            table(c.RecordLateness(1, called_at=0, at=minutes(late_minutes)))
        assert none.value.reason == Reason.NO_PENALTY_DUE
        return
    table(c.RecordLateness(1, called_at=0, at=minutes(late_minutes)))
    assert table.state.score == (points, 0) and table.state.late == (0, points)


def test_lateness_past_half_the_match_gives_the_opponent_the_match():
    table = Table(7)
    table(c.RecordLateness(1, called_at=minutes(1), at=minutes(11)))  # 10 minutes: 2 points
    table(c.RecordLateness(1, called_at=minutes(1), at=minutes(16)))  # 15: one more
    assert table.state.score == (3, 0) and table.state.phase != OVER  # 3 is not past half of 7
    recorded = table(c.RecordLateness(1, called_at=minutes(1), at=minutes(21)))  # 20: 4 points, past 3.5
    assert recorded == [ev.LatePenalty(1, 1, minutes(21)), ev.GameWon(1, 0, "single", 1, 3, "late", (7, 0)),
                        ev.MatchWon(0, (7, 0))]
    started = Table(7)
    started(c.Roll(None, (3, 1)))
    with pytest.raises(InvalidAction) as playing:
        started(c.RecordLateness(1, called_at=0, at=minutes(30)))
    assert playing.value.reason == Reason.LATE_ONLY_BEFORE_PLAY


def test_clock_events_go_through_the_stored_form_and_back():
    table = Table(7)
    table(c.SetClock(PRESETS["us_overtime_2"], at=0))
    opening(table, at=0)
    table(c.PauseClock(at=5))
    table(c.ResumeClock(at=6))
    for e in table.events:
        assert ev.from_dict(ev.to_dict(e)) == e


def test_a_flat_clock_for_the_match_whatever_its_length_and_the_figures_a_rule_records():
    """A club's "20 minutes each, 8 seconds a move": the same reserve in a 3- and a 9-point match, less nothing for
    points scored unless the director says so; a preset named by a rule, and a custom one's figures in seconds."""
    flat = preset_named(CUSTOM, {"per_match": 1200, "delay": 8})
    assert flat.reserve(3, (0, 0)) == flat.reserve(9, (4, 6)) == 20 * MINUTE and flat.delay == 8 * SECOND
    mixed = preset_named(CUSTOM, {"per_match": 600, "per_point": 60, "per_scored": 30})
    assert mixed.reserve(5, (2, 1)) == 10 * MINUTE + 5 * MINUTE - 90 * SECOND  # 600 + 5 × 60 − 3 × 30 seconds
    assert figures_of(flat) == {"preset": CUSTOM, "per_match": 1200, "per_point": 0, "per_scored": 0, "delay": 8,
                                "overtime": 0}
    assert figures_of(PRESETS["uk"]) == {"preset": "uk"} and preset_named("uk") is PRESETS["uk"]
    assert preset_named(CUSTOM, figures_of(mixed)) == mixed
    with pytest.raises(KeyError):
        preset_named("fide")
    for bad in ({}, {"per_scored": 60}, {"per_match": -1}, {"per_point": 1.5}, {"per_point": True},
                {"per_match": 24 * 3600 + 1}):
        with pytest.raises(ValueError):
            preset_named(CUSTOM, bad)
    table = Table(length=7, score=(2, 4))
    table(c.SetClock(flat, 0))
    assert table.state.clock.reserves == (20 * MINUTE, 20 * MINUTE) and table.state.clock.preset == flat
    assert ev.from_dict(ev.to_dict(table.events[-1])) == table.events[-1]
