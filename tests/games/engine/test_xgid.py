"""eXtreme Gammon's XGID, with its orientation checked against GNU Backgammon."""

from __future__ import annotations

import dataclasses
import json
import os
import random
import subprocess
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from games.engine.board import Position
from games.engine.casefile import position_from_json, read_cases
from games.engine.errors import NotationError, Reason
from games.engine.gnubgid import match_from_id, position_id
from games.engine.xgid import BOTTOM, TOP, CubeAction, XgidInfo, parse_xgid, xgid

from tests.refusals import innermost_reason

CASES = Path(__file__).resolve().parents[2] / "fixtures" / "gnubg" / "cases.jsonl"
GNUBG = "/usr/games/gnubg"
START_BOARD = "-b----E-C---eE---c-e----B-"


@st.composite
def positions(draw) -> Position:
    """15 checkers a side thrown at random over the 26 slots, no point shared."""
    mine = [0] * 26
    for slot in draw(st.lists(st.integers(0, 25), min_size=15, max_size=15)):
        mine[slot] += 1
    free = [0, 25] + [q for q in range(1, 25) if not mine[25 - q]]
    theirs = [0] * 26
    for slot in draw(st.lists(st.sampled_from(free), min_size=15, max_size=15)):
        theirs[slot] += 1
    return Position(tuple(mine), tuple(theirs))


# -- reading and writing -----------------------------------------------------


def test_examples_of_the_format():
    # the example used to describe XGID: the opening position, bottom player
    # to play 5-2, money game with Jacoby and beavers (3), max cube 2^10
    info = parse_xgid(f"XGID={START_BOARD}:0:0:1:52:0:0:3:0:10")
    assert info == XgidInfo(
        position=Position.start(), turn=BOTTOM, dice=(5, 2), jacoby=True, beaver=True, max_cube=1024
    )
    assert xgid(info) == f"XGID={START_BOARD}:0:0:1:52:0:0:3:0:10"
    # the same in a 7-point match, before the roll
    info = parse_xgid(f"XGID={START_BOARD}:0:0:1:00:0:0:0:7:10")
    assert info == XgidInfo(position=Position.start(), match_length=7)
    assert parse_xgid(f"{START_BOARD}:0:0:1:00:0:0:0:7:10") == info  # prefix optional


def test_orientation():
    # top player: 2 on the bar, 3 on its own 6 point (character 25 - 6 = 19);
    # bottom player: 1 on the bar, 5 on its 6 point, 2 on its 24 point
    board = "b" + "-----E" + "-" * 12 + "c" + "----B" + "A"
    assert len(board) == 26
    bottom_view = parse_xgid(f"XGID={board}:1:1:1:31:2:4:0:7:10")
    me, them = bottom_view.position
    assert (me[25], me[6], me[24], me[0]) == (1, 5, 2, 7)
    assert (them[25], them[6], them[0]) == (2, 3, 10)
    assert bottom_view.cube_value == 2 and bottom_view.cube_position == 1
    assert (bottom_view.score_bottom, bottom_view.score_top) == (2, 4)

    # turn -1: the same board, but the top player is on roll
    top_view = parse_xgid(f"XGID={board}:1:1:-1:31:2:4:0:7:10")
    assert top_view.turn == TOP
    assert top_view.position == bottom_view.position.swap()
    # the board string does not move with the turn
    assert xgid(top_view).split(":")[0] == f"XGID={board}"


def test_cube_actions():
    for letter, action in (("D", CubeAction.DOUBLE), ("B", CubeAction.BEAVER), ("R", CubeAction.RACCOON)):
        info = parse_xgid(f"XGID={START_BOARD}:1:0:-1:{letter}:0:0:2:0:10")
        assert info.cube_action is action and info.dice == (0, 0) and info.turn == TOP
        assert xgid(info) == f"XGID={START_BOARD}:1:0:-1:{letter}:0:0:2:0:10"


