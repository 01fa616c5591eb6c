"""The fast legal-move generator against cases it was not tuned on.

Two independent checks of :func:`games.engine.legal_moves`:

* ``cases_seed20261121.jsonl``: a second set of GNU Backgammon cases, made
  with another seed than ``cases.jsonl`` (the benchmark set): 2,800 cases
  (700 bar, 560 bear-off, 280 race, 1,260 contact; 443 doubles, 167 without
  a legal play), made with gnubg 1.07 by ``python3
  /work/shared/oracle/tools/gen_cases.py --n 2800 --seed 20261121 --mix
  bar=0.25,bearoff=0.20,race=0.10,contact=0.45 --out cases_seed20261121.jsonl
  --games-out /tmp/games.jsonl``. It is gnubg's output and is never edited.
* A property test against a reference generator written here in the plainest
  way: every die order, die by die, every checker, then the max-dice and
  higher-die rules, plays deduplicated by resulting position. It shares no
  code with the engine and runs on random boards (15 checkers a side spread
  over 26 slots, no point shared; four styles of board) with random dice.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.engine import Position, legal_moves
from games.engine.board import BAR
from games.engine.casefile import check_case, read_cases

from .positions import position, results

EXTRA_CASES = Path(__file__).resolve().parents[2] / "fixtures" / "gnubg" / "cases_seed20261121.jsonl"


# -- gnubg's cases --------------------------------------------------------------


def _extra_cases() -> list[dict]:
    return list(read_cases(EXTRA_CASES))


def test_extra_case_file_is_a_fresh_full_set():
    cases = _extra_cases()
    assert len(cases) == 2800
    assert {c["category"] for c in cases} == {"bar", "bearoff", "race", "contact"}
    assert sum(c["dice"][0] == c["dice"][1] for c in cases) > 300
    assert any(c["n_legal"] == 0 for c in cases)
    assert all(c["n_legal"] == len(c["legal"]) for c in cases)


@pytest.mark.parametrize("category", ["bar", "bearoff", "race", "contact"])
def test_engine_agrees_with_gnubg_on_every_extra_case(category):
    cases = [c for c in _extra_cases() if c["category"] == category]
    assert cases
    disagreements = [str(d) for d in map(check_case, cases) if d is not None]
    assert not disagreements, f"{len(disagreements)} of {len(cases)} disagree:\n" + "\n".join(disagreements[:5])


# -- corners of the fast paths that random boards seldom reach ---------------------


def test_only_one_die_from_the_bar_the_higher_one():
    # either die enters, but no checker can move on afterwards (14 closed, the
    # rest on the 1 point): the 6 must be played, not the 5
    pos = position({25: 1, 1: 14}, {14: 2, 24: 13})
    for dice in ((6, 5), (5, 6)):
        assert results(legal_moves(pos, dice)) == {"bar/19"}


def test_lower_die_first_then_a_hit_with_the_higher():
    # 13/7 is closed, so 13/12/6* is the only way, and the 6 hits
    pos = position({13: 2, 2: 13}, {7: 2, 6: 1, 24: 12})
    (only,) = legal_moves(pos, (6, 1))
    assert only.steps == ((13, 12, False), (12, 6, True))
    assert str(only) == "13/6*" and only.position.theirs[BAR] == 1


# -- the reference generator ----------------------------------------------------
#
# Sides are 26-tuples in their own numbering (0 off, 1..24 points, 25 bar); the
# opponent's checkers on the mover's point t are theirs[25 - t].


def ref_single_moves(mine, theirs, die):
    """Every (from, to) one checker can move with ``die`` now."""
    if mine[25]:
        to = 25 - die
        return [(25, to)] if theirs[25 - to] < 2 else []
    all_home = not any(mine[7:26])
    moves = []
    for source in range(24, 0, -1):
        if not mine[source]:
            continue
        to = source - die
        if to >= 1:
            if theirs[25 - to] < 2:
                moves.append((source, to))
        elif all_home and (to == 0 or not any(mine[source + 1 : 7])):
            moves.append((source, 0))
    return moves


def ref_apply(mine, theirs, source, to):
    """The sides after one checker moves; a blot on ``to`` goes to the bar."""
    mine = list(mine)
    theirs = list(theirs)
    mine[source] -= 1
    mine[to] += 1
    hit = to > 0 and theirs[25 - to] == 1
    if hit:
        theirs[25 - to] = 0
        theirs[25] += 1
    return tuple(mine), tuple(theirs), hit


def ref_legal_positions(position, dice) -> set:
    """The distinct positions of all legal plays (empty: the roll is forfeited)."""
    d1, d2 = dice
    orders = [(d1,) * 4] if d1 == d2 else [(d1, d2), (d2, d1)]
    finished = []  # (dice played, position), for every way a play can end
    seen = set()  # states already walked: the same state ends the same ways

    def walk(mine, theirs, remaining, played):
        if (mine, theirs, remaining) in seen:
            return
        seen.add((mine, theirs, remaining))
        moves = ref_single_moves(mine, theirs, remaining[0]) if remaining else []
        if not moves:
            finished.append((played, Position(mine, theirs)))
            return
        for source, to in moves:
            after_mine, after_theirs, _ = ref_apply(mine, theirs, source, to)
            walk(after_mine, after_theirs, remaining[1:], played + (remaining[0],))

    for order in orders:
        walk(tuple(position.mine), tuple(position.theirs), order, ())
    most = max(len(played) for played, _ in finished)
    if most == 0:
        return set()
    kept = [(played, pos) for played, pos in finished if len(played) == most]
    if most == 1 and d1 != d2 and any(played == (max(dice),) for played, _ in kept):
        kept = [(played, pos) for played, pos in kept if played == (max(dice),)]
    return {pos for _, pos in kept}


def ref_replay(position, dice, steps):
    """Replay a play's steps, each a legal single move of a die still unused.

    Returns the position reached; fails on an illegal step or a wrong hit flag.
    """
    mine, theirs = tuple(position.mine), tuple(position.theirs)
    remaining = [dice[0]] * 4 if dice[0] == dice[1] else list(dice)
    for step in steps:
        dies = [d for d in set(remaining) if (step.from_point, step.to_point) in ref_single_moves(mine, theirs, d)]
        assert dies, f"step {step} is no legal move of {remaining} in {Position(mine, theirs)}"
        remaining.remove(min(dies))
        mine, theirs, hit = ref_apply(mine, theirs, step.from_point, step.to_point)
        assert hit == step.hit, f"step {step}: hit should be {hit}"
    return Position(mine, theirs)


# -- random boards --------------------------------------------------------------
#
# Uniform spreads rarely give the positions where the rules are subtle (one
# checker left outside before bearing off, four on the bar against a double),
# so the mover's checkers follow one of four styles, each tested on its own.

HOME = list(range(0, 7))  # off and the home board
NEAR = list(range(7, 13)) + [18, 25]  # just outside, or far, or on the bar


@st.composite
def boards(draw, style: str) -> Position:
    """15 checkers a side over off, points and bar; no point holds both colours."""
    if style == "anywhere":
        top = draw(st.sampled_from([9, 12, 24]))
        slots = draw(st.lists(st.sampled_from([*range(top + 1)] * 3 + [25]), min_size=15, max_size=15))
    elif style == "home":
        slots = draw(st.lists(st.sampled_from(HOME), min_size=15, max_size=15))
    elif style == "almost_home":  # one to four checkers still to come home
        outside = draw(st.integers(1, 4))
        slots = draw(st.lists(st.sampled_from(NEAR), min_size=outside, max_size=outside))
        slots += draw(st.lists(st.sampled_from(HOME), min_size=15 - outside, max_size=15 - outside))
    else:  # "bar": one to six checkers on the bar
        on_bar = draw(st.integers(1, 6))
        slots = [25] * on_bar + draw(st.lists(st.integers(0, 24), min_size=15 - on_bar, max_size=15 - on_bar))
    mine = [0] * 26
    for slot in slots:
        mine[slot] += 1
    # the opponent's point q is the mover's 25 - q; its spread is drawn too
    top = draw(st.sampled_from([6, 12, 24]))
    allowed = [q for q in [*range(top + 1)] * 3 + [25] if q in (0, 25) or not mine[25 - q]]
    theirs = [0] * 26
    for slot in draw(st.lists(st.sampled_from(allowed), min_size=15, max_size=15)):
        theirs[slot] += 1
    return Position(tuple(mine), tuple(theirs)).validated()


# doubles take more than their 1 in 6: four dice reach more of the rules
dice_rolls = st.one_of(st.tuples(st.integers(1, 6), st.integers(1, 6)), st.integers(1, 6).map(lambda d: (d, d)))


@pytest.mark.parametrize("style", ["anywhere", "home", "almost_home", "bar"])
@settings(max_examples=250, deadline=None, database=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_generator_matches_the_reference_generator(style, data):
    position = data.draw(boards(style), label="position")
    dice = data.draw(dice_rolls, label="dice")
    plays = legal_moves(position, dice)
    got = [p.position for p in plays]
    assert len(got) == len(set(got)), "a resulting position is listed twice"
    assert set(got) == ref_legal_positions(position, dice)
    for p in plays:
        assert ref_replay(position, dice, p.steps) == p.position
    assert len({len(p.steps) for p in plays}) <= 1, "every play uses the same number of dice"
