"""The tournament's process manager: follows the matches of every event, writes what they did into the event.

A checkpointed follower run by the projection runner (``eventlog/projections.py``): each batch of the log is
read once, in order, and its checkpoint moves in the same transaction as what it appends, so a duplicate or
retried run appends nothing twice; a stream it cannot follow is set aside (quarantined) like a projection's.

For every match linked to a slot (the tournament's ``MatchCreated``) it turns the match's events into facts
of the tournament's own stream:

=====================  =====================================
match stream           tournament stream
=====================  =====================================
``GameStarted`` (1st)  ``SlotMatchStarted``
``MatchWon``           ``SlotFinished`` (how: board)
``MatchClosed``        ``SlotFinished`` (how: paper, forfeit)
``ResultCorrected``    ``SlotMatchResultCorrected``
``MatchVoided``        ``SlotMatchVoided``
=====================  =====================================

Each fact carries the match stream's version it came from (``match_version``); a match event at or below the
version the tournament already knows adds nothing. So facts recorded at once by whoever caused them (the
service closing a match decided on paper) are not repeated, the log read again from position 0 appends
nothing, and the first run on a database older than this follower appends the missing facts once (``manage.py
backfill_tournament_facts``). Match events that come before their ``MatchCreated`` in the log (a match is
registered just before its slot records it) are read when the link appears.

When an event may have something to do next (a slot became playable, a round finished, a match file waiting in
a slot consented to: ``ImportConfirmed``) it asks for ``tournament_advance`` once the batch commits.
"""

from __future__ import annotations

from django.db import InterfaceError, OperationalError, transaction

from eventlog import store, upcasting
from eventlog.models import Event
from eventlog.projections import Process, StreamFailed
from eventlog.tasks import wake_projections
from published import language
from published import matches as m

from . import decider, derive, folding, stream
from . import events as ev
from .models import TournamentMatchIndex

MATCH = m.STREAM_TYPE
# what it reads of the matches: their published facts (``published/matches.py``), never the games app's modules
FOLLOWED = (m.GameStarted, m.MatchWon, m.MatchClosed, m.ResultCorrected, m.MatchVoided)
MATCH_EVENTS = language.names(*FOLLOWED)
# a slot's match file waiting for consent (``ProofFiled``): its import's confirmation, however sent, asks the event
# to make it the slot's match (``tournaments/proofs.py``, through ``tournament_advance``)
CONSENTS = language.names(m.ImportConfirmed)


class TournamentProcess(Process):
    name = "tournament_process"
    event_types = tuple(ev.EVENTS) + MATCH_EVENTS + CONSENTS

    def apply(self, batch) -> None:
        run = _Run(self.quarantined)
        run.preload({e.stream_id for e in batch if e.stream_type == MATCH})
        for e in batch:
            if e.stream_type == stream.STREAM_TYPE:
                pk = stream.tournament_pk_of(e.stream_id)
                if e.event_type == "MatchCreated":
                    run.link(pk, e)
                elif e.event_type == "ProofFiled":
                    run.index_proof(pk, e.payload["match_id"])
                run.touch(pk)
            elif e.stream_type == MATCH and e.event_type in MATCH_EVENTS:
                run.follow(e)
            elif e.stream_type == MATCH and e.event_type in CONSENTS:
                run.consented(e.stream_id)
        run.finish()