def test_crawford_and_money_rules():
    assert parse_xgid(f"XGID={START_BOARD}:0:0:1:00:4:2:1:5:10").crawford
    assert not parse_xgid(f"XGID={START_BOARD}:0:0:1:00:4:2:0:5:10").crawford
    for rules, jacoby, beaver in ((0, False, False), (1, True, False), (2, False, True), (3, True, True)):
        info = parse_xgid(f"XGID={START_BOARD}:0:0:1:00:0:0:{rules}:0:8")
        assert (info.jacoby, info.beaver, info.crawford, info.max_cube) == (jacoby, beaver, False, 256)


xgid_infos = st.builds(
    XgidInfo,
    position=positions(),
    turn=st.sampled_from([BOTTOM, TOP]),
    cube_value=st.sampled_from([1 << k for k in range(16)]),
    cube_position=st.sampled_from([-1, 0, 1]),
    max_cube=st.sampled_from([1 << k for k in range(16)]),
).flatmap(
    lambda info: st.one_of(
        # match play
        st.integers(1, 25).flatmap(
            lambda n: st.builds(
                dataclasses.replace,
                st.just(info),
                match_length=st.just(n),
                score_bottom=st.integers(0, n - 1),
                score_top=st.integers(0, n - 1),
                crawford=st.booleans(),
            )
        ),
        # money play
        st.builds(dataclasses.replace, st.just(info), jacoby=st.booleans(), beaver=st.booleans()),
    )
).flatmap(
    lambda info: st.one_of(
        st.builds(
            dataclasses.replace,
            st.just(info),
            dice=st.one_of(st.just((0, 0)), st.tuples(st.integers(1, 6), st.integers(1, 6))),
        ),
        st.builds(dataclasses.replace, st.just(info), cube_action=st.sampled_from(list(CubeAction))),
    )
)


@given(xgid_infos)
def test_round_trip(info):
    text = xgid(info)
    assert parse_xgid(text) == info
    board = text[5:31]
    # the board is drawn for the bottom player whoever is on roll
    bottom = info.position if info.turn == BOTTOM else info.position.swap()
    assert sum(ord(c) - ord("A") + 1 for c in board if c.isupper()) == 15 - bottom.mine[0]


@pytest.mark.parametrize(
    "text, message",
    [
        (f"XGID={START_BOARD}:0:0:1:00:0:0:0:7", Reason.XGID_FIELDS),
        (f"XGID={START_BOARD}:0:0:1:00:0:0:0:7:10:1", Reason.XGID_FIELDS),
        (f"XGID={START_BOARD[:-1]}:0:0:1:00:0:0:0:7:10", Reason.XGID_BOARD),
        (f"XGID=B{START_BOARD[1:]}:0:0:1:00:0:0:0:7:10", Reason.XGID_BOARD),  # upper case on the top bar
        (f"XGID={START_BOARD[:-1]}b:0:0:1:00:0:0:0:7:10", Reason.XGID_BOARD),  # lower case on the bottom bar
        ("XGID=-b----E-C---eE---c-e----Z-:0:0:1:00:0:0:0:7:10", Reason.XGID_BOARD),
        ("XGID=-b----E-C---eE---c-e----C-:0:0:1:00:0:0:0:7:10", (Reason.BOTTOM_TOO_MANY, Reason.TOP_TOO_MANY)),
        (f"XGID={START_BOARD}:0:0:0:00:0:0:0:7:10", Reason.XGID_TURN),
        (f"XGID={START_BOARD}:0:2:1:00:0:0:0:7:10", Reason.XGID_CUBE_POSITION),
        (f"XGID={START_BOARD}:x:0:1:00:0:0:0:7:10", Reason.WHOLE_FIELDS),
        (f"XGID={START_BOARD}:16:0:1:00:0:0:0:7:10", Reason.CUBE_FIELDS),
        (f"XGID={START_BOARD}:0:0:1:07:0:0:0:7:10", (Reason.XGID_DICE, Reason.ID_DICE)),
        (f"XGID={START_BOARD}:0:0:1:5:0:0:0:7:10", (Reason.XGID_DICE, Reason.ID_DICE)),
        (f"XGID={START_BOARD}:0:0:1:X:0:0:0:7:10", (Reason.XGID_DICE, Reason.ID_DICE)),
        (f"XGID={START_BOARD}:0:0:1:00:7:0:0:7:10", Reason.SCORE_BELOW_LENGTH),
        (f"XGID={START_BOARD}:0:0:1:00:0:0:2:7:10", Reason.RULES_FIELD),
        (f"XGID={START_BOARD}:0:0:1:00:0:0:4:0:10", Reason.RULES_FIELD),
        (f"XGID={START_BOARD}:0:0:1:00:0:0:0:-3:10", Reason.NEGATIVE_SCORES),
    ],
)
def test_malformed_xgids(text, message):
    with pytest.raises(NotationError) as refused:
        parse_xgid(text)
    assert innermost_reason(refused.value) in (message if isinstance(message, tuple) else (message,))


