"""GNU Backgammon as a subprocess: a ``.mat`` in, every checker decision and both players' figures out.

gnubg is GPL software: it runs as its own program (Debian's ``gnubg``, headless ``-t -q -r -p``) and the project
reads only what it writes, a JSON file and the text of ``show statistics match``. Nothing of it is linked in.
The PyPI ``gnubg`` build (1.1.0a16) was not used: its ``gnubg.match()`` leaves analysis and statistics out.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

SCRIPT = Path(__file__).with_name("gnubg_script.py")


class GnubgFailed(Exception):
    """gnubg is missing, timed out or wrote nothing readable: the analysis can be tried again."""


@dataclass
class Result:
    names: list[str]
    decisions: list[dict]
    figures: list[dict]  # one per side, 0 then 1
    seconds: float
    printed: str = field(repr=False, default="")


def analyse_mat(mat_text: str, *, plies: int, gnubg: str, timeout: float, on_progress=None) -> Result:
    """``on_progress(games_done, games)`` is called as gnubg finishes each game (polled twice a second)."""
    if not os.path.exists(gnubg):
        raise GnubgFailed(f"GNU Backgammon is not installed at {gnubg} (apt-get install gnubg)")
    with tempfile.TemporaryDirectory(prefix="crawford-gnubg-") as tmp:
        mat, out = Path(tmp) / "match.mat", Path(tmp) / "analysis.json"
        mat.write_text(mat_text)
        progress_file = Path(tmp) / "progress"
        env = dict(os.environ, CRAWFORD_MAT=str(mat), CRAWFORD_OUT=str(out), CRAWFORD_PLIES=str(plies), HOME=tmp,
                   CRAWFORD_PROGRESS=str(progress_file))
        started = time.monotonic()
        errors = Path(tmp) / "stderr"
        with open(errors, "wb") as err:
            proc = subprocess.Popen([gnubg, "-t", "-q", "-r", "-p", str(SCRIPT)], env=env, cwd=tmp,
                                    stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=err)
            seen = None
            while True:
                try:
                    proc.wait(timeout=0.5)
                    break
                except subprocess.TimeoutExpired:
                    if time.monotonic() - started > timeout:
                        proc.kill()
                        proc.wait()
                        raise GnubgFailed(f"gnubg took more than {timeout:g} s") from None
                    seen = _report(progress_file, seen, on_progress)
            _report(progress_file, seen, on_progress)  # the last game's, written just before it ended
        seconds = time.monotonic() - started
        if not out.exists():
            raise GnubgFailed(f"gnubg wrote no analysis (exit {proc.returncode}): "
                              + errors.read_text(errors="replace")[-1500:])
        raw = json.loads(out.read_text())
        printed = Path(str(out) + ".txt").read_text() if Path(str(out) + ".txt").exists() else ""
    labels = ratings_printed(printed)
    figures = [figures_of(raw["stats"][side], raw["names"][i], {k: v[i] for k, v in labels.items()})
               for i, side in enumerate("XO")]
    return Result(raw["names"], [without_cube_noise(d) for d in raw["decisions"]], figures, seconds, printed)


# gnubg takes two cube equities within 1e-5 for the same (eval.c, isOptional: an "optional" double). The script
# converts gnubg's float32 match-winning chances to equities in float64, which leaves losses like 1.2e-7 between
# actions gnubg holds equal: below this a cube decision lost nothing, and what was played was best.
CUBE_EQUAL = 1.0e-5
_CUBE_KINDS = ("no double", "double", "take", "drop")


def without_cube_noise(decision: dict) -> dict:
    if decision["kind"] not in _CUBE_KINDS or decision["loss"] >= CUBE_EQUAL:
        return decision
    played = decision["kind"]
    if played == "double":
        best = "double, pass" if decision["equity_played"] >= 1.0 else "double, take"
    else:
        best = {"drop": "pass"}.get(played, played)
    return dict(decision, best=best, equity_best=decision["equity_played"], loss=0.0, verdict="")


def _report(progress_file: Path, seen, on_progress):
    try:
        now = tuple(int(x) for x in progress_file.read_text().split())
    except (OSError, ValueError):
        return seen
    if now != seen and on_progress is not None and len(now) == 2:
        on_progress(*now)
    return now


def figures_of(stats: dict, name: str, labels: dict) -> dict:
    """gnubg's figures (formatgs.c): error totals over unforced moves and close cube decisions, per 1000."""
    moves, cube, dice = stats["moves"], stats["cube"], stats["dice"]
    unforced, close = moves["unforced-moves"], cube["close-cube"]
    chequer = moves["error-skill"]
    # the total gnubg prints is the sum of its six kinds of cube error: gnubg.match()'s own cube
    # "error-skill" is not (a tenth of it in the matches tried), so it is not read
    cube_error = sum(v for k, v in cube.items() if k.startswith("err-") and k.endswith("-skill"))
    decisions = unforced + close
    overall = 1000 * (chequer + cube_error) / decisions if decisions else 0.0
    return {
        "name": name,
        "unforced_moves": unforced,
        "chequer_error": chequer,
        "chequer_rate": 1000 * chequer / unforced if unforced else 0.0,
        "chequer_rating": labels.get("Chequerplay rating", ""),
        "close_cube": close,
        "cube_error": cube_error,
        "cube_rate": 1000 * cube_error / close if close else 0.0,
        "cube_rating": labels.get("Cube decision rating", ""),
        "overall_rate": overall,
        "overall_rating": labels.get("Overall rating", ""),
        # XG's Performance Rating: 500 x equity lost / non-obvious decisions, on gnubg's counts
        "performance_rating": overall / 2,
        "luck": dice["luck"],
        "marked_doubtful": moves["marked"]["doubtful"],
        "marked_bad": moves["marked"]["bad"],
        "marked_very_bad": moves["marked"]["very bad"],
    }


_LABELS = ("Chequerplay rating", "Cube decision rating", "Overall rating")


def ratings_printed(text: str) -> dict[str, tuple[str, str]]:
    """gnubg's rating words ("World class"…) as ``show statistics match`` prints them, two columns."""
    found = {}
    for line in text.splitlines():
        for label in _LABELS:
            if line.startswith(label):
                cells = re.split(r"\s{2,}", line[len(label):].strip())
                if len(cells) == 2:
                    found[label] = (cells[0], cells[1])
    return found
