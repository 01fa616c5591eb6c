"""Running an event: every director's and player's action appends to the tournament stream.

``tournament_command`` loads the stream, looks up what only the database knows (who acts, ratings,
the club's rating ramp), lets the decider (``tournaments/decider.py``) judge the typed command, appends
its events and does what they ask of the slots' matches, in one transaction. ``tournament_advance`` is
the process manager's second half (run by Celery when ``tournaments/process.py`` finds work): it creates
the matches of slots that have become playable, pairs the next Swiss round when one is complete, and
voids matches a correction made wrong before anyone started them.
"""

from __future__ import annotations

import secrets
from collections.abc import Mapping
from functools import lru_cache

from django.conf import settings as django_settings
from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.http import Http404
from django.shortcuts import get_object_or_404
from django.utils import timezone
from django.utils.module_loading import import_string

from eventlog import live, store
from eventlog.store import NewEvent
from eventlog.tasks import wake_projections
from games import registrations
from games.creation import match_create
from games.director import match_close, match_set_published, match_set_result, match_void
from games.errors import BadCommand
from games.loading import match_load
from games.mat_io import match_import_mat, players_for_import
from games.forbidden import Forbidden
from games.streams import MatchRecord
from players import authority
from players.models import Player
from tournaments.formats.core import SETTLED

from . import commands as cmds
from . import config as config_rules
from . import decider, derive, process, stream
from . import events as ev
from .models import Tournament
from .selectors import tournament_facts, tournament_view  # noqa: F401 - reads, kept here for callers
from .refusals import (
    BadEvent, NoPreviousSeason, NotPermitted, Reason, Refused, TournamentError, TournamentRefusal, UnknownPlayer,
)

__all__ = ["TournamentError", "Refused", "TournamentForbidden", "TournamentRefusal"]


class TournamentForbidden(Forbidden):
    """The decider's :class:`~tournaments.refusals.NotPermitted`, as Django's 403, with its stable code."""

    code = TournamentRefusal.NOT_PERMITTED


@lru_cache(maxsize=1)
def _ratings_provider(path: str):
    return import_string(path)


def ratings_provider():
    """``settings.TOURNAMENT_RATINGS_PROVIDER``: ``club_ramp(club_id) -> str`` and ``ratings(ids) -> {id: rating}``."""
    return _ratings_provider(django_settings.TOURNAMENT_RATINGS_PROVIDER)


def rating_ramp_of(tournament: Tournament) -> str:
    """The new-player ramp of the club running the event, written into its results and matches."""
    return ratings_provider().club_ramp(tournament.club_id)


# -- loading -------------------------------------------------------------------------------


def may_see(user, tournament: Tournament) -> bool:
    """A published event is public; a hidden one (a draft) exists only for its officials and its entrants."""
    if tournament.published or authority.runs_event(user, tournament.director_id):
        return True
    if getattr(user, "pk", None) is None:  # an anonymous visitor is no entrant (nor a player without an account)
        return False
    player = Player.objects.filter(user_id=getattr(user, "pk", None)).values_list("pk", flat=True).first()
    if player is None:
        return False
    return player in tournament_facts(tournament).entered


def visible_or_404(user, pk: int) -> Tournament:
    """The event, for those who may see it; a hidden event answers 404 to the others, as if it did not exist."""
    tournament = get_object_or_404(Tournament, pk=pk)
    if not may_see(user, tournament):
        raise Http404("no such event")
    return tournament


def visible_as_shown(user, pk: int) -> tuple[Tournament, int, int]:
    """:func:`visible_or_404`'s event, its stream's version and how far every projection has read the log (what
    an event page shows, and its ETag names), in one round trip: every reader of a big event's page asks for them
    at every view, and three statements cost three times what one does."""
    found = list(Tournament.objects.raw(
        f"SELECT t.*, {store.stream_version_sql()} AS shown_version, {live.projected_position_sql()} AS shown_position "
        f"FROM {Tournament._meta.db_table} t WHERE t.{Tournament._meta.pk.column} = %s",
        [stream.stream_id_of(pk), pk]))
    if not found or not may_see(user, found[0]):
        raise Http404("no such event")
    tournament = found[0]
    return tournament, tournament.shown_version, tournament.shown_position


def money_visible_or_403(user, pk: int) -> Tournament:
    """The event whose money ``user`` may read: its director's and officials' (the players see their own
    winnings on their page)."""
    tournament = visible_or_404(user, pk)
    if not authority.runs_event(user, tournament.director_id):
        raise PermissionDenied("only the event's director or an official sees its money")
    return tournament


