"""The engine against GNU Backgammon's own output: legal-move cases, move text, self-play games."""

import json
import subprocess
import sys
from pathlib import Path

from games.engine import Position, legal_moves, play
from games.engine.casefile import position_from_json, read_cases

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures" / "gnubg"
CASES = FIXTURES / "cases.jsonl"


def check_cases(path) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "games.engine", "check-cases", str(path)], capture_output=True, text=True
    )


def test_check_cases_agrees_with_gnubg_on_every_case():
    run = check_cases(CASES)
    assert run.stdout.splitlines()[-1] == "agree 2000 of 2000"
    assert run.returncode == 0


def test_check_cases_prints_each_disagreement_and_fails(tmp_path):
    cases = [json.loads(line) for line in CASES.read_text().splitlines()[:2]]
    removed = cases[0]["legal"].pop()
    (tmp_path / "two.jsonl").write_text("".join(json.dumps(c) + "\n" for c in cases))
    run = check_cases(tmp_path / "two.jsonl")
    assert run.returncode == 1
    assert run.stdout.splitlines()[-1] == "agree 1 of 2"
    assert "case 0: dice 1-3" in run.stdout and "extra:" in run.stdout
    assert removed["move"] not in run.stdout.splitlines()[-1]


def test_every_gnubg_move_text_is_read_and_written_back_identically():
    seen = 0
    for case in read_cases(CASES):
        before = position_from_json(case["board"])
        for legal in case["legal"]:
            chosen = play(before, case["dice"], legal["move"])
            assert chosen.position == position_from_json(legal)
            assert str(chosen) == legal["move"]
            seen += 1
    assert seen == 30090


def test_gnubg_self_play_games_replay_move_by_move():
    games = [json.loads(line) for line in (FIXTURES / "games.jsonl").read_text().splitlines()]
    assert len(games) == 221
    for game in games:
        position = Position.start()
        for d1, d2, move, result26 in game["turns"]:
            chosen = play(position, (d1, d2), move)
            after = chosen.position
            assert after.signed_points() + [after.mine[25], after.theirs[25]] == result26
            if not legal_moves(position, (d1, d2)):
                assert move == "" or chosen.steps == ()
            position = after.swap()

