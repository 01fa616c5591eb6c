"""Round names for people, instead of the slots' keys (``main:r1:m1``, ``swiss:r2:t3``, ``rr:c1:r2:t1``)."""

from __future__ import annotations

from django.utils.translation import gettext as _
from django.utils.translation import pgettext


def _bracket(key: str) -> str:
    return {"main": _("Main"), "consolation": _("Consolation"), "last_chance": _("Last Chance"),
            "winners": _("Winners"), "losers": _("Losers"), "grand_final": _("Grand final")}.get(key, key)


def group_name(number: int) -> str:
    """A round robin's group as people say it: ``Group A`` for group 1."""
    return _("Group %s") % chr(64 + number)


def round_name(bracket: str, round_no: int, rounds: int | None = None) -> str:
    """``Round 2``; in a knockout whose number of rounds is known, its last three by their names."""
    if bracket in ("swiss", "rr", "teams"):
        return _("Round %(n)s") % {"n": round_no}
    if bracket == "grand_final":
        return _bracket(bracket) if round_no == 1 else _("Grand final (reset)")
    left = rounds - round_no if rounds else None
    named = {0: _("Final"), 1: _("Semi-final"), 2: _("Quarter-final")}.get(left) if bracket == "main" else None
    return f"{_bracket(bracket)} · {named or _('Round %(n)s') % {'n': round_no}}"


def slot_name(key: str, rounds: int | None = None) -> str:
    """A slot as a director says it: ``Main · Semi-final · match 2``, ``Round 3 · table 1``."""
    parts = key.split(":")
    try:
        if parts[0] == "swiss":
            return _("Round %(n)s · pairing %(t)s") % {"n": int(parts[1][1:]), "t": int(parts[2][1:])}
        if parts[0] == "rr":
            return _("Cycle %(c)s · round %(n)s · pairing %(t)s") % {
                "c": int(parts[1][1:]), "n": int(parts[2][1:]), "t": int(parts[3][1:])}
        if parts[0] == "team" and (parts[1] == "ko" or parts[1][:1] == "g"):  # team:g1:r2:m1:b3, team:ko:r4:m1:b3
            stage = _("Stage 2 · Knockout") if parts[1] == "ko" else group_name(int(parts[1][1:]))
            return stage + " · " + slot_name(":".join(parts[:1] + parts[2:]))
        if parts[0] == "team":  # a team event's board: team:r2:m1:b3
            return _("Round %(n)s · team match %(m)s · board %(b)s") % {
                "n": int(parts[1][1:]), "m": int(parts[2][1:]), "b": int(parts[3][1:])}
        if parts[0] == "ladder":  # ladder:c4
            return _("Challenge %(n)s") % {"n": int(parts[1][1:])}
        if parts[0][:1] == "d" and parts[0][1:].isdigit():  # a league's division and its round robin: d1:rr:c1:r2:t1
            return _("Division %(number)s") % {"number": int(parts[0][1:])} + " · " + slot_name(":".join(parts[1:]))
        bracket, round_no, index = parts[0], int(parts[1][1:]), int(parts[2][1:])
    except (IndexError, ValueError):
        return key
    return f"{round_name(bracket, round_no, rounds)} · " + _("match %(m)s") % {"m": index}


# the reasons the program gives itself (a forfeit's default, a challenge settled unplayed: tournaments/decider.py),
# stored in the log in its words; a reason a director typed is shown as typed
PROGRAM_REASONS = {"no-show": lambda: pgettext("a forfeit's reason", "no-show"),
                   "challenge declined": lambda: pgettext("a forfeit's reason", "challenge declined"),
                   "challenge lapsed": lambda: pgettext("a forfeit's reason", "challenge not played by its deadline")}


def reason_text(reason: str) -> str:
    said = PROGRAM_REASONS.get(reason)
    return said() if said else reason


def rounds_per_bracket(slots: list[dict]) -> dict[str, int]:
    out: dict[str, int] = {}
    for s in slots:
        out[s["bracket"]] = max(out.get(s["bracket"], 0), s["round"])
    return out


def round_label(bracket: str, round_no: int, rounds: int | None = None) -> str:
    """A round's name under its bracket's own heading: ``Semi-final``, ``Round 2`` (the bracket is said above)."""
    if bracket == "main" and rounds:
        named = {0: _("Final"), 1: _("Semi-final"), 2: _("Quarter-final")}.get(rounds - round_no)
        if named:
            return named
    if bracket == "grand_final":
        return _bracket(bracket) if round_no == 1 else _("Grand final (reset)")
    return _("Round %(n)s") % {"n": round_no}


def format_name(fmt: str | None) -> str:
    """An event's format as people say it (the program's is ``single_elimination``)."""
    return {"single_elimination": _("Single elimination"), "double_elimination": _("Double elimination"),
            "swiss": _("Swiss"), "round_robin": _("Round robin"), "ladder": _("Ladder"),
            "league": _("League"), "team_round_robin": _("Team round robin"), "team_swiss": _("Team Swiss"),
            "team_knockout": _("Team knockout")}.get(fmt or "", (fmt or "").replace("_", " "))


def slot_status(status: str) -> str:
    """Where an undecided slot stands, as people say it (the program's is ``ready``, ``waiting``…)."""
    return {"waiting": pgettext("slot", "waiting for its players"), "ready": pgettext("slot", "to be played"),
            "bye": pgettext("slot", "a bye"), "done": pgettext("slot", "decided"),
            "void": pgettext("slot", "not to be played")}.get(status, status)
