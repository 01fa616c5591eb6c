"""The money of a club night against tables computed by hand (``tournaments/money.py``, pure).

Amounts are in cents. The common night: an entry fee of 20.00 (2000), the house's cut 10.00 (1000) or 5 %
rounded to the nearest 5.00 (500), whichever is greater; shares paid in whole euros (unit 100) unless said.
"""

from __future__ import annotations

from fractions import Fraction

from tournaments.money import (
    CONSOLATION, LAST_CHANCE, MAIN, SINGLE, Cut, Fees, Finish, Jackpot, Ledger, PRESETS, Table, halving,
    halving_places, main_consolation, night_of, payout, reconcile, round_to, side_pool_payout, wide,
)

CUT = Cut(fixed=1000, percent=5, unit=500)
EURO = 100


def knockout_places(n: int, flight: str = MAIN) -> list[Finish]:
    """Players 1..n of a single elimination of n = 2^k: 1, 2, then 3= (2), 5= (4), 9= (8)..."""
    finishes = [Finish(1, flight, 1), Finish(2, flight, 2)]
    player, place = 3, 3
    while player <= n:
        for _ in range(place - 1):
            finishes.append(Finish(player, flight, place))
            player += 1
        place = 2 * place - 1
    return finishes


def test_the_house_takes_the_fixed_amount_or_the_rounded_percentage_whichever_is_greater():
    # 8 x 20.00 = 160.00; 5 % = 8.00, to the nearest 5.00 = 10.00 (8/5 = 1.6 -> 2); max(10.00, 10.00) = 10.00
    assert CUT.of(16000) == 1000
    # 13 x 20.00 = 260.00; 5 % = 13.00 -> 15.00 (2.6 -> 3); max(10.00, 15.00) = 15.00
    assert CUT.of(26000) == 1500
    # 16 x 20.00 = 320.00; 5 % = 16.00 -> 15.00 (3.2 -> 3)
    assert CUT.of(32000) == 1500
    # 32 x 20.00 = 640.00; 5 % = 32.00 -> 30.00 (6.4 -> 6)
    assert CUT.of(64000) == 3000
    # 4 x 20.00 = 80.00; 5 % = 4.00 -> 5.00: the fixed 10.00 is greater
    assert CUT.of(8000) == 1000
    # a half rounds up: 5 % of 2.50 is 0.125 = 12.5 cents, to the nearest 5 cents = 15
    assert round_to(Fraction(25, 2), 5) == 15 and Cut(percent=5, unit=5).of(250) == 15
    # the cut never exceeds the fees
    assert Cut(fixed=1000).of(600) == 600


def test_the_pools_of_a_night_fees_reentries_side_pool_and_registration():
    """12 players at 20.00, 2 re-entries at 15.00, 6 in the side pool at 5.00, 2.00 registration each.
    Main fees 12 x 2000 + 2 x 1500 = 27000; 5 % = 1350 -> nearest 500 = 1500 (2.7 -> 3); > 1000: cut 1500,
    pool 25500. Side fees 6 x 500 = 3000; its cut 10 % to the nearest 100 = 300, pool 2700. Registration
    12 x 200 = 2400. The house keeps 1500 + 300 + 2400 = 4200."""
    night = night_of(Fees(entry=2000, reentry=1500, side=500, registration=200), entries=12, reentries=2,
                     side_entries=6, cut=CUT, side_cut=Cut(percent=10, unit=100))
    assert (night.main.fees, night.main.cut, night.main.prize_money) == (27000, 1500, 25500)
    assert (night.side.fees, night.side.cut, night.side.prize_money) == (3000, 300, 2700)
    assert night.registration == 2400 and night.house == 4200


def test_field_of_8_main_and_consolation_40_25_25_10():
    """Pool 16000 - 1000 = 15000. Main winner 40 % = 6000.00 cents; Main finalist 25 % = 3750 -> 3700; Consolation
    winner 3750 -> 3700; Consolation finalist 10 % = 1500. Paid 6000 + 3700 + 3700 + 1500 = 14900: the remainder
    100 to the Main winner, 6100."""
    finishes = knockout_places(8) + [Finish(5, CONSOLATION, 1), Finish(6, CONSOLATION, 2), Finish(7, CONSOLATION, 3),
                                     Finish(8, CONSOLATION, 3)]
    result = payout(15000, main_consolation(8), finishes, unit=EURO, field_size=8)
    assert result.shares == {1: 6100, 2: 3700, 5: 3700, 6: 1500}
    assert result.paid == 15000 and result.unawarded == 0


