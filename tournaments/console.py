"""The director's console (``/events/{id}/run/``): what its page shows and what its buttons do.

Every action is a tournament command through :func:`tournaments.services.tournament_command`, the API's own
path: the same rule of who may do what, the same refusals. What the console adds is done here, not in the view:
a member list pasted or uploaded as CSV, entered all at once or not at all; everybody checked in with one
click; the board of the matches being played (table, score, game, last activity, a flag on a stalled one).
"""

from __future__ import annotations

import csv
import io
from dataclasses import dataclass
from datetime import timedelta

from django.conf import settings
from django.core.exceptions import ValidationError
from django.core.validators import validate_email
from django.db import transaction
from django.db.models import Max
from django.utils import timezone
from django.utils.translation import gettext as _

from eventlog import live, projections
from eventlog.models import Event
from games.models import MatchSummary
from players import authority
from players.languages import language_code
from players.models import Player

from . import names, selectors, services, stream
from .models import Tournament
from .notices import address_of

STALLED_AFTER = timedelta(minutes=15)
MAX_IMPORT_ROWS = 512
MAX_NAME = Player._meta.get_field("display_name").max_length
MAX_MEMBER_ID = Player._meta.get_field("club_member_id").max_length


class ImportRefused(Exception):
    """A member list the console does not take, with every line at fault; nothing was imported."""

    code = "import_refused"

    def __init__(self, problems: list[str]):
        super().__init__("; ".join(problems))
        self.problems = problems


@dataclass(frozen=True)
class Member:
    line: int
    name: str
    email: str
    club_id: str
    language: str = ""  # a code of settings.LANGUAGES, or empty (the site's)


def check_runs(actor, tournament: Tournament) -> None:
    if not authority.runs_event(actor, tournament.director_id):
        raise services.TournamentForbidden(_("only the event's director or an official runs this event"))


# -- the member list -------------------------------------------------------------------------


def parse_members(text: str) -> list[Member]:
    """Lines of ``name, e-mail, club id, language`` (commas, semicolons or tabs, as a spreadsheet copies them; the
    e-mail, the club id and the language the member is written to in may be left empty; a header line naming the
    columns is skipped). Refuses the whole list with every fault found: a malformed address, a name missing or too
    long, a language the site does not speak, the same person twice."""
    sample = text[:2048]
    delimiter = "\t" if "\t" in sample else ";" if sample.count(";") > sample.count(",") else ","
    rows = [r for r in csv.reader(io.StringIO(text.strip()), delimiter=delimiter)]
    problems: list[str] = []
    members: list[Member] = []
    for number, row in enumerate(rows, 1):
        cells = [c.strip() for c in row] + ["", "", ""]
        if not any(cells):
            continue
        name, email, club_id, language = cells[0], cells[1], cells[2], cells[3]
        if number == 1 and name.lower() in ("name", "nom") and email.lower() in ("email", "e-mail", "mail", "courriel"):
            continue
        if len(row) > 4 and any(c.strip() for c in row[4:]):
            problems.append(_("line %(n)s: at most four columns (name, e-mail, club id, language)") % {"n": number})
        code = language_code(language) if language else ""
        if code is None:
            problems.append(_("line %(n)s: %(language)s is not a language of the site (%(codes)s)") % {
                "n": number, "language": language[:40], "codes": ", ".join(c for c, _n in settings.LANGUAGES)})
        if not name or len(name) > MAX_NAME:
            problems.append(_("line %(n)s: a name of 1 to %(max)s characters") % {"n": number, "max": MAX_NAME})
        if email:
            try:
                validate_email(email)
            except ValidationError:
                problems.append(_("line %(n)s: %(email)s is not an e-mail address") % {"n": number, "email": email[:80]})
        if len(club_id) > MAX_MEMBER_ID:
            problems.append(_("line %(n)s: a club id of at most %(max)s characters") % {"n": number, "max": MAX_MEMBER_ID})
        members.append(Member(number, name, email.lower(), club_id, code or ""))
    if len(members) > MAX_IMPORT_ROWS:
        problems.append(_("at most %(max)s members at once") % {"max": MAX_IMPORT_ROWS})
    for what, key in ((_("name"), lambda m: m.name.casefold()), (_("e-mail"), lambda m: m.email),
                      (_("club id"), lambda m: m.club_id)):
        seen: dict[str, int] = {}
        for m in members:
            value = key(m)
            if value and value in seen:
                problems.append(_("line %(n)s: the same %(what)s as line %(first)s") % {
                    "n": m.line, "what": what, "first": seen[value]})
            seen.setdefault(value, m.line)
    if not members and not problems:
        problems.append(_("no member in the list"))
    if problems:
        raise ImportRefused(problems)
    return members


