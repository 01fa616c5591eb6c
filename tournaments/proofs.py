"""A slot's match played on another server (Galaxy, Heroes, gnubg…), reported with its ``.mat`` file as proof.

Only for a slot of a round played online, still to be decided, whose match has not begun here. The file is imported
as any import is (``games.mat_io.match_import_mat``: every action judged by the engine, the same record never
twice, counted against the sender's import budget) after the slot's own checks: its players, its length, a match
played through from 0-0 to its end. A player's file waits for the other player's consent (``ProofFiled``; the
consent is the import's own ``confirm_import``); the event's director vouches for it by sending it or by
consenting. Then the imported match becomes the slot's match (``MatchCreated``), the match the event had created
for it, never begun, is voided, and the slot's facts about the imported match (``process.fact_of``, the process
manager's own rule) are appended with it: its result reaches the event as a match played here does (advancement,
standings, ratings). A refusal changes nothing: the import and the event's facts are one transaction.
"""

from __future__ import annotations

import copy
import re

from django.db import transaction

from eventlog import store
from games import imports
from games.command_handler import match_command
from games.commands import ConfirmImport
from games.director import match_void
from games.engine.match import OVER
from games.engine.matfile import MatRecord, read_mat
from games.loading import match_load
from games.errors import BadCommand
from games.errors import Reason as GamesReason
from games.mat_io import MAX_MAT_BYTES, check_import_games, decode_mat_upload, match_import_mat
from games.streams import MatchRecord
from players import authority
from players.models import Player
from tournaments.formats.core import READY

from . import decider, events as ev, process, stream
from .commands import MAX_REASON
from .models import Tournament
from .refusals import BadProof, Reason, ReasonRequired, Refused, SlotNotReady, UnknownSlot
from .selectors import tournament_view
from .services import TournamentForbidden, _append, _void_match, rating_ramp_of

REPLACED = "played on another server: its match file is the slot's match"


def proof_file(*, actor, tournament: Tournament, slot: str, text: str) -> MatchRecord:
    """Import the file of the slot's match played elsewhere. From one of the slot's players it waits for the other's
    consent; from the event's director (or an official) it is the slot's match at once. Returns the imported match."""
    facts, view = tournament_view(tournament)
    target = _open_slot(facts, view, slot)
    filer = authority.player_id_of(actor) if getattr(actor, "is_authenticated", False) else None
    director = authority.runs_event(actor, tournament.director_id)
    if not director and filer not in target.players:
        raise TournamentForbidden(Reason.PROOF_WHO_FILES)
    check_import_games(text)  # a file of thousands of games is refused before it is read
    read = read_mat(text)
    seats = _seated(read, target)
    imports.charge(user=actor, games=read.games)
    with transaction.atomic():  # the import and the event's facts stand or fall together
        record = match_import_mat(
            actor=actor, text=text, player0=seats[0], player1=seats[1], tournament_id=tournament.pk,
            officiating_director_id=tournament.director_id, rating_ramp=rating_ramp_of(tournament),
            published=tournament.published, read=read, played_elsewhere=True)
        if record.awaiting_confirmation:
            _append(tournament, facts.version, [ev.ProofFiled(target.key, record.stream_id, filer)], actor)
        else:
            _link(actor, tournament, facts, target, record.stream_id)
    return record


def proof_consent(*, actor, tournament: Tournament, slot: str) -> MatchRecord:
    """The other player's consent (or the director's) to the file waiting in the slot: the import is confirmed and
    becomes the slot's match. Returns the match."""
    facts, view = tournament_view(tournament)
    waiting = facts.proofs.get(slot)
    if waiting is None:
        raise BadProof(Reason.PROOF_NONE, slot=slot)
    target = _open_slot(facts, view, slot)
    director = authority.runs_event(actor, tournament.director_id)
    me = authority.player_id_of(actor) if getattr(actor, "is_authenticated", False) else None
    if not director and (me not in target.players or me == waiting["player"]):
        raise TournamentForbidden(Reason.PROOF_OTHER_CONSENTS)
    record = match_load(waiting["match_id"])
    with transaction.atomic():
        if record.awaiting_confirmation:
            record, _ = match_command(actor=actor, stream_id=record.stream_id, command=ConfirmImport(),
                                      expected_version=record.version)
        _link(actor, tournament, facts, target, record.stream_id)
    return record


DECLINED = "its match file declined in the event"


def proof_decline(*, actor, tournament: Tournament, slot: str, reason: str) -> ev.ProofDeclined:
    """The other player (or the director) refuses the file waiting in the slot, saying why: it no longer waits and
    its import is voided, so neither a consent here nor a confirmation through the match's API makes it count. The
    slot is played, reported or decided as any other; a new file may be sent."""
    facts, view = tournament_view(tournament)
    waiting = facts.proofs.get(slot)
    if waiting is None:
        raise BadProof(Reason.PROOF_NONE, slot=slot)
    director = authority.runs_event(actor, tournament.director_id)
    me = authority.player_id_of(actor) if getattr(actor, "is_authenticated", False) else None
    target = next((s for s in view.slots if s.key == slot), None)
    if not director and (target is None or me not in target.players or me == waiting["player"]):
        raise TournamentForbidden(Reason.PROOF_OTHER_DECLINES)
    reason = (reason or "").strip()
    if not reason:
        raise ReasonRequired(Reason.PROOF_DECLINE_REASON)
    if len(reason) > MAX_REASON:
        raise BadCommand(Reason.FIELD_TOO_LONG, field="reason", most=MAX_REASON)
    declined = ev.ProofDeclined(slot, waiting["match_id"], reason, None if director else me)
    with transaction.atomic():
        _append(tournament, facts.version, [declined], actor)
        match_void(stream_id=waiting["match_id"], reason=DECLINED, actor=actor)
    return declined