SWISS_TIEBREAKS = ("buchholz", "median_buchholz", "sonneborn_berger")

# -- creating --------------------------------------------------------------------------------


def tournament_create(*, actor, name: str, format: str, club=None, settings: dict | None = None) -> Tournament:
    """An event and its configuration: format, match lengths per bracket and round, rounds, tie-breaks."""
    if not (actor and getattr(actor, "is_authenticated", False)):
        raise Forbidden(Reason.LOG_IN_TO_CREATE)
    if not authority.may_create_event(actor, club):
        if club is None:
            raise Forbidden(Reason.OFFICIALS_CREATE)
        raise Forbidden(Reason.CLUB_DIRECTORS_CREATE, club=str(club))
    if format not in stream.FORMATS:
        raise BadEvent(Reason.FORMAT_IS_ONE_OF, formats=", ".join(stream.FORMATS))
    max_name = Tournament._meta.get_field("name").max_length
    if not isinstance(name, str) or not name.strip() or len(name) > max_name:
        raise BadEvent(Reason.EVENT_NAME, most=max_name)
    try:  # a limit such as max_players is the site's to set, never the creator's: not a setting one may send
        config = {**config_rules.checked(format, settings), "format": format}
    except config_rules.SettingsError as refused:
        raise BadEvent(Reason.SETTINGS, why=refused) from None
    if authority.casual_event(actor, club):
        config["max_players"] = django_settings.CASUAL_EVENT_MAX_PLAYERS
    if format == stream.Format.SWISS:  # a Swiss table without tie-breaks ranks equal scores by seed alone: record the usual ones
        config.setdefault("tiebreaks", list(SWISS_TIEBREAKS))
    with transaction.atomic():
        tournament = Tournament.objects.create(name=name, club=club, director=actor)
        _append(tournament, 0, [ev.TournamentConfigured(config)], actor)
    return tournament


def tournament_configure(*, actor, tournament: Tournament, settings: dict) -> list[NewEvent]:
    """The director's new settings, whole: checked as at the creation, then judged by the decider (after the
    draw only what the event reads as it goes on may change). Returns the events appended (none: no change)."""
    facts = tournament_facts(tournament)
    try:
        config = config_rules.checked(facts.format, settings)
    except config_rules.SettingsError as refused:
        raise BadEvent(Reason.SETTINGS, why=refused) from None
    if facts.format == stream.Format.SWISS:
        config.setdefault("tiebreaks", list(SWISS_TIEBREAKS))
    return tournament_command(actor=actor, tournament=tournament, command=cmds.Configure(settings=config))


def tournament_describe(*, actor, tournament: Tournament, name: str, starts_on) -> Tournament:
    """The event's name and date: its row's own (the stream holds what happens in the event, not its label)."""
    if not authority.runs_event(actor, tournament.director_id):
        raise Forbidden(Reason.DIRECTOR_RENAMES)
    max_name = Tournament._meta.get_field("name").max_length
    if not isinstance(name, str) or not name.strip() or len(name) > max_name:
        raise BadEvent(Reason.EVENT_NAME, most=max_name)
    Tournament.objects.filter(pk=tournament.pk).update(name=name.strip(), starts_on=starts_on)
    tournament.name, tournament.starts_on = name.strip(), starts_on
    return tournament


def tournament_publish(*, actor, tournament: Tournament, published: bool) -> Tournament:
    """Publish or hide an event, and with it every match it holds (a match follows its event's visibility).

    The change is a fact of the event's stream (``VisibilitySet``), which the ratings and the seasons read: a
    hidden event's results count nowhere public, and publishing it counts them as if they had always been public.
    The row's ``published`` is what the pages ask, kept with it. The event's row is locked while its matches
    follow, as the process manager locks it while it creates matches: a match created during a publication is
    created with the visibility the publication left."""
    if not authority.runs_event(actor, tournament.director_id):
        raise Forbidden(Reason.DIRECTOR_PUBLISHES)
    with transaction.atomic():
        locked = Tournament.objects.select_for_update().get(pk=tournament.pk)
        tournament_command(actor=actor, tournament=locked, command=cmds.Publish(published=bool(published)))
        locked.published = published
        locked.save(update_fields=["published"])
        # every match registered in the event, from the log itself (the process manager's and those added by hand)
        for match_id in registrations.in_event(locked.pk).values_list("stream_id", flat=True):
            match_set_published(stream_id=match_id, published=published, actor=actor)
    tournament.published = published
    return locked


