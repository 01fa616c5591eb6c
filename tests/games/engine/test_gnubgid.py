"""gnubg Position ID and Match ID, checked against GNU Backgammon 1.07."""

from __future__ import annotations

import base64
import dataclasses
import json
import os
import subprocess
from pathlib import Path

import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

from games.engine.board import Position
from games.engine.casefile import position_from_json, read_cases
from games.engine.errors import NotationError, Reason
from games.engine.gnubgid import (
    GameState,
    MatchIdInfo,
    Resignation,
    match_from_id,
    match_id,
    position_from_id,
    position_id,
)

from tests.refusals import innermost_reason

CASES = Path(__file__).resolve().parents[2] / "fixtures" / "gnubg" / "cases.jsonl"
GNUBG = "/usr/games/gnubg"


# -- helpers -----------------------------------------------------------------


@st.composite
def positions(draw) -> Position:
    """15 checkers a side thrown at random over the 26 slots, no point shared."""
    mine = [0] * 26
    for slot in draw(st.lists(st.integers(0, 25), min_size=15, max_size=15)):
        mine[slot] += 1
    # the opponent's point q is the mover's point 25 - q
    free = [0, 25] + [q for q in range(1, 25) if not mine[25 - q]]
    theirs = [0] * 26
    for slot in draw(st.lists(st.sampled_from(free), min_size=15, max_size=15)):
        theirs[slot] += 1
    return Position(tuple(mine), tuple(theirs))


def closed_and_both_on_bar(p: Position) -> bool:
    return bool(p.mine[25] and p.theirs[25]) and all(p.mine[i] >= 2 and p.theirs[i] >= 2 for i in range(1, 7))


def raw_position_id(theirs: list[int], mine: list[int]) -> str:
    """An unchecked encoder straight from the manual's recipe (slots 1..25 a side)."""
    bits = "".join("1" * n + "0" for side in (theirs, mine) for n in side).ljust(80, "0")
    data = bytes(int(bits[i : i + 8][::-1], 2) for i in range(0, 80, 8))
    return base64.b64encode(data).decode()[:14]


def raw_match_id(fields: dict[int, tuple[int, int]]) -> str:
    """Set ``{first bit: (size, value)}`` in a 72-bit key, no checks."""
    key = 0
    for start, (size, value) in fields.items():
        assert value < 1 << size
        key |= value << start
    return base64.b64encode(key.to_bytes(9, "little")).decode()


def board_to_position(board) -> Position:
    """gnubg's ``(opponent, on roll)`` pair of 25-tuples -> Position."""
    opp, me = board
    mine = (15 - sum(me),) + tuple(me)
    theirs = (15 - sum(opp),) + tuple(opp)
    return Position(mine, theirs)


def run_gnubg(script: str, tmp_path: Path, **env: str) -> list:
    """Run ``script`` in gnubg's embedded Python; it prints one JSON value a line."""
    path = tmp_path / "script.py"
    path.write_text(script)
    result = subprocess.run(
        [GNUBG, "-t", "-q", "-r", "-p", str(path)],
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=600,
        env={**os.environ, **env},
    )
    return [json.loads(line) for line in result.stdout.splitlines() if line.startswith(("[", "{"))]


# gnubg prints boards on fd 1 whatever we do: send them away, keep our own copy.
GNUBG_PRELUDE = """
import json, os, gnubg
_out = os.dup(1)
os.dup2(os.open(os.devnull, os.O_WRONLY), 1)
def emit(value):
    os.write(_out, (json.dumps(value) + "\\n").encode())
for c in ("set display off", "set player 0 human", "set player 1 human",
          "set automatic roll off", "set automatic game off"):
    gnubg.command(c)
"""

needs_gnubg = pytest.mark.skipif(not Path(GNUBG).exists(), reason="GNU Backgammon is not installed")


# -- Position ID -------------------------------------------------------------


def test_start_position():
    assert position_id(Position.start()) == "4HPwATDgc/ABMA"
    assert position_from_id("4HPwATDgc/ABMA") == Position.start()


def test_the_opponent_comes_first_in_the_key():
    # one mover checker on the bar, everything else off: the opponent's 25 zero
    # bits come first, then 24 zeros and a one for the mover's bar
    lone = Position.from_points({25: 1}, {})
    assert position_id(lone) == raw_position_id([0] * 25, [0] * 24 + [1])
    assert position_id(lone.swap()) == raw_position_id([0] * 24 + [1], [0] * 25)


