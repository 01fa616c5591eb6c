"""The money of a club night in the event's stream: the director's fees and tables (``set_money``), a side pool,
a Calcutta (lots, sales, a buy-back), the ledger the ``money_ledger`` projection derives from the log, payouts
recorded as events, and a correction after a payout shown as owed and overpaid, the payouts left as they were.

The night: 8 players, a single elimination with a consolation, entry 20.00 (2000 cents), the house's cut 10.00 or
5 % to the nearest 5.00 (on 160.00: 8.00 -> 10.00, so 10.00), pool 150.00, paid 40/25/25/10 in whole euros:
Main winner 60.00 + the remainder 1.00 = 61.00, Main finalist 37.50 -> 37.00, Consolation winner 37.00,
Consolation finalist 15.00 (the pure tests' hand table: tests/tournaments/money/test_payouts.py).
"""

from __future__ import annotations

import pytest

from eventlog.models import Event
from players.models import Player
from tests.tournaments.test_running_events import cmd, settle, start
from tournaments.refusals import Reason, TournamentError, TournamentRefusal
from tournaments.stream import stream_id_of

pytestmark = pytest.mark.django_db

MONEY = {"type": "set_money", "entry": 2000, "cut_fixed": 1000, "cut_percent": 5, "cut_unit": 500, "unit": 100,
         "table": "main_consolation", "side": 500, "side_table": "70_30", "calcutta_table": "70_30",
         "calcutta_percent": 10}


@pytest.fixture
def director(make_user):
    return make_user("dora", official=True, player=False)


def names(n):
    return [Player.objects.create(display_name=f"Player {chr(65 + i)}").pk for i in range(n)]


def play_out(t, director):
    for _ in range(10):
        data = settle(t)
        ready = [s for s in data["slots"] if s["status"] == "ready"]
        if not ready:
            return data
        for s in ready:  # the first named player wins every match
            cmd(t, director, type="report_result", slot=s["key"], winner=s["players"][0], score=[s["length"], 0])
    raise AssertionError("the event did not end")


def _appended(t) -> int:
    return Event.objects.filter(stream_id=stream_id_of(t.pk)).count()


def _refused(t, director, reason: Reason, **command):
    before = _appended(t)
    with pytest.raises(TournamentError) as refused:
        cmd(t, director, **command)
    assert refused.value.reason == reason
    assert _appended(t) == before
    return refused.value


def _places(data, flight):
    return [r["player_id"] for r in data["standings"] if r["flight"] == flight]


@pytest.fixture
def night(director):
    players = names(8)
    t = start(director, players, consolation=True, lengths={"main": {"default": 1}, "consolation": {"default": 1}})
    cmd(t, director, **MONEY)
    for p in players[4:]:  # E, F, G, H in the side pool
        cmd(t, director, type="enter_side_pool", player=p)
    cmd(t, director, type="add_lot", name="Anna", players=[players[0]])
    cmd(t, director, type="add_lot", name="The pair", players=[players[1], players[2]])
    cmd(t, director, type="add_lot", name="The field", field=True)
    cmd(t, director, type="sell_lot", lot="Anna", owner="Ann", price=5000)
    cmd(t, director, type="sell_lot", lot="The pair", owner="Cy", price=2000, syndicate="The back room")
    cmd(t, director, type="sell_lot", lot="The field", owner="Dee", price=1000)
    cmd(t, director, type="buy_back", lot="Anna")
    return t, players


