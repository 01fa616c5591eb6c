"""Season scoring rules: how a club turns its events' results into a season table (pure Python, no Django).

A club publishes its rule; anyone can recompute every number of its table from the log with this module.

A rule is a plain JSON object, stored as is in the season's stream (``ScoringRuleSet``), so an old table can
always be recomputed with the rule that made it::

    {"components": [<component>, ...], "best": N or null}

An event gives a player the sum of the rule's components; the player's total is the sum of their ``best``
events (all of them when ``best`` is null: "best 3 of 5" counts a player's three highest of five). Equal
totals share a place (1, 2, 2, 4), then the table lists them by player id, so it is the same on every machine.

Components:

``placement``: points by finishing place and field size, master-points style. The club gives the table:
    ``{"kind": "placement", "table": [{"min_field": 8, "points": [10, 6, 3, 3]}, {"min_field": 16, ...}]}``.
    An event of F players reads the column with the largest ``min_field`` <= F (none: no points); the place p
    gets ``points[p - 1]`` (0 past the end of the list). An event too small for every column gives nothing.
    Shared places (players knocked out in the same round of a knockout: two 3=, four 5=) share the points of
    the places they cover, averaged: each 3= gets the mean of the 3rd and 4th places' points, each 5= the mean
    of the 5th to 8th. That is the usual rule for tied places (golf tours' ranking points, chess prizes shared
    under FIDE's rules): an event gives out the same points whatever its ties, and no seed decides them;
    giving each the higher place's points would make every knockout worth more than a Swiss of its size.

``match_wins``: points per match won, weighted by bracket and by round:
    ``{"kind": "match_wins", "per_win": 1, "brackets": {"main": 1, "consolation": 0.5}, "rounds": {"3": 2}}``.
    A win is worth ``per_win`` x its bracket's weight (1 when unnamed) x its round's weight (1 when unnamed), so
    a consolation win can be worth half a main one and a final twice a first round. A forfeit is not a match
    won (nobody played it), nor is an unrated match (the director marks a friendly or a walkover unrated).

``attendance``: ``{"kind": "attendance", "points": 2}``: for each event a player took part in (a chouette night
    the club counts too).

``chouette``: ``{"kind": "chouette", "per_point": 1}``: a chouette night the club counts in the season (its
    session, added to the season with its players named) gives each player its score sheet's net points times
    ``per_point`` (negative for a night lost: the sheet sums to zero). A chouette night is scored by this
    component and ``attendance`` only (it has no places nor matches won); an event gives nothing by this one.

Versions: a season's rule changes by a new version that applies from a date (``effective_from``); an event is
scored by the latest version in force on the event's date, so a change from a date re-derives the events on
or after it and leaves the earlier ones as they were.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from datetime import date
from enum import Enum

KINDS = ("placement", "match_wins", "attendance", "chouette")
MAX_COMPONENTS = 10
MAX_PLACES = 256
MAX_COLUMNS = 64
MAX_WEIGHTS = 64  # a match_wins component's brackets, and its rounds: a club's events have a handful of each


def gettext_noop(message: str) -> str:
    """``message`` as it is: the call marks it for the translators' catalogue (gettext's tools extract it)."""
    return message


class Reason(Enum):
    """Exactly what is wrong with a rule: the member's name says it, its value is the English template. The last
    five name a number's place in the rule, nested in ``NUMBER`` as its ``where``."""

    NUMBER = gettext_noop("%(where)s is a number from %(minimum)s to 1000000")
    RULE_OBJECT = gettext_noop("a rule is an object with 'components' (and 'best')")
    UNKNOWN_KEY = gettext_noop("unknown key %(key)s in the rule")
    COMPONENTS = gettext_noop("'components' is a list of 1 to %(most)s components")
    BEST = gettext_noop("'best' is null (every event counts) or a whole number from 1 to 1000")
    KIND = gettext_noop("component %(component)s: 'kind' is one of %(kinds)s")
    COMPONENT_KEY = gettext_noop("component %(component)s: unknown key %(key)s for %(kind)s")
    TABLE = gettext_noop("component %(component)s: 'table' is a list of 1 to %(most)s columns")
    COLUMN = gettext_noop("component %(component)s: each column is {'min_field': n, 'points': [...]}")
    MIN_FIELD = gettext_noop("component %(component)s: 'min_field' is a whole number from 2 to 10000, once per "
                             "column")
    POINTS_LIST = gettext_noop("component %(component)s: 'points' lists 1 to %(most)s places' points")
    BRACKETS = gettext_noop("component %(component)s: 'brackets' maps a bracket's name to its weight")
    BRACKETS_MOST = gettext_noop("component %(component)s: 'brackets' weighs at most %(most)s brackets")
    ROUNDS = gettext_noop("component %(component)s: 'rounds' maps a round number (1 to 1000, written 0-9) to its "
                          "weight")
    ROUNDS_MOST = gettext_noop("component %(component)s: 'rounds' weighs at most %(most)s rounds")
    PLACE_POINTS = gettext_noop("component %(component)s: a place's points")
    PER_WIN = gettext_noop("component %(component)s: 'per_win'")
    BRACKET_WEIGHT = gettext_noop("component %(component)s: bracket %(bracket)s's weight")
    ROUND_WEIGHT = gettext_noop("component %(component)s: round %(round)s's weight")
    ATTENDANCE_POINTS = gettext_noop("component %(component)s: 'points'")
    CHOUETTE_POINTS = gettext_noop("component %(component)s: 'per_point'")


