"""Names and scores of a written ``.mat`` read back, by the engine's reader and by GNU Backgammon's ``import mat``.

A name is 1 to 60 characters (letters with or without accents, digits, spaces inside), a score up to 99.

The engine's reader must give back every name whole (from the ``; [Player N]`` headers) and every game's score. gnubg
must give back every game's score exactly, and each name as ``gnubg_name`` writes it on the score line: its first 31
bytes of UTF-8, cut before a character that would be split, trailing spaces dropped. gnubg 1.07.001 (Debian's source)
holds a name in ``char szName[MAX_NAME_LEN]`` with ``#define MAX_NAME_LEN 32`` (backgammon.h, lines 35 and 78); its
mat importer (import.c, ``ImportGame``, lines 893 and 911) cuts a score line's name at ``MAX_NAME_LEN - 1`` bytes, the
31 before the terminator, then drops trailing spaces (lines 929-931 and 941-943). So a name past 31 bytes is compared
on what gnubg can hold, never whole.

gnubg refuses a match longer than ``MAXSCORE`` points (``#define MAXSCORE 64``, matchequity.h line 26; checked in
import.c ``ImportMatVariation``, line 1153: "Match length must be between 0 (unlimited session) and 64"). A drawn
score that would need a match over 64 points is written as a money session (length 0), which gnubg imports with its
scores.
"""

import json
import os
import subprocess
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.engine import commands as c
from games.engine.match import decide, evolve, MatchState
from games.engine.matfile import gnubg_name, parse_mat, read_mat, write_mat

from .test_matfile import GNUBG

LETTERS = st.characters(categories=("Lu", "Ll", "Nd"), max_codepoint=0x24F)


def _names(min_inside: int):
    return st.builds(lambda first, inside, last: first + inside + last,
                     LETTERS, st.text(st.one_of(LETTERS, st.just(" ")), min_size=min_inside, max_size=58), LETTERS)


# as many long names (past gnubg's 31 bytes, past the 32 columns of the layout) as short ones
NAMES = LETTERS | _names(0) | _names(26)
SCORES = st.integers(min_value=0, max_value=99)
GNUBG_MAXSCORE = 64  # matchequity.h: the longest match gnubg imports


@st.composite
def matches(draw):
    """Two games: the first from the drawn score, resigned; the second opened at the score that follows."""
    names = (draw(NAMES), draw(NAMES))
    if names[0] == names[1]:
        names = (names[0], names[1][:-1] + ("a" if names[1][-1] != "a" else "b"))
    score = (draw(SCORES), draw(SCORES))
    # gnubg imports matches of up to MAXSCORE points: beyond, a money session carries the scores
    length = max(score) + 2 if max(score) + 2 <= GNUBG_MAXSCORE else 0
    state, events = MatchState(), []
    for command in (c.StartMatch(names, length, initial_score=score, imported=True), c.Roll(None, (3, 1), "imported"),
                    c.Move(0, "8/5 6/5"), c.Resign(1, "single"), c.AcceptResignation(0),
                    c.Roll(None, (6, 5), "imported")):
        for event in decide(state, command):
            state = evolve(state, event)
            events.append(event)
    return names, [score, (score[0] + 1, score[1])], events


def _written_back(case):
    names, scores, events = case
    text = write_mat(events)
    _, _, games = parse_mat(text)
    assert [g.score for g in games] == scores
    assert games[0].names == names and read_mat(text).players == names
    return text


@given(matches())
@settings(max_examples=100)
def test_names_and_scores_read_back_from_write_mat(case):
    _written_back(case)


def test_a_long_first_name_keeps_the_second_apart():
    for first in ("Johan HUYCK Michael LARSEN", "Johan HUYCK Michael LARSEN et al. 12", "É" * 40):
        state, events = MatchState(), []
        for command in (c.StartMatch((first, "Bob"), 13, initial_score=(10, 11), imported=True),
                        c.Roll(None, (3, 1), "imported")):
            for event in decide(state, command):
                state = evolve(state, event)
                events.append(event)
        _, _, games = parse_mat(write_mat(events))
        assert games[0].names == (first, "Bob") and games[0].score == (10, 11)


@pytest.mark.skipif(not os.path.exists(GNUBG), reason="GNU Backgammon is not installed")
@given(st.lists(matches(), min_size=1, max_size=12))
@settings(max_examples=6)
def test_gnubg_imports_the_names_and_scores_write_mat_writes(tmp_path_factory, cases):
    files = tmp_path_factory.mktemp("names")
    for i, case in enumerate(cases):
        (files / f"{i:02d}.mat").write_text(_written_back(case))
    out = files / "gnubg.json"
    env = dict(os.environ, MAT_DIR=str(files), OUT_FILE=str(out))
    subprocess.run([GNUBG, "-t", "-q", "-r", "-p", str(Path(__file__).with_name("gnubg_read_mat.py"))], env=env,
                   stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, check=True, timeout=600)
    seen = {d["file"]: d for d in map(json.loads, out.read_text().splitlines())}
    for i, (names, scores, _) in enumerate(cases):
        got = seen[f"{i:02d}.mat"]
        assert got["names"] == [gnubg_name(n) for n in names]
        assert got["scores"] == [list(s) for s in scores]
