"""A jackpot of a club night: opened by the director (8 seats at 20.00, the house's 10.00), its seats bought by the
night's players (refused when full, to a player not in the night, twice), a seat handed back before it starts
(and on a withdrawal from the night), started full as a knockout of its own among its buyers, and its pool paid by
that knockout's finishes in the night's ledger: the API, the balances, a payout, a correction of the jackpot's
final shown as owed and overpaid, the winner's winnings.

The figures: 8 x 20.00 = 160.00, the house's 10.00 (5 % = 8.00 is less): 150.00 to the jackpot's winner (winner
takes all), or 105.00 and 45.00 by 70/30.
"""

from __future__ import annotations

import pytest

from eventlog import projections
from eventlog.models import Event
from tests.tournaments.test_money_commands import MONEY, names, play_out
from tests.tournaments.test_running_events import cmd, settle, start
from tournaments.models import LedgerShare, Tournament
from tournaments.refusals import Reason, TournamentError, TournamentRefusal
from tournaments.stream import stream_id_of

pytestmark = pytest.mark.django_db

JACKPOT = {"type": "open_jackpot", "name": "Jackpot 1", "buy_in": 2000, "size": 8, "cut_fixed": 1000,
           "cut_percent": 5, "length": 1}


@pytest.fixture
def director(make_user):
    return make_user("dora", official=True, player=False)


@pytest.fixture
def night(director):
    players = names(12)
    t = start(director, players, lengths={"main": {"default": 1}})
    cmd(t, director, **MONEY)
    cmd(t, director, **JACKPOT)
    return t, players


def _appended(t) -> int:
    return Event.objects.filter(stream_id=stream_id_of(t.pk)).count()


def _refused(t, director, reason: Reason, **command):
    before, events = _appended(t), Tournament.objects.count()
    with pytest.raises(TournamentError) as refused:
        cmd(t, director, **command)
    assert refused.value.reason == reason
    assert (_appended(t), Tournament.objects.count()) == (before, events)
    return refused.value


def _buy(t, director, players, jackpot="Jackpot 1"):
    for p in players:
        cmd(t, director, type="buy_jackpot", jackpot=jackpot, player=p)


def _money(api, director, t) -> dict:
    settle(t)
    return api(director).get(f"/api/tournaments/{t.pk}/money/").json()


def test_seats_are_bought_by_the_nights_players_once_each_until_it_is_full(director, night, make_user, api):
    t, players = night
    outsider = names(13)[-1]
    _refused(t, director, Reason.NOT_ENTERED, type="buy_jackpot", jackpot="Jackpot 1", player=outsider)
    _refused(t, director, Reason.UNKNOWN_JACKPOT, type="buy_jackpot", jackpot="Jackpot 9", player=players[0])
    _refused(t, director, Reason.JACKPOT_NAME_TAKEN, **JACKPOT)
    _refused(t, director, Reason.JACKPOT_LENGTH, **{**JACKPOT, "name": "Even", "length": 4})
    _buy(t, director, players[:7])
    assert _refused(t, director, Reason.JACKPOT_BOUGHT_ALREADY, type="buy_jackpot", jackpot="Jackpot 1",
                    player=players[0]).code == TournamentRefusal.BAD_MONEY
    _refused(t, director, Reason.JACKPOT_NOT_FULL, type="start_jackpot", jackpot="Jackpot 1")
    _buy(t, director, players[7:8])
    _refused(t, director, Reason.JACKPOT_FULL, type="buy_jackpot", jackpot="Jackpot 1", player=players[8])
    # a seat handed back before the start frees it: the buy-in is refunded, the pool is what the buyers paid
    cmd(t, director, type="leave_jackpot", jackpot="Jackpot 1", player=players[3])
    _refused(t, director, Reason.NOT_IN_JACKPOT, type="leave_jackpot", jackpot="Jackpot 1", player=players[3])
    jackpot = _money(api, director, t)["jackpots"][0]
    assert (jackpot["fees"], jackpot["cut"], jackpot["prize_money"]) == (7 * 2000, 1000, 13000)
    assert players[3] not in jackpot["buyers"] and jackpot["event"] is None
    # a buyer who withdraws from the night before it starts is refunded too
    cmd(t, director, type="withdraw", player=players[5])
    assert players[5] not in _money(api, director, t)["jackpots"][0]["buyers"]
    _refused(t, director, Reason.NOT_IN_EVENT, type="buy_jackpot", jackpot="Jackpot 1", player=players[5])
    # nobody but the director opens one or sells its seats
    pat = make_user("pat")
    client = api(pat)
    answer = client.post(f"/api/tournaments/{t.pk}/commands/", {**JACKPOT, "name": "Mine"}, format="json")
    assert answer.status_code == 403
    answer = client.post(f"/api/tournaments/{t.pk}/commands/",
                         {"type": "start_jackpot", "jackpot": "Jackpot 1"}, format="json")
    assert answer.status_code == 403