def test_every_oracle_case_matches_gnubg():
    """2,000 positions and every legal result, as gnubg printed their IDs."""
    checked = 0
    for case in read_cases(CASES):
        position = position_from_json(case["board"])
        assert position_id(position) == case["gnubg_position_id"], case["id"]
        assert position_from_id(case["gnubg_position_id"]) == position, case["id"]
        for result in case["legal"]:
            after = position_from_json(result).swap()  # the opponent is on roll next
            assert position_id(after) == result["gnubg_id_after"], (case["id"], result["move"])
            assert position_from_id(result["gnubg_id_after"]) == after
            checked += 1
    assert checked > 25_000


@given(positions())
def test_position_round_trip(position):
    assume(not closed_and_both_on_bar(position))
    text = position_id(position)
    assert len(text) == 14
    assert position_from_id(text) == position


@pytest.mark.parametrize(
    "text, message",
    [
        ("4HPwATDgc/ABM", Reason.BASE64_LENGTH),  # too short
        ("4HPwATDgc/ABMAA", Reason.BASE64_LENGTH),  # too long
        ("4HPwATDgc/AB=A", Reason.BASE64_LENGTH),  # padding character
        ("4HPwATDgc ABMA", Reason.BASE64_LENGTH),
        ("4HPwATDgc/ABMB", Reason.STRAY_BITS),  # the last character keeps 4 unused bits
        ("//////////////"[:13] + "w", (Reason.ROLLER_TOO_MANY, Reason.OPPONENT_TOO_MANY)),  # all ones
        (raw_position_id([16] + [0] * 24, [0] * 25), (Reason.ROLLER_TOO_MANY, Reason.OPPONENT_TOO_MANY)),
        (raw_position_id([0] * 25, [0] * 24 + [16]), (Reason.ROLLER_TOO_MANY, Reason.OPPONENT_TOO_MANY)),
        # opponent's point 24 (index 23) is the mover's point 1
        (raw_position_id([0] * 23 + [1, 0], [1] + [0] * 24), Reason.BOTH_ON_POINT),
        (raw_position_id([2] * 6 + [0] * 18 + [1], [2] * 6 + [0] * 18 + [1]), Reason.BOTH_ON_BAR),
    ],
)
def test_malformed_position_ids(text, message):
    with pytest.raises(NotationError) as refused:
        position_from_id(text)
    assert innermost_reason(refused.value) in (message if isinstance(message, tuple) else (message,))


def test_padding_after_the_last_point_is_refused():
    good = position_id(Position.from_points({6: 1}, {6: 1}))  # few bits used
    data = bytearray(base64.b64decode(good + "=="))
    data[8] |= 0x01  # bit 64, well past the 50th zero
    with pytest.raises(NotationError) as refused:
        position_from_id(base64.b64encode(bytes(data)).decode()[:14])
    assert refused.value.reason is Reason.PAST_LAST_POINT


# -- Match ID ----------------------------------------------------------------

# Produced by GNU Backgammon 1.07.001 (gnubg -t -q -r -p, embedded Python):
# players 0 and 1 human, automatic roll/game off, the commands shown, then
# gnubg.matchid(). The expected fields were read from gnubg.posinfo() and
# gnubg.cubeinfo() at the same moment.
GNUBG_MATCH_IDS = [
    # new match 7 (gnubg rolled the opening 3-2 for player 0)
    ("MIHpAAAAAAAE", MatchIdInfo(player_on_roll=0, turn=0, dice=(3, 2), match_length=7)),
    # new match 5; set score 4 2; set crawford on
    ("8AmzAEAAEAAE", MatchIdInfo(player_on_roll=1, turn=1, dice=(6, 4), match_length=5, score=(4, 2), crawford=True)),
    # new match 9; set score 2 3; set turn 1; double
    (
        "cBEgASAAGAAE",
        MatchIdInfo(player_on_roll=1, turn=0, double_offered=True, match_length=9, score=(2, 3)),
    ),
    # ... take; roll (3-1); resign gammon
    (
        "QcElASAAGAAE",
        MatchIdInfo(
            cube_value=2,
            cube_owner=0,
            player_on_roll=1,
            turn=0,
            resignation=Resignation.GAMMON,
            dice=(3, 1),
            match_length=9,
            score=(2, 3),
        ),
    ),
    # new match 7; set score 3 5; set turn 0; set cube value 4; set cube owner 1
    ("EgHgADAAKAAE", MatchIdInfo(cube_value=4, cube_owner=1, match_length=7, score=(3, 5))),
    # new match 3; set turn 0; double; drop
    ("MAxgABAAAAAE", MatchIdInfo(game_state=GameState.DROPPED, turn=1, match_length=3, score=(1, 0))),
    # new match 3; set turn 1; resign single; accept
    (
        "cCNgABAAAAAE",
        MatchIdInfo(
            game_state=GameState.RESIGNED,
            player_on_roll=1,
            resignation=Resignation.SINGLE,
            match_length=3,
            score=(1, 0),
        ),
    ),
    # new session (money, Jacoby rule on by default; opening 5-1 for player 0)
    ("MIEGAAAAAAAA", MatchIdInfo(dice=(5, 1), jacoby=True)),
    # the example of gnubg's manual: money, centred cube, player 1 to roll
    ("cAkAAAAAAAAA", MatchIdInfo(player_on_roll=1, turn=1, jacoby=True)),
]


