"""Swiss at scale: pairing a 1,000-player, 9-round Swiss, and its standings rebuilt from the log.

    .venv/bin/python bench/tournaments.py [--players 1000] [--rounds 9] [--seed 2026]
                                          [--log-players 256] [--log-rounds 9] [--database-url URL]
    .venv/bin/python bench/tournaments.py --no-log     # the pairing part alone (no database)

1. Pairing (pure Python; wall-clock and CPU time of the process, the machine being shared, ``tournaments.formats.swiss.pair_round``, no database): a Swiss of
   ``--players`` players, every round paired from the rounds before it, each match won by a coin
   toss (``random.Random(seed)``). Printed per round: the time ``pair_round`` took, the rematches in
   the round, and whether any of them was avoidable, decided exactly: a rematch is avoidable when the
   graph of pairs that have not met has a perfect matching (``tournaments.formats.matching``; with an
   odd field, one that leaves out a player without a bye). Goal: < 0.5 s a round, no avoidable rematch.
2. From the log (PostgreSQL, a fresh database ``crawford_bench_tournaments``): a Swiss of
   ``--log-players`` players run through ``tournaments.services.tournament_command`` as a director
   would (enter, draw, then for every round a paper result per table and ``pair_round``), coin-toss
   winners again; the projections are woken once at the end (``one_wake_up``), not after every command. Then timed: ``tournament_view`` (the stream read from the log, folded, and every
   slot and the standings derived, in memory), and ``eventlog.projections.rebuild("tournament_view")``
   (what ``rebuild_projections`` does: the read-model rows written again from position 0). The table
   is checked against ``swiss.standings`` computed straight from the recorded pairings and results.
"""

from __future__ import annotations

import argparse
import os
import random
import secrets
import statistics
import sys
import time
from pathlib import Path
from urllib.parse import urlparse, urlunparse

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.common import code_version, recreate_database  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--players", type=int, default=1_000)
    parser.add_argument("--rounds", type=int, default=9)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--log-players", type=int, default=256)
    parser.add_argument("--log-rounds", type=int, default=9)
    parser.add_argument("--no-log", action="store_true", help="skip the part on PostgreSQL")
    parser.add_argument("--no-pairing", action="store_true", help="skip the pairing part")
    parser.add_argument("--reuse", action="store_true",
                        help="time the rebuild on the event a previous run recorded (same sizes and seed), if any")
    parser.add_argument("--database-url", default=os.environ.get("DATABASE_URL", "postgres://postgres@127.0.0.1:5432/crawford"))
    args = parser.parse_args()
    print(code_version())
    if not args.no_pairing:
        pairing(args.players, args.rounds, args.seed)
    if not args.no_log:
        from_log(args)


# -- 1. pairing ---------------------------------------------------------------------------------


def pairing(n: int, rounds: int, seed: int) -> None:
    from tournaments.formats import Pairing, Result, swiss

    rng = random.Random(seed)
    players = list(range(1, n + 1))
    history: list[list[Pairing]] = []
    times, cpu, avoidable_total = [], [], 0
    print(f"pairing a {n:,}-player, {rounds}-round Swiss (random results, seed {seed}):")
    for round_no in range(1, rounds + 1):
        started, started_cpu = time.perf_counter(), time.process_time()
        pairs = swiss.pair_round(round_no, players, history)
        took = time.perf_counter() - started
        times.append(took)
        cpu.append(time.process_time() - started_cpu)
        met = {frozenset((p.a, p.b)) for rnd in history for p in rnd if p.b is not None}
        had_bye = {p.a for rnd in history for p in rnd if p.b is None}
        rematches = sum(frozenset(p) in met for p in pairs if p[1] is not None)
        avoidable = rematches and rematch_free_exists(players, met, had_bye)
        avoidable_total += bool(avoidable)
        print(f"  round {round_no}: {took:6.3f} s (CPU {cpu[-1]:.3f} s)  rematches {rematches}"
              + (" (AVOIDABLE)" if avoidable else " (unavoidable)" if rematches else ""))
        history.append([Pairing(a, b, None if b is None else Result(*((a, b) if rng.random() < 0.5 else (b, a))))
                        for a, b in pairs])
    print(f"  per round: median {statistics.median(times):.3f} s, max {max(times):.3f} s, "
          f"total {sum(times):.2f} s (goal < 0.5 s a round); CPU median {statistics.median(cpu):.3f} s, "
          f"max {max(cpu):.3f} s; avoidable rematches: "
          f"{'none' if not avoidable_total else f'in {avoidable_total} rounds'}")


