"""Double elimination: two losses out, losers' bracket structure, grand final and reset."""

from __future__ import annotations

import pytest

from tournaments.formats import Lengths, Result
from tournaments.formats.double_elimination import Config, derive
from tournaments.formats.knockout import bracket_size

from .sim import losses, lower_seed_wins, matches, play_out, random_winner


def lb_champion_wins_grand_finals(players):
    """Lower seed wins, except that the losers'-bracket champion wins the first grand final."""
    base = lower_seed_wins(players)

    def choose(slot):
        if slot.key == "grand_final:r1:m1":
            return slot.players[1], slot.players[0]
        return base(slot)

    return choose


@pytest.mark.parametrize("reset", [True, False], ids=["reset", "no-reset"])
@pytest.mark.parametrize("n", range(2, 65))
def test_everyone_but_the_champion_loses_twice(n, reset):
    players = [1000 + i for i in range(n)]
    config = Config(reset=reset)
    final, results = play_out(derive, players, config, random_winner(7 * n + reset))
    assert all(s.status in ("done", "bye") for s in final.slots)
    assert final.ignored == ()
    lost = losses(final.slots)
    champion = final.winner
    assert champion in players
    assert lost[champion] <= 1
    gf1 = final.slot("grand_final:r1:m1")
    runner_up = gf1.players[0] if gf1.players[1] == champion else gf1.players[1]
    for p in players:
        if p == champion:
            continue
        if not reset and p == runner_up and lost[p] == 1:
            continue  # without a reset the winners' champion is out after one loss
        assert lost[p] == 2, (p, lost[p])
    assert sorted(final.eliminated["double_elimination"]) == sorted(p for p in players if p != champion)
    # Winners' bracket: n - 1 matches; the losers' bracket takes every loser of it.
    wb = [s for s in final.slots if s.bracket == "winners"]
    assert sum(1 for s in wb if s.result) == n - 1
    assert set(final.fields["losers"]) | {final.champions["losers"]} >= {s.loser for s in wb if s.loser}
    # Structure: 2R-2 losers' rounds, the reset exactly when the losers' champion took the first final.
    rounds = bracket_size(n).bit_length() - 1
    assert final.rounds("losers") == 2 * rounds - 2
    if reset:
        gf2 = final.slot("grand_final:r2:m1")
        needed = gf1.winner == gf1.players[1]
        assert gf2.status == ("done" if needed else "bye")
        assert gf2.players == (gf1.players if needed else (None, None))


@pytest.mark.parametrize("n", range(2, 65))
def test_lower_seed_always_wins(n):
    players = list(range(1, n + 1))
    final, _ = play_out(derive, players, Config(), lower_seed_wins(players))
    assert final.winner == 1
    assert final.champions == {"winners": 1, "losers": 2, "grand_final": 1}
    assert final.slot("grand_final:r1:m1").players == (1, 2)
    assert final.slot("grand_final:r2:m1").status == "bye"
    assert losses(final.slots)[1] == 0
    assert final.eliminated["double_elimination"][-1] == 2
    # Two losses take two matches: everyone but the champion played at least twice.
    assert all(count >= 2 for p, count in matches(final.slots).items() if p != 1)


@pytest.mark.parametrize("n", [2, 3, 4, 5, 8, 13, 16, 32])
def test_the_reset_is_played_when_the_losers_champion_wins_the_first_final(n):
    players = list(range(1, n + 1))
    final, _ = play_out(derive, players, Config(), lb_champion_wins_grand_finals(players))
    gf1, gf2 = final.slot("grand_final:r1:m1"), final.slot("grand_final:r2:m1")
    assert gf1.players == (1, 2) and gf1.winner == 2
    assert gf2.players == (1, 2) and gf2.status == "done"
    assert final.winner == 1  # lower seed wins the reset
    assert losses(final.slots) == {**{p: 2 for p in range(2, n + 1)}, 1: 1}
    no_reset, _ = play_out(derive, players, Config(reset=False), lb_champion_wins_grand_finals(players))
    assert no_reset.winner == 2
    assert [s.key for s in no_reset.slots if s.bracket == "grand_final"] == ["grand_final:r1:m1"]