def test_a_full_jackpot_is_played_as_its_own_knockout_whose_finishes_pay_its_pool(director, night, api):
    t, players = night
    buyers = players[2:10]
    _buy(t, director, buyers)
    answer = api(director).post(f"/api/tournaments/{t.pk}/commands/",
                                {"type": "start_jackpot", "jackpot": "Jackpot 1"}, format="json")
    assert answer.status_code == 200, answer.content[:300]
    assert [e["type"] for e in answer.json()["appended"]] == ["JackpotStarted"]
    money = _money(api, director, t)
    jackpot = money["jackpots"][0]
    assert (jackpot["fees"], jackpot["cut"], jackpot["prize_money"]) == (16000, 1000, 15000)
    assert jackpot["buyer_names"] == [f"Player {chr(65 + i)}" for i in range(2, 10)]
    event = Tournament.objects.get(pk=jackpot["event"])
    assert event.name == "Club night · Jackpot 1" and event.director == director
    assert money["open_jackpots"] == ["Jackpot 1"] and not money["final"]
    # started: its seats are final
    _refused(t, director, Reason.JACKPOT_STARTED, type="leave_jackpot", jackpot="Jackpot 1", player=buyers[0])
    _refused(t, director, Reason.JACKPOT_STARTED, type="start_jackpot", jackpot="Jackpot 1")
    cmd(t, director, type="withdraw", player=buyers[1])  # no refund after the start
    assert buyers[1] in _money(api, director, t)["jackpots"][0]["buyers"]

    data = play_out(event, director)
    assert sorted(r["player_id"] for r in data["standings"]) == sorted(buyers)
    money = _money(api, director, t)
    winner = data["winner"]
    jackpot_shares = [s for s in money["shares"] if s["pool"] == "jackpot"]
    assert jackpot_shares == [{"player": winner, "pool": "jackpot", "jackpot": "Jackpot 1", "amount": 15000,
                               "name": money["jackpots"][0]["buyer_names"][buyers.index(winner)]}]
    assert money["jackpots"][0]["finished"] and money["open_jackpots"] == []
    assert money["house"] == 1000 + 1000  # the main pool's cut (no side pool, no Calcutta) and the jackpot's
    balance = next(b for b in money["balances"] if b.get("player") == winner)
    assert balance["share"] >= 15000 and balance["owed"] == balance["share"]
    # the winner's page counts it: the night's ledger share of the player
    assert LedgerShare.objects.get(tournament_id=t.pk, player_id=winner).share == balance["share"]

    # paid, then the jackpot's final corrected: the shares move, the payout stays, owed and overpaid show
    cmd(t, director, type="record_payout", player=winner, amount=15000, note="cash")
    final = max(data["slots"], key=lambda s: s["round"])
    runner_up = next(p for p in final["players"] if p != winner)
    cmd(event, director, type="correct_result", slot=final["key"], winner=runner_up, score=[1, 0],
        reason="the scoresheet was misread")
    money = _money(api, director, t)
    assert [(s["player"], s["amount"]) for s in money["shares"] if s["pool"] == "jackpot"] == [(runner_up, 15000)]
    balances = {b["player"]: b for b in money["balances"] if "player" in b}
    assert balances[winner]["paid"] == 15000 and balances[winner]["overpaid"] >= 15000 - balances[winner]["share"]
    assert balances[winner]["overpaid"] > 0 and balances[runner_up]["owed"] >= 15000


def test_a_jackpot_paid_70_30_and_its_ledger_rebuilt_from_the_log(director, night, api):
    t, players = night
    cmd(t, director, **{**JACKPOT, "name": "Jackpot 2", "table": "70_30", "cut_fixed": 0, "cut_percent": 0,
                        "size": 4})
    _buy(t, director, players[:4], jackpot="Jackpot 2")
    cmd(t, director, type="start_jackpot", jackpot="Jackpot 2")
    event = Tournament.objects.get(pk=_money(api, director, t)["jackpots"][1]["event"])
    data = play_out(event, director)
    finalist = next(r["player_id"] for r in data["standings"] if r["rank"] == 2)
    shares = {s["player"]: s["amount"] for s in _money(api, director, t)["shares"] if s["pool"] == "jackpot"}
    assert shares == {data["winner"]: 5600, finalist: 2400}  # 4 x 20.00 = 80.00, 70/30
    before = list(LedgerShare.objects.order_by("player_id").values_list("player_id", "share"))
    projections.rebuild("money_ledger")
    assert list(LedgerShare.objects.order_by("player_id").values_list("player_id", "share")) == before


def test_a_syndicate_names_its_members_and_its_bidder_is_the_payee(director, night, api):
    t, players = night
    cmd(t, director, type="add_lot", name="Top seed", players=[players[0]])
    before = _appended(t)
    with pytest.raises(TournamentError) as refused:  # members without a syndicate: whose?
        cmd(t, director, type="sell_lot", lot="Top seed", owner="Cy", price=3000, members=["Dee"])
    assert refused.value.reason == Reason.SYNDICATE_MEMBERS and _appended(t) == before
    cmd(t, director, type="sell_lot", lot="Top seed", owner="Cy", price=3000, syndicate="The back room",
        members=["Dee", "Eve"])
    play_out(t, director)
    money = _money(api, director, t)
    lot = money["lots"][0]
    assert (lot["owner"], lot["syndicate"], lot["members"]) == ("Cy", "The back room", ["Cy", "Dee", "Eve"])
    calcutta = [s for s in money["shares"] if s["pool"] == "calcutta"]
    assert [s["owner"] for s in calcutta] == ["Cy"]  # the bidder, never the other members
    row = Event.objects.filter(stream_id=stream_id_of(t.pk), event_type="LotSold").last()
    assert row.schema_version == 2 and row.payload["members"] == ["Cy", "Dee", "Eve"]


def test_a_sale_stored_before_syndicates_named_their_members_reads_with_its_bidder_as_the_one_member():
    from eventlog import upcasting

    from tournaments import events as ev

    stored = {"lot": "Pair", "owner": "Cy", "price": 2000, "syndicate": "The back room"}
    event_type, payload, schema = upcasting.upcast(ev.STREAM_TYPE, "LotSold", 1, stored)
    assert (event_type, schema) == ("LotSold", 2)
    assert ev.LotSold.from_payload(payload).members == ("Cy",)
    _t, alone, _s = upcasting.upcast(ev.STREAM_TYPE, "LotSold", 1, {**stored, "syndicate": ""})
    assert ev.LotSold.from_payload(alone).members == ()