def _known(member: Member, club_id: int | None) -> Player | None:
    """The player a line names: by the club's number for them, else by e-mail address."""
    if member.club_id:
        found = Player.objects.filter(club_member_id=member.club_id, club_id=club_id).first()
        if found:
            return found
    if member.email:
        return Player.objects.filter(email__iexact=member.email).first()
    return None


def console_import(*, actor, tournament: Tournament, text: str) -> list[Player]:
    """Enter every member of the list (creating the players the club has not met yet), or none: a fault in
    the list, a member entered already or a refusal of the event (full, drawn) leaves everything as it was."""
    check_runs(actor, tournament)
    members = parse_members(text)
    entered = set(selectors.tournament_facts(tournament).active)
    with transaction.atomic():
        players, problems = [], []
        for m in members:
            player = _known(m, tournament.club_id)
            if player is not None and player.pk in entered:
                problems.append(_("line %(n)s: %(name)s is entered already") % {"n": m.line, "name": player.display_name})
                continue
            if player is None:
                player = Player.objects.create(display_name=m.name, email=m.email, club_member_id=m.club_id,
                                               language=m.language, club_id=tournament.club_id)
            else:  # the club's list fills in what the player's entry lacks, never overwrites their own choice
                missing = [f for f in ("email", "language") if getattr(m, f) and not getattr(player, f)]
                for f in missing:
                    setattr(player, f, getattr(m, f))
                if missing:
                    player.save(update_fields=missing)
            players.append((m, player))
        if problems:
            raise ImportRefused(problems)
        for m, player in players:
            try:
                services.tournament_command(actor=actor, tournament=tournament,
                                            command={"type": "enter", "player": player.pk})
            except services.TournamentError as refused:
                raise ImportRefused([_("line %(n)s: %(reason)s") % {"n": m.line, "reason": refused}]) from None
    project()
    return [p for _m, p in players]


def console_check_in_all(*, actor, tournament: Tournament) -> int:
    """Check in every entrant not checked in yet, in one transaction; returns how many."""
    check_runs(actor, tournament)
    facts = selectors.tournament_facts(tournament)
    missing = [p for p in facts.active if p not in facts.checked_in]
    with transaction.atomic():
        for player in missing:
            services.tournament_command(actor=actor, tournament=tournament,
                                        command={"type": "check_in", "player": player})
    project()
    return len(missing)


def console_command(*, actor, tournament: Tournament, command: dict) -> None:
    """One command, then the projections and the process manager at once: the director sees its outcome
    (the matches it makes playable, with their tables) on the page that follows."""
    services.tournament_command(actor=actor, tournament=tournament, command=command)
    settle(tournament)


def settle(tournament: Tournament) -> None:
    project()
    services.tournament_advance(tournament)
    project()


def project() -> None:
    """Run the projections here (the director sees the outcome on the page that follows) and tell the pages
    following them, the other consoles and the event pages, as the worker's run would have."""
    live.projections_moved(projections.run_all())


# -- undo -----------------------------------------------------------------------------------------

