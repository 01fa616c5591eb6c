"""An event's settings, typed and declared once: :class:`EventSettings`, checked before they are appended.

The stream is folded for every view of the event and by the ``tournament_view`` projection: a
setting the formats cannot read (a length of ``"abc"``, a tie-break that does not exist, an even
length the engine refuses when the process manager creates the match) would stop the event
forever. So every key is known, every value has its type and its range, and what is stored is
the normalised copy :func:`checked` returns, never the client's dict.

Each field of :class:`EventSettings` carries its :class:`Setting` (kind, bounds, help text, the formats it
belongs to, whether it may change after the draw): the API's ``settings`` body and the event's settings view are
generated from them (``tournaments/api.py``), and the director's forms take their bounds from them
(``tournaments/event_form.py``, ``tournaments/admin.py``). The stored form is the JSON object of the settings
given, and nothing else (an absent setting reads as its default where it is used): a row stored before this
class existed reads as it always did (:meth:`EventSettings.stored`).
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from enum import Enum
from typing import Any

from games.engine.errors import Refusal, gettext_noop
from games.limits import MAX_MATCH_LENGTH
from tournaments.formats.standings import TIEBREAKS
from tournaments.stream import Format

MAX_ROUNDS = 99  # Swiss rounds, and the round numbers a length may be set for
MAX_CYCLES = 4  # round robin: each player meets each other this many times at most
BRACKETS = ("main", "consolation", "last_chance", "winners", "losers", "grand_final", "rounds")
LENGTH_KEYS = ("default", "final", "rounds")
MAX_GROUPS = 8  # a round robin in groups
MAX_QUALIFIERS = 128  # a staged event's knockout: the top K of stage one
MAX_REENTRIES = 9  # how many times one player may buy back
REENTRY_KEYS = ("until_round", "times")
MAX_DAYS = 90  # a challenge's or a league round's time to play
MAX_FIELD = 4096
ON_WIN = ("take_place", "swap")  # tournaments.formats.ladder.ON_WIN
LADDER_UNPLAYED = ("walkover", "cancelled")  # a refused or lapsed challenge: a walkover to the challenger, or nothing
LEAGUE_UNPLAYED = ("double_loss", "void")  # tournaments.formats.league.UNPLAYED_RULES
DICE_SOURCES = ("server", "board")  # games.streams.DICE_SOURCES: where the event's matches take their rolls from
LADDER, LEAGUE = (Format.LADDER,), (Format.LEAGUE,)
TEAMS = (Format.TEAM_ROUND_ROBIN, Format.TEAM_SWISS, Format.TEAM_KNOCKOUT)
ROUND_ROBINS = (Format.ROUND_ROBIN, Format.TEAM_ROUND_ROBIN)  # the formats played in groups (a round robin each)
MAX_BOARDS = 9  # a team's boards (3 in the WBGF Club World Championship, 5 in the WBIF's team championship)
MAX_RESERVES = 4


class Reason(Enum):
    """Why settings are refused: the member's name says it, its value is the English template."""

    NOT_AN_OBJECT = gettext_noop("settings is an object")
    UNKNOWN = gettext_noop("unknown setting '%(key)s'; the settings are %(keys)s")
    SWISS_ROUNDS = gettext_noop("a Swiss event needs a number of rounds")
    LADDERS_OWN = gettext_noop("%(key)s is a setting of a ladder")
    LEAGUES_OWN = gettext_noop("%(key)s is a setting of a league")
    TEAMS_OWN = gettext_noop("%(key)s is a setting of a team event")
    QUALIFIERS_FROM_TABLES = gettext_noop("qualifiers go from a Swiss or a round robin on to a knockout stage")
    GROUPS_ROUND_ROBIN = gettext_noop("groups are a round robin's: each group plays its own round robin")
    REENTRY_FOR_PLAYERS = gettext_noop("re-entry is a player's buy-back: a team event takes none")
    REENTRY_INTO_KNOCKOUT = gettext_noop("re-entry is into a knockout: a single elimination, or a staged event's "
                                         "knockout")
    REENTRY_OR_CONSOLATION = gettext_noop("re-entry and a consolation both take the early losers: choose one")
    LAST_CHANCE_NEEDS_CONSOLATION = gettext_noop("a Last Chance flight is fed by the Consolation: set consolation "
                                                 "too")
    FLAG = gettext_noop("%(key)s is true or false")
    CHOICE = gettext_noop("%(key)s is %(choices)s")
    LATE_ENTRY_POINTS = gettext_noop("late_entry_points is a number of points from 0 to %(most)s")
    DICE = gettext_noop("dice is server (the server rolls, verifiably) or board (the players' own dice)")
    ON_WIN = gettext_noop("on_win is take_place (the loser and those between move down one) or swap")
    REFUSED = gettext_noop("refused is walkover (to the challenger) or cancelled")
    TIEBREAKS = gettext_noop("tiebreaks is a list of distinct tie-breaks from %(tiebreaks)s")
    LENGTHS_OBJECT = gettext_noop('lengths is an object of brackets: {"main": {"default": 7}}')
    LENGTHS_BRACKET = gettext_noop("lengths are set for %(brackets)s; not '%(bracket)s'")
    WHOLE = gettext_noop("%(name)s is a whole number from %(low)s to %(high)s")
    ODD_LENGTH = gettext_noop("%(name)s is a match length: an odd number of points")
    LENGTH_OBJECT = gettext_noop('%(name)s is an object: {"default": 7, "final": 9, "rounds": {"2": 5}}')
    LENGTH_KEYS = gettext_noop("%(name)s has default, final and rounds; not '%(key)s'")
    ROUNDS_MAP = gettext_noop('%(name)s.rounds maps a round number to its length, e.g. {"2": 5}')
    ROUND_NUMBER = gettext_noop("%(name)s.rounds: a round is a number from 1 to %(most)s")
    REENTRY_OBJECT = gettext_noop('reentry is an object: {"until_round": 1, "times": 1}')