@pytest.mark.parametrize("text, info", GNUBG_MATCH_IDS)
def test_match_ids_recorded_from_gnubg(text, info):
    assert match_from_id(text) == info
    assert match_id(info) == text


def test_dice_are_written_higher_first_like_gnubg():
    assert match_id(MatchIdInfo(dice=(1, 3))) == match_id(MatchIdInfo(dice=(3, 1)))
    assert match_from_id(match_id(MatchIdInfo(dice=(1, 3)))).dice == (3, 1)


match_infos = st.builds(
    MatchIdInfo,
    cube_value=st.sampled_from([1 << k for k in range(16)]),
    cube_owner=st.sampled_from([0, 1, None]),
    player_on_roll=st.sampled_from([0, 1]),
    game_state=st.sampled_from(list(GameState)),
    turn=st.sampled_from([0, 1]),
    double_offered=st.booleans(),
    resignation=st.sampled_from(list(Resignation)),
    dice=st.one_of(st.just((0, 0)), st.tuples(st.integers(1, 6), st.integers(1, 6))),
    jacoby=st.booleans(),
    match_length=st.integers(0, (1 << 15) - 1),
).flatmap(
    lambda info: st.builds(
        dataclasses.replace,
        st.just(info),
        crawford=st.booleans() if info.match_length else st.just(False),
        score=st.tuples(
            st.integers(0, info.match_length or (1 << 15) - 1),
            st.integers(0, info.match_length or (1 << 15) - 1),
        ),
    )
)


@given(match_infos)
def test_match_round_trip(info):
    text = match_id(info)
    assert len(text) == 12
    expected = dataclasses.replace(info, dice=tuple(sorted(info.dice, reverse=True)))
    assert match_from_id(text) == expected


def _key(**overrides: tuple[int, int]) -> str:
    """A valid key (money, centred cube, playing) with some bit fields replaced."""
    fields = {0: (4, 0), 4: (2, 3), 8: (3, 1)}
    fields.update({int(k[1:]): v for k, v in overrides.items()})
    return raw_match_id(fields)


@pytest.mark.parametrize(
    "text, message",
    [
        ("cAkAAAAAAAA", Reason.BASE64_LENGTH),
        ("cAkAAAAAAAAAA", Reason.BASE64_LENGTH),
        ("cAkAAAAAAA-A", Reason.BASE64_LENGTH),
        (_key(b67=(1, 1)), Reason.PAST_BIT_66),
        (_key(b70=(2, 3)), Reason.PAST_BIT_66),
        (_key(b4=(2, 2)), Reason.OWNER_BITS),
        (_key(b8=(3, 5)), Reason.GAME_STATE),
        (_key(b8=(3, 7)), Reason.GAME_STATE),
        (_key(b15=(3, 7), b18=(3, 1)), Reason.ID_DICE),
        (_key(b15=(3, 4)), Reason.ID_DICE),  # one die rolled, the other not
        (_key(b7=(1, 1)), Reason.MONEY_CRAWFORD),  # Crawford in a money game
        (_key(b21=(15, 5), b36=(15, 6)), Reason.SCORE_FIT),  # 6 in a 5-point match
    ],
)
def test_malformed_match_ids(text, message):
    with pytest.raises(NotationError) as refused:
        match_from_id(text)
    assert innermost_reason(refused.value) is message


@pytest.mark.parametrize(
    "info",
    [
        MatchIdInfo(cube_value=3),
        MatchIdInfo(cube_value=1 << 16),
        MatchIdInfo(cube_owner=2),
        MatchIdInfo(player_on_roll=2),
        MatchIdInfo(dice=(0, 3)),
        MatchIdInfo(dice=(7, 1)),
        MatchIdInfo(match_length=1 << 15),
        MatchIdInfo(match_length=3, score=(4, 0)),
        MatchIdInfo(crawford=True),
    ],
)
def test_impossible_match_states_are_not_encoded(info):
    with pytest.raises(NotationError):
        match_id(info)