def uploaded_text(upload) -> str:
    """A page's uploaded match file as text (refused as the API refuses it: missing, too large, binary)."""
    if upload is None:
        raise BadCommand(GamesReason.MAT_FILE_FIELD)
    return decode_mat_upload(upload.read(MAX_MAT_BYTES + 1))


def waiting(facts: stream.Facts, slot: str) -> dict | None:
    """The file waiting for consent in the slot, as the pages show it: its match, who sent it (player id, name)."""
    proof = facts.proofs.get(slot)
    if proof is None:
        return None
    name = Player.objects.filter(pk=proof["player"]).values_list("display_name", flat=True).first() or ""
    return {**proof, "name": name}


def _open_slot(facts: stream.Facts, view, key: str):
    """The slot a file may report: of a round played online, both players known, undecided, its match (if the
    event created one) not begun here."""
    target = next((s for s in view.slots if s.key == key), None)
    if target is None:
        raise UnknownSlot(Reason.UNKNOWN_SLOT, slot=repr(key))
    if ev.online_rule_for(facts.config, target.round) is None:
        raise BadProof(Reason.PROOF_NOT_ONLINE, slot=key)
    if target.status != READY:
        raise SlotNotReady(decider.NOT_BEING_PLAYED[target.status], slot=key)
    link = facts.matches.get(key)
    if link is not None:
        here = match_load(link["match_id"])
        if here.voided is None and (here.state.game > 0 or here.finished):
            raise BadProof(Reason.PROOF_PLAYED_HERE, slot=key)
    return target


def _seated(read: MatRecord, slot) -> tuple[Player, Player]:
    """The slot's players in the file's seats, each known by their name here or their account's; the file checked
    against the slot: its length, and a whole match (from 0-0, to its end)."""
    if read.length != slot.length:
        raise BadProof(Reason.PROOF_LENGTH, length=read.length, slot=slot.key, slot_length=slot.length)
    start = read.events[0]
    if tuple(start.initial_score) != (0, 0):
        raise BadProof(Reason.PROOF_FROM_START, score="-".join(map(str, start.initial_score)))
    if read.state.phase != OVER:
        raise BadProof(Reason.PROOF_UNFINISHED)
    players = list(Player.objects.select_related("user").filter(pk__in=[p for p in slot.players if p is not None]))
    names = {p.pk: {_plain(p.display_name)} | ({_plain(p.user.username)} if p.user else set()) for p in players}
    seats = []
    for name in read.players:
        found = next((p for p in players if _plain(name) in names[p.pk] and p not in seats), None)
        if found is None:
            raise BadProof(Reason.PROOF_PLAYERS, names=" / ".join(read.players), slot=slot.key,
                           players=" / ".join(p.display_name for p in players))
        seats.append(found)
    return seats[0], seats[1]


def _plain(name: str) -> str:
    return re.sub(r"\s+", " ", name).strip().casefold()


def _link(actor, tournament: Tournament, facts: stream.Facts, slot, match_id: str) -> None:
    """The imported match made the slot's, appended at the version the checks were made on (a command in between:
    409, and the transaction, the import with it, rolled back)."""
    version = facts.version
    _append(tournament, version, linked(actor, copy.deepcopy(facts), slot, match_id), actor)


def linked(actor, facts: stream.Facts, slot, match_id: str) -> list[ev.TournamentEvent]:
    """The events that make the imported match the slot's: the event's unplayed match voided, the link, and the
    slot's facts about the imported match by the process manager's own rule; each applied to ``facts`` as decided."""
    new: list[ev.TournamentEvent] = []
    link = facts.matches.get(slot.key)
    if link is not None:
        new += _void_match(facts, link["match_id"], REPLACED, actor)
    record = match_load(match_id)
    new.append(ev.MatchCreated(slot.key, match_id, tuple(record.player_ids), slot.length))
    for e in new:
        stream.apply(facts, e, facts.version + 1)
    for e in store.read_stream(match_id):
        fact = process.fact_of(facts, e)
        if fact is not None:
            stream.apply(facts, fact, facts.version + 1)
            new.append(fact)
    return new


def consented(facts: stream.Facts, view) -> list[ev.TournamentEvent]:
    """The match files waiting in the event's slots whose import was confirmed since by the match's own command
    (``confirm_import``, through the match's API): each made the slot's match as a consent here makes it, the events
    applied to ``facts``. A file whose slot no longer takes one (decided, begun here) is left as it is."""
    out: list[ev.TournamentEvent] = []
    for key, proof in list(facts.proofs.items()):
        record = match_load(proof["match_id"])
        if record.awaiting_confirmation or record.voided is not None:
            continue
        try:
            target = _open_slot(facts, view, key)
        except Refused:
            continue
        out += linked(None, facts, target, proof["match_id"])
    return out