class RuleError(ValueError):
    """A rule the season cannot use: ``RuleError(reason, **params)``, a refusal as data (a number's place in the
    rule is a nested one); the text says in English what is wrong."""

    def __init__(self, reason: Reason, /, **params):
        self.reason, self.params = reason, params
        super().__init__(reason.value % params)


@dataclass(frozen=True)
class Win:
    """One match won in an event: where it stood in the structure."""

    bracket: str = "main"
    round: int = 1
    forfeit: bool = False
    rated: bool = True  # an unrated match (a friendly, a walkover the director marked) stays out of the table


@dataclass(frozen=True)
class Finish:
    """What one player did in one event."""

    player: int
    place: int
    wins: tuple[Win, ...] = ()
    points: float = 0  # a chouette night: the player's net points on the session's sheet


@dataclass(frozen=True)
class EventResult:
    """A finished event as the season reads it: its date, its field and every player's finish."""

    event: int | str  # a tournament's id, or a chouette session's stream id
    on: date
    field_size: int
    finishes: tuple[Finish, ...] = ()
    chouette: bool = False  # a chouette night: scored by its sheet's points (and attendance), not by places


@dataclass(frozen=True)
class Version:
    version: int
    effective_from: date
    rule: dict


@dataclass(frozen=True)
class Score:
    """The points one event gave one player, and the rule version that made them."""

    event: int | str
    points: float
    version: int
    counted: bool = True


@dataclass(frozen=True)
class Row:
    player: int
    rank: int
    total: float
    scores: tuple[Score, ...] = field(default_factory=tuple)


# -- checking a rule -----------------------------------------------------------------------------------


def _number(value, where: RuleError, minimum: float = 0) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or value != value or value < minimum \
            or value > 1_000_000:
        raise RuleError(Reason.NUMBER, where=where, minimum=f"{minimum:g}")
    return float(value)


def checked(rule) -> dict:
    """The rule as stored, or :class:`RuleError` saying what is wrong with it."""
    if not isinstance(rule, dict):
        raise RuleError(Reason.RULE_OBJECT)
    unknown = set(rule) - {"components", "best"}
    if unknown:
        raise RuleError(Reason.UNKNOWN_KEY, key=repr(sorted(unknown)[0]))
    components = rule.get("components")
    if not isinstance(components, list) or not 1 <= len(components) <= MAX_COMPONENTS:
        raise RuleError(Reason.COMPONENTS, most=MAX_COMPONENTS)
    best = rule.get("best")
    if best is not None and (isinstance(best, bool) or not isinstance(best, int) or not 1 <= best <= 1000):
        raise RuleError(Reason.BEST)
    return {"components": [_checked_component(c, i) for i, c in enumerate(components, 1)], "best": best}