# -- live gnubg ----------------------------------------------------------------

LIVE_MATCH_SCRIPT = (
    GNUBG_PRELUDE
    + """
def state(label):
    info = dict(gnubg.posinfo())
    cube = {k: v for k, v in gnubg.cubeinfo().items() if k != "gammonprice"}
    emit({"label": label, "matchid": gnubg.matchid(), "positionid": gnubg.positionid(),
          "board": gnubg.board(), "posinfo": info, "cubeinfo": cube})

for sequence in json.loads(os.environ["SEQUENCES"]):
    for c in sequence:
        gnubg.command(c)
    state(" ; ".join(sequence))
"""
)

LIVE_SEQUENCES = [
    ["new match 7"],
    ["set score 3 5"],
    ["set turn 1", "set cube value 8", "set cube owner 0"],
    ["set dice 2 5"],
    ["set board vxkgADy2200AAA"],
    ["new match 5", "set score 4 2", "set crawford on"],
    ["new match 11", "set score 9 9", "set turn 0", "double"],
    ["take"],
    ["set dice 6 6"],
    ["resign backgammon"],
    ["reject"],
    ["new match 3", "set turn 1", "resign gammon", "accept"],
    ["new match 3", "set turn 0", "double", "drop"],
    ["new session"],
    ["set jacoby off", "new session", "set cube value 16", "set cube owner 1"],
]


@needs_gnubg
def test_match_ids_agree_with_live_gnubg(tmp_path):
    states = run_gnubg(LIVE_MATCH_SCRIPT, tmp_path, SEQUENCES=json.dumps(LIVE_SEQUENCES))
    assert len(states) == len(LIVE_SEQUENCES)
    for s in states:
        pos, cube = s["posinfo"], s["cubeinfo"]
        expected = MatchIdInfo(
            cube_value=cube["cube"],
            cube_owner=None if cube["cubeowner"] == -1 else cube["cubeowner"],
            player_on_roll=cube["move"],
            crawford=bool(cube["crawford"]),
            game_state=GameState(pos["gamestate"]),
            turn=pos["turn"],
            double_offered=bool(pos["doubled"]),
            resignation=Resignation(pos["resigned"]),
            dice=tuple(sorted(pos["dice"], reverse=True)),
            match_length=cube["matchto"],
            score=tuple(cube["score"]),
            jacoby=bool(cube["jacoby"]),
        )
        assert match_from_id(s["matchid"]) == expected, s["label"]
        assert match_id(expected) == s["matchid"], s["label"]
        position = board_to_position(s["board"])
        assert position_id(position) == s["positionid"], s["label"]
        assert position_from_id(s["positionid"]) == position, s["label"]
    # the sequence reached the states it was meant to test
    seen = {match_from_id(s["matchid"]).game_state for s in states}
    assert {GameState.PLAYING, GameState.RESIGNED, GameState.DROPPED} <= seen
    infos = [match_from_id(s["matchid"]) for s in states]
    assert any(i.double_offered for i in infos)
    assert any(i.resignation is Resignation.BACKGAMMON for i in infos)
    assert any(i.crawford for i in infos)
    assert any(i.cube_owner == 0 and i.cube_value == 8 for i in infos)
    assert any(s["positionid"] == "vxkgADy2200AAA" for s in states)


LIVE_POSITION_SCRIPT = (
    GNUBG_PRELUDE
    + """
gnubg.command("new game")
for pid in json.loads(os.environ["IDS"]):
    emit([pid, gnubg.positionid(gnubg.positionfromid(pid)), gnubg.positionfromid(pid)])
"""
)


@needs_gnubg
def test_random_positions_agree_with_live_gnubg(tmp_path):
    """Random boards (not from games) read back by gnubg itself."""
    ids = []

    @given(positions())
    def collect(position):
        assume(not closed_and_both_on_bar(position))
        ids.append(position_id(position))

    collect()
    answers = run_gnubg(LIVE_POSITION_SCRIPT, tmp_path, IDS=json.dumps(ids))
    assert len(answers) == len(ids) > 50
    for pid, gnubg_pid, board in answers:
        assert gnubg_pid == pid
        assert position_from_id(pid) == board_to_position(board)
