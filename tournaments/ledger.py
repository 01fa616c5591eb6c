"""An event's ledger: its money (``tournaments.money``) computed from its stream alone (pure Python, no Django).

The money recorded in the stream (``tournaments.stream.MoneyFacts``: the director's settings, the side pool's
entrants, the Calcutta's lots and sales, the payouts made) and the event's results (the standings derived from
the same facts) give every pool, every share and every balance. Like the standings it is a function of the log:
a corrected result re-derives every share, and a share already paid that changed shows as owed or overpaid.

A flight's prizes are paid once it has its champion (the event's winner for an event of one table); until then
its places are not final and its shares are not shown. The Calcutta is paid by the Main (or the only) table; the
house takes its percentage of the Calcutta (rounded as its cut of the pools), never the pools' fixed amount.

A jackpot's pool is its buy-ins less the house's cut (its own fixed amount or percentage), paid by its own table to
the finishes of its own event (``tournaments/jackpots.py``), given here as that event's derived view; its shares
are the night's like any pool's, so its buyers' balances and winnings count them.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping

from . import money
from .derive import View
from .stream import Facts

PAID_FLIGHTS = {"": money.MAIN, money.MAIN: money.MAIN, money.CONSOLATION: money.CONSOLATION,
                money.LAST_CHANCE: money.LAST_CHANCE}  # a one-table event's places are its Main's


def _cut(s: dict, percent: int, fixed: bool = True) -> money.Cut:
    return money.Cut(fixed=s.get("cut_fixed", 0) if fixed else 0, percent=percent, unit=s.get("cut_unit", 1))


def finishes_of(view: View) -> tuple[list[money.Finish], set[str]]:
    """The final places of every flight that has its champion, and the flights still being played."""
    finishes, open_flights = [], set()
    for flight, rows in view.flights.items():
        paid_as = PAID_FLIGHTS.get(flight)
        if paid_as is None:
            continue  # a stage one's table, a group, a league's division: no prize of its own
        champion = view.winner if flight == "" else view.champions.get(flight)
        if not isinstance(champion, int):
            open_flights.add(paid_as)
            continue
        finishes += [money.Finish(r.player, paid_as, r.rank) for r in rows]
    return finishes, open_flights


def meetings(view: View) -> dict[frozenset, int]:
    """Who won between two players who met (once, or always the same one): the head-to-head of a shared place."""
    won: dict[frozenset, set[int]] = defaultdict(set)
    for slot in view.slots:
        result = slot.result
        if result is not None and result.winner is not None and result.loser is not None:
            won[frozenset((result.winner, result.loser))].add(result.winner)
    return {pair: next(iter(w)) for pair, w in won.items() if len(w) == 1}


def _payee(payee) -> dict:
    return {"player": payee} if isinstance(payee, int) else {"owner": payee}


def jackpot_pool(j, unit: int) -> money.Pool:
    """A jackpot's pool as its seats are bought: the buy-ins so far less the house's cut."""
    return money.Jackpot(j.size, j.buy_in, money.Cut(j.cut_fixed, j.cut_percent, unit)).collected(len(j.buyers))


def jackpot_key(name: str) -> str:
    return f"jackpot:{name}"


def ledger_of(facts: Facts, view: View, jackpots: Mapping[str, View] | None = None) -> dict:
    """The event's ledger as its read model keeps it (JSON): the pools, the lots, each pool's shares, what no
    finisher took, the buy-backs, the payouts made and every payee's balance. ``jackpots``: the view of each
    started jackpot's own event, by the jackpot's name."""
    m = facts.money
    s = m.settings
    fees = money.Fees(entry=s.get("entry", 0), reentry=s.get("reentry", 0), side=s.get("side", 0),
                      registration=s.get("registration", 0))
    cut = _cut(s, s.get("cut_percent", 0))
    entrants = list(dict.fromkeys(facts.entered))
    side_entrants = [p for p in m.side_pool if p in entrants]
    night = money.night_of(fees, entries=len(entrants), reentries=len(facts.reentries),
                           side_entries=len(side_entrants), cut=cut)
    calcutta = money.Calcutta(tuple(m.lots.values()), tuple(m.sales.values()), _cut(s, s.get("calcutta_percent", 0), fixed=False))
    finishes, open_flights = finishes_of(view)
    main_finishes = [f for f in finishes if f.flight == money.MAIN]
    how = {"unit": s.get("unit", 1), "remainder_to": (money.MAIN, s.get("remainder_place", 1)),
           "met": meetings(view)}

    def table(key: str, default: str, size: int) -> money.Table:
        return money.PRESETS[s.get(key, default)](size)

    payouts: dict[str, money.Payout] = {}
    if s:
        payouts["main"] = money.payout(night.main.prize_money, table("table", "main_consolation", len(entrants)),
                                       finishes, field_size=len(entrants), **how)
        if side_entrants:
            payouts["side"] = money.side_pool_payout(
                night.side.prize_money, table("side_table", "winner_takes_all", len(side_entrants)), finishes,
                side_entrants, **how)
    if m.sales and main_finishes:
        payouts["calcutta"] = money.calcutta_payout(
            calcutta, table("calcutta_table", "70_30", len(entrants)), main_finishes, **how)
    jackpot_rows, open_jackpots = [], []
    for j in m.jackpots.values():
        pool = jackpot_pool(j, s.get("cut_unit", 1))
        jv = (jackpots or {}).get(j.name) if j.event_id is not None else None
        jfinishes, jopen = finishes_of(jv) if jv is not None else ([], set())
        done = jv is not None and bool(jfinishes) and not jopen
        if j.event_id is not None and not done:
            open_jackpots.append(j.name)
        if done:
            payouts[jackpot_key(j.name)] = money.payout(
                pool.prize_money, money.PRESETS[j.table](j.size), jfinishes, field_size=j.size,
                unit=how["unit"], remainder_to=(money.MAIN, 1), met=meetings(jv))
        jackpot_rows.append({"name": j.name, "buy_in": j.buy_in, "size": j.size, "table": j.table,
                             "cut_fixed": j.cut_fixed, "cut_percent": j.cut_percent, "length": j.length,
                             "buyers": list(j.buyers), "event": j.event_id, "finished": done, **_pool(pool),
                             "finishes": [{"player": f.player, "place": f.place} for f in jfinishes] if done else []})
    paid: dict = defaultdict(int)
    for p in m.payouts:
        paid[p.player_id if p.player_id is not None else p.owner] += p.amount
    ledger = money.Ledger(payouts, dict(paid))
    final = not open_flights and bool(finishes) and not open_jackpots
    return {
        "currency": s.get("currency", "EUR"), "unit": s.get("unit", 1), "settings": dict(s), "final": final,
        "open_flights": sorted(open_flights),
        "entries": len(entrants), "reentries": len(facts.reentries), "side_entrants": side_entrants,
        "pools": {
            "main": _pool(night.main),
            "side": _pool(night.side),
            "calcutta": _pool(calcutta.pool),
        },
        "registration": night.registration,
        "house": night.house + calcutta.pool.cut + sum(j["cut"] for j in jackpot_rows),
        "jackpots": jackpot_rows,
        "open_jackpots": open_jackpots,
        "lots": [{"name": lot.name, "players": list(lot.players), "field": lot.field,
                  "owner": m.sales[lot.name].owner if lot.name in m.sales else None,
                  "syndicate": m.syndicates.get(lot.name, ""), "members": list(m.members.get(lot.name, ())),
                  "price": m.sales[lot.name].price if lot.name in m.sales else None,
                  "bought_back": lot.name in m.sales and m.sales[lot.name].bought_back}
                 for lot in m.lots.values()],
        "field_lot_players": [p for p, lot in calcutta.lot_of(entrants).items()
                              if lot is not None and m.lots[lot].field],
        "buy_backs": [{"player": p, "amount": a} for p, a in calcutta.buy_backs().items()],
        "finishes": [{"player": f.player, "flight": f.flight, "place": f.place} for f in finishes],
        "shares": [{**_payee(payee), **_pool_of(pool), "amount": amount}
                   for pool, p in payouts.items() for payee, amount in p.shares.items()],
        # a prize of a flight still being played is not unawarded yet: it waits for its champion
        "unawarded": {pool: p.unawarded for pool, p in payouts.items() if p.unawarded} if final else {},
        "payouts": [{**_payee(p.player_id if p.player_id is not None else p.owner), "amount": p.amount, "at": p.at,
                     "note": p.note} for p in m.payouts],
        "balances": [{**_payee(b.payee), "share": b.share, "paid": b.paid, "owed": b.owed, "overpaid": b.overpaid}
                     for b in ledger.balances()],
    }


def _pool(pool: money.Pool) -> dict:
    return {"fees": pool.fees, "cut": pool.cut, "prize_money": pool.prize_money}


def _pool_of(key: str) -> dict:
    """A share's pool as the ledger names it: "main", "side", "calcutta", or "jackpot" with the jackpot's name."""
    if key.startswith("jackpot:"):
        return {"pool": "jackpot", "jackpot": key[len("jackpot:"):]}
    return {"pool": key}