def _checked_component(component, index: int) -> dict:
    if not isinstance(component, dict) or component.get("kind") not in KINDS:
        raise RuleError(Reason.KIND, component=index, kinds=", ".join(KINDS))
    kind = component["kind"]
    allowed = {"placement": {"kind", "table"}, "match_wins": {"kind", "per_win", "brackets", "rounds"},
               "attendance": {"kind", "points"}, "chouette": {"kind", "per_point"}}[kind]
    unknown = set(component) - allowed
    if unknown:
        raise RuleError(Reason.COMPONENT_KEY, component=index, key=repr(sorted(unknown)[0]), kind=kind)
    if kind == "placement":
        table = component.get("table")
        if not isinstance(table, list) or not 1 <= len(table) <= MAX_COLUMNS:
            raise RuleError(Reason.TABLE, component=index, most=MAX_COLUMNS)
        columns, seen = [], set()
        for column in table:
            if not isinstance(column, dict) or set(column) != {"min_field", "points"}:
                raise RuleError(Reason.COLUMN, component=index)
            size = column["min_field"]
            if isinstance(size, bool) or not isinstance(size, int) or not 2 <= size <= 10_000 or size in seen:
                raise RuleError(Reason.MIN_FIELD, component=index)
            seen.add(size)
            points = column["points"]
            if not isinstance(points, list) or not 1 <= len(points) <= MAX_PLACES:
                raise RuleError(Reason.POINTS_LIST, component=index, most=MAX_PLACES)
            columns.append({"min_field": size, "points": [_number(p, RuleError(Reason.PLACE_POINTS, component=index)) for p in points]})
        return {"kind": kind, "table": sorted(columns, key=lambda c: c["min_field"])}
    if kind == "match_wins":
        out = {"kind": kind, "per_win": _number(component.get("per_win", 1), RuleError(Reason.PER_WIN, component=index))}
        brackets = component.get("brackets", {})
        if not isinstance(brackets, dict) or not all(isinstance(k, str) and 0 < len(k) <= 32 for k in brackets):
            raise RuleError(Reason.BRACKETS, component=index)
        if len(brackets) > MAX_WEIGHTS:
            raise RuleError(Reason.BRACKETS_MOST, component=index, most=MAX_WEIGHTS)
        out["brackets"] = {k: _number(v, RuleError(Reason.BRACKET_WEIGHT, component=index, bracket=repr(k))) for k, v in brackets.items()}
        rounds = component.get("rounds", {})
        # ASCII digits only: str.isdigit() also takes '²' (int() refuses it) and Arabic-Indic digits (int() reads)
        if not isinstance(rounds, dict) or not all(_round_number(k) for k in rounds):
            raise RuleError(Reason.ROUNDS, component=index)
        if len(rounds) > MAX_WEIGHTS:
            raise RuleError(Reason.ROUNDS_MOST, component=index, most=MAX_WEIGHTS)
        out["rounds"] = {str(int(k)): _number(v, RuleError(Reason.ROUND_WEIGHT, component=index, round=k)) for k, v in rounds.items()}
        return out
    if kind == "chouette":
        return {"kind": kind, "per_point": _number(component.get("per_point", 1),
                                                   RuleError(Reason.CHOUETTE_POINTS, component=index))}
    return {"kind": kind, "points": _number(component.get("points", 1), RuleError(Reason.ATTENDANCE_POINTS, component=index))}


def _round_number(key) -> bool:
    text = str(key)
    return text.isascii() and text.isdigit() and 1 <= int(text) <= 1000


