"""The ``money_ledger`` projection: every event's money (``tournaments/ledger.py``) kept as a read model.

A function of each tournament's own stream, like ``tournament_view``: a money event and a result alike change
the shares, so it reads every type of the stream; an event that records no money has no row and costs one fold.
A night's jackpots are played as events of their own (``tournaments/jackpots.py``): the night's ledger folds each
started jackpot's stream too, and a jackpot's event that moves (``JackpotOf`` names its night) computes its
night's ledger again.
"""

from __future__ import annotations

from django.db import InterfaceError, OperationalError

from eventlog.projections import Projection, StreamFailed

from . import events, folding, ledger, stream
from .models import LedgerShare, TournamentLedger


class MoneyLedgerProjection(Projection):
    name = "money_ledger"
    digested = (TournamentLedger, LedgerShare)
    event_types = tuple(events.EVENTS)

    def apply(self, batch) -> None:
        touched = dict.fromkeys(stream.tournament_pk_of(e.stream_id) for e in batch
                                if e.stream_type == stream.STREAM_TYPE)
        for pk in touched:
            try:
                night = refresh(pk)
                if night is not None:
                    refresh(night)
            except (OperationalError, InterfaceError):
                raise  # the database, not the stream: the run stops and is retried
            except Exception as failure:  # noqa: BLE001 - the runner sets the event's stream aside, not another
                raise StreamFailed(stream.stream_id_of(pk)) from failure

    def reset(self) -> None:
        for model in (TournamentLedger, LedgerShare):
            model.objects.all().delete()


def refresh(pk: int) -> int | None:
    """Rewrite one event's ledger and its players' shares; returns the night whose jackpot it plays, if it does."""
    facts = folding.read_only_facts(pk)  # read, never changed: the snapshot as held, not a copy of it
    LedgerShare.objects.filter(tournament_id=pk).delete()
    if not facts.money.recorded:
        TournamentLedger.objects.filter(tournament_id=pk).delete()
        return facts.money.jackpot_of[0] if facts.money.jackpot_of else None
    facts, view = folding.read_only(pk)  # with the derive the event's other followers share
    jackpots = {j.name: folding.read_only(j.event_id)[1]
                for j in facts.money.jackpots.values() if j.event_id is not None}
    data = ledger.ledger_of(facts, view, jackpots)
    TournamentLedger.objects.update_or_create(tournament_id=pk, defaults={"version": facts.version, "ledger": data})
    LedgerShare.objects.bulk_create(
        LedgerShare(tournament_id=pk, player_id=b["player"], share=b["share"], paid=b["paid"],
                    currency=data["currency"], final=data["final"])
        for b in data["balances"] if "player" in b
    )
    return facts.money.jackpot_of[0] if facts.money.jackpot_of else None