class SettingsError(Refusal, ValueError):
    """Settings the formats cannot read: HTTP 400, with the setting named (a :class:`Reason` and its
    parameters)."""


@dataclass(frozen=True)
class Setting:
    """One setting, declared once. ``kind``: whole, number, flag, choice, lengths, tiebreaks, reentry.
    ``formats``: the formats it belongs to (empty: every format); ``after_draw``: the director may still change it
    once the draw is made (the event reads it as it goes on: the next rounds, the next matches); ``refusal``: the
    reason given for a value out of its kind or range."""

    kind: str
    help: str = ""
    low: float | None = None
    high: float | None = None
    choices: tuple[str, ...] = ()
    formats: tuple[str, ...] = ()
    after_draw: bool = False
    refusal: Reason | None = None  # a value out of its kind or range, where the kind's own reason says too little


def setting(kind: str, help: str = "", **spec) -> Any:
    return field(default=None, metadata={"setting": Setting(kind, help, **spec)})


@dataclass(frozen=True)
class EventSettings:
    """The director's settings of an event; None: not given (the format's default applies where it is read)."""

    lengths: dict | None = setting("lengths", "lengths per bracket and round: {\"main\": {\"default\": 7, "
                                              "\"final\": 9, \"rounds\": {\"2\": 5}}}")
    consolation: bool | None = setting("flag", formats=(Format.SINGLE_ELIMINATION,))
    consolation_feeds: int | None = setting("whole", low=1, high=MAX_ROUNDS, formats=(Format.SINGLE_ELIMINATION,))
    last_chance: bool | None = setting("flag", formats=(Format.SINGLE_ELIMINATION,))
    reset: bool | None = setting("flag", "double elimination: a bracket reset", formats=(Format.DOUBLE_ELIMINATION,))
    cycles: int | None = setting("whole", low=1, high=MAX_CYCLES)
    tiebreaks: list | None = setting("tiebreaks", after_draw=True)
    rounds: int | None = setting("whole", "Swiss", low=1, high=MAX_ROUNDS, after_draw=True)
    auto_pair: bool | None = setting("flag", after_draw=True)
    late_entry_until_round: int | None = setting(
        "whole", "Swiss: late entry is open until this round is paired (a late entrant plays from the next round to "
                 "be paired); 0 or absent: no late entry. The director changes it on the event's settings page",
        low=0, high=MAX_ROUNDS, after_draw=True)
    late_entry_points: float | None = setting(
        "number", "Swiss: points credited to a late entrant", low=0, high=MAX_ROUNDS, after_draw=True,
        refusal=Reason.LATE_ENTRY_POINTS)
    dice: str | None = setting("choice", choices=DICE_SOURCES, after_draw=True,
                               refusal=Reason.DICE)
    qualifiers: int | None = setting(
        "whole", "Swiss or round robin (of players or teams): its top K go on to a knockout (stage two), drawn when "
                 "the director closes stage one (command close_stage); with groups, the group winners first, then "
                 "the runners-up…", low=2, high=MAX_QUALIFIERS)
    reentry: dict | None = setting("reentry", "re-entry (buy-back) into a knockout's first round; not with a "
                                              "consolation")
    groups: int | None = setting("whole", "round robin (of players or teams): in groups (the seeds dealt in snake "
                                          "order)", low=1, high=MAX_GROUPS)
    rated: bool | None = setting("flag", "default true; false: an unrated event (command set_rated changes it)")
    # ladders and leagues
    reach: int | None = setting("whole", "ladder: how many rungs up one may challenge", low=1, high=MAX_FIELD,
                                formats=LADDER, after_draw=True)
    on_win: str | None = setting(
        "choice", "ladder: the winning challenger takes the rung (the others move down one) or swaps",
        choices=ON_WIN, formats=LADDER,
        refusal=Reason.ON_WIN)
    challenge_days: int | None = setting("whole", "ladder: days to play a challenge", low=1, high=MAX_DAYS,
                                         formats=LADDER, after_draw=True)
    refused: str | None = setting("choice", "ladder: a declined challenge is a walkover to the challenger, or "
                                            "cancelled", choices=LADDER_UNPLAYED, formats=LADDER,
                                  refusal=Reason.REFUSED)
    unplayed: str | None = setting(
        "choice", "ladder: walkover or cancelled; league: double_loss or void — what a match unplayed by its "
                  "deadline counts as", choices=LADDER_UNPLAYED + LEAGUE_UNPLAYED, formats=LADDER + LEAGUE)
    division_size: int | None = setting("whole", "league: players per division", low=2, high=MAX_FIELD,
                                        formats=LEAGUE)
    promote: int | None = setting("whole", "league: how many go up a division", low=0, high=MAX_FIELD,
                                  formats=LEAGUE)
    relegate: int | None = setting("whole", "league: how many go down", low=0, high=MAX_FIELD, formats=LEAGUE)
    round_days: int | None = setting("whole", "league: days per round (each round's deadline)", low=1,
                                     high=MAX_DAYS, formats=LEAGUE)
    boards: int | None = setting("whole", "team event: the boards of a team match (default 3); a team match is won "
                                          "with a majority of them", low=1, high=MAX_BOARDS, formats=TEAMS)
    reserves: int | None = setting("whole", "team event: how many reserves a team may list beside its boards "
                                            "(default 0)", low=0, high=MAX_RESERVES, formats=TEAMS)
    fixed_order: bool | None = setting("flag", "team event: the board order is fixed for the event (default "
                                               "true): a line-up keeps the members in the order the team listed "
                                               "them", formats=TEAMS)

    @classmethod
    def checked(cls, format: str, settings) -> EventSettings:
        """The director's settings (a JSON object) for an event of ``format``: every key known, every value of its
        kind and range, and the combinations the formats read; else :class:`SettingsError`, the setting named."""
        if settings is None:
            settings = {}
        if not isinstance(settings, dict):
            raise SettingsError(Reason.NOT_AN_OBJECT)
        unknown = [k for k in settings if k not in SETTINGS]
        if unknown:
            raise SettingsError(Reason.UNKNOWN, key=str(unknown[0])[:40], keys=", ".join(KEYS))
        values = {key: _read(key, SETTINGS[key], value, format) for key, value in settings.items()}
        made = cls(**values)
        made._check_across(format)
        return made

    @classmethod
    def stored(cls, config: dict) -> EventSettings:
        """The settings of a stored configuration (``TournamentConfigured``, ``SettingsChanged``), as they were
        checked when stored: the event's record (format, limits) and unknown keys left out."""
        return cls(**{k: v for k, v in config.items() if k in SETTINGS})

    def as_dict(self) -> dict:
        """The stored form: the settings given, each as JSON."""
        return {f.name: getattr(self, f.name) for f in dataclasses.fields(self) if getattr(self, f.name) is not None}

    def _check_across(self, format: str) -> None:
        out = self.as_dict()
        if format in (Format.SWISS, Format.TEAM_SWISS) and "rounds" not in out:
            raise SettingsError(Reason.SWISS_ROUNDS)
        own = LADDER_KEYS if format == Format.LADDER else LEAGUE_KEYS if format == Format.LEAGUE else ()
        foreign = [k for k in out if k in set(LADDER_KEYS + LEAGUE_KEYS) - set(own)]
        if foreign:
            raise SettingsError(Reason.LADDERS_OWN if foreign[0] in LADDER_KEYS else Reason.LEAGUES_OWN, key=foreign[0])
        if format not in TEAMS and (team_key := next((k for k in out if k in TEAM_KEYS), None)):
            raise SettingsError(Reason.TEAMS_OWN, key=team_key)
        if "qualifiers" in out and format not in ROUND_ROBINS + (Format.SWISS,):
            raise SettingsError(Reason.QUALIFIERS_FROM_TABLES)
        if "groups" in out and format not in ROUND_ROBINS:
            raise SettingsError(Reason.GROUPS_ROUND_ROBIN)
        if "reentry" in out and format in TEAMS:
            raise SettingsError(Reason.REENTRY_FOR_PLAYERS)
        if "reentry" in out:
            if not (format == Format.SINGLE_ELIMINATION or "qualifiers" in out):
                raise SettingsError(Reason.REENTRY_INTO_KNOCKOUT)
            if out.get("consolation"):
                raise SettingsError(Reason.REENTRY_OR_CONSOLATION)
        if out.get("last_chance") and not out.get("consolation"):
            raise SettingsError(Reason.LAST_CHANCE_NEEDS_CONSOLATION)


