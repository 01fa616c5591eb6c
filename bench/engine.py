"""Benchmark: legal-move generation of games.engine against GNU Backgammon.

Prints figures, asserts nothing (this is not a test)::

    .venv/bin/python bench/engine.py [--cases PATH] [--repeat N] [--json]

What is timed, for each side, is one full legal set per case over every case
of the file ("a pass"), single process, in the same run:

* engine: ``games.engine.legal_moves(position, dice)``;
* gnubg:  ``gnubg.findbestmoves(board, cubeinfo, evalcontext, dice)`` from the
  PyPI ``gnubg`` package, with the cheapest evaluation context (0-ply,
  cubeless, no pruning, no noise), which returns every legal play, each scored
  by gnubg's 0-ply neural net.

Boards are converted to each side's format before any timing. Each case is
timed on its own; between cases, outside the clock, every cache is cleared:
gnubg's evaluation cache is switched off (``set cache 0``) and flushed, and any
engine cache (a ``functools`` cache in a loaded ``games.engine`` module, or a
``games.engine.clear_caches()`` function) is cleared -- the engine has none
today. One untimed warm-up pass checks the counts against the cases'
``n_legal``, then ``--repeat`` timed passes alternate engine and gnubg so both
see the same machine load. Best and median passes are reported.
"""

from __future__ import annotations

import argparse
import gc
import inspect
import json
import os
import platform
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from games.engine import legal_moves  # noqa: E402
from games.engine.casefile import position_from_json, read_cases  # noqa: E402

GNUBG_CALL = "gnubg.findbestmoves(board, gnubg.cubeinfo(), gnubg.evalcontext(0, 0, 1, 0, 0.0), dice)"


def default_cases_path() -> Path:
    local = ROOT / "tests" / "fixtures" / "gnubg" / "cases.jsonl"
    return local if local.exists() else (ROOT / ".." / "shared" / "oracle" / "cases.jsonl").resolve()


def cpu_model() -> str:
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as f:
            for line in f:
                if line.lower().startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown"


# -- cache clearing -----------------------------------------------------------


def engine_cache_clearers() -> list:
    """Every ``cache_clear`` of a functools cache in the loaded games.engine modules.

    Looks at module-level functions and at the methods of classes defined in
    those modules, plus an explicit ``games.engine.clear_caches()`` if the
    engine ever grows one: each case is timed as if its position were new.
    """
    clearers = []
    seen = set()

    def take(obj):
        clear = getattr(obj, "cache_clear", None)
        if callable(clear) and id(obj) not in seen:
            seen.add(id(obj))
            clearers.append(clear)

    for name, module in list(sys.modules.items()):
        if module is None or not (name == "games.engine" or name.startswith("games.engine.")):
            continue
        for obj in list(vars(module).values()):
            take(obj)
            if inspect.isclass(obj) and getattr(obj, "__module__", None) == name:
                for attr in vars(obj).values():
                    take(getattr(attr, "__func__", attr))
                    if isinstance(attr, property):
                        take(attr.fget)
        explicit = getattr(module, "clear_caches", None)
        if name == "games.engine" and callable(explicit):
            clearers.append(explicit)
    return clearers


def chain(functions):
    if not functions:
        return None
    if len(functions) == 1:
        return functions[0]

    def run_all():
        for f in functions:
            f()

    return run_all


class quiet_stdout:
    """Silence C-level writes to fd 1 (gnubg's command() prints on stdout)."""

    def __enter__(self):
        sys.stdout.flush()
        self.saved = os.dup(1)
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, 1)
        os.close(devnull)

    def __exit__(self, *exc):
        sys.stdout.flush()
        os.dup2(self.saved, 1)
        os.close(self.saved)


# -- timing ---------------------------------------------------------------------


def timed_pass(fn, argument_tuples, between) -> float:
    """Seconds spent inside ``fn`` over all cases; ``between`` runs untimed before each."""
    gc.collect()
    clock = time.perf_counter
    total = 0.0
    if between is None:
        for args in argument_tuples:
            t0 = clock()
            fn(*args)
            total += clock() - t0
    else:
        for args in argument_tuples:
            between()
            t0 = clock()
            fn(*args)
            total += clock() - t0
    return total


def summary(n: int, seconds: list[float]) -> dict:
    rates = [n / s for s in seconds]
    return {"best": max(rates), "median": statistics.median(rates), "passes": rates}


