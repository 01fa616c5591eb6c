"""An event's settings, checked before ``TournamentConfigured`` is appended.

The stream is folded for every view of the event and by the ``tournament_view`` projection: a
setting the formats cannot read (a length of ``"abc"``, a tie-break that does not exist, an even
length the engine refuses when the process manager creates the match) would stop the event
forever. So every key is known, every value has its type and its range, and what is stored is
the normalised copy returned here, never the client's dict.
"""

from __future__ import annotations

from games.limits import MAX_MATCH_LENGTH
from tournaments.formats.standings import TIEBREAKS
from tournaments.stream import Format

MAX_ROUNDS = 99  # Swiss rounds, and the round numbers a length may be set for
MAX_CYCLES = 4  # round robin: each player meets each other this many times at most
BRACKETS = ("main", "consolation", "last_chance", "winners", "losers", "grand_final", "rounds")
LENGTH_KEYS = ("default", "final", "rounds")
BOOLEANS = ("consolation", "last_chance", "reset", "auto_pair", "rated")
KEYS = ("lengths", "consolation", "consolation_feeds", "last_chance", "reset", "cycles", "tiebreaks", "rounds",
        "auto_pair", "late_entry_until_round", "late_entry_points", "dice", "qualifiers", "reentry", "groups",
        "rated",
        # ladders and leagues
        "reach", "on_win", "challenge_days", "refused", "unplayed", "division_size", "promote", "relegate",
        "round_days")
MAX_GROUPS = 8  # a round robin in groups
MAX_QUALIFIERS = 128  # a staged event's knockout: the top K of stage one
MAX_REENTRIES = 9  # how many times one player may buy back
REENTRY_KEYS = ("until_round", "times")
MAX_DAYS = 90  # a challenge's or a league round's time to play
MAX_FIELD = 4096
LADDER_KEYS = ("reach", "on_win", "challenge_days", "refused", "unplayed")
LEAGUE_KEYS = ("division_size", "promote", "relegate", "round_days", "unplayed")
ON_WIN = ("take_place", "swap")  # tournaments.formats.ladder.ON_WIN
LADDER_UNPLAYED = ("walkover", "cancelled")  # a refused or lapsed challenge: a walkover to the challenger, or nothing
LEAGUE_UNPLAYED = ("double_loss", "void")  # tournaments.formats.league.UNPLAYED_RULES
DICE_SOURCES = ("server", "board")  # games.streams.DICE_SOURCES: where the event's matches take their rolls from


class SettingsError(ValueError):
    """Settings the formats cannot read: HTTP 400, with the setting named."""


def _whole(value, name: str, low: int, high: int) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
        raise SettingsError(f"{name} is a whole number from {low} to {high}")
    return value


def _length(value, name: str) -> int:
    length = _whole(value, name, 1, MAX_MATCH_LENGTH)
    if length % 2 == 0:
        raise SettingsError(f"{name} is a match length: an odd number of points")
    return length


def _lengths(spec, name: str) -> dict:
    if not isinstance(spec, dict):
        raise SettingsError(f"{name} is an object: {{\"default\": 7, \"final\": 9, \"rounds\": {{\"2\": 5}}}}")
    unknown = [k for k in spec if k not in LENGTH_KEYS]
    if unknown:
        raise SettingsError(f"{name} has default, final and rounds; not {str(unknown[0])[:40]!r}")
    out: dict = {}
    if "default" in spec:
        out["default"] = _length(spec["default"], f"{name}.default")
    if "final" in spec:
        out["final"] = _length(spec["final"], f"{name}.final")
    if "rounds" in spec:
        rounds = spec["rounds"]
        if not isinstance(rounds, dict):
            raise SettingsError(f"{name}.rounds maps a round number to its length, e.g. {{\"2\": 5}}")
        out["rounds"] = {}
        for key, value in rounds.items():
            text = str(key)
            if not (text.isascii() and text.isdigit()):
                raise SettingsError(f"{name}.rounds: a round is a number from 1 to {MAX_ROUNDS}")
            number = _whole(int(text), f"{name}.rounds: a round", 1, MAX_ROUNDS)
            out["rounds"][str(number)] = _length(value, f"{name}.rounds.{number}")
    return out