# what a person (the director, an official, a player) decides, newest first, as the log holds it; the process
# manager's facts (matches created, tables it chose, results from the board) are nobody's action to undo
PEOPLES_ACTIONS = ("PlayerEntered", "PlayerCheckedIn", "PlayerCheckInCancelled", "PlayerWithdrew", "DrawMade", "RoundPaired",
            "PairingForbidden", "ResultReported", "ResultConfirmed", "SlotResultCorrected", "MatchForfeited",
            "MatchKept", "TableService", "StageClosed", "PlayerReentered", "ReentryClosed")


class NothingToUndo(services.TournamentError):
    code = "nothing_to_undo"


def last_action(tournament: Tournament):
    """The latest event a person decided (a director's table move included), or None."""
    rows = Event.objects.filter(stream_id=stream.stream_id_of(tournament.pk)).order_by("-version")
    for row in rows.only("event_type", "payload", "metadata", "version")[:500]:
        if row.event_type == "TableAssigned" and row.payload.get("by_director"):
            return row
        if row.event_type in PEOPLES_ACTIONS and not (row.metadata or {}).get("process"):
            return row
    return None


def undo_command(tournament: Tournament, row) -> dict:
    """The command whose event compensates ``row``: nothing is erased, the log says what was undone."""
    p, kind = row.payload, row.event_type
    if kind == "PlayerCheckedIn":
        return {"type": "cancel_check_in", "player": p["player_id"]}
    if kind == "PlayerCheckInCancelled":
        return {"type": "check_in", "player": p["player_id"]}
    if kind == "PlayerEntered" and p.get("from_round", 1) == 1:
        return {"type": "withdraw", "player": p["player_id"], "reason": _("entry undone by the director")}
    if kind == "PlayerWithdrew":
        return {"type": "enter", "player": p["player_id"]}
    if kind == "TableService":
        return {"type": "set_table_service", "table": p["table"], "in_service": not p["in_service"]}
    if kind == "TableAssigned":
        before = (Event.objects.filter(stream_id=row.stream_id, event_type="TableAssigned", version__lt=row.version,
                                       payload__slot=p["slot"]).order_by("-version").first())
        if before is not None:
            return {"type": "assign_table", "slot": p["slot"], "table": before.payload["table"]}
    what = {"DrawMade": _("the draw"), "ResultReported": _("a result"), "ResultConfirmed": _("a player's result"),
            "SlotResultCorrected": _("a correction"), "MatchForfeited": _("a forfeit")}.get(kind, kind)
    raise NothingToUndo(_("The last action (%(what)s) cannot be undone here: correct it instead.") % {"what": what})


def action_name(row) -> str:
    """What the director did, as the undo button says it."""
    p = row.payload
    labels = {
        "PlayerEntered": _("entry"), "PlayerCheckedIn": _("check-in"), "PlayerCheckInCancelled": _("check-in undone"),
        "PlayerWithdrew": _("withdrawal"), "DrawMade": _("the draw"), "RoundPaired": _("pairing"),
        "PairingForbidden": _("forbidden pairing"), "ResultReported": _("a result"),
        "ResultConfirmed": _("a player's result"), "SlotResultCorrected": _("a correction"),
        "MatchForfeited": _("a forfeit"), "MatchKept": _("a kept match"), "TableService": _("table service"),
        "TableAssigned": _("table move"), "StageClosed": _("closing stage one"), "PlayerReentered": _("a re-entry"),
        "ReentryClosed": _("closing re-entry"),
    }
    label = labels.get(row.event_type, row.event_type)
    name = Player.objects.filter(pk=p.get("player_id")).values_list("display_name", flat=True).first() \
        if p.get("player_id") else None
    if name:
        return f"{label}: {name}"
    if row.event_type == "TableAssigned":
        return _("%(what)s: table %(n)s") % {"what": label, "n": p["table"]}
    return label