def test_the_ledger_pays_every_pool_by_its_table_and_the_calcutta_to_the_owners(director, night, api):
    t, players = night
    data = play_out(t, director)
    main, consolation = _places(data, "main"), _places(data, "consolation")
    money = api(director).get(f"/api/tournaments/{t.pk}/money/").json()
    assert money["recorded"] and money["final"] and money["currency"] == "EUR"
    assert money["pools"]["main"] == {"fees": 16000, "cut": 1000, "prize_money": 15000}
    # the side pool: 4 x 5.00 = 20.00; 5 % = 1.00 -> 0 to the nearest 5.00, so the fixed 10.00: 10.00 left
    assert money["pools"]["side"] == {"fees": 2000, "cut": 1000, "prize_money": 1000}
    # the Calcutta: 50.00 + 20.00 + 10.00 = 80.00, the house's 10 % = 8.00 -> 10.00 to the nearest 5.00 (1.6 -> 2)
    assert money["pools"]["calcutta"] == {"fees": 8000, "cut": 1000, "prize_money": 7000}
    shares = {(s.get("player") or s.get("owner"), s["pool"]): s["amount"] for s in money["shares"]}
    assert {k: v for k, v in shares.items() if k[1] == "main"} == {
        (main[0], "main"): 6100, (main[1], "main"): 3700, (consolation[0], "main"): 3700,
        (consolation[1], "main"): 1500}
    # the side pool's 10.00 by 70/30 among E..H, each placed among the four of them alone
    assert sum(v for k, v in shares.items() if k[1] == "side") == 1000
    assert all(k[0] in players[4:] for k in shares if k[1] == "side")
    # 70.00: the winner's 70 % = 49.00 to their lot's owner; the finalist's 30 % = 21.00 to theirs
    owner_of = {players[0]: "Ann", players[1]: "Cy", players[2]: "Cy"}
    calcutta = {k[0]: v for k, v in shares.items() if k[1] == "calcutta"}
    assert sum(calcutta.values()) == 7000
    assert main[0] == players[0]  # the first seed, who wins every match: Anna's lot, bought back
    finalist_owner = owner_of.get(main[1], "Dee")
    assert calcutta == {"Ann": 2450, players[0]: 2450, finalist_owner: 2100}
    assert money["buy_backs"] == [{"player": players[0], "amount": 2500, "name": "Player A"}]
    assert {lot["name"]: (lot["owner"], lot["price"], lot["bought_back"], lot["syndicate"]) for lot in money["lots"]} \
        == {"Anna": ("Ann", 5000, True, ""), "The pair": ("Cy", 2000, False, "The back room"),
            "The field": ("Dee", 1000, False, "")}
    assert set(money["field_lot_players"]) == set(players[3:])
    assert money["house"] == 1000 + 1000 + 1000
    # the side pool: E..H all went out in the Main's first round (5=), so among the four they share its 1st to
    # 4th: (7.00 + 3.00) / 4 = 2.50 -> 2.00 each in whole euros, the remainder 2.00 to the first holder of 1st
    side_shares = sorted((v for k, v in shares.items() if k[1] == "side"), reverse=True)
    assert side_shares == [400, 200, 200, 200]


def test_a_correction_after_a_payout_shows_owed_and_overpaid_and_keeps_what_was_paid(director, night, api):
    t, players = night
    data = play_out(t, director)
    main = _places(data, "main")
    cmd(t, director, type="record_payout", player=main[0], amount=6100, note="cash")
    cmd(t, director, type="record_payout", player=main[1], amount=3700)
    final = max((s for s in data["slots"] if s["bracket"] == "main"), key=lambda s: s["round"])
    cmd(t, director, type="correct_result", slot=final["key"], winner=main[1], score=[1, 0],
        reason="the scoresheet was misread")
    settle(t)
    money = api(director).get(f"/api/tournaments/{t.pk}/money/").json()
    new_winner, old_winner = main[1], main[0]
    mains = {s["player"]: s["amount"] for s in money["shares"] if s["pool"] == "main" and "player" in s}
    assert (mains[new_winner], mains[old_winner]) == (6100, 3700)  # the shares re-derived from the corrected final
    balances = {b["player"]: b for b in money["balances"] if "player" in b}
    for player, paid in ((new_winner, 3700), (old_winner, 6100)):
        b = balances[player]
        assert b["share"] == mains[player] + _side_and_calcutta(money, player) and b["paid"] == paid
        assert (b["owed"], b["overpaid"]) == (max(0, b["share"] - paid), max(0, paid - b["share"]))
    # the new winner is owed at least the 24.00 the final moved; the old one was paid 24.00 too much of the main
    assert balances[new_winner]["owed"] >= 2400
    assert balances[old_winner]["paid"] - mains[old_winner] == 2400
    # the payouts are the events recorded, untouched by the correction
    assert [(p["player"], p["amount"], p["note"]) for p in money["payouts"]] == [
        (old_winner, 6100, "cash"), (new_winner, 3700, "")]


