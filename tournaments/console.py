"""The director's console (``/events/{id}/run/``): what its page shows and what its buttons do.

Every action is a tournament command through :func:`tournaments.services.tournament_command`, the API's own
path: the same rule of who may do what, the same refusals. What the console adds is done here, not in the view:
a member list pasted or uploaded as CSV, entered all at once or not at all; everybody checked in with one
click; the board of the matches being played (table, score, game, last activity, a flag on a stalled one).
"""

from __future__ import annotations

import csv
import io
from dataclasses import dataclass, field
from datetime import timedelta

from django.conf import settings
from django.core.exceptions import ValidationError
from django.core.validators import validate_email
from django.db import transaction
from django.db.models import Max
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import pgettext

from apikit import refusals as apikit_refusals
from eventlog import live, projections
from eventlog.models import Event
from games.clocks import clock_data
from games.loading import match_load
from games.models import MatchSummary
from players import authority
from players.identity import name_key
from players.languages import language_code
from players.models import Player
from players.selectors import club_names, club_namesakes, player_identities

from . import commands, console_clocks, console_online, names, selectors, services, stream
from . import events as ev
from .console_forms import FormRefused
from .console_forms import whole_number as _number
from .models import Tournament
from .notices import address_of

STALLED_AFTER = timedelta(minutes=15)
MAX_IMPORT_ROWS = 512
MAX_IMPORT_CHARS = 256 * 1024  # a pasted list, as an uploaded one (the console's MAX_CSV_BYTES) and the API's
MAX_NAME = Player._meta.get_field("display_name").max_length
MAX_MEMBER_ID = Player._meta.get_field("club_member_id").max_length


class ImportRefused(services.TournamentError):
    """A member list the console does not take, with every line at fault; nothing was imported (HTTP 400)."""

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


refusal_text = apikit_refusals.refusal_text  # a refusal of the services in the reader's language


# -- the member list -------------------------------------------------------------------------


