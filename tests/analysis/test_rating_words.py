"""gnubg's rating word for a rate it did not print (a player's matches pooled): its own thresholds, each bound
belonging to the word above it, as ``GetRating`` compares (the rate under the bound); none without a decision."""

import pytest

from analysis.rating_words import rating_word


@pytest.mark.parametrize("rate, word", [
    (0.0, "Supernatural"), (1.99, "Supernatural"), (2.0, "World class"), (4.99, "World class"), (5.0, "Expert"),
    (8.0, "Advanced"), (11.99, "Advanced"), (12.0, "Intermediate"), (17.99, "Intermediate"),
    (18.0, "Casual player"), (26.0, "Beginner"), (34.99, "Beginner"), (35.0, "Awful!"), (400.0, "Awful!"),
])
def test_the_word_is_gnubgs_for_the_rate(rate, word):
    assert rating_word(rate, 40) == word


def test_no_decision_has_no_word():
    assert rating_word(0.0, 0) == "n/a"