def test_impossible_states_are_not_written():
    for bad in (
        dict(turn=0),
        dict(cube_value=3),
        dict(dice=(0, 4)),
        dict(dice=(3, 1), cube_action=CubeAction.DOUBLE),
        dict(crawford=True),  # money game
        dict(match_length=5, jacoby=True),
        dict(match_length=5, score_top=5),
    ):
        with pytest.raises(NotationError):
            xgid(XgidInfo(position=Position.start(), **bad))


# -- agreement with gnubg ----------------------------------------------------


def expected_gnubg_view(info: XgidInfo) -> dict:
    """What gnubg should show after ``set xgid``, relative to the player on roll.

    gnubg may renumber its players 0/1 when it loads an XGID (it puts the
    player on roll at the bottom), so compare from the player on roll's seat.
    """
    mine_is_bottom = info.turn == BOTTOM
    return {
        "position_id": position_id(info.position),
        "cube_value": info.cube_value,
        "cube": {0: "centred", info.turn: "mine", -info.turn: "theirs"}[info.cube_position],
        "scores": (info.score_bottom, info.score_top) if mine_is_bottom else (info.score_top, info.score_bottom),
        "dice": tuple(sorted(info.dice, reverse=True)),
        "match_length": info.match_length,
        "crawford": info.crawford,
        "jacoby": info.jacoby,
    }


def gnubg_view(pid: str, mid: str) -> dict:
    m = match_from_id(mid)
    me = m.player_on_roll
    assert m.turn == me  # nobody is answering a double or resignation
    return {
        "position_id": pid,
        "cube_value": m.cube_value,
        "cube": "centred" if m.cube_owner is None else ("mine" if m.cube_owner == me else "theirs"),
        "scores": (m.score[me], m.score[1 - me]),
        "dice": m.dice,
        "match_length": m.match_length,
        "crawford": m.crawford,
        "jacoby": m.jacoby,
    }


# Produced by GNU Backgammon 1.07.001: "new match 1", "set xgid <XGID>", then
# gnubg.positionid() and gnubg.matchid(). Rows 5 and 6 describe the same
# game as rows 3 and 4, with the board drawn for the other player.
GNUBG_XGIDS = [
    (f"XGID={START_BOARD}:0:0:1:00:0:0:0:7:10", "4HPwATDgc/ABMA", "cAngAAAAAAAE"),
    (f"XGID={START_BOARD}:0:0:1:52:0:0:3:0:10", "4HPwATDgc/ABMA", "cIkKAAAAAAAA"),
    ("XGID=-dBBCBCB-A---a-------b-bf-:1:1:1:00:3:1:0:7:10", "vxkgADy2200AAA", "UQngABAAGAAE"),
    ("XGID=-dBBCBCB-A---a-------b-bf-:1:1:1:52:3:1:0:7:10", "vxkgADy2200AAA", "UYnqABAAGAAE"),
    ("XGID=-FB-B-------A---a-bcbcbbD-:1:-1:-1:00:1:3:0:7:10", "vxkgADy2200AAA", "UQngABAAGAAE"),
    ("XGID=-FB-B-------A---a-bcbcbbD-:1:-1:-1:52:1:3:0:7:10", "vxkgADy2200AAA", "UYnqABAAGAAE"),
    # the top player on roll, the bottom player owning the cube and leading 3-1
    ("XGID=-FB-B-------A---a-bcbcbbD-:1:1:-1:00:3:1:0:7:10", "vxkgADy2200AAA", "QQngADAACAAE"),
]