# -- matches the director adds by hand ----------------------------------------------------------


def check_may_add_matches(actor, tournament: Tournament) -> None:
    if not authority.runs_event(actor, tournament.director_id):
        raise Forbidden(Reason.DIRECTOR_ADDS_MATCHES)


def tournament_add_match(*, actor, tournament: Tournament, player0: Player, player1: Player, length: int,
                         published: bool = True, **engine_options) -> MatchRecord:
    """A match the event holds outside its slots (a side match, a replay): the event's director creates it,
    officiates it, and it is rated with the club's ramp; it is shown only while the event is."""
    check_may_add_matches(actor, tournament)
    return match_create(
        actor=actor, player0=player0, player1=player1, length=length, tournament_id=tournament.pk,
        published=published and tournament.published, officiating_director_id=tournament.director_id,
        rating_ramp=rating_ramp_of(tournament), **engine_options)


def tournament_import_match(*, actor, tournament: Tournament, text: str, player0: Player,
                            player1: Player, read=None) -> MatchRecord:
    """A match the event holds, read from a ``.mat`` file (vouched for: its director imports it); hidden while
    the event is."""
    check_may_add_matches(actor, tournament)
    return match_import_mat(
        actor=actor, text=text, player0=player0, player1=player1, tournament_id=tournament.pk,
        officiating_director_id=tournament.director_id, rating_ramp=rating_ramp_of(tournament),
        published=tournament.published, read=read)


def tournament_import_job(job, read) -> MatchRecord:
    """A director's big record, recorded by the worker (games/imports.py) as :func:`tournament_import_match`
    records a small one in the request (``read``: its record, judged by the worker), with the same refusals: the director is asked again, the event may have
    changed hands since."""
    tournament = Tournament.objects.filter(pk=job.tournament_id).first()
    if tournament is None:
        raise BadCommand(Reason.EVENT_GONE, event=job.tournament_id)
    check_may_add_matches(job.user, tournament)
    player0, player1 = players_for_import(job.text, job.player0_id, job.player1_id)
    return tournament_import_match(actor=job.user, tournament=tournament, text=job.text, player0=player0,
                                   player1=player1, read=read)


# -- commands --------------------------------------------------------------------------------

COMMAND_TYPES = cmds.COMMAND_TYPES
COMMAND_ATTEMPTS = 8


def actor_of(actor, tournament: Tournament) -> cmds.Actor:
    """Who sends a command, as the decider knows them: whether they run this event, and their own player."""
    own = Player.objects.filter(user_id=getattr(actor, "pk", None)).values_list("pk", flat=True).first()
    return cmds.Actor(official=authority.runs_event(actor, tournament.director_id), player=own)


def read_command(*, actor, tournament: Tournament, data, read=None) -> tuple[cmds.TournamentCommand, int | None]:
    """A command from a JSON object, and the version its sender saw. Its type is known and the actor may send it
    (the decider's rule, :func:`tournaments.decider.permit`: a 403 before the fields are read) before ``read``
    reads it: the API's serializer (``tournaments.serializers.read_command``), else
    :func:`tournaments.commands.parse`'s reading of a plain dict."""
    if not isinstance(data, Mapping):
        raise cmds.BadCommand(Reason.COMMAND_OBJECT)
    cls = cmds.command_class(data.get("type"))
    try:
        decider.permit(cls, actor_of(actor, tournament))
    except NotPermitted as refused:
        raise TournamentForbidden(refused.reason or str(refused), **refused.params) from None
    if read is not None:
        return read(cls, dict(data))
    return cls.from_dict(dict(data)), data.get("expected_version")