SETTINGS: dict[str, Setting] = {f.name: f.metadata["setting"] for f in dataclasses.fields(EventSettings)}
KEYS = tuple(SETTINGS)
BOOLEANS = tuple(k for k, s in SETTINGS.items() if s.kind == "flag")
LADDER_KEYS = tuple(k for k, s in SETTINGS.items() if Format.LADDER in s.formats)
LEAGUE_KEYS = tuple(k for k, s in SETTINGS.items() if Format.LEAGUE in s.formats)
TEAM_KEYS = tuple(k for k, s in SETTINGS.items() if Format.TEAM_ROUND_ROBIN in s.formats)
# what the director may still change once the draw is made (tournaments.decider judges a change after it)
AFTER_DRAW = tuple(k for k, s in SETTINGS.items() if s.after_draw)


def checked(format: str, settings) -> dict:
    """The settings as stored: known keys only, each of its type and within its range."""
    return EventSettings.checked(format, settings).as_dict()


def _read(key: str, s: Setting, value, format: str):
    if s.kind == "whole":
        return _whole(value, key, int(s.low), int(s.high))
    if s.kind == "flag":
        if not isinstance(value, bool):
            raise SettingsError(s.refusal or Reason.FLAG, key=key)
        return value
    if s.kind == "number":
        if not isinstance(value, (int, float)) or isinstance(value, bool) or not s.low <= value <= s.high:
            raise SettingsError(s.refusal or Reason.WHOLE, key=key, name=key, low=s.low, high=s.high, most=s.high)
        return value
    if s.kind == "choice":
        choices = s.choices
        if key == "unplayed":  # its values are the format's own
            choices = LEAGUE_UNPLAYED if format == Format.LEAGUE else LADDER_UNPLAYED
        if value not in choices:
            raise SettingsError(s.refusal or Reason.CHOICE, key=key, choices=" or ".join(choices))
        return value
    if s.kind == "tiebreaks":
        if not (isinstance(value, list) and all(isinstance(t, str) and t in TIEBREAKS for t in value)
                and len(set(value)) == len(value)):
            raise SettingsError(Reason.TIEBREAKS, tiebreaks=", ".join(TIEBREAKS))
        return list(value)
    if s.kind == "lengths":
        if not isinstance(value, dict):
            raise SettingsError(Reason.LENGTHS_OBJECT)
        bad = [b for b in value if b not in BRACKETS]
        if bad:
            raise SettingsError(Reason.LENGTHS_BRACKET, brackets=", ".join(BRACKETS), bracket=str(bad[0])[:40])
        return {b: _lengths(spec, f"lengths.{b}") for b, spec in value.items()}
    if s.kind == "reentry":
        return _reentry(value)
    raise AssertionError(f"a setting of kind {s.kind!r}")


