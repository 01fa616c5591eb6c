"""The FIBS rating formula, published and exact. Pure Python: anyone can recompute a rating.

Everyone starts at 1500 with experience 0. For a match of length n between
ratings r1 and r2, with D = |r1 - r2|:

* the underdog's chance of winning is  P_upset = 1 / (10^(D * sqrt(n) / 2000) + 1);
* P = P_upset when the favourite wins, 1 - P_upset when the underdog wins;
* each player's factor is K = max(1, 5 - experience / 100), from their own
  experience before the match (the "new player ramp": K = 5 for a newcomer,
  falling to 1 after 400 points of experience);
* the winner gains 4 * K_winner * sqrt(n) * P, the loser loses 4 * K_loser * sqrt(n) * P;
* both players' experience grows by n.

Example: two veterans at 1500 in a 1-point match: P = 1/2, the winner gains
4 * 1 * 1 * 0.5 = 2.00 and the loser loses 2.00.

Ramps (chosen per club): ``fibs`` as above, ``none`` (K = 1 for everyone),
``macfibs`` (K = max(1, 5 - (experience + n) / 100)). Players below 400
experience are shown as provisional. Unlimited (money) sessions are unrated.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

START_RATING = 1500.0
PROVISIONAL_BELOW = 400
RAMPS = ("fibs", "none", "macfibs")


@dataclass(frozen=True)
class Rated:
    """A player's rating and experience."""

    rating: float = START_RATING
    experience: int = 0

    @property
    def provisional(self) -> bool:
        return self.experience < PROVISIONAL_BELOW


def k_factor(experience: int, length: int, ramp: str = "fibs") -> float:
    if ramp == "fibs":
        return max(1.0, 5 - experience / 100)
    if ramp == "macfibs":
        return max(1.0, 5 - (experience + length) / 100)
    if ramp == "none":
        return 1.0
    raise ValueError(f"unknown ramp {ramp!r}; expected one of {', '.join(RAMPS)}")


def upset_probability(rating_a: float, rating_b: float, length: int) -> float:
    """The underdog's chance of winning a match of ``length`` points."""
    difference = abs(rating_a - rating_b)
    return 1 / (10 ** (difference * math.sqrt(length) / 2000) + 1)


def rate(winner: Rated, loser: Rated, length: int, ramp: str = "fibs") -> tuple[Rated, Rated]:
    """New ratings of the winner and the loser of a match to ``length`` points."""
    if length < 1:
        raise ValueError("only matches to a number of points are rated; money sessions are not")
    p_upset = upset_probability(winner.rating, loser.rating, length)
    favourite_won = winner.rating >= loser.rating
    p = p_upset if favourite_won else 1 - p_upset
    stake = 4 * math.sqrt(length) * p
    gain = k_factor(winner.experience, length, ramp) * stake
    loss = k_factor(loser.experience, length, ramp) * stake
    return (
        Rated(winner.rating + gain, winner.experience + length),
        Rated(loser.rating - loss, loser.experience + length),
    )
