"""Command line: ``python -m games.engine check-cases PATH`` / ``replay-mat [--json] PATH...``."""

from __future__ import annotations

import argparse
import json
import os
import sys

from .casefile import check_cases
from .errors import EngineError
from .matfile import MatRecord, read_mat


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m games.engine", description=__doc__)
    sub = parser.add_subparsers(dest="command", required=True)
    cases = sub.add_parser("check-cases", help="compare legal moves with gnubg's cases (JSON lines)")
    cases.add_argument("path")
    mats = sub.add_parser("replay-mat", help="replay .mat files through the engine")
    mats.add_argument("--json", action="store_true", help="one JSON object per file")
    mats.add_argument("paths", nargs="+")
    args = parser.parse_args(argv)
    if args.command == "check-cases":
        return _check_cases(args.path)
    return _replay_mats(args.paths, args.json)


def _check_cases(path: str) -> int:
    agree, total, disagreements = check_cases(path)
    for disagreement in disagreements:
        print(disagreement)
    print(f"agree {agree} of {total}")
    return 0 if agree == total and total else 1


def summary(name: str, record: MatRecord) -> dict:
    """The facts of a replayed match, as ``replay-mat --json`` prints them."""
    state = record.state
    won = [e for e in record.events if type(e).__name__ == "GameWon"]
    return {
        "file": name,
        "length": record.length,
        "winner": record.players[state.winner] if state.winner is not None else None,
        "final_score": dict(zip(record.players, state.score)),
        "games": record.games,
        "crawford_game": list(state.crawford_games),
        "resigned_games": [e.game for e in won if e.reason == "resignation"],
    } | ({"warnings": [w.to_dict() for w in record.warnings]} if record.warnings else {})


def _replay_mats(paths: list[str], as_json: bool) -> int:
    failed = 0
    for path in paths:
        name = os.path.basename(path)
        try:
            with open(path, encoding="utf-8-sig", errors="strict") as f:
                record = read_mat(f.read())
        except (OSError, UnicodeDecodeError, EngineError) as broken:
            failed += 1
            print(f"{name}: error: {broken}", file=sys.stderr if as_json else sys.stdout)
            continue
        facts = summary(name, record)
        if as_json:
            print(json.dumps(facts))
        else:
            score = " ".join(f"{k} {v}" for k, v in facts["final_score"].items())
            result = f"{facts['winner']} wins" if facts["winner"] else "unfinished"
            crawford = ",".join(map(str, facts["crawford_game"])) or "none"
            print(f"{name}: {facts['length']}-point match, {result}, {score}, {facts['games']} games, Crawford game {crawford}")
            for warning in record.warnings:
                print(f"{name}:{warning.line}: warning: {warning.reason}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