def test_field_of_13_flights_60_30_10():
    """Fees 13 x 2000 = 26000, cut 1500, pool 24500. Main winner 60 % = 14700; Consolation winner 30 % = 7350 ->
    7300; Last Chance winner 10 % = 2450 -> 2400. Paid 24400: remainder 100 to the Main winner, 14800."""
    pool = night_of(Fees(entry=2000), entries=13, cut=CUT).main.prize_money
    assert pool == 24500
    finishes = [Finish(1, MAIN, 1), Finish(2, MAIN, 2), Finish(7, CONSOLATION, 1), Finish(8, CONSOLATION, 2),
                Finish(11, LAST_CHANCE, 1), Finish(12, LAST_CHANCE, 2)]
    result = payout(pool, PRESETS["flights"](13), finishes, unit=EURO, field_size=13)
    assert result.shares == {1: 14800, 7: 7300, 11: 2400}


def test_field_of_13_halving_pays_four_places_and_a_shared_place_splits_equally():
    """13 players pay ceil(13/4) = 4 places, weighted 8, 4, 2, 1 (total 15). Pool 24500.
    1st 24500 x 8/15 = 13066.67 -> 13000; 2nd x 4/15 = 6533.33 -> 6500; two share 3rd (3=), covering 3rd and 4th:
    (24500 x 2/15 + 24500 x 1/15) / 2 = 4900 / 2 = 2450 -> 2400 each. Paid 13000 + 6500 + 4800 = 24300: remainder
    200 to the winner, 13200."""
    assert halving_places(13) == 4
    finishes = [Finish(1, MAIN, 1), Finish(2, MAIN, 2), Finish(3, MAIN, 3), Finish(4, MAIN, 3), Finish(5, MAIN, 5)]
    result = payout(24500, halving(13), finishes, unit=EURO, field_size=13)
    assert result.shares == {1: 13200, 2: 6500, 3: 2400, 4: 2400}


def test_field_of_16_halving_in_a_swiss():
    """Fees 32000, cut 1500 (5 % = 1600 -> 1500), pool 30500. 4 places, 8/4/2/1 of 15:
    1st 16266.67 -> 16200; 2nd 8133.33 -> 8100; 3rd 4066.67 -> 4000; 4th 2033.33 -> 2000. Paid 30300: remainder 200
    to the winner, 16400."""
    pool = night_of(Fees(entry=2000), entries=16, cut=CUT).main.prize_money
    assert pool == 30500
    finishes = [Finish(p, SINGLE, p) for p in range(1, 17)]
    result = payout(pool, halving(16, SINGLE), finishes, unit=EURO, remainder_to=(SINGLE, 1))
    assert result.shares == {1: 16400, 2: 8100, 3: 4000, 4: 2000}


def test_field_of_32_wide_payout_in_cents():
    """Fees 64000, cut 3000, pool 61000, paid to the cent (unit 1). Wide over 32: S = 1 + ... + 30 = 465; weights
    1st 930, 2nd 465, place k 33 - k (30 down to 1); total 1860.
    1st 61000 x 930/1860 = 30500; 2nd 15250.
    3= (two) cover 3rd, 4th: 30 + 29 = 59, each 61000 x 59 / 1860 / 2 = 967.47 -> 967.
    5= (four): 28 + 27 + 26 + 25 = 106, each 61000 x 106 / 1860 / 4 = 869.09 -> 869.
    9= (eight): 24 + ... + 17 = 164, each 61000 x 164 / 1860 / 8 = 672.31 -> 672.
    17= (sixteen): 16 + ... + 1 = 136, each 61000 x 136 / 1860 / 16 = 278.76 -> 278.
    Paid 30500 + 15250 + 2 x 967 + 4 x 869 + 8 x 672 + 16 x 278 = 30500 + 15250 + 1934 + 3476 + 5376 + 4448 = 60984:
    the remainder 16 to the winner, 30516."""
    table = wide(32)
    assert table.columns[0].total == 1860
    result = payout(61000, table, knockout_places(32), unit=1)
    expected = {1: 30516, 2: 15250} | {p: 967 for p in (3, 4)} | {p: 869 for p in range(5, 9)} \
        | {p: 672 for p in range(9, 17)} | {p: 278 for p in range(17, 33)}
    assert result.shares == expected and result.paid == 61000


