"""Double elimination: a winners' bracket, a losers' bracket and a grand final.

``derive(entrants, results, config)`` rebuilds everything from the entry list
(seed order, best first) and the recorded results.

Winners' bracket (``winners:rR:mI``)
    Exactly the Main draw of single elimination: standard seed placement,
    byes to the top seeds, R = log2(draw size) rounds.

Losers' bracket (``losers:rR:mI``), 2R-2 rounds
    Round 1 pairs the losers of winners' round-1 slots 2i-1 and 2i. Then it
    alternates: a drop-in round (the survivors meet the losers of the next
    winners' round) and an internal round (the survivors meet each other),
    ending with the drop-in of the winners' final loser. Drop-ins come
    reversed for even winners' rounds and with halves swapped for odd ones,
    so arrivals meet players from the other half of the draw. A bye in the
    winners' round 1 leaves an empty place: byes there too.

Grand final (``grand_final:r1:m1``, and ``grand_final:r2:m1`` with ``reset``)
    The winners' champion (side 0) against the losers' champion (side 1).
    If the losers' champion wins it, both have lost once and the reset is
    played; otherwise the reset slot stays an empty bye. Without ``reset``
    the first grand final decides (the winners' champion may then be out
    after a single loss, by choice of the organiser).

Nobody is eliminated before losing twice: every loss in the winners'
bracket sends the player to the losers' bracket. With two players, the
losers' bracket is empty and the winners' final loser goes straight to the
grand final. Withdrawn players forfeit what they have not played (see
``knockout``); they go through the losers' bracket forfeiting again.
``eliminated["double_elimination"]`` is the order of elimination: losers'
bracket losers by round and slot, then the grand-final loser.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field

from .core import BYE, DONE, Bracket, Lengths, Result, Slot
from .knockout import (
    NOBODY,
    ResetSide,
    Spec,
    WinnerOf,
    check_entrants,
    drop_in,
    field_of,
    key,
    knockout,
    losers_in_order,
    resolve,
    seeded_round,
    with_feeds,
)

WINNERS, LOSERS, GRAND_FINAL, EVENT = "winners", "losers", "grand_final", "double_elimination"


@dataclass(frozen=True)
class Config:
    winners: Lengths = field(default_factory=Lengths)
    losers: Lengths = field(default_factory=Lengths)
    grand_final: Lengths = field(default_factory=Lengths)  # round 2 is the reset
    reset: bool = True
    withdrawn: frozenset[int] = frozenset()


def derive(entrants: Sequence[int], results: Mapping[str, Result], config: Config = Config()) -> Bracket:
    """The three brackets, derived from the entries and the results so far."""
    players = check_entrants(entrants)
    names = (WINNERS, LOSERS, GRAND_FINAL)
    if len(players) < 2:
        lone = players[0] if players else None
        return Bracket((), lone, {n: lone if n != LOSERS else None for n in names},
                       {EVENT: ()}, {n: tuple(players) for n in names}, ignored=tuple(sorted(results)))
    first = seeded_round(players)
    size = 2 * len(first)
    rounds = size.bit_length() - 1
    specs = knockout(WINNERS, first, config.winners)
    wb_final = specs[-1].key
    lb, lb_champion = drop_in(LOSERS, WINNERS, size, rounds, config.losers)
    specs += lb
    gf_rounds = 2 if config.reset else 1
    gf1 = key(GRAND_FINAL, 1, 1)
    specs.append(Spec(gf1, GRAND_FINAL, 1, 1, config.grand_final.of(1, gf_rounds), (WinnerOf(wb_final), lb_champion)))
    if config.reset:
        specs.append(Spec(key(GRAND_FINAL, 2, 1), GRAND_FINAL, 2, 1, config.grand_final.of(2, gf_rounds),
                          (ResetSide(gf1, 0), ResetSide(gf1, 1))))

    done: dict = {}
    slots, ignored = resolve(specs, results, frozenset(config.withdrawn), done)
    slots = with_feeds(slots, specs)
    by = {n: [s for s in slots if s.bracket == n] for n in names}
    gf = by[GRAND_FINAL]
    champion = gf[-1].winner if gf[-1].status == DONE else None
    if champion is None and gf[0].status == DONE and (not config.reset or gf[-1].status == BYE):
        champion = gf[0].winner
    lb_value = lb_champion.value(done)
    champions = {
        WINNERS: done[wb_final].winner,
        LOSERS: None if lb_value is None or lb_value is NOBODY else lb_value,
        GRAND_FINAL: champion,
    }
    eliminated = losers_in_order(by[LOSERS])
    if champion is not None:
        eliminated += tuple(p for p in gf[0].players if p != champion)
    known = {s.key for s in slots}
    return Bracket(
        slots=tuple(slots),
        winner=champion,
        champions=champions,
        eliminated={**{n: losers_in_order(by[n]) for n in names}, EVENT: eliminated},
        fields={n: field_of(by[n]) for n in names},
        ignored=tuple(ignored) + tuple(sorted(k for k in results if k not in known)),
    )


def stage(losers_rounds: int) -> Callable[[Slot], int]:
    """How far a slot stands, as places count it (``places``): losers' round k is stage k (a player is out when
    they lose there, and those out in the same losers' round share a place); a winners' round is the losers'
    round its losers drop into (round 1 into 1, round r into 2r - 2), so a player unbeaten there ranks with the
    players still in at that stage; the grand final comes after them all."""

    def of(slot: Slot) -> int:
        if slot.bracket == LOSERS:
            return slot.round
        if slot.bracket == GRAND_FINAL:
            return losers_rounds + slot.round
        return 1 if slot.round == 1 else 2 * slot.round - 2

    return of
