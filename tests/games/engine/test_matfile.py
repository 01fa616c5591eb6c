"""Jellyfish .mat files: gnubg's matches replayed, written back, read by gnubg again."""

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from games.engine import events as ev
from games.engine.errors import Reason
from games.engine.matfile import MatFileError, read_mat, write_mat

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures" / "gnubg"
MATCHES = sorted((FIXTURES / "matches").glob("*.mat"))
SAMPLES = sorted((FIXTURES / "samples").glob("*.mat"))
INDEX = {row["file"]: row for row in json.loads((FIXTURES / "matches" / "index.json").read_text())}
GNUBG = "/usr/games/gnubg"
KEYS = ("file", "length", "winner", "final_score", "games", "crawford_game", "resigned_games")


def text(name: str) -> str:
    return (FIXTURES / "matches" / name).read_text()


def test_replay_mat_json_equals_gnubgs_index_for_every_match():
    run = subprocess.run(
        [sys.executable, "-m", "games.engine", "replay-mat", "--json", *map(str, MATCHES)],
        capture_output=True, text=True, check=True,
    )
    lines = [json.loads(line) for line in run.stdout.splitlines()]
    assert len(lines) == len(MATCHES) == 50
    for got in lines:
        assert set(got) == set(KEYS)
        assert got == {k: INDEX[got["file"]][k] for k in KEYS}


def test_replay_mat_plain_prints_one_line_per_file():
    run = subprocess.run(
        [sys.executable, "-m", "games.engine", "replay-mat", str(MATCHES[2])], capture_output=True, text=True
    )
    assert run.returncode == 0
    assert run.stdout == "match_003_5pt.mat: 5-point match, Alice wins, Alice 6 Bob 1, 3 games, Crawford game 2\n"


@pytest.mark.parametrize("path", MATCHES + SAMPLES, ids=lambda p: p.name)
def test_export_and_read_again_gives_the_same_events(path):
    record = read_mat(path.read_text())
    again = read_mat(write_mat(record.events))
    assert again.events == record.events


@pytest.mark.skipif(not os.path.exists(GNUBG), reason="GNU Backgammon is not installed")
def test_gnubg_imports_our_exports_with_the_same_moves_and_results(tmp_path):
    records = {}
    for path in MATCHES:
        record = read_mat(path.read_text())
        records[path.name] = record
        (tmp_path / path.name).write_text(write_mat(record.events))
    script = Path(__file__).with_name("gnubg_read_mat.py")
    env = dict(os.environ, MAT_DIR=str(tmp_path), OUT_FILE=str(tmp_path / "gnubg.json"))
    subprocess.run(
        [GNUBG, "-t", "-q", "-r", "-p", str(script)], env=env,
        stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, check=True, timeout=600,
    )
    seen = [json.loads(line) for line in (tmp_path / "gnubg.json").read_text().splitlines()]
    assert len(seen) == len(MATCHES)
    for gnubg_read in seen:
        record = records[gnubg_read["file"]]
        assert gnubg_read["length"] == record.length, gnubg_read["file"]
        assert gnubg_read["games"] == _games_as_gnubg_sees_them(record), gnubg_read["file"]


def _games_as_gnubg_sees_them(record) -> list[dict]:
    names = record.players
    games, dice = [], {}
    for e in record.events:
        if isinstance(e, ev.GameStarted):
            games.append({"winner": None, "points": None, "moves": []})
            first = 0 if e.dice[0] > e.dice[1] else 1
            dice[first] = [max(e.dice), min(e.dice)]
        elif isinstance(e, ev.DiceRolled):
            dice[e.player] = list(e.dice)
        elif isinstance(e, ev.CheckersMoved):
            games[-1]["moves"].append([names[e.player], dice[e.player], sorted([s, t] for s, t in e.steps)])
        elif isinstance(e, ev.CannotMove):
            games[-1]["moves"].append([names[e.player], dice[e.player], []])
        elif isinstance(e, ev.GameWon):
            if not games or games[-1]["winner"] is not None:
                games.append({"winner": None, "points": None, "moves": []})
            games[-1].update(winner=names[e.winner], points=e.points)
    return games


# -- what other programs write ----------------------------------------------------


def test_bom_and_crlf_are_read():
    plain = read_mat(text("match_003_5pt.mat"))
    assert read_mat("\ufeff" + text("match_003_5pt.mat").replace("\n", "\r\n")).events == plain.events


def test_gamesgrid_rating_after_the_name_is_not_part_of_the_name():
    graded = re.sub(r" Alice : (\d+)", r" Alice,1623 : \1", text("match_003_5pt.mat"))
    graded = re.sub(r"Bob : (\d+)", r"Bob,1498.5 : \1", graded)
    assert read_mat(graded).players == ("Alice", "Bob")


def test_header_names_are_used_when_score_lines_have_none():
    mat = '; [Player 1 "Ann"]\n; [Player 2 "Ben"]\n\n 3 point match\n\n Game 1\n  1) 31: 8/5 6/5\n'
    assert read_mat(mat).players == ("Ann", "Ben")


def test_match_starting_at_another_score_than_zero():
    games = text("match_005_11pt.mat").split(" Game ")
    later = games[0] + " Game " + " Game ".join(games[3:])  # from game 3 on
    record = read_mat(later)
    assert record.events[0].initial_score == (4, 0)
    assert record.state.score == (6, 13)


