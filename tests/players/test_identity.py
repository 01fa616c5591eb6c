"""The players' stream decider: merges of duplicate entries, judged without a database."""

import pytest

from players.identity import Identities, MergePlayers, MergeRefused, PlayersMerged, decide, evolve, fold


def merged(state: Identities, kept: int, *duplicates: int) -> Identities:
    return fold(decide(state, MergePlayers(kept, duplicates, "one person", actor=7)), state)


def test_a_merge_records_the_kept_player_the_duplicates_the_reason_and_who_asked():
    assert decide(Identities(), MergePlayers(1, (2, 3), "  entered twice ", actor=7)) == [
        PlayersMerged(1, (2, 3), "entered twice", 7)]
    state = merged(Identities(), 1, 2, 3)
    assert (state.of(1), state.of(2), state.of(3), state.of(4)) == (1, 1, 1, 4)


def test_the_payload_reads_back_as_the_same_fact():
    fact = PlayersMerged(1, (2, 3), "entered twice", None)
    assert PlayersMerged.from_payload(fact.payload()) == fact
    assert fact.payload() == {"kept": 1, "duplicates": [2, 3], "reason": "entered twice", "actor": None}


@pytest.mark.parametrize(("kept", "duplicates", "reason", "code"), [
    (1, (), "x", "too_few_players"),
    (1, (1,), "x", "listed_twice"),
    (1, (2, 2), "x", "listed_twice"),
    (1, (2,), "   ", "no_reason"),
], ids=["no duplicate", "kept as its own duplicate", "a duplicate twice", "no reason"])
def test_bad_merges_are_refused_with_a_code_and_a_reason(kept, duplicates, reason, code):
    with pytest.raises(MergeRefused) as refused:
        decide(Identities(), MergePlayers(kept, duplicates, reason))
    assert refused.value.code == code and str(refused.value)


def test_a_player_merged_already_is_not_merged_again_nor_merged_into():
    state = merged(Identities(), 1, 2)
    with pytest.raises(MergeRefused) as again:
        decide(state, MergePlayers(3, (2,), "again"))
    assert (again.value.code, again.value.params) == ("already_merged", {"players": "2 (into 1)"})
    with pytest.raises(MergeRefused) as into:
        decide(state, MergePlayers(2, (3,), "into a duplicate"))
    assert (into.value.code, into.value.params) == ("kept_is_merged", {"kept": 2, "into": 1})
    assert str(into.value) == "player 2 is merged into player 1 already: merge into that one"


def test_a_kept_player_merged_on_carries_its_duplicates_along():
    state = merged(merged(Identities(), 1, 2), 5, 1)
    assert dict(state.merged_into) == {1: 5, 2: 5}
    assert evolve(Identities(), PlayersMerged(1, (2,), "r")) == merged(Identities(), 1, 2)