def _side_and_calcutta(money, player) -> int:
    return sum(s["amount"] for s in money["shares"] if s.get("player") == player and s["pool"] != "main")


def test_the_calcuttas_rules_refuse_with_their_reason_and_append_nothing(director, night):
    t, players = night
    assert _refused(t, director, Reason.FIELD_LOT_NO_BUY_BACK, type="buy_back", lot="The field").code \
        == TournamentRefusal.BAD_MONEY
    _refused(t, director, Reason.LOT_BOUGHT_BACK, type="buy_back", lot="Anna")
    _refused(t, director, Reason.LOT_BOUGHT_BACK, type="sell_lot", lot="Anna", owner="Bob", price=6000)
    _refused(t, director, Reason.UNKNOWN_LOT, type="sell_lot", lot="Nobody", owner="Bob", price=10)
    _refused(t, director, Reason.LOT_PLAYER_TAKEN, type="add_lot", name="Again", players=[players[1]])
    _refused(t, director, Reason.ONE_FIELD_LOT, type="add_lot", name="Field two", field=True)
    _refused(t, director, Reason.LOT_NAME_TAKEN, type="add_lot", name="Anna", players=[players[5]])
    _refused(t, director, Reason.LOT_PLAYERS, type="add_lot", name="Both", players=[players[5]], field=True)
    _refused(t, director, Reason.UNKNOWN_PAYEE, type="record_payout", owner="Stranger", amount=100)
    _refused(t, director, Reason.PAYEE_ONE, type="record_payout", owner="Ann", player=players[0], amount=100)
    outsider = Player.objects.create(display_name="Outsider").pk
    _refused(t, director, Reason.NOT_ENTERED, type="enter_side_pool", player=outsider)
    cmd(t, director, type="add_lot", name="Unsold", players=[players[5]])
    _refused(t, director, Reason.LOT_NOT_SOLD, type="buy_back", lot="Unsold")


def test_the_money_is_the_directors_to_set_and_to_read(director, night, api, make_user):
    t, _ = night
    player = make_user("pat")
    client = api(player)
    assert client.get(f"/api/tournaments/{t.pk}/money/").status_code == 403
    answer = client.post(f"/api/tournaments/{t.pk}/commands/", {"type": "set_money", "entry": 1}, format="json")
    assert answer.status_code == 403
    answer = api(director).post(f"/api/tournaments/{t.pk}/commands/", {**MONEY, "entry": 2500}, format="json")
    assert answer.status_code == 200, answer.content[:300]
    assert answer.json()["appended"][0]["type"] == "MoneySet"
    settle(t)
    assert api(director).get(f"/api/tournaments/{t.pk}/money/").json()["pools"]["main"]["fees"] == 8 * 2500


def test_the_ledger_rebuilds_from_the_log_to_the_same_rows(director, night):
    from eventlog import projections
    from tournaments.models import LedgerShare, TournamentLedger

    t, _ = night
    play_out(t, director)
    before = (list(TournamentLedger.objects.values("tournament_id", "version", "ledger")),
              sorted(LedgerShare.objects.values_list("player_id", "share", "paid", "final")))
    assert before[1]
    projections.rebuild("money_ledger")
    after = (list(TournamentLedger.objects.values("tournament_id", "version", "ledger")),
             sorted(LedgerShare.objects.values_list("player_id", "share", "paid", "final")))
    assert after == before