def tournament_command(*, actor, tournament: Tournament, command: cmds.TournamentCommand | Mapping,
                       expected_version: int | None = None) -> list[NewEvent]:
    """Judge one command and append its events; returns them (as appended).

    ``command`` is a typed command (the API reads it with :func:`read_command`); a plain dict (scripts, the
    console, the admin, tests) is read here, its ``expected_version`` taken with it. ``expected_version`` pins
    the event's version the sender looked at: a stale one raises ConcurrencyError."""
    if isinstance(command, Mapping):
        command, sent = read_command(actor=actor, tournament=tournament, data=command)
        expected_version = sent if expected_version is None else expected_version
    if expected_version is not None and (not isinstance(expected_version, int) or isinstance(expected_version, bool)):
        raise TournamentError(Reason.EXPECTED_VERSION)
    if isinstance(command, cmds.StartJackpot) and not command.event_id:
        from .jackpots import jackpot_start  # the jackpot's event is made by this module's services

        return jackpot_start(actor=actor, night=tournament, command=command, expected_version=expected_version)
    by = actor_of(actor, tournament)  # the decider judges who may send it (a body was asked before it was read)
    player = getattr(command, "player", None)
    if player is not None and not Player.objects.filter(pk=player).exists():
        raise UnknownPlayer(Reason.PLAYER_ID)
    if isinstance(command, cmds.RegisterTeam):
        ids = set(command.players) | set(command.reserves)
        if Player.objects.filter(pk__in=ids).count() != len(ids):
            raise UnknownPlayer(Reason.PLAYER_ID)
    command = cmds.with_facts(command, by=by)
    if isinstance(command, cmds.Draw):
        command = cmds.with_facts(command, entropy=secrets.randbits(128))  # the OS's secure generator
    if isinstance(command, cmds.ResultCommand):
        command = cmds.with_facts(command, rating_ramp=rating_ramp_of(tournament))
    if command.clocked:  # the decider reads no clock: the command carries the service's reading
        command = cmds.with_facts(command, at=clock())
    if isinstance(command, cmds.Draw) and command.method == "previous":
        command = cmds.with_facts(command, previous_divisions=previous_divisions(actor, command.previous))
    if expected_version is not None:
        return _judge_and_append(actor, tournament, command, expected_version)
    # No version pinned: the command is judged against the event as it is. If another command got in between
    # (four players entering at once), it is judged again on the new facts rather than refused with a 409
    # the player can do nothing about; the judgement, not the version, decides.
    for attempt in range(COMMAND_ATTEMPTS):
        try:
            return _judge_and_append(actor, tournament, command, None)
        except store.ConcurrencyError:
            if attempt == COMMAND_ATTEMPTS - 1:
                raise
    raise AssertionError("unreachable")


def clock() -> int:
    """The time a command is judged at, in whole seconds since the epoch (deadlines are counted in it)."""
    return int(timezone.now().timestamp())


def previous_divisions(actor, pk: int | None) -> tuple[tuple[int, ...], ...]:
    """A league's final tables, division by division (each best first): what a next season is drawn from."""
    previous = Tournament.objects.filter(pk=pk).first() if pk else None
    if previous is None or not may_see(actor, previous):
        raise NoPreviousSeason(Reason.PREVIOUS_VISIBLE)
    facts, view = tournament_view(previous)
    if facts.format != stream.Format.LEAGUE or view.league is None or not view.league.divisions:
        raise NoPreviousSeason(Reason.PREVIOUS_DIVIDED)
    return tuple(tuple(r.player for r in d.standings) for d in view.league.divisions)


def tournament_apply_deadlines(*, tournament: Tournament, at: int | None = None) -> list[NewEvent]:
    """Settle what is past its deadline (the periodic sweep, on the system's behalf: no actor)."""
    command = cmds.ApplyDeadlines(at=clock() if at is None else at, by=cmds.Actor(official=True))
    for attempt in range(COMMAND_ATTEMPTS):
        try:
            return _judge_and_append(None, tournament, command, None)
        except store.ConcurrencyError:
            if attempt == COMMAND_ATTEMPTS - 1:
                raise
    raise AssertionError("unreachable")


def _judge_and_append(actor, tournament, command, expected: int | None) -> list[NewEvent]:
    """One judgement and its appends. A stale version is answered about the stream the sender sent a version
    for, the event's: whichever append was refused (the event's own, or that of a slot's match that another
    command, the director's own first press, closed a moment before), the answer names the version sent and
    where the event is now, never a version of a match stream the sender did not see."""
    try:
        return _judged_and_appended(actor, tournament, command, expected)
    except store.ConcurrencyError as clash:
        event = stream.stream_id_of(tournament.pk)
        raise store.ConcurrencyError(event, -1 if expected is None else expected, store.stream_version(event),
                                     what="the event") from clash


