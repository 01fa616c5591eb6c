"""The console's online rules: which rounds are played online, said for people, and the form that sets one.

The form speaks a director's units (minutes for the disconnect clock); the command speaks its own
(``tournaments.commands.SetRoundOnline``: seconds, minutes), which is what the form's answer becomes.
"""

from __future__ import annotations

from django.utils.translation import gettext as _

from .commands import SetRoundOnline
from .console_forms import whole_number


def rules_shown(config: dict) -> list[dict]:
    """The event's online rules, the event's first, then by round: where, and what."""
    rules = config.get(SetRoundOnline.setting, {})
    ordered = sorted(rules.items(), key=lambda item: (item[0] != "default", int(item[0]) if item[0].isdigit() else 0))
    return [{"where": _("Every round") if key == "default" else _("Round %(round)s") % {"round": key},
             "what": _what(rule)} for key, rule in ordered]


def plays_online(config: dict) -> bool:
    """Some round of the event is played online (where a player's fair-play review is worth a director's look)."""
    return any(rule.get("online") for rule in config.get(SetRoundOnline.setting, {}).values())


def _what(rule: dict) -> str:
    if not rule.get("online"):
        return _("at the board")
    start = (_("to start within %(minutes)s min of its pairing") % {"minutes": rule["start_within"]}
             if rule["start_within"] else _("to start at its pairing"))
    return _("online, %(start)s; a player %(late)s min late loses; disconnect clock %(seconds)s s") % {
        "start": start, "late": rule["late"], "seconds": rule["disconnect"]}


def command_from_form(post) -> dict:
    """The ``set_round_online`` command the console's online form says."""
    command: dict = {"type": SetRoundOnline.type, "online": post.get("online") == "1"}
    if post.get("round", "").strip():
        command["round"] = whole_number(post["round"], _("The round"))
    for field, label, unit in (("disconnect_minutes", _("The disconnect clock"), 60),
                               ("start_within", _("The start deadline"), 1), ("late", _("The lateness"), 1)):
        if command["online"] and post.get(field, "").strip():
            command[field.removesuffix("_minutes")] = whole_number(post[field], label) * unit
    return command