def console_undo(*, actor, tournament: Tournament) -> str:
    """Undo the last action by its compensating command (a second undo redoes it); returns what was undone."""
    check_runs(actor, tournament)
    row = last_action(tournament)
    if row is None:
        raise NothingToUndo(_("Nothing to undo."))
    console_command(actor=actor, tournament=tournament, command=undo_command(tournament, row))
    return action_name(row)


# -- what the page shows -------------------------------------------------------------------


def console_data(tournament: Tournament, *, now=None) -> dict:
    """The event as the console shows it: entries (with who has no e-mail address), slots with round names and
    tables, the board of matches being played, the tables out of service, the standings."""
    now = now or timezone.now()
    data = selectors.tournament_data(tournament)
    facts = selectors.tournament_facts(tournament)
    rounds = names.rounds_per_bracket(data["slots"])
    people = Player.objects.select_related("user").in_bulk(
        {e["player_id"] for e in data["entries"]} | {p for s in data["slots"] for p in s["players"] if p})
    entries = [{**e, "checked_in": e["player_id"] in data["checked_in"], "withdrawn": e["player_id"] in data["withdrawn"],
                "email": address_of(people[e["player_id"]]) if e["player_id"] in people else ""}
               for e in data["entries"]]
    slots = [{**s, "name": names.slot_name(s["key"], rounds.get(s["bracket"]))} for s in data["slots"]]
    live_ids = [s["match_id"] for s in slots if s["match_id"] and s["status"] == "ready" and s["winner"] is None]
    summaries = MatchSummary.objects.in_bulk(live_ids)
    last = dict(Event.objects.filter(stream_id__in=live_ids).values("stream_id")
                .annotate(at=Max("recorded_at")).values_list("stream_id", "at"))
    board = []
    for s in slots:
        if s["match_id"] not in live_ids:
            continue
        summary = summaries.get(s["match_id"])
        at = last.get(s["match_id"])
        swap = summary is not None and summary.player0_id != s["players"][0]
        score = [summary.score0, summary.score1] if summary else [0, 0]
        board.append({**s, "score": score[::-1] if swap else score, "game": summary.game_number if summary else 0,
                      "last_activity": at, "stalled": at is not None and now - at > STALLED_AFTER})
    board.sort(key=lambda r: (r["table"] is None, r["table"] or 0))
    for s in slots:
        s["rated"] = facts.slot_rated(s["key"])
    last = last_action(tournament)
    if last is not None:
        data["last_action_name"] = action_name(last)
    return {**data, **format_controls(tournament, data), "event_rated": facts.event_rated,
            "auto_pair": facts.config.get("auto_pair", True), "late_entry_open": _late_entry_open(facts),
            "format_name": names.format_name(data["format"]),
            "last_action": last.event_type if last else None, "entries": entries, "slots": slots, "board": board, "no_address": [e for e in entries if not e["email"]],
            "out_of_service": sorted(facts.out_of_service), "not_checked_in": [e for e in entries if not e["checked_in"]]}


def format_controls(tournament: Tournament, data: dict) -> dict:
    """What the event's format offers the director, each None where it has none: stage one to close (and the
    qualifiers it drew), the re-entry (who may buy back in), the ladder (rungs, open challenges), the league
    (its rounds' deadlines)."""
    out = {"stage": selectors.stage_view(data), "reentry": selectors.reentry_view(data), "ladder": None, "league": None}
    # re-entry is into the knockout: a staged event's is drawn when stage one closes
    out["reentry_live"] = bool(out["reentry"] and not out["reentry"]["closed"]
                               and (out["stage"] is None or out["stage"]["closed"]))
    if data["format"] == stream.Format.LADDER and data["drawn"]:
        out["ladder"] = selectors.ladder_data(tournament)
    if data["format"] == stream.Format.LEAGUE and data["drawn"]:
        out["league"] = selectors.league_data(tournament)
    return out


