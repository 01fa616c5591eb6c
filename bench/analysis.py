"""How long GNU Backgammon takes to analyse a 7-point match, at 0-ply and 2-ply, and how many matches a worker
analyses an hour at the site's default depths.

    .venv/bin/python bench/analysis.py [--mat PATH] [--repeat 5] [--repeat-2ply 2] [--gnubg /usr/games/gnubg]

Times ``analysis.gnubg.analyse_mat`` — the call the worker makes: write the .mat, run ``gnubg -t -q -r -p``
(``import mat``, ``analyse game`` game by game, ``show statistics match``, ``gnubg.match()``), read its JSON
back — on a 7-point match of the fixtures (by default the one gnubg played at 2-ply, 7 games). Storing the rows
is milliseconds beside it and is left out. A worker runs one analysis at a time (``--concurrency`` of its unit =
analyses at once) and analyses each match at the quick depth (``ANALYSIS_QUICK_PLIES``, 0) and then at the
default one (``ANALYSIS_PLIES``, 2): matches an hour per worker = 3600 / (the two medians added). Prints figures
and the load average beside them (the machine's other load shows in them), asserts nothing.
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from analysis.gnubg import analyse_mat  # noqa: E402 - no Django in it: gnubg and a temporary directory

DEFAULT_MAT = ROOT / "tests" / "fixtures" / "gnubg" / "samples" / "gnubg_7pt_2ply_seed42.mat"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mat", type=Path, default=DEFAULT_MAT)
    parser.add_argument("--repeat", type=int, default=5, help="0-ply runs")
    parser.add_argument("--repeat-2ply", type=int, default=2, help="2-ply runs")
    parser.add_argument("--gnubg", default=os.environ.get("GNUBG", "/usr/games/gnubg"))
    args = parser.parse_args()
    text = args.mat.read_text()
    print(f"{args.mat.name}: {text.count('Game ')} games; gnubg {args.gnubg}; {os.cpu_count()} CPUs; load {os.getloadavg()[0]:.2f}")
    medians = {}
    for plies, runs in ((0, args.repeat), (2, args.repeat_2ply)):
        if runs < 1:
            continue
        times, cpu, decisions = [], [], 0
        for _ in range(runs):
            before = _children_cpu()
            result = analyse_mat(text, plies=plies, gnubg=args.gnubg, timeout=900)
            cpu.append(_children_cpu() - before)
            times.append(result.seconds)
            decisions = len(result.decisions)
        medians[plies] = median = statistics.median(times)
        # gnubg's own CPU time: what the match costs whatever else the machine does (the wall time grows with load)
        print(f"{plies}-ply: median {median:.2f} s (min {min(times):.2f}, max {max(times):.2f}, {runs} runs), "
              f"gnubg CPU {statistics.median(cpu):.2f} s, {decisions} decisions; load {os.getloadavg()[0]:.2f}")
    quick, deep = int(os.environ.get("ANALYSIS_QUICK_PLIES", "0")), int(os.environ.get("ANALYSIS_PLIES", "2"))
    if {quick, deep} <= set(medians):
        per_match = sum(medians[p] for p in {quick, deep})
        depths = " then ".join(f"{p}-ply" for p in sorted({quick, deep}))
        print(f"default depths ({depths}): {per_match:.2f} s a match, {3600 / per_match:.0f} matches an hour per "
              f"worker; load {os.getloadavg()[0]:.2f} (1 min), {os.getloadavg()[1]:.2f} (5 min)")


def _children_cpu() -> float:
    used = resource.getrusage(resource.RUSAGE_CHILDREN)
    return used.ru_utime + used.ru_stime


if __name__ == "__main__":
    main()
