"""A season's stream: its events, its state (the fold of them) and the decider that judges the director's
commands (pure Python, no Django: the service looks up what only the database knows before deciding).

=========================  ==================================================================================
``SeasonOpened``           a season (or a series: "Thursday nights 2026") opened by a club's director
``EventAddedToSeason``     an event counts in the season, on its date (the date picks the rule version)
``EventRemovedFromSeason`` an event no longer counts
``ScoringRuleSet``         version n of the scoring rule, in force from a date (``seasons/scoring.py``)
=========================  ==================================================================================
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date
from enum import StrEnum

from . import scoring

STREAM_TYPE = "season"
KINDS = ("season", "series")
MAX_EVENTS = 500
MAX_VERSIONS = 100

OPENED, ADDED, REMOVED, RULE_SET = "SeasonOpened", "EventAddedToSeason", "EventRemovedFromSeason", "ScoringRuleSet"
EVENT_TYPES = (OPENED, ADDED, REMOVED, RULE_SET)


def stream_id_of(season_pk: int) -> str:
    return f"season-{season_pk}"


def season_pk_of(stream_id: str) -> int:
    return int(stream_id.rsplit("-", 1)[1])


class SeasonRefusal(StrEnum):
    BAD_SEASON_COMMAND = "bad_season_command"
    ALREADY_IN_SEASON = "already_in_season"
    NOT_IN_SEASON = "not_in_season"
    BAD_RULE = "bad_rule"
    BAD_DATE = "bad_date"
    SEASON_FULL = "season_full"


class SeasonError(ValueError):
    """A command the season does not take (HTTP 400); ``code`` says why, the text says it to a person."""

    code: SeasonRefusal = SeasonRefusal.BAD_SEASON_COMMAND  # the class's: the API's schema lists the whole enum

    def __init__(self, code: SeasonRefusal, reason: str):
        super().__init__(reason)
        self.code = code


@dataclass
class SeasonState:
    version: int = 0
    name: str = ""
    kind: str = "season"
    events: dict[int, date] = field(default_factory=dict)  # tournament pk -> the event's date in the season
    versions: list[scoring.Version] = field(default_factory=list)


def evolve(state: SeasonState, event_type: str, payload: dict) -> SeasonState:
    state.version += 1
    if event_type == OPENED:
        state.name, state.kind = payload["name"], payload.get("kind", "season")
    elif event_type == ADDED:
        state.events[payload["tournament_id"]] = date.fromisoformat(payload["on"])
    elif event_type == REMOVED:
        state.events.pop(payload["tournament_id"], None)
    elif event_type == RULE_SET:
        state.versions.append(scoring.Version(payload["version"], date.fromisoformat(payload["effective_from"]),
                                              payload["rule"]))
    return state


def fold(rows) -> SeasonState:
    """``rows``: (event_type, payload) pairs in stream order."""
    state = SeasonState()
    for event_type, payload in rows:
        evolve(state, event_type, payload)
    return state


# a club's records go back decades, not to year 1, and a season is not planned a century ahead: a date outside
# is a typing slip (0001-01-01, 9999-12-31) that would sort every event before or after it
EARLIEST, LATEST = date(1900, 1, 1), date(2199, 12, 31)


def _day(value, what: str) -> date:
    if isinstance(value, date):
        day = value
    else:
        try:
            day = date.fromisoformat(value)
        except (TypeError, ValueError):
            raise SeasonError(SeasonRefusal.BAD_DATE, f"{what} is a date, YYYY-MM-DD") from None
    if not EARLIEST <= day <= LATEST:
        raise SeasonError(SeasonRefusal.BAD_DATE, f"{what} is a date from {EARLIEST.isoformat()} to "
                                                  f"{LATEST.isoformat()}; {day.isoformat()} is outside")
    return day


def decide_add(state: SeasonState, tournament_id: int, on) -> list[tuple[str, dict]]:
    if tournament_id in state.events:
        raise SeasonError(SeasonRefusal.ALREADY_IN_SEASON, "this event is in the season already")
    if len(state.events) >= MAX_EVENTS:
        raise SeasonError(SeasonRefusal.SEASON_FULL, f"a season holds at most {MAX_EVENTS} events")
    return [(ADDED, {"tournament_id": tournament_id, "on": _day(on, "'on'").isoformat()})]


def decide_remove(state: SeasonState, tournament_id: int) -> list[tuple[str, dict]]:
    if tournament_id not in state.events:
        raise SeasonError(SeasonRefusal.NOT_IN_SEASON, "this event is not in the season")
    return [(REMOVED, {"tournament_id": tournament_id})]


def decide_rule(state: SeasonState, rule, effective_from) -> list[tuple[str, dict]]:
    """A new version of the rule, in force from a date: the events on or after it are scored again with it."""
    if len(state.versions) >= MAX_VERSIONS:
        raise SeasonError(SeasonRefusal.SEASON_FULL, f"a season keeps at most {MAX_VERSIONS} rule versions")
    try:
        rule = scoring.checked(rule)
    except scoring.RuleError as bad:
        raise SeasonError(SeasonRefusal.BAD_RULE, f"rule: {bad}") from None
    day = _day(effective_from, "'effective_from'")
    return [(RULE_SET, {"version": len(state.versions) + 1, "effective_from": day.isoformat(), "rule": rule})]