def rematch_free_exists(players, met, had_bye) -> bool:
    """Whether some pairing of ``players`` has no rematch (and, odd field, a bye to a player without one)."""
    from tournaments.formats.matching import maximum_matching, rematch_without

    n = len(players)
    adj = [{j for j in range(n) if j != i and frozenset((players[i], players[j])) not in met} for i in range(n)]
    mate = maximum_matching(adj)
    if sum(m != -1 for m in mate) < n - n % 2:
        return False
    if n % 2 == 0:
        return True
    return any(rematch_without(adj, mate[:], [True] * n, [i]) for i in range(n) if players[i] not in had_bye)


# -- 2. from the log ----------------------------------------------------------------------------


def from_log(args) -> None:
    url = urlparse(args.database_url)
    name = f"Bench Swiss {args.log_players}x{args.log_rounds} seed {args.seed}"
    db_url = urlunparse(url._replace(path="/crawford_bench_tournaments"))
    reused = args.reuse and _recorded(db_url, name)
    if not reused:
        recreate_database(url, "crawford_bench_tournaments")
    os.environ["DATABASE_URL"] = db_url
    os.environ.pop("REDIS_URL", None)  # nothing woken: no broker, no worker
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "deploy.settings")
    os.environ.setdefault("SECRET_KEY", "bench-" + secrets.token_hex(24))
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)

    from tournaments import services
    from tournaments.models import Tournament

    if reused:
        t = Tournament.objects.get(name=name)
        facts, view = services.tournament_view(t)
        print(f"from the log: the {len(facts.seeds)}-player, {args.log_rounds}-round Swiss of a previous run "
              f"({facts.version:,} events), reused")
    else:
        t = _record(args, name)
    _time_rebuild(t)


def _recorded(db_url: str, name: str) -> bool:
    import psycopg

    try:
        with psycopg.connect(db_url) as conn:
            return conn.execute("SELECT 1 FROM tournaments_tournament WHERE name = %s", (name,)).fetchone() is not None
    except psycopg.Error:
        return False


def _record(args, name):
    from django.contrib.auth import get_user_model

    from eventlog.tasks import one_wake_up
    from players.models import Player
    from tournaments import services

    rng = random.Random(args.seed)
    director = get_user_model().objects.create_superuser("bench-director", password=secrets.token_hex(8))
    field = [p.pk for p in Player.objects.bulk_create(Player(display_name=f"Swiss {i}") for i in range(args.log_players))]
    started = time.perf_counter()
    t = services.tournament_create(actor=director, name=name, format="swiss",
                                   settings={"rounds": args.log_rounds, "auto_pair": False})

    def cmd(**command):
        return services.tournament_command(actor=director, tournament=t, command=command)

    with one_wake_up():  # no broker: the projections would run in-process after every command; once, at the end
        for p in field:
            cmd(type="enter", player=p)
        cmd(type="draw", method="manual", seeds=field)
        commands = len(field) + 1
        for round_no in range(1, args.log_rounds + 1):
            if round_no > 1:
                cmd(type="pair_round")
                commands += 1
            facts, view = services.tournament_view(t)
            for s in view.slots:
                if s.round == round_no and s.status == "ready":
                    a, b = s.players
                    cmd(type="report_result", slot=s.key, winner=a if rng.random() < 0.5 else b, score=[s.length, 0])
                    commands += 1
    recorded = time.perf_counter() - started
    facts, view = services.tournament_view(t)
    print(f"from the log: a {len(field)}-player, {args.log_rounds}-round Swiss recorded through "
          f"tournament_command ({commands:,} commands, {facts.version:,} events) in {recorded:.1f} s")
    return t


def _time_rebuild(t) -> None:
    from eventlog import projections
    from tournaments import services
    from tournaments.formats import swiss
    from tournaments.models import TournamentStanding

    fold = []
    for _ in range(3):
        started = time.perf_counter()
        facts, view = services.tournament_view(t)
        fold.append(time.perf_counter() - started)
    print(f"  tournament_view (read the stream, fold, derive slots and standings): "
          f"{', '.join(f'{x:.3f}' for x in fold)} s, median {statistics.median(fold):.3f} s")

    rebuilt = []
    for _ in range(3):
        started = time.perf_counter()
        applied = projections.rebuild("tournament_view")
        rebuilt.append(time.perf_counter() - started)
    print(f"  rebuild_projections tournament_view from position 0 ({applied:,} events applied): "
          f"{', '.join(f'{x:.2f}' for x in rebuilt)} s, median {statistics.median(rebuilt):.2f} s")

    # The table, checked against the format's own standings of the recorded pairings and results.
    history = services.derive.swiss_history(facts, {s.key: s.result for s in view.slots if s.result})
    expected = swiss.standings(facts.seeds, history, facts.config.get("tiebreaks", []))
    stored = list(TournamentStanding.objects.filter(tournament_id=t.pk, flight="").order_by("rank")
                  .values_list("player_id", "score", "rank"))
    same = stored == [(r.player, r.score, r.rank) for r in expected]
    print(f"  standings ({len(stored)} rows) identical to swiss.standings of the recorded rounds: {same}")


if __name__ == "__main__":
    main()