def test_field_of_32_main_consolation_in_whole_euros():
    """Pool 61000: Main winner 40 % = 24400, finalist 25 % = 15250 -> 15200, Consolation winner 15250 -> 15200,
    Consolation finalist 10 % = 6100. Paid 60900: remainder 100 to the Main winner, 24500."""
    finishes = knockout_places(32) + [Finish(17, CONSOLATION, 1), Finish(18, CONSOLATION, 2)]
    result = payout(61000, main_consolation(32), finishes, unit=EURO, field_size=32)
    assert result.shares == {1: 24500, 2: 15200, 17: 15200, 18: 6100}


def test_a_tie_of_two_who_met_is_split_by_head_to_head_else_equally():
    """A Swiss of 8 pays 2 places (halving: 2 and 1 of 3). Pool 15000: 1st 10000, 2nd 5000. Players 1 and 2
    tie on first place. They met and 2 won: 2 takes 10000, 1 takes 5000. Had they not met: 7500 each. Three who
    tie do not split by head-to-head: equally, the three of them covering places 1 to 3 (3rd pays nothing), each
    15000 / 3 = 5000."""
    tie = [Finish(1, SINGLE, 1), Finish(2, SINGLE, 1)] + [Finish(p, SINGLE, p) for p in range(3, 9)]
    table = halving(8, SINGLE)
    how = {"unit": EURO, "remainder_to": (SINGLE, 1)}
    assert payout(15000, table, tie, met={frozenset({1, 2}): 2}, **how).shares == {2: 10000, 1: 5000}
    assert payout(15000, table, tie, met={frozenset({1, 5}): 1}, **how).shares == {1: 7500, 2: 7500}
    three = [Finish(p, SINGLE, 1) for p in (1, 2, 3)] + [Finish(p, SINGLE, p) for p in range(4, 9)]
    assert payout(15000, table, three, met={frozenset({1, 2}): 1}, **how).shares == {1: 5000, 2: 5000, 3: 5000}


def test_a_shared_place_that_cannot_split_to_the_unit_gives_the_remainder_to_the_stated_place():
    """Pool 10000 in cents, 70/30: two share 1st (3 players). 10000 split equally: 5000 each; a pool of 10001:
    each 5000.5 -> 5000, the remainder 1 to the stated place's first holder (player 1)."""
    table = PRESETS["70_30"](3)
    finishes = [Finish(1, MAIN, 1), Finish(2, MAIN, 1), Finish(3, MAIN, 3)]
    assert payout(10001, table, finishes).shares == {1: 5001, 2: 5000}


def test_a_prize_nobody_reached_is_unawarded_not_given_to_someone():
    """40/25/25/10 on a night without a Consolation: 35 % of 15000 = 5250 has no holder. Main winner 6000, finalist
    3750; unawarded 5250."""
    result = payout(15000, main_consolation(8), knockout_places(8), field_size=8)
    assert result.shares == {1: 6000, 2: 3750} and result.unawarded == 5250


def test_a_side_pool_pays_only_among_its_entrants():
    """12 players; 6 enter the side pool at 5.00 (3000, 10 % cut to the nearest 1.00 = 300, pool 2700), paid
    70/30 among them. The event's winner (1) and finalist (2) did not enter: the side pool's best entrants are the
    3= players 3 and 4, who share 1st and 2nd of the side pool: (1890 + 810) / 2 = 1350 each, in whole euros
    1300 each; the remainder 100 to the side pool's 1st place, whose first holder is 3: 1400."""
    finishes = knockout_places(8) + [Finish(p, MAIN, 9) for p in range(9, 13)]
    entrants = [3, 4, 5, 9, 10, 11]
    result = side_pool_payout(2700, PRESETS["70_30"](6), finishes, entrants, unit=EURO)
    assert result.shares == {3: 1400, 4: 1300}
    # 3 alone in it with 5: 3 wins it (1890), 5 is second (810)
    assert side_pool_payout(2700, PRESETS["70_30"](2), finishes, [3, 5]).shares == {3: 1890, 5: 810}