@pytest.mark.parametrize("n", range(5, 65))
def test_losers_round_two_arrivals_meet_someone_new(n):
    """The crossing: a winners' round-2 loser never meets a player they met already."""
    players = list(range(1, n + 1))
    final, _ = play_out(derive, players, Config(), random_winner(n))
    wb_r1 = {frozenset(s.players) for s in final.round("winners", 1) if s.result}
    wb_r2 = {frozenset(s.players) for s in final.round("winners", 2)}
    lb_r1 = {frozenset(s.players) for s in final.round("losers", 1) if s.result}
    for s in final.round("losers", 2):
        if s.result:
            assert frozenset(s.players) not in wb_r1 | wb_r2 | lb_r1


def test_byes_in_the_winners_bracket_leave_byes_in_the_losers_bracket():
    players = list(range(1, 6))  # 8 draw: seeds 1-3 have byes, 4 v 5 plays
    bracket = derive(players, {"winners:r1:m2": Result(4, 5)})
    assert [s.status for s in bracket.round("winners", 1)] == ["bye", "done", "bye", "bye"]
    lb1 = bracket.round("losers", 1)
    assert lb1[0].players == (None, 5) and lb1[0].status == "bye" and lb1[0].winner == 5
    assert lb1[1].players == (None, None) and lb1[1].status == "bye" and lb1[1].winner is None
    lb2 = bracket.round("losers", 2)
    assert lb2[0].sources == ("winner losers:r1:m1", "loser winners:r2:m2")
    assert lb2[1].sources == ("winner losers:r1:m2", "loser winners:r2:m1")
    assert lb2[1].status == "waiting" and lb2[1].known == (True, False)


def test_two_players_play_until_one_has_lost_twice():
    bracket = derive([1, 2], {"winners:r1:m1": Result(2, 1), "grand_final:r1:m1": Result(1, 2)})
    assert [s.key for s in bracket.slots] == ["winners:r1:m1", "grand_final:r1:m1", "grand_final:r2:m1"]
    assert bracket.slot("grand_final:r1:m1").players == (2, 1)
    assert bracket.slot("grand_final:r2:m1").status == "ready" and bracket.winner is None
    done = derive([1, 2], {"winners:r1:m1": Result(2, 1), "grand_final:r1:m1": Result(1, 2),
                           "grand_final:r2:m1": Result(1, 2)})
    assert done.winner == 1


def test_withdrawn_player_forfeits_twice_and_is_out():
    players = list(range(1, 9))
    config = Config(withdrawn=frozenset({2}))
    final, results = play_out(derive, players, config, lower_seed_wins(players))
    forfeits = [s for s in final.slots if s.loser == 2]
    assert len(forfeits) == 2 and all(s.result.forfeit for s in forfeits)
    assert all(s.key not in results for s in forfeits)
    assert final.winner == 1 and final.champions["losers"] == 3


def test_lengths_per_bracket_and_a_correction():
    players = list(range(1, 9))
    config = Config(winners=Lengths(7, final=9), losers=Lengths(5), grand_final=Lengths(11, rounds={2: 7}))
    bracket = derive(players, {}, config)
    assert bracket.slot("winners:r3:m1").length == 9 and bracket.slot("winners:r1:m1").length == 7
    assert {s.length for s in bracket.slots if s.bracket == "losers"} == {5}
    assert bracket.slot("grand_final:r1:m1").length == 11 and bracket.slot("grand_final:r2:m1").length == 7
    first = {s.key: Result(min(s.players), max(s.players)) for s in bracket.round("winners", 1)}
    before = derive(players, first, config)
    after = derive(players, {**first, "winners:r1:m1": Result(8, 1)}, config)
    assert after.slot("winners:r2:m1").players == (8, 4)
    assert after.slot("losers:r1:m1").players == (1, 5)
    changed = {s.key for s, t in zip(before.slots, after.slots) if s != t}
    assert changed == {"winners:r1:m1", "winners:r2:m1", "losers:r1:m1"}