def test_unfinished_match_has_no_winner():
    whole = text("match_005_11pt.mat")
    cut = whole[: whole.index(" Game 3")]
    cut = cut[: cut.rindex("Wins")]
    record = read_mat(cut)
    assert record.state.winner is None and record.state.in_game


def test_galaxy_losses_lines_are_read():
    mat = text("match_003_5pt.mat").replace("      Wins 4 points", "  34)  Wins 4 points                Losses 4 points", 1)
    assert read_mat(mat).events == read_mat(text("match_003_5pt.mat")).events
    stub = "2 point match\n\n Game 1\n  1)                              Losses 1 point\n      Wins 1 point\n"
    record = read_mat(stub)
    assert record.state.score == (1, 0) and record.events[-2:] == [
        ev.ResignationAccepted(0),
        ev.GameWon(1, 0, "single", 1, 1, "resignation", (1, 0)),
    ]


def test_cannot_move_is_an_empty_roll():
    written = text("match_003_5pt.mat")
    assert " 55: \n" in written
    assert read_mat(written.replace(" 55: \n", " 55: Cannot Move\n", 1)).events == read_mat(written).events


def test_resignation_appears_only_as_wins():
    record = read_mat(text("match_001_1pt.mat"))
    assert record.events[-2] == ev.GameWon(1, 1, "gammon", 1, 2, "resignation", (0, 2))
    assert isinstance(record.events[-4], ev.ResignationOffered) and record.events[-4].player == 0


def test_even_length_is_read_from_other_servers():
    mat = text("match_003_5pt.mat").replace(" 5 point match", " 6 point match")
    assert read_mat(mat).length == 6


# -- what is refused ----------------------------------------------------------------


def test_illegal_move_is_rejected_with_game_move_and_reason():
    bad = text("match_003_5pt.mat").replace("  2) 64: 24/18 18/14", "  2) 64: 24/18 18/13", 1)
    with pytest.raises(MatFileError) as refused:
        read_mat(bad)
    assert (refused.value.game, refused.value.move) == (1, 2)
    assert (refused.value.fault.reason, refused.value.fault.params["move"]) == (Reason.NOT_LEGAL, "24/18 18/13")
    assert str(refused.value).startswith("game 1, move 2: 24/18 18/13 is not legal")


def test_unreadable_move_is_rejected_with_game_and_move():
    bad = text("match_003_5pt.mat").replace(" 13/9* \n", " 13/x9 \n", 1)
    with pytest.raises(MatFileError) as refused:
        read_mat(bad)
    assert refusal_of(refused.value) == (1, 3, Reason.UNREADABLE_MOVE, {"text": "'13/x9'"})


def test_wrong_score_line_is_rejected():
    bad = text("match_003_5pt.mat").replace(" Alice : 4 ", " Alice : 5 ", 1)
    with pytest.raises(MatFileError) as refused:
        read_mat(bad)
    assert refusal_of(refused.value) == (2, None, Reason.MAT_SCORE_DIFFERS, {"written": "5-0", "played": "4-0"})


def test_wrong_points_in_wins_line_after_the_play_are_a_warning_and_the_wrong_winner_an_error():
    # after a bear-off the play decides (gnubg), the Wins line only warns
    whole = text("match_003_5pt.mat")
    won = [e for e in read_mat(whole).events if isinstance(e, ev.GameWon)]
    assert won[1].reason == "bearoff" and won[1].points == 1  # game 2 is played out: its Wins line can be checked
    assert whole.count("Wins 1 point\n") == 1
    record = read_mat(whole.replace("Wins 1 point\n", "Wins 2 points\n"))
    assert record.events == read_mat(whole).events
    assert [w.reason for w in record.warnings] == ["the file says Bob wins 2 points; the play gives 1 (read as played)"]
    line = whole.replace("Wins 1 point\n", "Wins 2 points\n").splitlines().index(" " * 34 + "Wins 2 points") + 1
    assert record.warnings[0].line == line
    loser = whole.replace(" " * 34 + "Wins 1 point\n", " " * 6 + "Wins 1 point\n")
    with pytest.raises(MatFileError) as refused:
        read_mat(loser)
    assert refusal_of(refused.value) == (2, None, Reason.MAT_WINNER_DIFFERS,
                                         {"name": "Alice", "points": 1, "winner": "Bob", "won": 1})


def test_file_without_match_line_is_rejected():
    with pytest.raises(MatFileError) as refused:
        read_mat(" Game 1\n  1) 31: 8/5 6/5\n")
    assert refusal_of(refused.value) == (None, None, Reason.MAT_NO_LENGTH, {})


def test_cli_reports_a_bad_file_and_fails(tmp_path):
    bad = tmp_path / "bad.mat"
    bad.write_text(text("match_003_5pt.mat").replace("18/14", "18/13", 1))
    run = subprocess.run([sys.executable, "-m", "games.engine", "replay-mat", str(bad)], capture_output=True, text=True)
    assert run.returncode == 1
    assert "bad.mat: error: game 1, move 2: 24/18 18/13 is not legal" in run.stdout


def test_shared_oracle_copy_is_identical():
    shared = Path(__file__).resolve().parents[3].parent / "shared" / "oracle" / "matches"
    if not shared.exists():
        pytest.skip("../shared is not beside this clone")
    for path in MATCHES:
        assert path.read_bytes() == (shared / path.name).read_bytes()


def refusal_of(refused: MatFileError) -> tuple:
    """Where the file is at fault (game, move) and what is wrong there (the reason and its parameters)."""
    return refused.game, refused.move, refused.fault.reason, refused.fault.params
