"""The FIBS formula against values computed by hand (the arithmetic is in each comment)."""

import math

import pytest

from ratings.formula import Rated, k_factor, rate, upset_probability

VETERAN = 1000  # experience well past the ramp: K = 1


def test_equal_veterans_in_a_one_point_match_move_two_points():
    # D = 0: P_upset = 1 / (10^0 + 1) = 0.5; gain = 4 * 1 * sqrt(1) * 0.5 = 2.00
    w, l = rate(Rated(1500, VETERAN), Rated(1500, VETERAN), 1)
    assert (round(w.rating, 2), round(l.rating, 2)) == (1502.00, 1498.00)
    assert (w.experience, l.experience) == (VETERAN + 1, VETERAN + 1)


def test_a_new_players_first_match_uses_k_5():
    # newcomer K = max(1, 5 - 0/100) = 5: gains 4 * 5 * 1 * 0.5 = 10.00; the veteran (K = 1) loses 2.00
    w, l = rate(Rated(1500, 0), Rated(1500, VETERAN), 1)
    assert (round(w.rating, 2), round(l.rating, 2)) == (1510.00, 1498.00)
    assert k_factor(0, 1) == 5


def test_five_point_match_between_equals():
    # 4 * sqrt(5) * 0.5 = 4.4721
    w, l = rate(Rated(1500, VETERAN), Rated(1500, VETERAN), 5)
    assert round(w.rating - 1500, 4) == 4.4721 and round(1500 - l.rating, 4) == 4.4721


def test_seven_points_200_apart_favourite_and_underdog_wins():
    # D = 200: 200 * sqrt(7) / 2000 = 0.264575; 10^0.264575 = 1.83894; P_upset = 1 / 2.83894 = 0.352240
    assert round(upset_probability(1700, 1500, 7), 6) == 0.352240
    # favourite wins: 4 * sqrt(7) * 0.352240 = 3.7278
    w, l = rate(Rated(1700, VETERAN), Rated(1500, VETERAN), 7)
    assert round(w.rating, 4) == round(1700 + 3.727760, 4) and round(l.rating, 4) == round(1500 - 3.727760, 4)
    # underdog wins: 4 * sqrt(7) * (1 - 0.352240) = 6.8552
    w, l = rate(Rated(1500, VETERAN), Rated(1700, VETERAN), 7)
    assert round(w.rating - 1500, 4) == 6.8552 and round(1700 - l.rating, 4) == 6.8552


def test_eleven_points_1000_apart():
    # D = 1000: 1000 * sqrt(11) / 2000 = 1.658312; 10^1.658312 = 45.5318; P_upset = 1 / 46.5318 = 0.021491
    assert round(upset_probability(2000, 1000, 11), 6) == 0.021491
    # the underdog wins: 4 * sqrt(11) * 0.978509 = 12.9814
    w, l = rate(Rated(1000, VETERAN), Rated(2000, VETERAN), 11)
    assert round(w.rating - 1000, 4) == 12.9814
    # the favourite wins: 4 * sqrt(11) * 0.021491 = 0.2851
    w, l = rate(Rated(2000, VETERAN), Rated(1000, VETERAN), 11)
    assert round(w.rating - 2000, 4) == 0.2851


def test_each_player_uses_their_own_k():
    # experience 250: K = 5 - 2.5 = 2.5 against a veteran's 1: 4 * 2.5 * 0.5 = 5.00 won, 2.00 lost
    w, l = rate(Rated(1500, 250), Rated(1500, VETERAN), 1)
    assert (round(w.rating, 2), round(l.rating, 2)) == (1505.00, 1498.00)


@pytest.mark.parametrize("ramp, expected", [("fibs", 2.5), ("macfibs", 2.43), ("none", 1.0)])
def test_club_ramps(ramp, expected):
    # MacFIBS counts the match being played: 5 - (250 + 7) / 100 = 2.43
    assert k_factor(250, 7, ramp) == pytest.approx(expected)


def test_provisional_below_400_experience():
    assert Rated(1500, 399).provisional and not Rated(1500, 400).provisional


def test_money_sessions_are_unrated():
    with pytest.raises(ValueError, match="money sessions are not"):
        rate(Rated(), Rated(), 0)


def test_ratings_are_zero_sum_between_veterans():
    w, l = rate(Rated(1612.5, VETERAN), Rated(1433.25, 2000), 9)
    assert math.isclose((w.rating - 1612.5) + (l.rating - 1433.25), 0, abs_tol=1e-9)
