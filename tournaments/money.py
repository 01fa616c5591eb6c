"""The money of an event: fees, the house's cut, pools, payouts by place and flight, side pools, jackpots and
the Calcutta (pure Python, no Django: the ``pure-money`` contract).

Crawford records the money and computes every share; it never takes a payment. Every amount is a whole number
of the currency's minor unit (cents): money is never a float here. Exact shares are ``Fraction``s, and only the
final shares are rounded, each down to the currency unit (``unit``: 100 pays whole euros, 1 pays cents); what the
rounding leaves goes to one stated place (``remainder_to``), so the shares always add up to what the table pays.

**The house.** The house keeps the registration fees and its cut of each pool: a fixed amount or a percentage of
the pool's fees rounded to the nearest ``unit`` (half up), whichever is greater (:class:`Cut`: "10, or 5 %
rounded to the nearest 5"). What is left is the pool: the fees times the return percentage (100 minus the
house's percentage, when the percentage is the greater).

**Payout tables.** A table (:class:`Table`) has columns keyed by the smallest field they apply to; an event of F
players reads the column with the largest ``min_field`` <= F. A column lists its prizes as (flight, place,
weight): the flight that produced the place ("main", "consolation", "last_chance"; "" for an event with one
table) and a weight; a prize is the pool times its weight over the column's total weight. The presets
(:data:`PRESETS`, each a function of the field size):

- ``main_consolation`` 40/25/25/10: Main winner, Main finalist, Consolation winner, Consolation finalist;
- ``flights`` 60/30/10: the winners of Main, Consolation and Last Chance;
- ``halving``: each paid place half the one above (weights 2^(n-1) ... 2, 1), one paid place per four players
  (rounded up);
- ``wide``: 50 % to the winner, 25 % to the finalist, the last 25 % declining over the rest of the field (places
  3 to F weighted F-2, F-3, ... 1);
- ``winner_takes_all``, ``70_30`` and ``40_30_20_10`` (the Calcutta's usual tables; the last pays the two
  semi-finalists, who share 3rd, 20 + 10 between them).

**Shared places.** Players who share a place (two 3=, four 5=) cover the places from theirs on and share their
prizes equally (the usual rule of tied places: no seed decides them); when exactly two share a place and met in
the event, the one who won their match takes the higher place's prize and the other the lower's.

**Side pools and jackpots.** A side pool pays only among those who entered it: its field is its entrants, and
each keeps their place among them (the best entrant of a flight is its winner for the side pool). A jackpot is a
fixed-size side event with its own buy-in: a pool of its own (``size`` x ``buy_in`` less the house's cut) paid by
its own finishes (in Crawford, those of its own knockout among its buyers: ``tournaments/jackpots.py``).

**The Calcutta.** Lots (one player, a pair, or the field: everyone not in another lot) are auctioned before the
event; the pool is the sum of the prices, less the house's percentage, and pays the owners of the finishers by a
table (70/30, 40/30/20/10): a lot receives the prizes of its players. A player of a bought lot (not the field
lot) may buy back half by paying the owner half the price; the lot's return is then shared 50/50 between the
owner and its players. A syndicate buys through one bidder, one of its members, who is the owner this module pays
(how the members share it is theirs to settle).

**Corrections.** A payout is computed from the finishes; paying out is recorded apart (the event's stream). After
a correction the new shares are compared with what was paid (:func:`reconcile`): a share already paid that
changed is shown as owed or overpaid, never changed in silence.
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Callable, Hashable, Iterable, Mapping
from dataclasses import dataclass, field
from fractions import Fraction

MAIN, CONSOLATION, LAST_CHANCE, SINGLE = "main", "consolation", "last_chance", ""
FLIGHTS = (MAIN, CONSOLATION, LAST_CHANCE, SINGLE)
HOUSE = "house"  # the payee of the house's cut and the registration fees in a ledger


def round_to(amount: Fraction | int, unit: int) -> int:
    """``amount`` to the nearest multiple of ``unit``, a half up (5 % of 250 is 12.5: to the nearest 5, 15)."""
    return math.floor(Fraction(amount) / unit + Fraction(1, 2)) * unit


@dataclass(frozen=True)
class Cut:
    """The house's cut of a pool: ``fixed``, or ``percent`` of the pool's fees rounded to the nearest ``unit``,
    whichever is greater, never more than the fees."""

    fixed: int = 0
    percent: int = 0
    unit: int = 1

    def of(self, fees: int) -> int:
        return min(fees, max(self.fixed, round_to(Fraction(fees * self.percent, 100), self.unit)))


@dataclass(frozen=True)
class Pool:
    """A pool's fees, the house's cut and what it pays out (``fees - cut``)."""

    fees: int
    cut: int

    @property
    def prize_money(self) -> int:
        return self.fees - self.cut


def pool_of(fees: int, cut: Cut) -> Pool:
    return Pool(fees, cut.of(fees))


@dataclass(frozen=True)
class Fees:
    """An event's fees per player, in minor units: ``entry`` (into the main pool), ``reentry`` (a buy-back into
    the event, into the main pool too), ``side`` (the side pool's, for those who enter it) and ``registration``
    (kept by the house whole)."""

    entry: int = 0
    reentry: int = 0
    side: int = 0
    registration: int = 0


@dataclass(frozen=True)
class Night:
    """The pools of an event: its main pool, its side pool, and what the house keeps in all."""

    main: Pool
    side: Pool
    registration: int

    @property
    def house(self) -> int:
        return self.main.cut + self.side.cut + self.registration


def night_of(fees: Fees, *, entries: int, reentries: int = 0, side_entries: int = 0, cut: Cut = Cut(),
             side_cut: Cut | None = None) -> Night:
    """The pools of an event with ``entries`` players, ``reentries`` buy-backs and ``side_entries`` in the side
    pool; the side pool's cut is the main pool's unless said."""
    main = pool_of(entries * fees.entry + reentries * fees.reentry, cut)
    side = pool_of(side_entries * fees.side, cut if side_cut is None else side_cut)
    return Night(main, side, entries * fees.registration)


# -- payout tables -------------------------------------------------------------------------


@dataclass(frozen=True)
class Prize:
    flight: str
    place: int
    weight: int


@dataclass(frozen=True)
class Column:
    min_field: int
    prizes: tuple[Prize, ...]

    @property
    def total(self) -> int:
        return sum(p.weight for p in self.prizes)

    def weight(self, flight: str, place: int) -> int:
        return sum(p.weight for p in self.prizes if p.flight == flight and p.place == place)


@dataclass(frozen=True)
class Table:
    columns: tuple[Column, ...]

    def column(self, field_size: int) -> Column | None:
        """The column with the largest ``min_field`` <= ``field_size`` (None: the field is too small for all)."""
        fitting = [c for c in self.columns if c.min_field <= field_size]
        return max(fitting, key=lambda c: c.min_field) if fitting else None

    def to_json(self) -> list:
        return [{"min_field": c.min_field, "prizes": [[p.flight, p.place, p.weight] for p in c.prizes]}
                for c in self.columns]

    @classmethod
    def from_json(cls, data: list) -> Table:
        return cls(tuple(Column(c["min_field"], tuple(Prize(f, pl, w) for f, pl, w in c["prizes"])) for c in data))


def _one(min_field: int, *prizes: tuple[str, int, int]) -> Table:
    return Table((Column(min_field, tuple(Prize(*p) for p in prizes)),))


def main_consolation(field_size: int) -> Table:
    return _one(2, (MAIN, 1, 40), (MAIN, 2, 25), (CONSOLATION, 1, 25), (CONSOLATION, 2, 10))


def flights(field_size: int) -> Table:
    return _one(2, (MAIN, 1, 60), (CONSOLATION, 1, 30), (LAST_CHANCE, 1, 10))


def halving_places(field_size: int) -> int:
    """One paid place per four players, rounded up: 8 pay 2, 13 and 16 pay 4, 32 pay 8."""
    return max(1, math.ceil(field_size / 4))


def halving(field_size: int, flight: str = MAIN) -> Table:
    n = halving_places(field_size)
    return _one(1, *((flight, k, 2 ** (n - k)) for k in range(1, n + 1)))


def wide(field_size: int, flight: str = MAIN) -> Table:
    """50 % and 25 % to the first two; the last 25 % over places 3 to F, weighted F-2 down to 1. The weights are
    scaled to whole numbers: with S = 1 + 2 + ... + (F-2), the first place weighs 2S, the second S, place k
    (F-2) - (k-3) = F+1-k, over a total of 4S."""
    rest = field_size - 2
    s = rest * (rest + 1) // 2
    if rest <= 0:
        return _one(1, (flight, 1, 2), (flight, 2, 1))
    return _one(1, (flight, 1, 2 * s), (flight, 2, s), *((flight, k, field_size + 1 - k) for k in range(3, field_size + 1)))


def winner_takes_all(field_size: int, flight: str = MAIN) -> Table:
    return _one(1, (flight, 1, 1))


def seventy_thirty(field_size: int) -> Table:
    return _one(1, (MAIN, 1, 70), (MAIN, 2, 30))


def forty_thirty_twenty_ten(field_size: int) -> Table:
    """Winner 40, finalist 30, the two semi-finalists (3=) share 20 + 10."""
    return _one(1, (MAIN, 1, 40), (MAIN, 2, 30), (MAIN, 3, 20), (MAIN, 4, 10))


PRESETS: dict[str, Callable[[int], Table]] = {
    "main_consolation": main_consolation, "flights": flights, "halving": halving, "wide": wide,
    "winner_takes_all": winner_takes_all, "70_30": seventy_thirty, "40_30_20_10": forty_thirty_twenty_ten,
}


# -- finishes and payouts ------------------------------------------------------------------

Payee = Hashable  # a player's id; an owner's name in a Calcutta


@dataclass(frozen=True)
class Finish:
    """A player's place in a flight; players with the same (flight, place) share it (3= covers 3rd and 4th)."""

    player: Payee
    flight: str
    place: int


@dataclass(frozen=True)
class Payout:
    """What a pool pays: each payee's share (only those with one), and what no finisher took (a prize of a place
    or a flight nobody reached), which the director sees rather than it vanishing into a share."""

    shares: dict
    unawarded: int = 0

    @property
    def paid(self) -> int:
        return sum(self.shares.values())


def payout(prize_money: int, table: Table, finishes: Iterable[Finish], *, unit: int = 1,
           remainder_to: tuple[str, int] = (MAIN, 1), met: Mapping[frozenset, Payee] | None = None,
           field_size: int | None = None) -> Payout:
    """Each finisher's share of ``prize_money`` by ``table``'s column for the field (``field_size``, else the
    players among ``finishes``).

    Each share is rounded down to ``unit``; the rounding's remainder goes to the player at ``remainder_to`` (the
    one of lowest order among ``finishes`` when the place is shared), else to the first prize of the column
    that has a player. ``met``: the winner of each pair of players who met, keyed by the pair (a frozenset), for
    the head-to-head split of a place two share."""
    finishes = list(finishes)
    size = field_size if field_size is not None else len({f.player for f in finishes})
    column = table.column(size)
    if column is None or column.total == 0 or prize_money == 0:
        return Payout({}, prize_money if column is None or column.total == 0 else 0)
    met = met or {}
    groups: dict[tuple[str, int], list[Payee]] = defaultdict(list)
    for f in finishes:
        groups[(f.flight, f.place)].append(f.player)
    exact: dict[Payee, Fraction] = defaultdict(Fraction)
    awarded = Fraction(0)
    for (flight, place), players in groups.items():
        weights = [column.weight(flight, place + k) for k in range(len(players))]
        if not any(weights):
            continue
        amounts = [Fraction(prize_money * w, column.total) for w in weights]
        awarded += sum(amounts)
        winner = met.get(frozenset(players)) if len(players) == 2 else None
        if winner in players:
            loser = players[1] if winner == players[0] else players[0]
            exact[winner] += amounts[0]
            exact[loser] += amounts[1]
        else:
            for p in players:
                exact[p] += sum(amounts) / len(players)
    shares: dict = defaultdict(int, {p: math.floor(a / unit) * unit for p, a in exact.items()})
    # whole when every prize has a holder; a prize nobody reached leaves its part to the director, in whole units
    given = math.floor(awarded)
    remainder = given - sum(shares.values())
    if remainder:
        shares[_remainder_payee(column, groups, remainder_to)] += remainder
    return Payout({p: s for p, s in shares.items() if s}, prize_money - given)


def _remainder_payee(column: Column, groups: Mapping[tuple[str, int], list], remainder_to: tuple[str, int]):
    if groups.get(remainder_to):
        return groups[remainder_to][0]
    for prize in column.prizes:
        # a place shared from above covers this prize: its holders are under the place they share
        holders = [ps for (f, pl), ps in groups.items() if f == prize.flight and pl <= prize.place < pl + len(ps)]
        if holders:
            return holders[0][0]
    raise AssertionError("an awarded prize has a holder")


def among(finishes: Iterable[Finish], entrants: Iterable[Payee]) -> list[Finish]:
    """The finishes of the ``entrants`` alone, each placed among them: in each flight, one plus the number of
    entrants who finished strictly ahead (entrants who shared a place still share it)."""
    entered = set(entrants)
    kept = [f for f in finishes if f.player in entered]
    return [Finish(f.player, f.flight, 1 + sum(1 for g in kept if g.flight == f.flight and g.place < f.place))
            for f in kept]


def side_pool_payout(prize_money: int, table: Table, finishes: Iterable[Finish], entrants: Iterable[Payee],
                     **how) -> Payout:
    """A side pool pays only among those who entered it: its field is its entrants, placed among themselves."""
    entered = set(entrants)
    return payout(prize_money, table, among(finishes, entered), field_size=len(entered), **how)


@dataclass(frozen=True)
class Jackpot:
    """A fixed-size side event with its own buy-in: full at ``size`` players, its pool ``size`` x ``buy_in``
    less the house's cut, paid by its own table to its own finishes."""

    size: int
    buy_in: int
    cut: Cut = Cut()

    @property
    def pool(self) -> Pool:
        return pool_of(self.size * self.buy_in, self.cut)

    def collected(self, buyers: int) -> Pool:
        """The pool while it fills: the buy-ins of ``buyers`` so far (at most ``size``), less the house's cut."""
        return pool_of(min(buyers, self.size) * self.buy_in, self.cut)


# -- the Calcutta --------------------------------------------------------------------------


@dataclass(frozen=True)
class Lot:
    """A lot of the auction: one player, a pair, or the field (``field``: everyone in no other lot)."""

    name: str
    players: tuple = ()
    field: bool = False


@dataclass(frozen=True)
class Sale:
    """A lot sold: to ``owner`` (the bidder; a syndicate's one bidder) for ``price``; ``bought_back``: its players
    bought back half, paying the owner half the price."""

    lot: str
    owner: Payee
    price: int
    bought_back: bool = False


@dataclass(frozen=True)
class Calcutta:
    lots: tuple[Lot, ...]
    sales: tuple[Sale, ...]
    cut: Cut = Cut()

    @property
    def pool(self) -> Pool:
        return pool_of(sum(s.price for s in self.sales), self.cut)

    def lot_of(self, field_players: Iterable[Payee]) -> dict:
        """Each player's lot: their own or their pair's, else the field lot (if there is one)."""
        named = {p: lot.name for lot in self.lots if not lot.field for p in lot.players}
        field_lot = next((lot.name for lot in self.lots if lot.field), None)
        return {p: named.get(p, field_lot) for p in field_players}

    def buy_backs(self) -> dict:
        """What each player of a bought-back lot pays its owner: half the price, split among the lot's players
        (the first of them takes what does not split)."""
        out: dict = defaultdict(int)
        lots = {lot.name: lot for lot in self.lots}
        for sale in self.sales:
            if sale.bought_back:
                players = lots[sale.lot].players
                half = sale.price // 2
                for i, p in enumerate(players):
                    out[p] += half // len(players) + (half % len(players) if i == 0 else 0)
        return dict(out)


def may_buy_back(lot: Lot) -> bool:
    """The field's players cannot buy back: nobody in it was bought for themselves."""
    return not lot.field and bool(lot.players)


def calcutta_payout(calcutta: Calcutta, table: Table, finishes: Iterable[Finish], *, unit: int = 1,
                    **how) -> Payout:
    """The pool, less the house's cut, paid to the owners of the finishers' lots by ``table``: each player's
    prize (as a pool of players would pay it) goes to their lot; a bought-back lot's return is split 50/50 (the
    owner takes the odd minor unit), its half split among the lot's players (the first takes what does not
    split). A lot unsold pays nobody: its prizes are unawarded."""
    finishes = list(finishes)
    players = {f.player for f in finishes}
    by_player = payout(calcutta.pool.prize_money, table, finishes, unit=unit, **how)
    lot_of = calcutta.lot_of(players)
    sales = {s.lot: s for s in calcutta.sales}
    lots = {lot.name: lot for lot in calcutta.lots}
    returns: dict = defaultdict(int)
    for player, amount in by_player.shares.items():
        returns[lot_of.get(player)] += amount
    shares: dict = defaultdict(int)
    unawarded = by_player.unawarded
    for lot_name, amount in returns.items():
        sale = sales.get(lot_name)
        if sale is None:
            unawarded += amount
            continue
        if not sale.bought_back:
            shares[sale.owner] += amount
            continue
        theirs = amount // 2
        shares[sale.owner] += amount - theirs
        lot_players = lots[lot_name].players
        for i, p in enumerate(lot_players):
            shares[p] += theirs // len(lot_players) + (theirs % len(lot_players) if i == 0 else 0)
    return Payout({p: s for p, s in shares.items() if s}, unawarded)


# -- corrections ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Balance:
    """A payee's share now, what they were paid, and the difference: ``owed`` to them or ``overpaid``."""

    payee: Payee
    share: int
    paid: int

    @property
    def owed(self) -> int:
        return max(0, self.share - self.paid)

    @property
    def overpaid(self) -> int:
        return max(0, self.paid - self.share)


def reconcile(shares: Mapping, paid: Mapping) -> list[Balance]:
    """Every payee with a share or a payment: a correction after a payout changes the shares, never what was
    paid, so the difference is shown (``owed`` / ``overpaid``). Ordered by the payee's share, largest first,
    then as given."""
    payees = list(dict.fromkeys([*shares, *paid]))
    balances = [Balance(p, shares.get(p, 0), paid.get(p, 0)) for p in payees]
    return sorted(balances, key=lambda b: -b.share)


@dataclass(frozen=True)
class Ledger:
    """An event's money at once: each pool's payout and every payee's balance against what was paid."""

    payouts: dict = field(default_factory=dict)  # pool's name -> Payout
    paid: dict = field(default_factory=dict)  # payee -> paid so far

    @property
    def shares(self) -> dict:
        total: dict = defaultdict(int)
        for p in self.payouts.values():
            for payee, amount in p.shares.items():
                total[payee] += amount
        return dict(total)

    def balances(self) -> list[Balance]:
        return reconcile(self.shares, self.paid)