def parse_members(text: str) -> list[Member]:
    """Lines of ``name, e-mail, club id, language`` (commas, semicolons or tabs, as a spreadsheet copies them; the
    e-mail, the club id and the language the member is written to in may be left empty; a header line naming the
    columns is skipped). Refuses the whole list with every fault found: a malformed address, a name missing or too
    long, a language the site does not speak, the same person twice."""
    if len(text) > MAX_IMPORT_CHARS:
        raise ImportRefused([_("a list of at most %(kb)s kB") % {"kb": MAX_IMPORT_CHARS // 1024}])
    if "\x00" in text:  # no name, address or id holds one (PostgreSQL's text cannot): not a list typed or exported
        raise ImportRefused([_("the list contains a NUL character: paste or upload the list as text")])
    sample = text[:2048]
    delimiter = "\t" if "\t" in sample else ";" if sample.count(";") > sample.count(",") else ","
    try:
        rows = [r for r in csv.reader(io.StringIO(text.strip()), delimiter=delimiter)]
    except csv.Error:  # a cell past the csv module's limit (128 kB): an unclosed quote, or no list at all
        raise ImportRefused([_("a cell longer than any name, e-mail, club id or language (an unclosed quote?)")]) \
            from None
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
    for what, key in ((_("name"), lambda m: name_key(m.name)), (_("e-mail"), lambda m: m.email),
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


@dataclass(frozen=True)
class Choice:
    """The director's word on a line whose name a member of the club has: that member (``same_as``, a player id),
    or a new player (``same_as`` None) named ``new_name``, a name told apart from the member's."""

    same_as: int | None = None
    new_name: str = ""


@dataclass(frozen=True)
class Namesake:
    """A line whose name members of the club go by, and whose e-mail and club id (if any) name nobody: who it is
    is the director's to say. ``candidates``: those members (a merged duplicate as the player it was merged into)."""

    line: int
    name: str
    candidates: list[Player]


class ImportNeedsChoice(services.TournamentError):
    """Lines the director must say who they are ("same person?") before anything is imported; nothing was."""

    code = "same_person"

    def __init__(self, namesakes: list[Namesake]):
        super().__init__(", ".join(n.name for n in namesakes))
        self.namesakes = namesakes


@dataclass(frozen=True)
class Imported:
    players: list[Player]
    recognised: list[Player]  # entered by a name a director confirmed at an earlier import, without asking


@dataclass
class _Plan:
    rows: list[tuple[Member, Player | None, str]] = field(default_factory=list)  # a new player (None): its name
    namesakes: list[Namesake] = field(default_factory=list)
    recognised: list[Player] = field(default_factory=list)
    confirmed: set[int] = field(default_factory=set)  # said "same person" now: their name is remembered
    problems: list[str] = field(default_factory=list)


def _differs(member: Member, player: Player) -> bool:
    """The line and the member give different e-mails or club ids: not to be taken for one another unasked."""
    return bool(member.email and player.email and member.email != player.email.lower()
                or member.club_id and player.club_member_id and member.club_id != player.club_member_id)


def _plan(members: list[Member], club_id: int | None, choices: dict[str, Choice]) -> _Plan:
    """Who each line is. Its club id or e-mail decides when it names someone; else a line whose name a member of
    the club goes by (``identity.name_key``: case, accents and spacing aside) is never made a new player unasked:
    it is the member the director confirmed by that name before, or the director's ``choices`` (by name key) say,
    or it is asked. A new player for such a line takes a name told apart from every member's: the club's lists,
    draws and ratings show names alone, and two "Ines" there are nobody's to tell apart."""
    identities = player_identities()
    namesakes = club_namesakes(club_id=club_id, keys=[name_key(m.name) for m in members])
    taken = club_names(club_id) | {name_key(m.name) for m in members}
    plan, new_names = _Plan(), set()
    for m in members:
        known = _known(m, club_id)
        if known is not None:
            kept = identities.of(known.pk)
            plan.rows.append((m, known if kept == known.pk else Player.objects.get(pk=kept), ""))
            continue
        key = name_key(m.name)
        candidates = namesakes.get(key, [])
        choice = choices.get(key)
        if not candidates:
            plan.rows.append((m, None, m.name))
        elif choice is None:
            confirmed = [c for c in candidates if c.name_confirmed and not _differs(m, c)]
            if len(confirmed) == 1:
                plan.rows.append((m, confirmed[0], ""))
                plan.recognised.append(confirmed[0])
            else:
                plan.namesakes.append(Namesake(m.line, m.name, candidates))
        elif choice.same_as is not None:
            chosen = next((c for c in candidates if c.pk == choice.same_as), None)
            if chosen is None:
                plan.problems.append(_("line %(n)s: player %(id)s is not a member called %(name)s") % {
                    "n": m.line, "id": choice.same_as, "name": m.name})
            else:
                plan.rows.append((m, chosen, ""))
                plan.confirmed.add(chosen.pk)
        else:
            new = " ".join(choice.new_name.split())
            if not new or len(new) > MAX_NAME:
                plan.problems.append(_("line %(n)s: a name of 1 to %(max)s characters for the new player") % {
                    "n": m.line, "max": MAX_NAME})
            elif name_key(new) in taken or name_key(new) in new_names:
                plan.problems.append(_("line %(n)s: %(name)s is taken already: give the new player a name that tells "
                                       "them apart (a surname, an initial)") % {"n": m.line, "name": new})
            else:
                new_names.add(name_key(new))
                plan.rows.append((m, None, new))
    return plan


def import_namesakes(*, tournament: Tournament, text: str) -> list[Namesake]:
    """The lines of a member list whose person the director must name before it is imported ("same person?")."""
    try:
        members = parse_members(text)
    except ImportRefused:
        return []
    return _plan(members, tournament.club_id, {}).namesakes


def choices_from_form(post) -> dict[str, Choice]:
    """The console's answers to "same person?": for each line asked, ``namesake-<i>`` (its name), ``who-<i>`` (a
    member's id, or ``new``) and ``new_name-<i>``; a line left unanswered is asked again."""
    choices: dict[str, Choice] = {}
    asked = [k for k in post if k.startswith("namesake-")][:MAX_IMPORT_ROWS]
    for name_field in asked:
        i = name_field.removeprefix("namesake-")
        who = post.get(f"who-{i}", "")
        if who == "new":
            choices[name_key(post[name_field])] = Choice(None, post.get(f"new_name-{i}", "")[:MAX_NAME * 2])
        elif who.isascii() and who.isdigit() and len(who) < 19:
            choices[name_key(post[name_field])] = Choice(int(who))
    return choices


def namesake_question(*, tournament: Tournament, text: str, choices: dict[str, Choice]) -> list[dict]:
    """The console's "same person?" for a list it did not import: each line asked, its members to choose from
    (what tells them apart: e-mail, club id, since when, whether entered here already) and the answer given so
    far; a line that only one member's name fits has that member chosen to begin with, the likelier answer."""
    entered = set(selectors.tournament_facts(tournament).active)
    question = []
    for i, n in enumerate(import_namesakes(tournament=tournament, text=text), 1):
        choice = choices.get(name_key(n.name))
        if choice is None:
            chosen = str(n.candidates[0].pk) if len(n.candidates) == 1 else ""
        else:
            chosen = "new" if choice.same_as is None else str(choice.same_as)
        question.append({
            "index": i, "line": n.line, "name": n.name, "chosen": chosen,
            "new_name": choice.new_name if choice is not None and choice.same_as is None else n.name,
            "candidates": [{"pk": c.pk, "name": c.display_name, "email": c.email, "club_member_id": c.club_member_id,
                            "since": c.created_at, "entered": c.pk in entered} for c in n.candidates]})
    return question


def console_import(*, actor, tournament: Tournament, text: str, choices: dict[str, Choice] | None = None) -> Imported:
    """Enter every member of the list (creating the players the club has not met yet), or none: a fault in
    the list, a member entered already or a refusal of the event (full, drawn) leaves everything as it was.
    A line only a namesake in the club could be is not imported unasked (``ImportNeedsChoice``): ``choices``, by
    ``identity.name_key`` of the line's name, say who each such line is."""
    check_runs(actor, tournament)
    members = parse_members(text)
    plan = _plan(members, tournament.club_id, choices or {})
    if plan.problems:
        raise ImportRefused(plan.problems)
    if plan.namesakes:
        raise ImportNeedsChoice(plan.namesakes)
    entered = set(selectors.tournament_facts(tournament).active)
    with transaction.atomic():
        players, problems = [], []
        for m, player, new_name in plan.rows:
            if player is not None and player.pk in entered:
                problems.append(_("line %(n)s: %(name)s is entered already") % {"n": m.line, "name": player.display_name})
                continue
            if player is None:
                player = Player.objects.create(display_name=new_name, email=m.email, club_member_id=m.club_id,
                                               language=m.language, club_id=tournament.club_id)
            else:  # the club's list fills in what the player's entry lacks, never overwrites their own choice
                details = ("email", "language") + (("club_member_id",) if player.club_id == tournament.club_id else ())
                line = {"email": m.email, "language": m.language, "club_member_id": m.club_id}
                missing = [f for f in details if line[f] and not getattr(player, f)]
                for f in missing:
                    setattr(player, f, line[f])
                if player.pk in plan.confirmed and not player.name_confirmed:
                    player.name_confirmed = True
                    missing.append("name_confirmed")
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
                raise ImportRefused([_("line %(n)s: %(reason)s") % {"n": m.line, "reason": refusal_text(refused)}]) \
                    from None
    project()
    return Imported([p for _m, p in players], plan.recognised)


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
            "MatchKept", "TableService", "StageClosed", "PlayerReentered", "ReentryClosed", "SettingsChanged")


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
    if kind == "SettingsChanged":
        raise NothingToUndo(_("The last action (the settings) is changed back on the event's settings page."))
    raise NothingToUndo(_("The last action (%(what)s) cannot be undone here: correct it instead.") % {
        "what": action_name(row)})


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
        "ReentryClosed": _("closing re-entry"), "SettingsChanged": _("the settings"),
    }
    label = labels.get(row.event_type) or _("an action")
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
    slots = [{**s, "name": names.slot_name(s["key"], rounds.get(s["bracket"])),
              "status_name": names.slot_status(s["status"])} for s in data["slots"]]
    named = {s["key"]: s["name"] for s in slots}
    data["flagged"] = [{**f, "name": named.get(f["slot"], f["slot"])} for f in data["flagged"]]
    live_ids = [s["match_id"] for s in slots if s["match_id"] and s["status"] == "ready" and s["winner"] is None]
    summaries = MatchSummary.objects.in_bulk(live_ids)
    last = dict(Event.objects.filter(stream_id__in=live_ids).values("stream_id")
                .annotate(at=Max("recorded_at")).values_list("stream_id", "at"))
    # the clocked matches' clocks: folded from their streams (a snapshot each), the others need no read
    clocked = set(Event.objects.filter(stream_id__in=live_ids, event_type="ClockSet")
                  .values_list("stream_id", flat=True))
    board = []
    for s in slots:
        if s["match_id"] not in live_ids:
            continue
        summary = summaries.get(s["match_id"])
        at = last.get(s["match_id"])
        swap = summary is not None and summary.player0_id != s["players"][0]
        score = [summary.score0, summary.score1] if summary else [0, 0]
        board.append({**s, "score": score[::-1] if swap else score, "game": summary.game_number if summary else 0,
                      "last_activity": at, "stalled": at is not None and now - at > STALLED_AFTER,
                      "clock": _clock_line(s["match_id"]) if s["match_id"] in clocked else None})
    board.sort(key=lambda r: (r["table"] is None, r["table"] or 0))
    for s in slots:
        s["rated"] = facts.slot_rated(s["key"])
        s["online"] = ev.online_rule_for(facts.config, s["round"]) is not None
        s["proof"] = facts.proofs.get(s["key"])
        if s["proof"] is not None and s["proof"]["player"] in people:
            s["proof"] = {**s["proof"], "name": people[s["proof"]["player"]].display_name}
    last = last_action(tournament)
    if last is not None:
        data["last_action_name"] = action_name(last)
    return {**data, **format_controls(tournament, data, named), "event_rated": facts.event_rated,
            "clock_rules": console_clocks.rules_shown(facts.config), "clock_presets": console_clocks.preset_choices(),
            "online_rules": console_online.rules_shown(facts.config),
            "plays_online": console_online.plays_online(facts.config),
            "auto_pair": facts.config.get("auto_pair", True), "late_entry_open": _late_entry_open(facts),
            "late_entry": late_entry(facts),
            "format_name": names.format_name(data["format"]),
            "last_action": last.event_type if last else None, "entries": entries, "slots": slots, "board": board, "no_address": [e for e in entries if not e["email"]],
            "out_of_service": sorted(facts.out_of_service), "not_checked_in": [e for e in entries if not e["checked_in"]]}


def _clock_line(match_id: str) -> dict:
    """A clocked match's clocks as the console lists them: each player's reserve (m:ss), whose runs, paused."""
    record = match_load(match_id)
    clock = clock_data(record)
    sides = [{"name": record.state.players[seat], "left": _minutes(clock["reserves"][seat]),
              "running": clock["running"] == seat and not clock["paused"]} for seat in (0, 1)]
    return {"sides": sides, "paused": clock["paused"], "fallen": clock["fallen"]}


def _minutes(ms: int) -> str:
    seconds = -(-ms // 1000)
    return f"{seconds // 60}:{seconds % 60:02d}"


def format_controls(tournament: Tournament, data: dict, named: dict[str, str] | None = None) -> dict:
    """What the event's format offers the director, each None where it has none: stage one to close (and the
    qualifiers it drew), the re-entry (who may buy back in), the ladder (rungs, open challenges), the league
    (its rounds' deadlines), a team event's teams, team matches and table. ``named``: the slots' names for people, by key (the places of the re-entry)."""
    out = {"stage": selectors.stage_view(data), "reentry": selectors.reentry_view(data), "ladder": None, "league": None}
    if out["reentry"] and named is not None:
        out["reentry"]["open"] = [named.get(k, k) for k in out["reentry"]["open"]]
        out["reentry"]["made"] = [{**m, "place": named.get(m["place"], m["place"])} for m in out["reentry"]["made"]]
    # re-entry is into the knockout: a staged event's is drawn when stage one closes
    out["reentry_live"] = bool(out["reentry"] and not out["reentry"]["closed"]
                               and (out["stage"] is None or out["stage"]["closed"]))
    if data["format"] == stream.Format.LADDER and data["drawn"]:
        out["ladder"] = selectors.ladder_data(tournament)
    if data["format"] == stream.Format.LEAGUE and data["drawn"]:
        out["league"] = selectors.league_data(tournament)
    out["teams"] = selectors.teams_data(tournament) if data["format"] in stream.TEAM_FORMATS else None
    if out["teams"]:  # the registration form's selects: a board each, then the reserves
        out["team_boards"] = range(1, out["teams"]["boards"] + 1)
        out["team_reserves"] = range(out["teams"]["reserves"])
    return out


def events_run_by(user, *, limit: int = 20) -> list[Tournament]:
    """The events ``user`` directs, latest first (hidden ones too): where a director starts, on the home page."""
    if not user.is_authenticated:
        return []
    return list(Tournament.objects.filter(director=user).select_related("club").order_by("-created_at")[:limit])


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
                 "close_reentry", "issue_challenge", "decline_challenge", "apply_deadlines", "set_rated",
                 "register_team", "set_lineup")


def done_message(command: dict) -> str:
    """The console's word after a command it sent: "Done: record the result." (the command's own ``label``, never
    the program's name: "report_result")."""
    what = pgettext("done", commands.command_class(command["type"]).done(command))
    return _("Done: %(what)s.") % {"what": what}


def command_from_form(post) -> dict:
    kind = post.get("action", "")
    forfeits = post.get("forfeit", "").strip()  # a result row's "<player> forfeits" button: its value is the player
    if not kind and forfeits:
        kind = "forfeit"
    if kind not in FORM_COMMANDS:
        raise FormRefused(_("Unknown action: nothing was recorded."))
    command: dict = {"type": kind}
    for field in ("player", "winner", "table", "challenger", "defender", "number", "previous"):
        if post.get(field, "").strip():
            command[field] = _number(post[field], field)
    for field in ("slot", "reason", "method"):
        if post.get(field, "").strip():
            command[field] = post[field].strip()
    if kind == "forfeit" and forfeits:  # who forfeits decides it: the other wins, whatever the winner box says
        command.pop("winner", None)
        command["loser"] = _number(forfeits, _("the player who forfeits"))
    if kind == "forfeit" and not ("winner" in command or "loser" in command):
        raise FormRefused(_("Choose who forfeits: nothing was recorded."))
    if kind in ("report_result", "correct_result") and "winner" not in command:
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
    if kind == "set_lineup":  # the team, the round of its team match, and a select a board each, board 1 first
        chosen = [v.strip() for v in post.getlist("players") if v.strip()]
        if not (post.get("team", "").strip() and post.get("round", "").strip() and chosen):
            raise FormRefused(_("Choose the team, the round and its players: nothing was recorded."))
        command.update(team=_number(post["team"], "team"), round=_number(post["round"], "round"),
                       players=[_number(v, "players") for v in chosen])
    if kind == "register_team":
        command["name"] = post.get("name", "").strip()
        for field in ("players", "reserves"):  # a select a board (a reserve) each, in board order; empty: none
            chosen = [v.strip() for v in post.getlist(field) if v.strip()]
            command[field] = [_number(v, field) for v in chosen]
        if not command["name"] or not command["players"]:
            raise FormRefused(_("Name the team and choose its players: nothing was recorded."))
    return command


def late_entry(facts) -> dict | None:
    """A Swiss event's late entry as the console says it, after the draw (the decider's rule: open until the round
    set, ``late_entry_until_round``, is paired; a late entrant joins the next round to be paired); None before the
    draw and for the other formats (a ladder takes newcomers at any time, the others none)."""
    if facts.format != stream.Format.SWISS or not facts.drawn:
        return None
    return {"until": facts.config.get("late_entry_until_round", 0), "next": len(facts.rounds) + 1,
            "open": _late_entry_open(facts), "stage_closed": facts.stage_closed is not None}


def _late_entry_open(facts) -> bool:
    """Whether the decider takes an entry after the draw (tournaments.decider's late entry rule): a ladder always, a
    Swiss up to the round its director set, no other format; the console offers it only then."""
    if facts.stage_closed is not None:
        return False
    if facts.format == stream.Format.LADDER:
        return True
    return facts.format == stream.Format.SWISS and len(facts.rounds) + 1 <= facts.config.get("late_entry_until_round", 0)
