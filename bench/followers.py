"""The followers' run after each match command: ``projections.run_all``, what a worker's wake-up (or, in the
embedded default, the command's own thread) does once a command has committed.

    .venv/bin/python bench/followers.py [--commands 600] [--database-url URL] [--code DIR]

On a fresh database ``crawford_bench_followers`` (migrated as the product is), casual 7-point matches are played
by the engine against itself with server dice (a random legal play, now and then a double: as ``load_demo``
plays), each command followed by its wake-up. Timed: the wake-up alone, wall and this thread's CPU, per command;
counted, over the first 100 commands: its statements. No broker: the wake-up runs in the command's process, as in
the embedded default (each command in ``one_wake_up``, so the wake-up is sent, and run, as the block ends). With ``--code DIR``, the same run of the code in DIR (a
worktree at another commit) in a process of its own, so that two commits meet the same minutes.
"""

from __future__ import annotations

import argparse
import os
import random
import subprocess
import sys
import time
import uuid
from pathlib import Path
from urllib.parse import urlparse, urlunparse

ROOT = Path(__file__).resolve().parent.parent


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--commands", type=int, default=600)
    parser.add_argument("--database-name", default="crawford_bench_followers")
    parser.add_argument("--database-url", default=os.environ.get("DATABASE_URL", "postgres://postgres@127.0.0.1:5432/crawford"))
    parser.add_argument("--code", type=Path, help="run this checkout's code instead (a worktree)")
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args()
    if args.code is not None:  # the same run, on the other checkout's code, in a process of its own
        same = ["--commands", str(args.commands), "--database-name", args.database_name,
                "--database-url", args.database_url, "--seed", str(args.seed)]
        return subprocess.call([sys.executable, str(Path(__file__).resolve()), *same], cwd=args.code,
                               env=dict(os.environ, CRAWFORD_BENCH_CODE=str(args.code.resolve())))
    root = Path(os.environ.get("CRAWFORD_BENCH_CODE", ROOT))
    sys.path.insert(0, str(root))  # the code measured, its bench/common.py included
    from bench.common import code_version, percentile, recreate_database

    url = urlparse(args.database_url)
    recreate_database(url, args.database_name)
    os.environ.update(DATABASE_URL=urlunparse(url._replace(path="/" + args.database_name)), DEBUG="0",
                      SECRET_KEY="bench-followers-" + uuid.uuid4().hex, DJANGO_SETTINGS_MODULE="deploy.settings",
                      LOG_LEVEL="WARNING")
    os.chdir(root)
    import django

    django.setup()
    from django.core.management import call_command
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from eventlog import projections
    from eventlog.tasks import one_wake_up

    call_command("migrate", verbosity=0)
    play = _player(random.Random(args.seed))
    projections.run_all()

    def wake_up_after_a_command(around):
        """A command with its wake-up held (``one_wake_up``), then the wake-up alone run inside ``around``: no
        broker, so it runs here as the held block ends, as in the embedded default."""
        held = one_wake_up()
        held.__enter__()
        play()
        with around:
            held.__exit__(None, None, None)
        return around

    statements = [len(wake_up_after_a_command(CaptureQueriesContext(connection))) for _ in range(100)]
    walls, cpus = [], []
    for _ in range(args.commands):
        clock = wake_up_after_a_command(_Clock())
        walls.append(clock.wall)
        cpus.append(clock.cpu)
    load = " ".join(f"{x:.2f}" for x in os.getloadavg())
    print(f"{code_version()}; {len(projections.registered())} followers; {args.commands} commands; load {load}")
    print(f"the wake-up after a command: wall p50 {percentile(walls, 0.5) * 1000:.2f} ms, p99 "
          f"{percentile(walls, 0.99) * 1000:.2f} ms; CPU mean {sum(cpus) / len(cpus) * 1000:.2f} ms; statements "
          f"mean {sum(statements) / len(statements):.1f}")
    return 0


class _Clock:
    """Wall and this thread's CPU time of what runs inside it."""

    def __enter__(self):
        self.wall, self.cpu = time.perf_counter(), time.thread_time()
        return self

    def __exit__(self, *_) -> None:
        self.wall, self.cpu = time.perf_counter() - self.wall, time.thread_time() - self.cpu


def _player(rnd: random.Random):
    """A function that sends the next command of a casual 7-point match, starting another when one ends."""
    from django.contrib.auth import get_user_model

    from games.command_handler import match_command
    from games.commands import RollDice
    from games.creation import match_create
    from games.engine import commands as match_commands
    from games.engine.match import MOVE, OPENING, ROLL
    from players.models import Player

    director = get_user_model().objects.create_user("bench-director", is_staff=True, is_superuser=True)
    a, b = (Player.objects.create(display_name=name) for name in ("Ann", "Bob"))
    current = {}

    def play() -> None:
        record = current.get("record")
        if record is None or record.finished:
            record = current["record"] = match_create(actor=director, player0=a, player1=b, length=7)
        s = record.state
        if s.phase in (OPENING, ROLL):
            double = s.phase == ROLL and s.may_double(s.turn) and rnd.random() < 0.03
            command = match_commands.Double(None) if double else RollDice()
        elif s.phase == MOVE:
            command = match_commands.Move(None, str(rnd.choice(s.legal_plays())))
        else:
            command = match_commands.Take(None) if rnd.random() < 0.7 else match_commands.Drop(None)
        current["record"], _ = match_command(actor=director, stream_id=record.stream_id, command=command,
                                             expected_version=record.version)

    return play


if __name__ == "__main__":
    sys.exit(main())