def test_a_jackpot_is_a_fixed_size_pool_with_its_own_buy_in():
    """An 8-player jackpot at 20.00, the house's 10.00: 16000 - 1000 = 15000, 70/30: 10500 and 4500."""
    jackpot = Jackpot(size=8, buy_in=2000, cut=Cut(fixed=1000))
    assert jackpot.pool.prize_money == 15000
    finishes = [Finish(21, MAIN, 1), Finish(22, MAIN, 2)] + [Finish(p, MAIN, 3) for p in (23, 24)]
    assert payout(jackpot.pool.prize_money, PRESETS["70_30"](8), finishes).shares == {21: 10500, 22: 4500}


def test_a_correction_after_a_payout_shows_owed_and_overpaid_and_changes_no_payment():
    """The night of 8 paid out as computed: 1 got 6100, 2 got 3700, 5 got 3700, 6 got 1500. The final is corrected:
    2 won. Now 2 is due 6100 (owed 6100 - 3700 = 2400) and 1 is due 3700 (overpaid 2400); the consolation's shares
    did not change."""
    before = knockout_places(8) + [Finish(5, CONSOLATION, 1), Finish(6, CONSOLATION, 2)]
    first = payout(15000, main_consolation(8), before, unit=EURO, field_size=8)
    paid = dict(first.shares)
    after = [Finish(2, MAIN, 1), Finish(1, MAIN, 2)] + before[2:]
    corrected = payout(15000, main_consolation(8), after, unit=EURO, field_size=8)
    balances = {b.payee: (b.share, b.paid, b.owed, b.overpaid) for b in reconcile(corrected.shares, paid)}
    assert balances == {2: (6100, 3700, 2400, 0), 1: (3700, 6100, 0, 2400), 5: (3700, 3700, 0, 0),
                        6: (1500, 1500, 0, 0)}
    assert paid == {1: 6100, 2: 3700, 5: 3700, 6: 1500}  # what was paid is what was paid


def test_a_ledger_adds_a_payees_shares_of_every_pool():
    """A main pool of 30500 by halving over 16 (8/4/2/1 of 15) where only places 1 and 3 have a holder: 1st
    30500 x 8/15 = 16266.67 -> 16266, 3rd 30500 x 2/15 = 4066.67 -> 4066; together 30500 x 10/15 = 20333.33, so
    20333 is given (1 of remainder to the 1st: 16267) and 30500 - 20333 = 10167 unawarded. Player 3 also wins the
    side pool of 1350 alone: 4066 + 1350 = 5416. Paid 4066: owed 1350."""
    main = payout(30500, halving(16, SINGLE), [Finish(1, SINGLE, 1), Finish(3, SINGLE, 3)], field_size=16)
    # reached: 8 + 2 of 15 = 30500 x 10/15 = 20333.33: 20333 given, 16266 + 4066 = 20332 and 1 to the winner
    assert main.shares == {1: 16267, 3: 4066} and main.unawarded == 30500 - 20333
    side = payout(1350, PRESETS["winner_takes_all"](6), [Finish(3, MAIN, 1)])
    ledger = Ledger(payouts={"main": main, "side": side}, paid={3: 4066, 1: 16267})
    assert ledger.shares == {1: 16267, 3: 5416}
    balances = {b.payee: (b.share, b.paid, b.owed, b.overpaid) for b in ledger.balances()}
    assert balances == {1: (16267, 16267, 0, 0), 3: (5416, 4066, 1350, 0)}


def test_a_table_round_trips_through_json():
    table = main_consolation(8)
    assert Table.from_json(table.to_json()) == table