def _judged_and_appended(actor, tournament, command, expected: int | None) -> list[NewEvent]:
    with transaction.atomic():
        facts = tournament_facts(tournament)
        if expected is not None and expected != facts.version:
            raise store.ConcurrencyError(stream.stream_id_of(tournament.pk), expected, facts.version)
        if isinstance(command, cmds.Draw) and command.method == "rating":
            command = cmds.with_facts(command, ratings=tuple(
                ratings_provider().ratings(decider.draw_field(facts)).items()))
        try:
            new = decider.decide(facts, command)
        except NotPermitted as refused:
            raise TournamentForbidden(refused.reason or str(refused), **refused.params) from None
        # the facts about the slots' matches that follow are appended with them, and not answered as the command's
        facts_after = _effects(actor, facts, command, new)
        if new or facts_after:
            return _append(tournament, facts.version, new + facts_after, actor)[: len(new)]
    return []


def _effects(actor, facts: stream.Facts, command, decided: list[ev.TournamentEvent]) -> list[ev.TournamentEvent]:
    """What the decided events ask of the slots' matches, and the facts that then follow about those matches
    (recorded at once: the process manager, following the matches, finds them recorded and adds nothing)."""
    out: list[ev.TournamentEvent] = []
    for e in decided:
        if isinstance(e, ev.ResultReported):
            out += _close_slot_match(actor, facts, e, "paper")
        elif isinstance(e, ev.MatchForfeited):
            out += _close_slot_match(actor, facts, e, "forfeit")
        elif isinstance(e, ev.SlotResultCorrected):
            link = facts.matches.get(e.slot)
            if link is not None and set(link["players"]) == {e.winner, e.loser}:
                # the slot's match shows the corrected result too (its viewer, the home page)
                known = store.stream_version(link["match_id"])
                if match_set_result(stream_id=link["match_id"], winner_player=e.winner,
                                    score=(e.winner_points, e.loser_points), reason=e.reason, actor=actor):
                    out += _slot_facts(facts, link["match_id"], known)
        elif isinstance(e, (ev.ChallengeDeclined, ev.ChallengeLapsed)) and e.outcome == "cancelled":
            out += _void_slot_match(facts, f"ladder:c{e.number}", f"challenge {e.event_type[9:].lower()}", actor)
        elif isinstance(e, ev.MatchUnplayed):
            out += _void_slot_match(facts, e.slot, "not played by the round's deadline", actor)
    if isinstance(command, cmds.VoidMatch):
        link = facts.matches[command.slot]
        out += _void_match(facts, link["match_id"], command.reason.strip() or "voided by the director", actor)
    return out


def _close_slot_match(actor, facts: stream.Facts, result, how: str) -> list[ev.TournamentEvent]:
    """A slot decided off the board ends its server match: one slot, one result (nothing more is played in it)."""
    link = facts.matches.get(result.slot)
    if link is None:
        return []
    score = None if how == "forfeit" else (result.winner_points, result.loser_points)
    known = store.stream_version(link["match_id"])
    if not match_close(stream_id=link["match_id"], winner_player=result.winner, score=score, how=how,
                       actor=actor):
        return []
    return _slot_facts(facts, link["match_id"], known)


def _void_slot_match(facts: stream.Facts, slot: str, reason: str, actor) -> list[ev.TournamentEvent]:
    """A slot settled without being played (a cancelled challenge, a league match past its deadline): its
    match, created and never begun, is voided so nobody plays it."""
    link = facts.matches.get(slot)
    return _void_match(facts, link["match_id"], reason, actor) if link else []


def _void_match(facts: stream.Facts, match_id: str, reason: str, actor) -> list[ev.TournamentEvent]:
    record = match_load(match_id)
    if record.voided is not None:
        return []
    match_void(stream_id=match_id, reason=reason, actor=actor)
    return _slot_facts(facts, match_id, record.version)


def _slot_facts(facts: stream.Facts, match_id: str, known: int) -> list[ev.TournamentEvent]:
    """The slot's facts about what was just appended to its match after version ``known``, by the process
    manager's own rule (``process.fact_of``): recorded with the command that caused them, so the event's pages
    show them at once; the follower, reaching those match events later, finds them known and adds nothing."""
    return [fact for e in store.read_stream(match_id, after=known) if (fact := process.fact_of(facts, e))]


# -- the process manager's second half: creating, closing and replacing matches -----------------


