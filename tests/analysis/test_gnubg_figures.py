"""The analysis equals what GNU Backgammon itself says of the same match: figures and every checker play.

Each match goes in through the API (an imported .mat, or one recorded move by move), is analysed through the
projection and the service (our .mat export fed to gnubg), and is compared with a separate gnubg run on the
original file: the per-player error rates with what ``show statistics match`` prints (within 0.1 mEMG), every
checker play's loss with gnubg's (within 0.001).

Every fixture match goes through it. gnubg played them against itself at 0-ply, so at 0-ply their checker
errors are all zero: they check that the decisions line up (game by game, play by play, Crawford games,
takes, drops, resignations, 1 to 11 points), not the figures. The figures are checked by the sample gnubg
played at 2-ply (analysed at 0-ply: doubtful and bad plays, missed doubles, a wrong pass) and by a match
recorded through the API with random plays (large errors of every size). Each takes about a second of gnubg.
"""

from __future__ import annotations

import json
import os
import random
import re
import subprocess
from collections import Counter
from pathlib import Path

import pytest

from analysis import services
from analysis.gnubg import without_cube_noise
from analysis.models import MatchAnalysis
from analysis.rating_words import rating_word
from eventlog import projections
from tests.games.recorder import Recorder

GNUBG = "/usr/games/gnubg"
FIXTURES = Path(__file__).resolve().parent.parent / "fixtures" / "gnubg"
ALL = sorted((FIXTURES / "matches").glob("*.mat")) + [FIXTURES / "samples" / "gnubg_7pt_2ply_seed42.mat"]

pytestmark = [pytest.mark.django_db, pytest.mark.skipif(not os.path.exists(GNUBG), reason="gnubg not installed")]


def reference(mat: Path, tmp_path: Path, plies: int = 0):
    """gnubg on the file, by itself: its printed statistics and its loss for each checker play."""
    out = tmp_path / (mat.stem + ".ref.json")
    env = dict(os.environ, REF_MAT=str(mat), REF_OUT=str(out), REF_PLIES=str(plies), HOME=str(tmp_path))
    subprocess.run([GNUBG, "-t", "-q", "-r", "-p", str(Path(__file__).with_name("gnubg_reference.py"))], env=env,
                   cwd=tmp_path, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, check=True, timeout=1800)
    plays = [json.loads(line) for line in out.read_text().splitlines()]
    return printed_figures(Path(str(out) + ".txt").read_text()), plays


def printed_figures(text: str) -> dict:
    """From ``show statistics match``: the three "Error rate mEMG" lines (chequer, cube, overall), per player."""
    rates = [tuple(float(x) for x in re.findall(r"([-+]?\d+\.\d+)\s+\(", line))
             for line in text.splitlines() if line.startswith("Error rate mEMG")]
    totals = [tuple(float(x) for x in re.findall(r"([-+]?\d+\.\d+)\s+\(", line))
              for line in text.splitlines() if line.startswith("Error total EMG")]
    marks = {word: tuple(int(x) for x in line.split()[-2:]) for line in text.splitlines()
             for word in ("doubtful", "bad", "very bad") if line.startswith(f"Moves marked {word} ")}
    assert len(rates) == 3 and len(totals) == 3, text
    return {"marks": marks, "chequer_rate": rates[0], "cube_rate": rates[1], "overall_rate": rates[2],
            "chequer_error": totals[0], "cube_error": totals[1]}


def analyse(stream_id: str) -> MatchAnalysis:
    projections.run("analysis")
    row = MatchAnalysis.objects.get(stream_id=stream_id, plies=0)
    assert services.analysis_run(pk=row.pk) == MatchAnalysis.DONE, row.error
    return MatchAnalysis.objects.get(pk=row.pk)