def previous_leagues(user, tournament: Tournament) -> list[Tournament]:
    """The drawn leagues an undrawn league's next season may follow (its divisions drawn from their final tables,
    with promotion and relegation); empty for any other event."""
    facts = selectors.tournament_facts(tournament)
    if facts.format != stream.Format.LEAGUE or facts.drawn:
        return []
    from .models import TournamentState

    drawn = TournamentState.objects.filter(format=stream.Format.LEAGUE, drawn=True).exclude(
        tournament_id=tournament.pk).values_list("tournament_id", flat=True)
    return [t for t in Tournament.objects.filter(pk__in=list(drawn)).order_by("-pk") if services.may_see(user, t)]


# -- the page's forms, read as commands --------------------------------------------------------

FORM_COMMANDS = ("enter", "check_in", "withdraw", "draw", "pair_round", "report_result", "correct_result",
                 "forfeit", "void_match", "assign_table", "set_table_service", "close_stage", "reenter",
                 "close_reentry", "issue_challenge", "decline_challenge", "apply_deadlines", "set_rated")


class FormRefused(ValueError):
    """A form that does not say a whole command (nothing is assumed: no winner, no score, no table)."""


def command_from_form(post) -> dict:
    kind = post.get("action", "")
    if kind not in FORM_COMMANDS:
        raise FormRefused(_("Unknown action: nothing was recorded."))
    command: dict = {"type": kind}
    for field in ("player", "winner", "table", "challenger", "defender", "number", "previous"):
        if post.get(field, "").strip():
            command[field] = _number(post[field], field)
    for field in ("slot", "reason", "method"):
        if post.get(field, "").strip():
            command[field] = post[field].strip()
    if kind in ("report_result", "correct_result", "forfeit") and "winner" not in command:
        raise FormRefused(_("Choose the winner: nothing was recorded."))
    if kind in ("report_result", "correct_result"):
        points = [post.get("winner_points", "").strip(), post.get("loser_points", "").strip()]
        if not all(points):
            raise FormRefused(_("Give both scores (the winner's points and the loser's): nothing was recorded."))
        command["score"] = [_number(points[0], _("the winner's points")), _number(points[1], _("the loser's points"))]
    if kind == "correct_result" and not command.get("reason"):
        raise FormRefused(_("Say why the result is corrected (the reason is kept in the event's history)."))
    if kind in ("assign_table", "set_table_service") and "table" not in command:
        raise FormRefused(_("Give the table's number: nothing was recorded."))
    if kind == "set_table_service":
        command["in_service"] = post.get("in_service") == "1"
    if kind == "set_rated":
        if post.get("rated") not in ("0", "1"):
            raise FormRefused(_("Say rated or unrated: nothing was recorded."))
        command["rated"] = post["rated"] == "1"
    if kind == "issue_challenge" and not ("challenger" in command and "defender" in command):
        raise FormRefused(_("Choose the challenger and the defender: nothing was recorded."))
    if kind == "decline_challenge" and "number" not in command:
        raise FormRefused(_("Choose the challenge: nothing was recorded."))
    if kind == "reenter" and "player" not in command:
        raise FormRefused(_("Choose the player re-entering: nothing was recorded."))
    return command


def _number(text: str, what: str) -> int:
    try:
        value = int(text.strip())
    except ValueError:
        raise FormRefused(_("%(what)s must be a whole number: nothing was recorded.") % {"what": what}) from None
    if value < 0:
        raise FormRefused(_("%(what)s cannot be negative: nothing was recorded.") % {"what": what})
    return value


def _late_entry_open(facts) -> bool:
    """Whether the decider takes an entry after the draw (tournaments.decider's late entry rule): a ladder always, a
    Swiss up to the round its director set, no other format; the console offers it only then."""
    if facts.stage_closed is not None:
        return False
    if facts.format == stream.Format.LADDER:
        return True
    return facts.format == stream.Format.SWISS and len(facts.rounds) + 1 <= facts.config.get("late_entry_until_round", 0)
