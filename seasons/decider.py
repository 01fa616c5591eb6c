"""A season's stream: its events, its state (the fold of them) and the decider that judges the director's
commands (pure Python, no Django: the service looks up what only the database knows before deciding).

=========================  ==================================================================================
``SeasonOpened``           a season (or a series: "Thursday nights 2026") opened by a club's director
``EventAddedToSeason``     an event counts in the season, on its date (the date picks the rule version)
``EventRemovedFromSeason`` an event no longer counts
``ScoringRuleSet``         version n of the scoring rule, in force from a date (``seasons/scoring.py``)
``ChouetteAddedToSeason``  the club counts a chouette night in the season: its session, its date and which
                           player each name on its sheet is
``ChouetteRemovedFromSeason``  a chouette night no longer counts
=========================  ==================================================================================
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date
from enum import Enum, StrEnum

from . import scoring

STREAM_TYPE = "season"
KINDS = ("season", "series")
MAX_EVENTS = 500
MAX_VERSIONS = 100

OPENED, ADDED, REMOVED, RULE_SET = "SeasonOpened", "EventAddedToSeason", "EventRemovedFromSeason", "ScoringRuleSet"
CHOUETTE_ADDED, CHOUETTE_REMOVED = "ChouetteAddedToSeason", "ChouetteRemovedFromSeason"
EVENT_TYPES = (OPENED, ADDED, REMOVED, RULE_SET, CHOUETTE_ADDED, CHOUETTE_REMOVED)


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


def gettext_noop(message: str) -> str:
    """``message`` as it is: the call marks it for the translators' catalogue (gettext's tools extract it)."""
    return message


class Reason(Enum):
    """Exactly why the season refuses: the member's name says it, its value is the English template."""

    NOT_A_DATE = gettext_noop("%(field)s is a date, YYYY-MM-DD")
    DATE_OUT_OF_RANGE = gettext_noop("%(field)s is a date from %(earliest)s to %(latest)s; %(date)s is outside")
    ALREADY_IN_SEASON = gettext_noop("this event is in the season already")
    EVENTS_FULL = gettext_noop("a season holds at most %(most)s events")
    NOT_IN_SEASON = gettext_noop("this event is not in the season")
    VERSIONS_FULL = gettext_noop("a season keeps at most %(most)s rule versions")
    BAD_RULE = gettext_noop("rule: %(why)s")
    # the services' and the season page's forms
    SEASON_NAME = gettext_noop("a season's name is 1 to %(most)s characters")
    KIND = gettext_noop("kind is one of %(kinds)s")
    CHOOSE_EVENT = gettext_noop("choose an event")
    CHOOSE_CLUB = gettext_noop("choose a club")
    NO_SUCH_EVENT = gettext_noop("no such event")
    NO_SUCH_CLUB = gettext_noop("no such club")
    RULE_TOO_LONG = gettext_noop("the rule is longer than %(n)s characters")
    RULE_NOT_JSON = gettext_noop("the rule is not JSON: %(why)s")
    CHOUETTE_IN_SEASON = gettext_noop("this chouette night is in the season already")
    CHOUETTE_NOT_IN_SEASON = gettext_noop("this chouette night is not in the season")
    CHOUETTE_PLAYERS = gettext_noop("'players' maps names on the chouette's sheet to players: {\"Ann\": 12}, at "
                                    "least one, each player once")
    NOT_ON_SHEET = gettext_noop("%(name)s is not on the chouette's sheet")
    NO_SUCH_CHOUETTE = gettext_noop("no such chouette")
    UNKNOWN_ACTION = gettext_noop("unknown action: nothing was recorded")


class SeasonError(ValueError):
    """A command the season does not take (HTTP 400): ``SeasonError(code, reason, **params)``, a refusal as data;
    ``code`` says what kind (a program tells them apart), the reason exactly why, the text says it in English."""

    code: SeasonRefusal = SeasonRefusal.BAD_SEASON_COMMAND  # the class's: the API's schema lists the whole enum

    def __init__(self, code: SeasonRefusal, reason: Reason, /, **params):
        self.code, self.reason, self.params = code, reason, params
        super().__init__(reason.value % params)


@dataclass
class SeasonState:
    version: int = 0
    name: str = ""
    kind: str = "season"
    events: dict[int, date] = field(default_factory=dict)  # tournament pk -> the event's date in the season
    versions: list[scoring.Version] = field(default_factory=list)
    # chouette nights the club counts: session stream id -> {"on": date, "players": {name on its sheet: player id}}
    chouettes: dict[str, dict] = field(default_factory=dict)