def checked(format: str, settings) -> dict:
    """The settings as stored: known keys only, each of its type and within its range."""
    if settings is None:
        settings = {}
    if not isinstance(settings, dict):
        raise SettingsError("settings is an object")
    unknown = [k for k in settings if k not in KEYS]
    if unknown:
        raise SettingsError(f"unknown setting {str(unknown[0])[:40]!r}; the settings are {', '.join(KEYS)}")
    out: dict = {}
    for key, value in settings.items():
        if key == "lengths":
            if not isinstance(value, dict):
                raise SettingsError("lengths is an object of brackets: {\"main\": {\"default\": 7}}")
            bad = [b for b in value if b not in BRACKETS]
            if bad:
                raise SettingsError(f"lengths are set for {', '.join(BRACKETS)}; not {str(bad[0])[:40]!r}")
            out[key] = {b: _lengths(spec, f"lengths.{b}") for b, spec in value.items()}
        elif key in BOOLEANS:
            if not isinstance(value, bool):
                raise SettingsError(f"{key} is true or false")
            out[key] = value
        elif key == "tiebreaks":
            if not (isinstance(value, list) and all(isinstance(t, str) and t in TIEBREAKS for t in value)
                    and len(set(value)) == len(value)):
                raise SettingsError(f"tiebreaks is a list of distinct tie-breaks from {', '.join(TIEBREAKS)}")
            out[key] = list(value)
        elif key == "rounds":
            out[key] = _whole(value, "rounds", 1, MAX_ROUNDS)
        elif key == "cycles":
            out[key] = _whole(value, "cycles", 1, MAX_CYCLES)
        elif key in ("consolation_feeds", "late_entry_until_round"):
            out[key] = _whole(value, key, 1 if key == "consolation_feeds" else 0, MAX_ROUNDS)
        elif key == "dice":
            if value not in DICE_SOURCES:
                raise SettingsError("dice is server (the server rolls, verifiably) or board (the players' own dice)")
            out[key] = value
        elif key in ("reach", "division_size", "promote", "relegate"):
            low = 2 if key == "division_size" else 1 if key == "reach" else 0
            out[key] = _whole(value, key, low, MAX_FIELD)
        elif key in ("challenge_days", "round_days"):
            out[key] = _whole(value, key, 1, MAX_DAYS)
        elif key == "on_win":
            if value not in ON_WIN:
                raise SettingsError("on_win is take_place (the loser and those between move down one) or swap")
            out[key] = value
        elif key == "refused":
            if value not in LADDER_UNPLAYED:
                raise SettingsError("refused is walkover (to the challenger) or cancelled")
            out[key] = value
        elif key == "unplayed":
            choices = LEAGUE_UNPLAYED if format == Format.LEAGUE else LADDER_UNPLAYED
            if value not in choices:
                raise SettingsError(f"unplayed is {' or '.join(choices)}")
            out[key] = value
        elif key == "groups":
            out[key] = _whole(value, "groups", 1, MAX_GROUPS)
        elif key == "qualifiers":
            out[key] = _whole(value, "qualifiers", 2, MAX_QUALIFIERS)
        elif key == "reentry":
            out[key] = _reentry(value)
        elif key == "late_entry_points":
            if not isinstance(value, (int, float)) or isinstance(value, bool) or not 0 <= value <= MAX_ROUNDS:
                raise SettingsError(f"late_entry_points is a number of points from 0 to {MAX_ROUNDS}")
            out[key] = value
    if format == Format.SWISS and "rounds" not in out:
        raise SettingsError("a Swiss event needs a number of rounds")
    own = LADDER_KEYS if format == Format.LADDER else LEAGUE_KEYS if format == Format.LEAGUE else ()
    foreign = [k for k in out if k in set(LADDER_KEYS + LEAGUE_KEYS) - set(own)]
    if foreign:
        raise SettingsError(f"{foreign[0]} is a setting of a {'ladder' if foreign[0] in LADDER_KEYS else 'league'}")
    if "qualifiers" in out and format not in (Format.SWISS, Format.ROUND_ROBIN):
        raise SettingsError("qualifiers go from a Swiss or a round robin on to a knockout stage")
    if "groups" in out and format != Format.ROUND_ROBIN:
        raise SettingsError("groups are a round robin's: each group plays its own round robin")
    if "reentry" in out:
        if not (format == Format.SINGLE_ELIMINATION or "qualifiers" in out):
            raise SettingsError("re-entry is into a knockout: a single elimination, or a staged event's knockout")
        if out.get("consolation"):
            raise SettingsError("re-entry and a consolation both take the early losers: choose one")
    if out.get("last_chance") and not out.get("consolation"):
        raise SettingsError("a Last Chance flight is fed by the Consolation: set consolation too")
    return out


def _reentry(value) -> dict:
    if not isinstance(value, dict) or any(k not in REENTRY_KEYS for k in value):
        raise SettingsError("reentry is an object: {\"until_round\": 1, \"times\": 1}")
    return {
        "until_round": _whole(value.get("until_round", 1), "reentry.until_round", 1, MAX_ROUNDS),
        "times": _whole(value.get("times", 1), "reentry.times", 1, MAX_REENTRIES),
    }