def assert_same_as_gnubg(row: MatchAnalysis, printed: dict, plays: list[dict]) -> None:
    figures = list(row.figures.order_by("side"))
    for side, f in enumerate(figures):
        for key in ("chequer_rate", "cube_rate", "overall_rate"):
            # gnubg prints one decimal, negative: the loss
            assert abs(-getattr(f, key) - printed[key][side]) <= 0.1, (key, side, getattr(f, key), printed[key])
        assert abs(-f.chequer_error - printed["chequer_error"][side]) <= 0.0006
        # the word gnubg printed is the one its thresholds give the rate (they name pooled rates the same way)
        assert rating_word(f.overall_rate, f.unforced_moves + f.close_cube) == f.overall_rating, (side, f.overall_rate)
        for word, counts in printed["marks"].items():  # gnubg's marks, play by play
            assert row.decisions.filter(kind="move", player=side, verdict=word).count() == counts[side], (word, side)
        # cube decisions one by one: their losses add up to the cube error gnubg prints
        cube = row.decisions.filter(player=side).exclude(kind="move")
        assert abs(-sum(d.loss for d in cube) - printed["cube_error"][side]) <= 0.0006, (side, printed["cube_error"])
        assert all(d.version is not None and d.loss >= -1e-9 for d in cube)
    ours = {(d.game, d.turn): d for d in row.decisions.filter(kind="move")}
    assert len(ours) == len(plays)
    for p in plays:
        d = ours[(p["game"], p["turn"])]
        assert d.player == "XO".index(p["player"])
        assert sorted(d.dice) == [str(x) for x in p["dice"]]
        assert _net(_steps(d.played)) == _net(p["steps"])  # the same play, maybe by another route (13/8/6, 13/11/6)
        assert abs(d.loss - p["loss"]) <= 0.001, (p, d.loss)
        assert d.version is not None  # the viewer can show it on its play


def _net(steps) -> dict:
    net = Counter()
    for a, b in steps:
        net[a] -= 1
        net[b] += 1
    return {k: v for k, v in net.items() if v}


def _steps(text: str) -> list[list[int]]:
    return [[25 if a == "bar" else int(a), 0 if b == "off" else int(b)] for a, b in (s.split("/") for s in text.split())]


@pytest.mark.parametrize("mat", ALL, ids=lambda p: p.stem)
def test_an_imported_match_is_analysed_as_gnubg_analyses_the_file(mat, api, make_user, tmp_path):
    client = api(make_user("root", official=True, player=False))
    with open(mat, "rb") as f:
        response = client.post("/api/matches/import/", {"file": f}, format="multipart")
    assert response.status_code == 201, response.json()
    row = analyse(response.json()["id"])
    assert_same_as_gnubg(row, *reference(mat, tmp_path))


def test_a_match_recorded_through_the_api_is_analysed_as_gnubg_analyses_it(api, make_user, tmp_path):
    alice, bob = make_user("alice"), make_user("bob")
    client = api(alice)
    body = {"player0": alice.player.pk, "player1": bob.player.pk, "length": 3}
    m = Recorder(client, client.post("/api/matches/", body, format="json").json())
    m.client = api(make_user("root", official=True, player=False))  # records both sides, as at the table
    m.play_random(random.Random(14))
    row = analyse(m.id)
    mat = tmp_path / "recorded.mat"
    mat.write_bytes(client.get(f"/api/matches/{m.id}/export.mat").content)
    printed, plays = reference(mat, tmp_path)
    assert_same_as_gnubg(row, printed, plays)
    figures = list(row.figures.order_by("side"))
    assert figures[0].chequer_rate > 20 and figures[1].chequer_rate > 20  # random plays: real errors to compare
    assert [f.player_id for f in figures] == [alice.player.pk, bob.player.pk]
    assert row.decisions.filter(verdict="very bad").exists()


def test_gnubg_reports_its_progress_game_by_game():
    from analysis.gnubg import analyse_mat

    seen = []
    mat = FIXTURES / "matches" / "match_014_7pt.mat"  # 5 games
    analyse_mat(mat.read_text(), plies=0, gnubg=GNUBG, timeout=600, on_progress=lambda *p: seen.append(p))
    assert seen and seen == sorted(seen) and seen[-1] == (5, 5)  # polled: some steps may be seen together


CUBE_ROWS = [  # (kind, played, equity played, the script's best word): a loss of gnubg's float32 noise
    ("double", "double", 0.61, "no double", "double, take"),
    ("double", "double", 1.0, "no double", "double, pass"),
    ("no double", "no double", 0.2, "double, take", "no double"),
    ("take", "take", -0.7, "pass", "take"),
    ("drop", "drop", -1.0, "take", "pass"),
]


@pytest.mark.parametrize("kind, played, equity, noisy_best, best", CUBE_ROWS)
def test_a_cube_loss_under_gnubgs_threshold_is_no_error(kind, played, equity, noisy_best, best):
    row = {"game": 1, "turn": 3, "player": 0, "kind": kind, "dice": "", "played": played, "best": noisy_best,
           "equity_played": equity, "equity_best": equity + 1.2e-7, "loss": 1.2e-7, "verdict": ""}
    assert without_cube_noise(row) == dict(row, best=best, equity_best=equity, loss=0.0)
    real = dict(row, loss=0.02, equity_best=equity + 0.02)  # gnubg's own 1e-5 and above: an error, kept
    assert without_cube_noise(real) == real
    move = dict(row, kind="move", dice="31", played="8/5 6/5", best="24/21 6/5")
    assert without_cube_noise(move) == move
