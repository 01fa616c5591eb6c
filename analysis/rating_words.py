"""gnubg's rating word for an error rate, for figures gnubg did not print itself (a player's matches pooled).

gnubg 1.07 names a rate with ``GetRating`` over ``arThrsRating`` (analysis.c): the rate is the equity lost per
decision (EMG), the word the first whose bound it is under. Its "Overall rating" is that of the combined rate, "n/a"
with no decision (formatgs.c). A pooled rate is the same quantity over more decisions, so the same words apply.
"""

from __future__ import annotations

# (bound in mEMG per decision, word): a rate under the bound gets the word; from the bound of "Beginner" on, "Awful!"
BOUNDS = ((2, "Supernatural"), (5, "World class"), (8, "Expert"), (12, "Advanced"), (18, "Intermediate"),
          (26, "Casual player"), (35, "Beginner"))


def rating_word(rate: float, decisions: int) -> str:
    """The word gnubg gives ``rate`` (mEMG per decision) over ``decisions`` decisions."""
    if not decisions:
        return "n/a"
    return next((word for bound, word in BOUNDS if rate < bound), "Awful!")