def tournament_advance(tournament: Tournament) -> list[str]:
    """Create the matches that became playable; pair a finished Swiss round's successor. Idempotent.

    The matches are created in batches of ``EVENT_MATCHES_PER_TRANSACTION``, each batch in its own transaction
    with its ``MatchCreated`` facts: every append holds the log's advisory lock until its transaction commits,
    and everybody's moves wait behind it. A batch that fails leaves the ones before it, and the next advance
    (or the periodic sweep) carries on from the facts."""
    created: list[str] = []
    limit = max(1, django_settings.EVENT_MATCHES_PER_TRANSACTION)
    while True:
        batch = _advance_batch(tournament, limit)
        created += batch
        if len(batch) < limit:
            return created


def _advance_batch(tournament: Tournament, limit: int) -> list[str]:
    created: list[str] = []
    with transaction.atomic():
        # the event's row, locked: its visibility (which the new matches inherit) holds until this commits
        tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
        facts, view = tournament_view(tournament)
        version = facts.version
        from .proofs import consented  # the proofs' module is built on this one's

        linked = consented(facts, view)  # match files consented to through their match: the slots' matches now
        if linked:
            view = derive.derive(facts)
        new: list[ev.TournamentEvent] = []
        replaced = [(f["slot"], f["match_id"]) for f in view.flagged if not f["started"]]
        repair = decider.swiss_round_to_repair(facts, view)
        if repair:
            replaced += [(s.key, facts.matches[s.key]["match_id"]) for s in view.slots
                         if s.round == repair and s.key in facts.matches]
        for slot, match_id in view.to_close:  # decided without it (a withdrawal): nothing more is played in it
            result = ev.ResultReported(slot.key, slot.result.winner, slot.result.loser, slot.result.winner_points,
                                       slot.result.loser_points)
            new += _close_slot_match(None, facts, result, "forfeit" if slot.result.forfeit else "paper")
        for slot_key, match_id in replaced:  # nobody has rolled yet: a wrong pairing is simply replaced
            new += _void_match(facts, match_id, "pairing changed by a result correction", None)
        if new:  # what the matches now say, folded in before deciding what comes next
            for e in new:
                stream.apply(facts, e, facts.version + 1)
            view = derive.derive(facts)
        if repair:
            new += decider.next_swiss_round(facts, view, repair)
        auto_pair = facts.format == stream.Format.SWISS and facts.config.get("auto_pair", True)
        if not repair and auto_pair and view.slots and len(facts.rounds) < facts.config.get("rounds", 0):
            if all(s.status in SETTLED for s in view.slots):
                new += decider.next_swiss_round(facts, view)
        for e in decider.team_rounds_to_record(facts, view):  # a round's pairing recorded before its boards' matches
            stream.apply(facts, e, facts.version + 1)
            new.append(e)
        ramp = rating_ramp_of(tournament) if view.to_create and not repair else "fibs"
        for slot in [] if repair else view.to_create[:limit]:
            a, b = slot.players
            online = ev.online_rule_for(facts.config, slot.round)
            record = match_create(
                actor=tournament.director, player0=Player.objects.get(pk=a), player1=Player.objects.get(pk=b),
                length=slot.length, tournament_id=tournament.pk, published=tournament.published,
                # online, the dice are the server's whatever the event's setting for its boards
                dice="server" if online else facts.config.get("dice", "server"),
                officiating_director_id=tournament.director_id, rating_ramp=ramp,
                clock=ev.clock_rule_for(facts.config, slot.bracket, slot.round), online_rule=online,
            )
            created.append(record.stream_id)
            new.append(ev.MatchCreated(slot.key, record.stream_id, (a, b), slot.length))
        made = [e for e in new if isinstance(e, ev.MatchCreated)]
        if made:  # each new match gets its table, with it (the players are told where to play)
            for e in made:
                stream.apply(facts, e, facts.version + 1)
            new += decider.tables_for_new_matches(facts, [e.slot for e in made])
        if linked or new:
            _append(tournament, version, linked + new, tournament.director)
    return created


def link_jackpot(event: Tournament, link: ev.JackpotOf, actor) -> None:
    """A jackpot's event, just made, says whose jackpot it is: its first event after its settings."""
    _append(event, 1, [link], actor)


def _append(tournament: Tournament, expected: int, events: list[ev.TournamentEvent], actor) -> list[NewEvent]:
    rows = [NewEvent(e.event_type, e.to_payload(), e.schema_version) for e in events]
    store.append(
        stream_id=stream.stream_id_of(tournament.pk), stream_type=stream.STREAM_TYPE, expected_version=expected,
        events=rows, metadata={"actor": getattr(actor, "pk", None)}, on_commit=wake_projections,
    )
    return rows