# -- scoring ---------------------------------------------------------------------------------------------


def placement_points(component: dict, place: int, field_size: int, sharing: int = 1) -> float:
    """The points of ``place`` in an event of ``field_size``; ``sharing`` players holding that place share the
    points of the places ``place`` to ``place + sharing - 1``, averaged."""
    column = None
    for candidate in component["table"]:  # sorted by min_field
        if candidate["min_field"] <= field_size:
            column = candidate
    if column is None or place < 1:
        return 0.0
    points = column["points"]
    covered = range(place, place + max(sharing, 1))
    return sum(float(points[p - 1]) for p in covered if p <= len(points)) / len(covered)


def match_win_points(component: dict, wins) -> float:
    total = 0.0
    for win in wins:
        if win.forfeit or not win.rated:
            continue
        total += (component.get("per_win", 1.0) * component.get("brackets", {}).get(win.bracket, 1.0)
                  * component.get("rounds", {}).get(str(win.round), 1.0))
    return total


def event_points(rule: dict, finish: Finish, field_size: int, sharing: int = 1, chouette: bool = False) -> float:
    """What one event (or, ``chouette``, one chouette night) gives one player under one rule; ``sharing`` players
    hold the player's place."""
    points = 0.0
    for component in rule["components"]:
        kind = component["kind"]
        if chouette:
            if kind == "chouette":
                points += component["per_point"] * finish.points
            elif kind == "attendance":
                points += component["points"]
            continue
        if kind == "placement":
            points += placement_points(component, finish.place, field_size, sharing)
        elif kind == "match_wins":
            points += match_win_points(component, finish.wins)
        elif kind == "attendance":
            points += component["points"]
    return round(points, 6)  # the same figure on every machine, whatever the order of the additions


def version_on(versions, on: date) -> Version | None:
    """The version in force on a date: the latest one whose ``effective_from`` is on or before it (of two from the
    same date, the later version)."""
    found = None
    for version in sorted(versions, key=lambda v: (v.effective_from, v.version)):
        if version.effective_from <= on:
            found = version
    return found


def table(events, versions) -> list[Row]:
    """The season table: each player's points per event (with the version that scored it), the events counted
    (the best N under the rule in force on the season's latest event), the total and the place."""
    versions = list(versions)
    per_player: dict[int, list[Score]] = {}
    for event in sorted(events, key=lambda e: (e.on, e.chouette, str(e.event) if e.chouette else "", e.event
                                               if not e.chouette else 0)):
        version = version_on(versions, event.on)
        if version is None:
            continue  # no rule in force yet on that date: the event gives no points
        sharing = Counter(finish.place for finish in event.finishes)  # players out in the same round: 3=, 5=
        for finish in event.finishes:
            points = event_points(version.rule, finish, event.field_size, sharing[finish.place], event.chouette)
            score = Score(event.event, points, version.version)
            per_player.setdefault(finish.player, []).append(score)
    latest = max((e.on for e in events), default=None)
    current = version_on(versions, latest) if latest is not None else None
    best = current.rule.get("best") if current else None
    rows = []
    for player, scores in per_player.items():
        kept = _best(scores, best)
        marked = tuple(Score(s.event, s.points, s.version, i in kept) for i, s in enumerate(scores))
        rows.append((player, round(sum(s.points for s in marked if s.counted), 6), marked))
    rows.sort(key=lambda r: (-r[1], r[0]))
    out, rank = [], 0
    for i, (player, total, scores) in enumerate(rows):
        if i == 0 or total != rows[i - 1][1]:
            rank = i + 1
        out.append(Row(player, rank, total, scores))
    return out


def _best(scores: list[Score], best: int | None) -> set[int]:
    """Indexes of the scores that count: the ``best`` highest (of equal points, the earlier event)."""
    order = sorted(range(len(scores)), key=lambda i: (-scores[i].points, i))
    return set(order if best is None else order[:best])
