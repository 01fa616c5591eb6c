"""The Calcutta against tables computed by hand (``tournaments/money.py``, pure). Amounts in cents.

The auction of a night of 8 (players 1 to 8): lot "Anna" (player 1) to Ann for 50.00, bought back by player 1;
lot "Bert" (player 2) to Bob for 30.00; lot "Pair" (players 3 and 4) to the syndicate bidding through Cy for
20.00; the field lot (players 5 to 8, in no other lot) to Dee for 10.00. Pool 110.00 (11000); the house's 10 %
to the nearest 1.00 = 1100; prize money 9900.
"""

from __future__ import annotations

from tournaments.money import MAIN, Calcutta, Cut, Finish, Lot, Sale, calcutta_payout, may_buy_back, PRESETS

LOTS = (Lot("Anna", (1,)), Lot("Bert", (2,)), Lot("Pair", (3, 4)), Lot("Field", field=True))
SALES = (Sale("Anna", "Ann", 5000, bought_back=True), Sale("Bert", "Bob", 3000), Sale("Pair", "Cy", 2000),
         Sale("Field", "Dee", 1000))
AUCTION = Calcutta(LOTS, SALES, Cut(percent=10, unit=100))


def places(*order) -> list[Finish]:
    """A knockout of 8 finishing in ``order``: 1st, 2nd, two 3=, four 5=."""
    o = list(order)
    return [Finish(o[0], MAIN, 1), Finish(o[1], MAIN, 2), Finish(o[2], MAIN, 3), Finish(o[3], MAIN, 3),
            *(Finish(p, MAIN, 5) for p in o[4:])]


def test_the_pool_is_the_prices_less_the_house():
    assert (AUCTION.pool.fees, AUCTION.pool.cut, AUCTION.pool.prize_money) == (11000, 1100, 9900)


def test_70_30_pays_the_owners_and_a_bought_back_lot_shares_its_return_half_and_half():
    """Player 3 (the pair's) wins: 70 % of 9900 = 6930 to Cy. Player 1 is the finalist: 30 % = 2970 to lot Anna,
    bought back: Ann 1485, player 1 1485."""
    result = calcutta_payout(AUCTION, PRESETS["70_30"](8), places(3, 1, 2, 4, 5, 6, 7, 8))
    assert result.shares == {"Cy": 6930, "Ann": 1485, 1: 1485}


def test_40_30_20_10_pays_the_shared_semi_finalists_equally_and_the_field_lot_its_players():
    """Player 6 (the field's) wins: 40 % = 3960 to Dee. Player 2 finalist: 30 % = 2970 to Bob. The semi-finalists
    1 and 3 share 3rd and 4th: (20 % + 10 %) / 2 = 1485 each: lot Anna's 1485 bought back, 743 to Ann (the odd cent
    to the owner) and 742 to player 1; the pair's 1485 to Cy."""
    result = calcutta_payout(AUCTION, PRESETS["40_30_20_10"](8), places(6, 2, 1, 3, 4, 5, 7, 8))
    assert result.shares == {"Dee": 3960, "Bob": 2970, "Ann": 743, 1: 742, "Cy": 1485}
    assert result.paid == 9900


def test_a_lot_unsold_pays_nobody():
    """Without the field lot's sale the prices are 10000, the house's 10 % 1000, the pool 9000. The field's
    player 5 wins: 70 % = 6300 is unawarded; Bob's finalist takes 30 % = 2700."""
    unsold = Calcutta(LOTS, SALES[1:2] + SALES[2:3] + SALES[:1], Cut(percent=10, unit=100))
    assert unsold.pool.prize_money == 9000
    result = calcutta_payout(unsold, PRESETS["70_30"](8), places(5, 2, 1, 3, 4, 6, 7, 8))
    assert result.shares == {"Bob": 2700} and result.unawarded == 6300


def test_buy_backs_pay_the_owner_half_the_price_and_the_field_cannot_buy_back():
    """Player 1 pays Ann half of 5000 = 2500. A pair that buys back pays half of its price between its two
    players; the field lot cannot buy back."""
    assert AUCTION.buy_backs() == {1: 2500}
    pair = Calcutta(LOTS, (Sale("Pair", "Cy", 2001, bought_back=True),))
    assert pair.buy_backs() == {3: 500, 4: 500}  # half of 2001 is 1000 (the owner's sale rounds down): 500 each
    assert may_buy_back(LOTS[0]) and may_buy_back(LOTS[2]) and not may_buy_back(LOTS[3])


def test_players_are_in_their_lot_or_the_field():
    assert AUCTION.lot_of(range(1, 9)) == {1: "Anna", 2: "Bert", 3: "Pair", 4: "Pair", 5: "Field", 6: "Field",
                                           7: "Field", 8: "Field"}
