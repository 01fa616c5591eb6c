"""A jackpot's own event: the knockout among its buyers, made when the director starts it.

A jackpot is a fixed-size side event of the night with its own buy-in. The formats library plays one bracket per
event (with its consolation and last chance), so a jackpot's matches are an event of their own rather than a
bracket grafted onto the night's: a single elimination among the buyers, drawn at random, run from its own
console like any event, its matches recorded as any match. The log links the two both ways: the jackpot's event
says whose jackpot it is (``JackpotOf``, right after its settings) and the night says which event plays its
jackpot (``JackpotStarted``); the night's ledger (``tournaments/ledger.py``) pays the jackpot's pool by that
event's finishes, and the ``money_ledger`` projection computes the night's again when either stream moves.

Starting is one transaction: the jackpot's event is made, its buyers entered and checked in, its draw made, and
the night's ``start_jackpot`` judged with that event's id; a refusal leaves no event behind.
"""

from __future__ import annotations

from django.db import transaction

from . import commands as cmds
from . import decider, services
from . import events as ev
from .models import Tournament


def jackpot_start(*, actor, night: Tournament, command: cmds.StartJackpot,
                  expected_version: int | None = None) -> list:
    """Start a full jackpot of ``night``: its own event made and drawn, then ``JackpotStarted`` appended to the
    night. Returns the night's events appended."""
    facts = services.tournament_facts(night)
    # judged first as it will be with its event (a stand-in id): a refused start makes no event
    decider.decide(facts, cmds.with_facts(command, by=services.actor_of(actor, night), event_id=-1))
    jackpot = facts.money.jackpots[command.jackpot.strip()]
    with transaction.atomic():
        name = f"{night.name} · {jackpot.name}"[: Tournament._meta.get_field("name").max_length]
        event = services.tournament_create(actor=actor, name=name, format="single_elimination", club=night.club,
                                           settings={"lengths": {"main": {"default": jackpot.length}}})
        services.link_jackpot(event, ev.JackpotOf(night.pk, jackpot.name), actor)
        if night.starts_on:
            services.tournament_describe(actor=actor, tournament=event, name=name, starts_on=night.starts_on)
        if not night.published:  # a hidden night's jackpot is hidden with it
            services.tournament_publish(actor=actor, tournament=event, published=False)
        for player in jackpot.buyers:
            services.tournament_command(actor=actor, tournament=event, command={"type": "enter", "player": player})
            services.tournament_command(actor=actor, tournament=event, command={"type": "check_in", "player": player})
        services.tournament_command(actor=actor, tournament=event, command={"type": "draw", "method": "random"})
        return services.tournament_command(actor=actor, tournament=night,
                                           command=cmds.with_facts(command, event_id=event.pk),
                                           expected_version=expected_version)