class _Run:
    """One batch: each tournament's facts folded once; under the log's lock from the first append on, so that
    nobody appends to an event's stream between this run's reading it and appending to it."""

    def __init__(self, quarantined: frozenset[str]):
        self.quarantined = quarantined
        self.facts: dict[int, stream.Facts] = {}
        self.index: dict[str, int | None] = {}
        self.touched: dict[int, None] = {}
        self.consents: set[int] = set()  # events with a match file just consented to: theirs to link
        self.locked = False

    def preload(self, match_ids: set[str]) -> None:
        """Which of the batch's matches belong to an event: one query (most matches of a batch belong to none)."""
        found = dict(TournamentMatchIndex.objects.filter(match_id__in=match_ids).values_list("match_id", "tournament_id"))
        self.index.update({m: found.get(m) for m in match_ids})

    def lock(self) -> None:
        """Take the log's append lock, held to the batch's commit: the streams folded from here on stay the latest
        (what was folded before it may not be: folded again)."""
        if not self.locked:
            store.lock_log()
            self.locked = True
            self.facts.clear()

    def state(self, pk: int) -> stream.Facts:
        """The event's facts: read only until the lock is taken (most match events add nothing), then this run's
        own copy, which its appends are folded into."""
        if pk not in self.facts:
            try:
                # the snapshot and the rows after it, not the whole stream
                self.facts[pk] = folding.facts_of(pk) if self.locked else folding.read_only_facts(pk)
            except (OperationalError, InterfaceError):
                raise
            except Exception as failure:  # noqa: BLE001 - the tournament's stream is the one to set aside
                raise StreamFailed(stream.stream_id_of(pk)) from failure
        return self.facts[pk]

    def derived(self, pk: int) -> tuple[stream.Facts, derive.View]:
        """The event as its stream stands (this run's appends included) and its view, both read only: the derive
        this process shares with the event's projections (``folding.read_only``)."""
        try:
            return folding.read_only(pk)
        except (OperationalError, InterfaceError):
            raise
        except Exception as failure:  # noqa: BLE001 - the tournament's stream is the one to set aside
            raise StreamFailed(stream.stream_id_of(pk)) from failure

    def touch(self, pk: int) -> None:
        self.touched[pk] = None

    def link(self, pk: int, created) -> None:
        match_id = created.payload["match_id"]
        TournamentMatchIndex.objects.update_or_create(match_id=match_id, defaults={"tournament_id": pk})
        self.index[match_id] = pk
        # the match's events the log holds before this link: its registration's own, or older ones
        rows = (Event.objects.filter(stream_id=match_id, global_position__lt=created.global_position,
                                     event_type__in=upcasting.stored_types(MATCH_EVENTS)).order_by("version"))
        for row in rows:
            self.follow(upcasting.read(row))

    def index_proof(self, pk: int, match_id: str) -> None:
        """A match file waiting in one of the event's slots: its consent is the event's to hear of."""
        TournamentMatchIndex.objects.update_or_create(match_id=match_id, defaults={"tournament_id": pk})
        self.index[match_id] = pk

    def consented(self, match_id: str) -> None:
        pk = self.tournament_of(match_id)
        if pk is None or stream.stream_id_of(pk) in self.quarantined:
            return
        if any(p["match_id"] == match_id for p in self.state(pk).proofs.values()):
            self.consents.add(pk)
            self.touch(pk)

    def tournament_of(self, match_id: str) -> int | None:
        if match_id not in self.index:
            self.index[match_id] = (TournamentMatchIndex.objects.filter(match_id=match_id)
                                    .values_list("tournament_id", flat=True).first())
        return self.index[match_id]

    def follow(self, e) -> None:
        pk = self.tournament_of(e.stream_id)
        if pk is None or stream.stream_id_of(pk) in self.quarantined:
            return
        if fact_of(self.state(pk), e) is None:
            return  # most match events: nothing new for the event, and no lock taken
        self.lock()
        facts = self.state(pk)
        fact = fact_of(facts, e)
        if fact is None:
            return
        store.append(stream_id=stream.stream_id_of(pk), stream_type=stream.STREAM_TYPE, expected_version=facts.version,
                     events=[store.NewEvent(fact.event_type, fact.to_payload(), fact.schema_version)],
                     metadata={"actor": None, "process": TournamentProcess.name, "caused_by": e.global_position},
                     on_commit=wake_projections)
        stream.apply(facts, fact, facts.version + 1)
        self.touch(pk)

    def finish(self) -> None:
        from .tasks import request_advance

        for pk in self.touched:
            if stream.stream_id_of(pk) in self.quarantined:
                continue
            facts, view = self.derived(pk)
            if facts.drawn and (pk in self.consents or decider.needs_advance(facts, view)):
                transaction.on_commit(lambda pk=pk: request_advance(pk))


def fact_of(facts: stream.Facts, e) -> ev.TournamentEvent | None:
    """The tournament's fact for one event of a slot's match; None when there is none or it is known already."""
    outcome = facts.outcomes.get(e.stream_id)
    slot = facts.slot_of(e.stream_id) or next(
        (s for s, old in facts.superseded.items() if e.stream_id in old), None)
    if outcome is None or slot is None or e.version <= outcome.version:
        return None
    fact, players = language.read(e), outcome.players
    if isinstance(fact, m.GameStarted):
        return None if outcome.started else ev.SlotMatchStarted(slot, e.stream_id, e.version)
    if isinstance(fact, (m.MatchWon, m.MatchClosed)):
        seat, score = fact.winner, fact.score or (0, 0)
        how = fact.how if isinstance(fact, m.MatchClosed) else "board"
        return ev.SlotFinished(slot, e.stream_id, e.version, players[seat], players[1 - seat], score[seat],
                               score[1 - seat], how)
    if isinstance(fact, m.ResultCorrected):
        seat, score = fact.winner, fact.score or (0, 0)
        if seat is None:
            return ev.SlotMatchResultCorrected(slot, e.stream_id, e.version, None, None, 0, 0, fact.reason)
        return ev.SlotMatchResultCorrected(slot, e.stream_id, e.version, players[seat], players[1 - seat],
                                           score[seat], score[1 - seat], fact.reason)
    if isinstance(fact, m.MatchVoided):
        return ev.SlotMatchVoided(slot, e.stream_id, e.version, fact.reason)
    return None


def backfill() -> int:
    """Append the match facts an event's stream is missing (a database older than the process manager): runs the
    follower to the end of the log; at once idempotent. Returns how many events it read."""
    from eventlog import projections

    return projections.run(TournamentProcess.name)