@pytest.mark.parametrize("text, pid, mid", GNUBG_XGIDS)
def test_xgids_recorded_from_gnubg(text, pid, mid):
    info = parse_xgid(text)
    assert expected_gnubg_view(info) == gnubg_view(pid, mid)
    assert xgid(info) == text


def test_both_drawings_of_one_game_read_the_same():
    a = parse_xgid(GNUBG_XGIDS[2][0])
    b = parse_xgid(GNUBG_XGIDS[4][0])
    assert a.position == b.position
    assert (a.turn, b.turn) == (BOTTOM, TOP)


LIVE_SCRIPT = """
import json, os, gnubg
_out = os.dup(1)
os.dup2(os.open(os.devnull, os.O_WRONLY), 1)
for c in ("set display off", "set player 0 human", "set player 1 human",
          "set automatic roll off", "set automatic game off"):
    gnubg.command(c)
for text in json.loads(os.environ["XGIDS"]):
    gnubg.command("new match 1")  # a state no test XGID has, to notice a refusal
    gnubg.command("set xgid " + text)
    line = json.dumps([text, gnubg.positionid(), gnubg.matchid()])
    os.write(_out, (line + "\\n").encode())
"""


def live_samples() -> list[XgidInfo]:
    """Real positions from the oracle cases, with varied cube, score and roll."""
    rng = random.Random(7)
    cases = list(read_cases(CASES))
    samples = []
    for case in rng.sample(cases, 60):
        length = rng.choice([0, 3, 5, 7, 11])
        info = XgidInfo(
            position=position_from_json(case["board"]),
            turn=rng.choice([BOTTOM, TOP]),
            dice=rng.choice([(0, 0), tuple(case["dice"])]),
            cube_value=rng.choice([1, 2, 4, 8]),
            cube_position=rng.choice([-1, 0, 1]),
            match_length=length,
            score_bottom=rng.randrange(length) if length else 0,
            score_top=rng.randrange(length) if length else 0,
            jacoby=not length and rng.random() < 0.5,
        )
        if info.cube_value == 1:
            info = dataclasses.replace(info, cube_position=0)
        if length and length - 1 in (info.score_bottom, info.score_top) and rng.random() < 0.5:
            # nobody doubles in the Crawford game (gnubg resets such a cube)
            info = dataclasses.replace(info, crawford=True, cube_value=1, cube_position=0)
        samples.append(info)
    return samples


@pytest.mark.skipif(not Path(GNUBG).exists(), reason="GNU Backgammon is not installed")
def test_orientation_agrees_with_live_gnubg(tmp_path):
    samples = live_samples()
    texts = [xgid(info) for info in samples]
    script = tmp_path / "script.py"
    script.write_text(LIVE_SCRIPT)
    result = subprocess.run(
        [GNUBG, "-t", "-q", "-r", "-p", str(script)],
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=600,
        env={**os.environ, "XGIDS": json.dumps(texts)},
    )
    answers = [json.loads(line) for line in result.stdout.splitlines() if line.startswith("[")]
    assert [a[0] for a in answers] == texts
    assert any(info.turn == TOP for info in samples) and any(info.turn == BOTTOM for info in samples)
    for info, (text, pid, mid) in zip(samples, answers):
        assert gnubg_view(pid, mid) == expected_gnubg_view(info), text