# -- main -----------------------------------------------------------------------


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--cases", type=Path, default=None, help="cases file (default: tests/fixtures/gnubg/cases.jsonl if present, else ../shared/oracle/cases.jsonl)")
    parser.add_argument("--repeat", type=int, default=5, help="timed passes per side (default 5)")
    parser.add_argument("--json", action="store_true", help="print one JSON object instead of text")
    parser.add_argument("--no-gnubg", action="store_true", help="time the engine only")
    args = parser.parse_args(argv)
    if args.repeat < 1:
        parser.error("--repeat must be at least 1")

    path = args.cases or default_cases_path()
    if not Path(path).is_file():
        parser.error(f"no cases file at {path}")
    cases = list(read_cases(path))
    n = len(cases)
    if not n:
        parser.error(f"no cases in {path}")

    # Conversion, untimed.
    positions = [position_from_json(c["board"]) for c in cases]
    dice = [tuple(c["dice"]) for c in cases]
    expected = [c["n_legal"] for c in cases]
    engine_args = list(zip(positions, dice))
    engine_between = chain(engine_cache_clearers())

    gnubg = None
    gnubg_error = None
    if not args.no_gnubg:
        try:
            import gnubg
        except ImportError as e:  # pragma: no cover - depends on the venv
            gnubg_error = f"gnubg not importable: {e}"
    if gnubg is not None:
        with quiet_stdout():
            gnubg.command("set cache 0")  # no evaluation cache (note: 'set cache 1' segfaults 1.1.0a16)
        cubeinfo = gnubg.cubeinfo()
        evalcontext = gnubg.evalcontext(0, 0, 1, 0, 0.0)  # cubeful, plies, deterministic, prune, noise
        # gnubg board: (opponent, on roll), each 25 ints in its own numbering,
        # index 0..23 = points 1..24, 24 = bar == our side[1..25].
        gnubg_args = [
            ((p.theirs[1:26], p.mine[1:26]), cubeinfo, evalcontext, d) for p, d in zip(positions, dice)
        ]
        clear_cache = gnubg.command

        def gnubg_between():
            clear_cache("clear cache")

        with quiet_stdout():
            gnubg_between()  # prints nothing for a 0-entry cache; make sure

    # Untimed warm-up pass, which is also the sanity check.
    engine_agree = sum(len(legal_moves(p, d)) == e for (p, d), e in zip(engine_args, expected))
    gnubg_agree = None
    if gnubg is not None:
        gnubg_agree = 0
        for a, e in zip(gnubg_args, expected):
            gnubg_between()
            gnubg_agree += len(gnubg.findbestmoves(*a)) == e

    engine_seconds = []
    gnubg_seconds = []
    for _ in range(args.repeat):
        engine_seconds.append(timed_pass(legal_moves, engine_args, engine_between))
        if gnubg is not None:
            gnubg_seconds.append(timed_pass(gnubg.findbestmoves, gnubg_args, gnubg_between))

    eng = summary(n, engine_seconds)
    gnu = summary(n, gnubg_seconds) if gnubg_seconds else None
    result = {
        "cases": n,
        "cases_path": str(path),
        "repeat": args.repeat,
        "engine_sets_per_s_best": round(eng["best"], 1),
        "engine_sets_per_s_median": round(eng["median"], 1),
        "gnubg_sets_per_s_best": round(gnu["best"], 1) if gnu else None,
        "gnubg_sets_per_s_median": round(gnu["median"], 1) if gnu else None,
        "ratio_best": round(eng["best"] / gnu["best"], 3) if gnu else None,
        "ratio_median": round(eng["median"] / gnu["median"], 3) if gnu else None,
        "engine_count_agree": engine_agree,
        "gnubg_count_agree": gnubg_agree,
        "engine_cache_clearers": 0 if engine_between is None else len(engine_cache_clearers()),
        "gnubg_version": getattr(gnubg, "__version__", None) if gnubg else None,
        "gnubg_call": GNUBG_CALL if gnubg else gnubg_error,
        "python": f"{platform.python_implementation()} {platform.python_version()}",
        "cpu": cpu_model(),
        "cpus": os.cpu_count(),
    }
    if args.json:
        print(json.dumps(result))
        return 0

    print(f"cases          {n}  ({path})")
    print(f"python         {result['python']}")
    print(f"cpu            {result['cpu']} ({result['cpus']} logical CPUs)")
    if gnubg is not None:
        print(f"gnubg          {result['gnubg_version']}: {GNUBG_CALL}, eval cache off")
        print(f"sanity         gnubg count == n_legal in {gnubg_agree}/{n} cases; engine {engine_agree}/{n}")
    else:
        print(f"gnubg          skipped ({gnubg_error or '--no-gnubg'})")
        print(f"sanity         engine count == n_legal in {engine_agree}/{n} cases")
    print(f"passes         {args.repeat} per side after 1 untimed warm-up, alternating")
    print(f"engine         best {eng['best']:10,.0f} sets/s   median {eng['median']:10,.0f} sets/s")
    if gnu:
        print(f"gnubg          best {gnu['best']:10,.0f} sets/s   median {gnu['median']:10,.0f} sets/s")
        print(
            f"engine/gnubg   best {result['ratio_best']:10.3f}          median {result['ratio_median']:10.3f}"
            "          (goal >= 1.0)"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
