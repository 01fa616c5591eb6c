"""The console's clock rules: the rules the event holds, said for people, and the form that sets one.

The form speaks a director's units (minutes of reserve, seconds of delay); the command speaks seconds
(``tournaments.commands.SetRoundClock``), which is what the form's answer becomes.
"""

from __future__ import annotations

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from games.engine import clock

from .commands import SetRoundClock
from .console_forms import FormRefused, whole_number

# the form's custom figures: (the field, its label, the command's figure, seconds per unit of the form)
CUSTOM_FIELDS = (
    ("per_match_minutes", gettext_lazy("Minutes for the match"), "per_match", 60),
    ("per_point_minutes", gettext_lazy("Minutes a point"), "per_point", 60),
    ("per_scored_minutes", gettext_lazy("Less, minutes a point scored"), "per_scored", 60),
    ("delay_seconds", gettext_lazy("Delay a turn (seconds)"), "delay", 1),
    ("overtime_minutes", gettext_lazy("Overtime (minutes)"), "overtime", 60),
)


# the presets as directors name them (the rules page gives their figures and sources)
PRESET_LABELS = {
    "us": gettext_lazy("US"), "us_overtime_1": gettext_lazy("US, 1 minute of overtime"),
    "us_overtime_2": gettext_lazy("US, 2 minutes of overtime"), "us_doubles": gettext_lazy("US doubles"),
    "uk": gettext_lazy("UK / WBGF"), "aba": gettext_lazy("ABA"), clock.CUSTOM: gettext_lazy("custom"),
}


def preset_choices() -> list[tuple[str, str]]:
    return [(name, str(PRESET_LABELS[name])) for name in clock.PRESET_NAMES]


def rules_shown(config: dict) -> list[dict]:
    """The event's clock rules, the event's first, then by bracket and round: where, and what."""
    rules = config.get(SetRoundClock.setting, {})
    return [{"where": _where(key), "what": _what(rule)} for key, rule in sorted(rules.items(), key=_order)]


def _order(item) -> tuple:
    key = item[0]  # "default", "3", "main", "main:3": tournaments.events.clock_key
    head, _sep, tail = key.rpartition(":")
    bracket = head or ("" if key.isdigit() else key)
    return (key != "default", bracket, int(tail) if tail.isdigit() else 0)


def _where(key: str) -> str:
    if key == "default":
        return _("Every match of the event")
    bracket, _sep, round_ = key.rpartition(":")
    if not bracket:
        return _("Round %(round)s") % {"round": key} if key.isdigit() else _("Bracket %(bracket)s") % {"bracket": key}
    return _("Bracket %(bracket)s, round %(round)s") % {"bracket": bracket, "round": round_}


def _what(rule: dict) -> str:
    if rule["use"] == clock.NONE:
        return _("no clocks")
    preset = rule["preset"]
    if preset == clock.CUSTOM:
        figures = _("custom: %(match)s min a match, %(point)s min a point, less %(scored)s min a point scored, "
                    "%(delay)s s delay, %(overtime)s min overtime") % {
            "match": rule["per_match"] // 60, "point": rule["per_point"] // 60, "scored": rule["per_scored"] // 60,
            "delay": rule["delay"], "overtime": rule["overtime"] // 60}
    else:
        figures = str(PRESET_LABELS[preset])
    if rule["use"] == clock.REQUIRED:
        return _("clocks required (%(preset)s)") % {"preset": figures}
    return _("clocks allowed (%(preset)s)") % {"preset": figures}


def command_from_form(post) -> dict:
    """The ``set_round_clock`` command the console's clock form says."""
    use = post.get("use", "")
    if use not in clock.USES:
        raise FormRefused(_("Choose required, allowed or no clocks: nothing was recorded."))
    command: dict = {"type": SetRoundClock.type, "use": use}
    if post.get("round", "").strip():
        command["round"] = whole_number(post["round"], _("The round"))
    if post.get("bracket", "").strip():
        command["bracket"] = post["bracket"].strip()
    if use == clock.NONE:
        return command
    command["preset"] = post.get("preset", "")
    if command["preset"] == clock.CUSTOM:
        for name, label, figure, unit in CUSTOM_FIELDS:
            if post.get(name, "").strip():
                command[figure] = whole_number(post[name], str(label)) * unit
    return command