def evolve(state: SeasonState, event_type: str, payload: dict) -> SeasonState:
    state.version += 1
    if event_type == OPENED:
        state.name, state.kind = payload["name"], payload.get("kind", "season")
    elif event_type == ADDED:
        state.events[payload["tournament_id"]] = date.fromisoformat(payload["on"])
    elif event_type == REMOVED:
        state.events.pop(payload["tournament_id"], None)
    elif event_type == CHOUETTE_ADDED:
        state.chouettes[payload["chouette"]] = {"on": date.fromisoformat(payload["on"]),
                                                "players": dict(payload["players"])}
    elif event_type == CHOUETTE_REMOVED:
        state.chouettes.pop(payload["chouette"], None)
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
            raise SeasonError(SeasonRefusal.BAD_DATE, Reason.NOT_A_DATE, field=what) from None
    if not EARLIEST <= day <= LATEST:
        raise SeasonError(SeasonRefusal.BAD_DATE, Reason.DATE_OUT_OF_RANGE, field=what, earliest=EARLIEST.isoformat(),
                          latest=LATEST.isoformat(), date=day.isoformat())
    return day


def decide_add(state: SeasonState, tournament_id: int, on) -> list[tuple[str, dict]]:
    if tournament_id in state.events:
        raise SeasonError(SeasonRefusal.ALREADY_IN_SEASON, Reason.ALREADY_IN_SEASON)
    if len(state.events) >= MAX_EVENTS:
        raise SeasonError(SeasonRefusal.SEASON_FULL, Reason.EVENTS_FULL, most=MAX_EVENTS)
    return [(ADDED, {"tournament_id": tournament_id, "on": _day(on, "'on'").isoformat()})]


def decide_remove(state: SeasonState, tournament_id: int) -> list[tuple[str, dict]]:
    if tournament_id not in state.events:
        raise SeasonError(SeasonRefusal.NOT_IN_SEASON, Reason.NOT_IN_SEASON)
    return [(REMOVED, {"tournament_id": tournament_id})]


def decide_rule(state: SeasonState, rule, effective_from) -> list[tuple[str, dict]]:
    """A new version of the rule, in force from a date: the events on or after it are scored again with it."""
    if len(state.versions) >= MAX_VERSIONS:
        raise SeasonError(SeasonRefusal.SEASON_FULL, Reason.VERSIONS_FULL, most=MAX_VERSIONS)
    try:
        rule = scoring.checked(rule)
    except scoring.RuleError as bad:
        raise SeasonError(SeasonRefusal.BAD_RULE, Reason.BAD_RULE, why=bad) from None
    day = _day(effective_from, "'effective_from'")
    return [(RULE_SET, {"version": len(state.versions) + 1, "effective_from": day.isoformat(), "rule": rule})]


def decide_add_chouette(state: SeasonState, chouette: str, on, players, names) -> list[tuple[str, dict]]:
    """A chouette night counted in the season (the club opts in, night by night): ``players`` maps names on its
    sheet (``names``, as the session has them) to the club's players; a name left out counts for nobody."""
    if chouette in state.chouettes:
        raise SeasonError(SeasonRefusal.ALREADY_IN_SEASON, Reason.CHOUETTE_IN_SEASON)
    if len(state.events) + len(state.chouettes) >= MAX_EVENTS:
        raise SeasonError(SeasonRefusal.SEASON_FULL, Reason.EVENTS_FULL, most=MAX_EVENTS)
    if (not isinstance(players, dict) or not players
            or not all(isinstance(p, int) and not isinstance(p, bool) and p > 0 for p in players.values())
            or len(set(players.values())) != len(players)):
        raise SeasonError(SeasonRefusal.BAD_SEASON_COMMAND, Reason.CHOUETTE_PLAYERS)
    stranger = next((n for n in players if n not in names), None)
    if stranger is not None:
        raise SeasonError(SeasonRefusal.BAD_SEASON_COMMAND, Reason.NOT_ON_SHEET, name=str(stranger)[:40])
    return [(CHOUETTE_ADDED, {"chouette": chouette, "on": _day(on, "'on'").isoformat(),
                              "players": {n: players[n] for n in names if n in players}})]


def decide_remove_chouette(state: SeasonState, chouette: str) -> list[tuple[str, dict]]:
    if chouette not in state.chouettes:
        raise SeasonError(SeasonRefusal.NOT_IN_SEASON, Reason.CHOUETTE_NOT_IN_SEASON)
    return [(CHOUETTE_REMOVED, {"chouette": chouette})]