def _whole(value, name: str, low: int, high: int) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
        raise SettingsError(Reason.WHOLE, name=name, low=low, high=high)
    return value


def _length(value, name: str) -> int:
    length = _whole(value, name, 1, MAX_MATCH_LENGTH)
    if length % 2 == 0:
        raise SettingsError(Reason.ODD_LENGTH, name=name)
    return length


def _lengths(spec, name: str) -> dict:
    if not isinstance(spec, dict):
        raise SettingsError(Reason.LENGTH_OBJECT, name=name)
    unknown = [k for k in spec if k not in LENGTH_KEYS]
    if unknown:
        raise SettingsError(Reason.LENGTH_KEYS, name=name, key=str(unknown[0])[:40])
    out: dict = {}
    if "default" in spec:
        out["default"] = _length(spec["default"], f"{name}.default")
    if "final" in spec:
        out["final"] = _length(spec["final"], f"{name}.final")
    if "rounds" in spec:
        rounds = spec["rounds"]
        if not isinstance(rounds, dict):
            raise SettingsError(Reason.ROUNDS_MAP, name=name)
        out["rounds"] = {}
        for key, value in rounds.items():
            text = str(key)
            if not (text.isascii() and text.isdigit()):
                raise SettingsError(Reason.ROUND_NUMBER, name=name, most=MAX_ROUNDS)
            number = _whole(int(text), f"{name}.rounds: a round", 1, MAX_ROUNDS)
            out["rounds"][str(number)] = _length(value, f"{name}.rounds.{number}")
    return out


def _reentry(value) -> dict:
    if not isinstance(value, dict) or any(k not in REENTRY_KEYS for k in value):
        raise SettingsError(Reason.REENTRY_OBJECT)
    return {
        "until_round": _whole(value.get("until_round", 1), "reentry.until_round", 1, MAX_ROUNDS),
        "times": _whole(value.get("times", 1), "reentry.times", 1, MAX_REENTRIES),
    }
