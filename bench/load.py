"""A club event under load: 64 matches recorded at once through the API while 50 spectators poll it.

    .venv/bin/python bench/load.py [--seconds 120] [--matches 64] [--readers 50] [--length 1]
                                   [--poll 1.0] [--gunicorn-workers 4] [--pool prefork --concurrency 2]
                                   [--nodes 1] [--workers 1] [--kill-worker SECONDS [--restart-after 3]]
                                   [--database-url URL] [--redis-url redis://127.0.0.1:6379/13]

Scaled out (``make bench-scale``): ``--nodes 2 --workers 2 --kill-worker 10`` runs two gunicorn nodes (each on its
own port, each its own processes and snapshot caches, as ``crawford-web@.service`` twice) and two Celery workers
(``crawford-worker@.service`` twice). Each writer holds a keep-alive connection to every node and sends its
match's commands to them in turn (command k through node k mod N), as two tablets on one board behind a load
balancer would: every node judges each match from a snapshot one or more commands old, so a node that answered
from a stale snapshot would be caught by the re-judging below. Readers are dealt to the nodes in turn.
``--kill-worker`` seconds into the recording worker 1 is SIGKILLed (its whole process group: the tasks in hand die
mid-transaction and stay unacknowledged in the broker), and started again ``--restart-after`` seconds later (a
negative value: never, worker 2 carries on alone), as systemd's ``Restart=on-failure`` would; a recording that
ends before the kill fails the run, which would show nothing. ``--beat 30`` runs one celery beat, as the recipe
does: a wake-up the killed worker had taken but not started keeps the merged wake-ups' flag (eventlog/wake_ups.py)
set until its TTL runs out or a worker starts, and after the last command only that start or the sweep catches the
projections up.
The checks below then run as for one node.

Everything runs on this machine, over loopback, against a fresh PostgreSQL
database ``crawford_bench_load`` (server of DATABASE_URL, default
127.0.0.1:5432) and Redis db 13 (flushed first):

* gunicorn (``deploy/services/gunicorn.conf.py``, DEBUG=0) serves the API;
* a real Celery worker (``celery -A deploy worker -Q default,projections``,
  prefork with 2 processes as in ``crawford-worker.service``, or ``--pool solo``)
  runs the projections after every append and the tournament's process manager.
  No celery beat: a lost wake-up would show as projections that never catch up.

Through the API the script creates a Swiss tournament of 1 round with
2 x 64 players (staff token), enters them and draws; the worker's process
manager then creates the 64 matches. Then, for at most ``--seconds``:

* 64 writer threads (http.client, keep-alive) each record one match to its end
  through ``POST /api/matches/{id}/commands/``: server dice, the first legal
  play, now and then a double (taken, sometimes dropped); an
  ``Idempotency-Key`` on every command, the ``expected_version`` of the last answer;
* 50 reader threads each poll every ``--poll`` seconds (jittered), alternately
  ``GET /api/matches/{id}/`` of a random match and ``GET /api/tournaments/{id}/``.

Printed: commands/s, p50/p99 latency of commands and of each kind of read,
errors counted by HTTP status, the projections' lag during the run and how long
they took to catch up after the last command. Then, with gunicorn and the
worker stopped, two checks in this process (Django set up on the bench DB):

(a) every match stream is re-judged by the engine event by event (each
    command-initiated event is turned back into its command, ``decide`` must
    give exactly the stored events, ``evolve`` folds them), and the folded
    record, shaped by ``games.selectors.match_state_data``, must equal the last
    state the API returned to the writer;
(b) every read-model table (match and game summaries, ratings, tournament
    state/slots/standings and their indexes) is dumped with ``model_to_dict``
    (auto ids left out), every registered projection is rebuilt from position
    0 (``eventlog.projections.rebuild``) and the tables are dumped again:
    "identical", or the differences.
"""

from __future__ import annotations

import argparse
import collections
import http.client
import json
import os
import random
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from pathlib import Path
from urllib.parse import urlparse, urlunparse

ROOT = Path(__file__).resolve().parent.parent
BIN = ROOT / ".venv" / "bin"
DB_NAME = "crawford_bench_load"
sys.path.insert(0, str(ROOT))

sys.path.insert(0, str(ROOT / "scripts"))

import pg_clusters  # noqa: E402 - scripts/pg_clusters.py
from common import CpuMeter, code_version, recreate_database  # noqa: E402 - bench/common.py


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seconds", type=float, default=120.0, help="cap on the recording phase (default 120)")
    parser.add_argument("--matches", type=int, default=64)
    parser.add_argument("--readers", type=int, default=50)
    parser.add_argument("--length", type=int, default=1, choices=[1, 3, 5], help="match length in points")
    parser.add_argument("--poll", type=float, default=1.0, help="seconds between two reads of one reader")
    parser.add_argument("--double-rate", type=float, default=0.05, help="chance of doubling when the cube is available")
    parser.add_argument("--gunicorn-workers", type=int, default=4)
    parser.add_argument("--pool", choices=["prefork", "solo"], default="prefork")
    parser.add_argument("--concurrency", type=int, default=2, help="worker processes with --pool prefork")
    parser.add_argument("--nodes", type=int, default=1, help="gunicorn nodes, each on its own port (default 1)")
    parser.add_argument("--workers", type=int, default=1, help="Celery workers on the same queues (default 1)")
    parser.add_argument("--kill-worker", type=float, metavar="SECONDS",
                        help="SIGKILL worker 1 (its process group) this many seconds into the recording")
    parser.add_argument("--restart-after", type=float, default=3.0, metavar="SECONDS",
                        help="start the killed worker again this many seconds after (default 3; negative: never)")
    parser.add_argument("--beat", type=float, metavar="SECONDS",
                        help="run one celery beat, its sweeps every SECONDS (production: 30); default: no beat")
    parser.add_argument("--database-url",
                        default=os.environ.get("DATABASE_URL", "postgres://postgres@127.0.0.1:5432/crawford"))
    parser.add_argument("--redis-url", default=_redis_db_13(os.environ.get("REDIS_URL")),
                        help="the broker (flushed): default db 13 of REDIS_URL's server, else of 127.0.0.1:6379")
    parser.add_argument("--no-idempotency-key", dest="idempotency", action="store_false",
                        help="send commands without an Idempotency-Key")
    parser.add_argument("--conn-max-age", type=int, help="CONN_MAX_AGE for gunicorn and the worker (default: the "
                        "settings' default, 600; 0: one PostgreSQL connection per request)")
    parser.add_argument("--pooler", action="store_true",
                        help="the services reach PostgreSQL through PgBouncer in transaction mode, on a throwaway "
                             "cluster of this machine (scripts/pg_clusters.py) instead of DATABASE_URL's server")
    parser.add_argument("--replica", action="store_true",
                        help="a streaming replica of that throwaway cluster serves the anonymous reads "
                             "(DATABASE_REPLICA_URL, deploy/replica.py); through the pooler with --pooler")
    parser.add_argument("--keep-logs", action="store_true",
                        help="keep the gunicorn and worker logs (kept anyway on errors)")
    args = parser.parse_args()
    if args.kill_worker is not None and args.workers < 2 and args.restart_after < 0:
        parser.error("--kill-worker with one worker that is never restarted leaves nothing to run the projections")

    servers = _Topology(args) if args.pooler or args.replica else None
    try:
        return _bench(args, servers)
    finally:
        if servers is not None:
            servers.stop()


def _bench(args, servers: _Topology | None) -> int:
    url = urlparse(servers.primary.url("postgres") if servers else args.database_url)
    recreate_database(url, DB_NAME)
    env = dict(
        os.environ, DATABASE_URL=urlunparse(url._replace(path="/" + DB_NAME)), REDIS_URL=args.redis_url,
        DEBUG="0", SECRET_KEY="bench-" + uuid.uuid4().hex, SECURE_SSL_REDIRECT="0", ALLOWED_HOSTS="127.0.0.1",
        DJANGO_SETTINGS_MODULE="deploy.settings", PYTHONUNBUFFERED="1",
        # every writer and reader is one address here (loopback) and the writers one user: production's throttles
        # (120 anonymous requests a minute per address) would answer 429 within seconds. They have their own
        # bench (bench/hammer.py); this one measures the platform behind them
        API_THROTTLE_ANON="100000000/minute", API_THROTTLE_USER="100000000/minute",
    )
    if args.conn_max_age is not None:
        env["CONN_MAX_AGE"] = str(args.conn_max_age)
    # this process (the migrations, the set-up, the checks) reads and writes the primary directly; the services go
    # the way the topology says
    os.environ.update({k: env[k] for k in ("DATABASE_URL", "REDIS_URL", "DEBUG", "SECRET_KEY", "SECURE_SSL_REDIRECT",
                                           "ALLOWED_HOSTS", "DJANGO_SETTINGS_MODULE")}, LOG_LEVEL="WARNING")
    if servers is not None:
        env.update(servers.service_env(DB_NAME))
    import django

    django.setup()
    from django.conf import settings
    from django.core.management import call_command

    call_command("migrate", verbosity=0)
    import redis

    broker = redis.Redis.from_url(args.redis_url)
    broker.flushdb()
    token = _setup_users()

    logs = Path(tempfile.mkdtemp(prefix="crawford-bench-load-"))
    ports = [_free_port() for _ in range(args.nodes)]
    services = _Services(env, logs, ports, args)
    try:
        services.start()
        pool = f"--pool {args.pool}" + (f" --concurrency {args.concurrency}" if args.pool == "prefork" else "")
        nodes = ", ".join(f"127.0.0.1:{p}" for p in ports)
        print(f"PostgreSQL {url.hostname}:{url.port or 5432} db {DB_NAME}; Redis {args.redis_url} (flushed); "
              f"{args.nodes} gunicorn node{'s' if args.nodes > 1 else ''} of {args.gunicorn_workers} workers x 2 "
              f"threads on {nodes}, DEBUG=0; {args.workers} celery worker{'s' if args.workers > 1 else ''} {pool}; "
              f"CONN_MAX_AGE={settings.DATABASES['default']['CONN_MAX_AGE']}; "
              f"Idempotency-Key {'on' if args.idempotency else 'off'}; CPython {sys.version.split()[0]}; "
              f"{code_version()}")
        if servers is not None:
            print(servers.describe())
        if args.beat is not None:
            print(f"one celery beat: projection sweep every {args.beat:g} s")
        if args.kill_worker is not None:
            print(f"worker 1 SIGKILLed {args.kill_worker:g} s into the recording, "
                  + (f"started again {args.restart_after:g} s later" if args.restart_after >= 0 else "not restarted"))
        api = Client(ports[0], token)
        tournament, match_ids = _make_tournament(api, args.matches, args.length)
        print(f"tournament {tournament}: swiss, 1 round, {2 * args.matches} players; {len(match_ids)} matches of "
              f"{args.length} point{'s' if args.length > 1 else ''} created by the process manager")
        run = _Run(ports, token, tournament, match_ids, args)
        # the CPU of the worker that is killed and started again is in "other processes" (it changes process group)
        groups = {f"gunicorn node {i + 1}" if args.nodes > 1 else "gunicorn": proc.pid
                  for i, proc in enumerate(services.nodes)}
        groups.update({f"celery worker {i + 1}" if args.workers > 1 else "celery worker": proc.pid
                       for i, proc in enumerate(services.workers) if not (i == 0 and args.kill_worker is not None)})
        meter = CpuMeter(groups)
        before = meter.snapshot()
        killer = _Killer(services, run, args) if args.kill_worker is not None else None
        run.go()
        after = meter.snapshot()
        if servers is not None:
            servers.note_connections()
        if killer is not None:
            killer.join()
        run.report()
        print(meter.report(before, after, run.elapsed))
        caught_up = _wait_for_projections(broker, run.finished_at)
        clean_logs = services.check_logs()
    finally:
        services.stop()
    if args.keep_logs or not clean_logs or run.errors():
        print(f"logs: {logs}")
    else:
        shutil.rmtree(logs)
    unfinished = sum(1 for state in run.last_state.values() if not state.get("finished"))
    if unfinished:
        print(f"{unfinished} matches were still being played when --seconds ran out (raise it to play them all)")

    print()
    ok_streams = _verify_streams(run.last_state)
    ok_projections = _verify_projections(broker) if caught_up else False
    ok_servers = servers.report() if servers is not None else True
    killed_as_asked = killer is None or killer.killed
    # an error a service logged fails the run too (a node's "Control server error" passed unremarked once)
    return 0 if (ok_streams and ok_projections and ok_servers and not run.failed() and killed_as_asked
                 and clean_logs) else 1


# -- set-up -------------------------------------------------------------------------------------


def _setup_users() -> str:
    from django.contrib.auth import get_user_model
    from rest_framework.authtoken.models import Token

    from django.contrib.auth.models import Group

    from players import authority

    # an official (staff in the migrations' "Officials" group): who may create an event without a club's name
    user = get_user_model().objects.create_user("bench-director", is_staff=True)
    user.groups.add(Group.objects.get(name=authority.OFFICIALS_GROUP))
    return Token.objects.create(user=user).key


def _redis_db_13(redis_url: str | None) -> str:
    """Db 13 of the Redis server of ``redis_url`` (scripts/test-services.sh exports the one it found or started)."""
    if not redis_url:
        return "redis://127.0.0.1:6379/13"
    return urlunparse(urlparse(redis_url)._replace(path="/13"))


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class _Topology:
    """The database servers of a run past one machine's single server: a throwaway primary, PgBouncer in front of it
    (``--pooler``, transaction mode) and a streaming replica for the anonymous reads (``--replica``), as
    deploy/compose.yaml runs them (scripts/pg_clusters.py)."""

    def __init__(self, args):
        self.args = args
        self.work = Path(tempfile.mkdtemp(prefix="crawford-bench-servers-"))
        run = self.work / "run"
        run.mkdir()
        pg_clusters.owned_by_postgres(self.work, run)
        self.primary = pg_clusters.Cluster(self.work / "primary", pg_clusters.free_port(), run)
        self.replica: pg_clusters.Cluster | None = None
        self.pooler: pg_clusters.PgBouncer | None = None
        self.connections: dict[str, tuple[int, int]] = {}  # pool -> (client, server) connections after the run
        try:
            # the primary's tuning as the bench's usual server has it by default: only its place differs
            self.primary.init({"max_connections": "200"})
            self.primary.start()
            if args.replica:
                self.replica = self.primary.replica(self.work / "replica", pg_clusters.free_port())
            if args.pooler:
                pools = {DB_NAME: (self.primary, DB_NAME)}
                if self.replica is not None:
                    pools[DB_NAME + "_replica"] = (self.replica, DB_NAME)
                self.pooler = pg_clusters.PgBouncer(run, pg_clusters.free_port(), pools)
                self.pooler.start()
        except BaseException:
            self.stop()
            raise

    def service_env(self, database: str) -> dict[str, str]:
        """The settings of the gunicorn nodes, the workers and the beat."""
        env = {}
        if self.pooler is not None:
            env["DATABASE_URL"] = self.pooler.url(database)
            env["DATABASE_TRANSACTION_POOLER"] = "1"
            if not self.pooler.prepared_statements:
                env["DATABASE_PREPARED_READS"] = "0"  # PgBouncer < 1.21 carries none between its server connections
        if self.replica is not None:
            env["DATABASE_REPLICA_URL"] = (self.pooler.url(database + "_replica") if self.pooler is not None
                                           else self.replica.url(database))
        return env

    def describe(self) -> str:
        parts = [f"throwaway PostgreSQL primary on 127.0.0.1:{self.primary.port}"]
        if self.replica is not None:
            parts.append(f"its streaming replica on 127.0.0.1:{self.replica.port} for the anonymous reads")
        if self.pooler is not None:
            version = ".".join(map(str, self.pooler.version))
            parts.append(f"PgBouncer {version} ({self.pooler.binary}) on 127.0.0.1:{self.pooler.port} in "
                         "transaction mode in front of " + ("both" if self.replica is not None else "it")
                         + ", prepared statements "
                         + ("carried" if self.pooler.prepared_statements else "off (before 1.21 it carries none)"))
        return "; ".join(parts)

    def note_connections(self) -> None:
        """The pooler's client and server connections while the services still hold theirs."""
        if self.pooler is not None:
            servers = collections.Counter(row["database"] for row in self.pooler.show("SERVERS"))
            clients = collections.Counter(row["database"] for row in self.pooler.show("CLIENTS"))
            self.connections = {name: (clients[name], servers[name]) for name in self.pooler.databases}

    def report(self) -> bool:
        """What went through the pooler and to the replica; False if the replica served no read or fell behind, or
        if a pooler that carries prepared statements ran none of the primary's."""
        ok = True
        if self.pooler is not None:
            stats = {row["database"]: row for row in self.pooler.show("STATS")}
            for name in self.pooler.databases:
                row = stats.get(name, {})
                clients, servers = self.connections.get(name, (0, 0))
                print(f"PgBouncer {name}: {int(row.get('total_xact_count', 0)):,} transactions, "
                      f"{int(row.get('total_query_count', 0)):,} statements; after the recording the services held "
                      f"{clients} client connections open on {servers} server connections")
                if self.pooler.prepared_statements:
                    # a client's statement prepared once per connection, by PgBouncer once per server connection
                    runs = int(row.get("total_bind_count", 0))
                    print(f"    prepared statements: {runs:,} runs of "
                          f"{int(row.get('total_client_parse_count', 0)):,} the clients prepared, "
                          f"{int(row.get('total_server_parse_count', 0)):,} prepared on the servers")
                    if runs == 0 and name == DB_NAME:  # every command reads through eventlog/prepared.py
                        print("    the services' prepared reads did not go through the pooler")
                        ok = False
        if self.replica is not None:
            caught_up = self.replica.replayed(self.primary)
            reads = int(self.replica.sql("SELECT xact_commit FROM pg_stat_database WHERE datname = "
                                         f"'{DB_NAME}'") or 0)
            print(f"replica: {reads:,} transactions served; replayed everything the primary wrote: "
                  f"{'yes' if caught_up else 'NO'}")
            if reads == 0:
                print("    the anonymous reads did not reach the replica")
            ok = ok and caught_up and reads > 0
        return ok

    def stop(self) -> None:
        if self.pooler is not None:
            self.pooler.stop()
        for cluster in (self.replica, self.primary):
            if cluster is not None:
                cluster.stop()
        shutil.rmtree(self.work, ignore_errors=True)


class _Services:
    """The gunicorn nodes and the Celery workers as subprocesses, each in its own process group."""

    def __init__(self, env: dict, logs: Path, ports: list[int], args):
        self.env, self.logs, self.ports, self.args = env, logs, ports, args
        self.workers: list[subprocess.Popen] = []
        self.nodes: list[subprocess.Popen] = []
        self.worker_logs: list[Path] = []
        self.web_logs: list[Path] = []
        self.killed: list[subprocess.Popen] = []
        self.beats: list[subprocess.Popen] = []

    @property
    def procs(self) -> list[subprocess.Popen]:
        return self.workers + self.nodes + self.beats

    def start(self) -> None:
        for index in range(self.args.workers):
            self.workers.append(self._worker(index, self.logs / f"worker{index + 1}.log"))
        if self.args.beat is not None:
            # exactly one, as crawford-beat.service: the sweeps that catch up what a lost wake-up missed
            self.beat_log = self.logs / "beat.log"
            self.beats = [self._spawn(
                [str(BIN / "celery"), "-A", "deploy", "beat", "-l", "info", "-s", str(self.logs / "beat-schedule"),
                 "--scheduler", "celery.beat:PersistentScheduler"],
                {"SWEEP_SECONDS": f"{self.args.beat:g}"}, self.beat_log)]
        for index, port in enumerate(self.ports):
            log = self.logs / f"gunicorn{index + 1}.log"
            self.web_logs.append(log)
            self.nodes.append(self._spawn(
                [str(BIN / "gunicorn"), "-c", "deploy/services/gunicorn.conf.py", "deploy.wsgi:application",
                 "--access-logfile", "/dev/null"],
                {"GUNICORN_BIND": f"127.0.0.1:{port}", "GUNICORN_WORKERS": str(self.args.gunicorn_workers)}, log))
        deadline = time.time() + 90
        for log in self.worker_logs:
            self._ready(log, deadline)
        for port in self.ports:
            while True:
                self._alive_or_die(deadline, "gunicorn")
                try:
                    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=2)
                    conn.request("GET", "/api/tournaments/")
                    if conn.getresponse().status == 200:
                        break
                except OSError:
                    pass
                time.sleep(0.3)

    def _worker(self, index: int, log: Path) -> subprocess.Popen:
        pool = ["--pool", "solo"] if self.args.pool == "solo" else ["--pool", "prefork", "--concurrency",
                                                                     str(self.args.concurrency)]
        self.worker_logs.append(log)
        # a name of its own per worker, as crawford-worker@N.service gives (-n workerN@%h)
        return self._spawn(
            [str(BIN / "celery"), "-A", "deploy", "worker", "-Q", "default,projections", *pool,
             "-n", f"bench-worker{index + 1}@%h", "--prefetch-multiplier", "1", "--without-gossip",
             "--without-mingle", "-l", "info"],
            {}, log)

    def _ready(self, log: Path, deadline: float) -> None:
        while "ready." not in log.read_text():
            self._alive_or_die(deadline, "a Celery worker")
            time.sleep(0.2)

    def kill_worker(self, index: int) -> None:
        """SIGKILL to the worker's process group: its pool's processes die mid-task, nothing is acknowledged."""
        proc = self.workers[index]
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait()
        self.killed.append(proc)

    def restart_worker(self, index: int) -> None:
        self.workers[index] = self._worker(index, self.logs / f"worker{index + 1}-restarted.log")
        self._ready(self.worker_logs[-1], time.time() + 90)

    def _spawn(self, argv: list[str], extra: dict, log: Path) -> subprocess.Popen:
        out = open(log, "w")
        return subprocess.Popen(argv, cwd=ROOT, env=dict(self.env, **extra), stdout=out, stderr=subprocess.STDOUT,
                                start_new_session=True)

    def _alive_or_die(self, deadline: float, what: str) -> None:
        for proc in self.procs:
            if proc.poll() is not None or time.time() > deadline:
                tail = "\n".join(p.read_text()[-3000:] for p in self.worker_logs + self.web_logs if p.exists())
                raise SystemExit(f"{what} did not start:\n{tail}")

    def check_logs(self) -> bool:
        """Print the tracebacks and errors the services logged; True when there were none."""
        clean = True
        logs = [(f"gunicorn node {i + 1}" if len(self.web_logs) > 1 else "gunicorn", log)
                for i, log in enumerate(self.web_logs)]
        logs += [(log.stem.replace("worker", "worker ") if len(self.worker_logs) > 1 else "worker", log)
                 for log in self.worker_logs]
        if self.beats:
            logs.append(("beat", self.beat_log))
        for name, log in logs:
            text = log.read_text()
            failures = text.count("Traceback (most recent call last)")
            raised = sum(1 for line in text.splitlines() if " raised " in line or "ERROR" in line)
            print(f"{name} log: {failures} tracebacks, {raised} error lines")
            if failures or raised:
                clean = False
                print(text[max(0, text.find("Traceback") - 2000) if "Traceback" in text else -3000:][:6000])
        return clean

    def stop(self) -> None:
        for proc in self.procs:
            if proc.poll() is None:
                os.killpg(proc.pid, signal.SIGTERM)
        for proc in self.procs:
            try:
                proc.wait(timeout=30)
            except subprocess.TimeoutExpired:
                os.killpg(proc.pid, signal.SIGKILL)
                proc.wait()


class _Killer(threading.Thread):
    """Worker 1 SIGKILLed ``--kill-worker`` seconds into the recording, started again ``--restart-after`` later.

    The wake-ups it held (delivered, never acknowledged) stay in the broker's ``unacked`` set until Redis's
    visibility timeout (an hour) gives them back: they are noted, and left out of "the queue is drained"."""

    def __init__(self, services: _Services, run, args):
        super().__init__(daemon=True)
        self.services, self.run_, self.args = services, run, args
        self.killed = False
        self.start()

    def run(self) -> None:
        if not self.run_.started_event.wait(600):
            return
        if self.run_.writers_done.wait(self.args.kill_worker):
            print(f"the recording ended before {self.args.kill_worker:g} s: no worker was killed, the run shows "
                  "nothing of a worker's death (fails; longer matches: --length 3, or an earlier --kill-worker)")
            return
        self.killed = True
        import redis

        broker = redis.Redis.from_url(self.args.redis_url)
        self.services.kill_worker(0)
        killed_at = time.perf_counter() - self.run_.started
        _LOST.update(broker.hkeys("unacked"))  # the survivor's are acknowledged within moments: only these stay
        self.run_.events.append(f"worker 1 SIGKILLed at {killed_at:.1f} s")
        if self.args.restart_after >= 0:
            time.sleep(self.args.restart_after)
            self.services.restart_worker(0)
            self.run_.events.append(f"worker 1 started again at {time.perf_counter() - self.run_.started:.1f} s "
                                    f"(ready)")


# delivery tags of the wake-ups the killed worker held: never acknowledged (see _Killer)
_LOST: set[bytes] = set()


class Client:
    """One keep-alive connection, as a browser or a recording tablet holds."""

    def __init__(self, port: int, token: str | None = None):
        self.port = port
        self.headers = {"Content-Type": "application/json"}
        if token:
            self.headers["Authorization"] = f"Token {token}"
        self.conn = http.client.HTTPConnection("127.0.0.1", port, timeout=120)
        self.reconnects = 0

    def request(self, method: str, path: str, body: dict | None = None, headers: dict | None = None):
        """(status, decoded body, seconds). A keep-alive connection the server closed meanwhile is reopened
        and the request sent again once, as browsers do (safe: commands carry an Idempotency-Key); a
        failure after that is status 0."""
        started = time.perf_counter()
        for attempt in (1, 2):
            try:
                self.conn.request(method, path, json.dumps(body) if body is not None else None,
                                  dict(self.headers, **(headers or {})))
                response = self.conn.getresponse()
                raw = response.read()
                status = response.status
                break
            except (OSError, http.client.HTTPException):
                self.conn.close()
                self.conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=120)
                self.reconnects += 1
                if attempt == 2:
                    return 0, {}, time.perf_counter() - started
        elapsed = time.perf_counter() - started
        try:
            data = json.loads(raw) if raw else {}
        except ValueError:
            data = {"raw": raw[:2000].decode("utf-8", "replace")}
        return status, data, elapsed


def _make_tournament(api: Client, matches: int, length: int) -> tuple[int, list[str]]:
    """A Swiss event of one round: 2 x ``matches`` entries and a random draw; the worker creates the matches."""
    from players.models import Player

    made = Player.objects.bulk_create(Player(display_name=f"Load {i:03d}") for i in range(2 * matches))
    players = [p.pk for p in made]
    status, body, _ = api.request("POST", "/api/tournaments/", {
        "name": "Bench night", "format": "swiss",
        "settings": {"rounds": 1, "lengths": {"rounds": {"default": length}}},
    })
    if status != 201:
        raise SystemExit(f"POST /api/tournaments/ -> {status} {body}")
    tid = body["id"]
    for pid in players:
        status, body, _ = api.request("POST", f"/api/tournaments/{tid}/commands/", {"type": "enter", "player": pid})
        if status != 200:
            raise SystemExit(f"enter {pid} -> {status} {body}")
    status, body, _ = api.request("POST", f"/api/tournaments/{tid}/commands/", {"type": "draw", "method": "random"})
    if status != 200:
        raise SystemExit(f"draw -> {status} {body}")
    deadline = time.time() + 120
    while time.time() < deadline:
        status, body, _ = api.request("GET", f"/api/tournaments/{tid}/")
        ids = [s["match_id"] for s in body.get("slots", []) if s.get("match_id")]
        if len(ids) == matches:
            status, listed, _ = api.request("GET", f"/api/matches/?tournament={tid}")
            if status == 200 and len(listed) == matches:
                return tid, ids
        time.sleep(0.5)
    raise SystemExit(f"the process manager did not create {matches} matches in 120 s (slots: {body.get('slots')})")


# -- the run -------------------------------------------------------------------------------


def _pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * (len(ordered) - 1) + 0.5))] * 1000 if ordered else float("nan")


class _Run:
    def __init__(self, ports: list[int], token: str, tournament: int, match_ids: list[str], args):
        self.ports, self.token, self.tournament, self.match_ids, self.args = ports, token, tournament, match_ids, args
        self.started_event = threading.Event()
        self.events: list[str] = []  # what happened to the services during the run (a worker killed...)
        self.commands_by_node: collections.Counter = collections.Counter()
        self.lock = threading.Lock()
        self.command_latency: list[float] = []
        self.read_latency: dict[str, list[float]] = {"match": [], "tournament": []}
        self.command_errors: collections.Counter = collections.Counter()
        self.read_errors: collections.Counter = collections.Counter()
        self.error_samples: list[str] = []
        self.last_state: dict[str, dict] = {}
        self.commands_by_type: collections.Counter = collections.Counter()
        self.writers_done = threading.Event()
        self.lag_samples: list[int] = []
        self.lock_samples: list[tuple[int, int]] = []
        self.reconnects = 0

    def go(self) -> None:
        self.deadline = time.time() + self.args.seconds
        writers = [threading.Thread(target=self._writer, args=(m, i)) for i, m in enumerate(self.match_ids)]
        readers = [threading.Thread(target=self._reader, args=(i,)) for i in range(self.args.readers)]
        monitor = threading.Thread(target=self._monitor)
        self.started = time.perf_counter()
        self.started_event.set()
        for t in writers + readers + [monitor]:
            t.start()
        for t in writers:
            t.join()
        self.finished_at = time.time()
        self.elapsed = time.perf_counter() - self.started
        self.writers_done.set()
        for t in readers + [monitor]:
            t.join()

    def _error(self, counter, status: int, what: str, body) -> None:
        with self.lock:
            counter[status] += 1
            if len(self.error_samples) < 10:
                self.error_samples.append(f"{what} -> {status} {json.dumps(body)[:1500]}")

    def _writer(self, match_id: str, index: int) -> None:
        rnd = random.Random(index)
        # one keep-alive connection to each node; command k goes through node (index + k) mod N, so with two
        # nodes each node judges every other command of the match from a snapshot older than the stream
        apis = [Client(port, self.token) for port in self.ports]
        sent = 0
        api = apis[index % len(apis)]
        status, state, _ = api.request("GET", f"/api/matches/{match_id}/")
        latencies, kinds, nodes = [], collections.Counter(), collections.Counter()
        failures_in_a_row = 0
        while status == 200 and not state["finished"] and time.time() < self.deadline and failures_in_a_row < 5:
            command = self._next_command(state, rnd)
            command["expected_version"] = state["version"]
            key = {"Idempotency-Key": uuid.uuid4().hex} if self.args.idempotency else None
            node = (index + sent) % len(apis)
            api = apis[node]
            sent += 1
            status, body, elapsed = api.request("POST", f"/api/matches/{match_id}/commands/", command, key)
            latencies.append(elapsed)
            kinds[command["type"]] += 1
            nodes[node] += 1
            if status == 200:
                state, failures_in_a_row = body["state"], 0
                continue
            failures_in_a_row += 1
            self._error(self.command_errors, status, f"POST {match_id} {command}", body)
            status, state, _ = api.request("GET", f"/api/matches/{match_id}/")  # reload, as a client would
        with self.lock:
            self.command_latency.extend(latencies)
            self.commands_by_type.update(kinds)
            self.commands_by_node.update(nodes)
            self.last_state[match_id] = state
            self.reconnects += sum(a.reconnects for a in apis)

    def _next_command(self, state: dict, rnd: random.Random) -> dict:
        phase = state["phase"]
        if phase == "move":
            return {"type": "move", "move": state["legal_moves"][0] if state["legal_moves"] else ""}
        if phase == "doubled":
            return {"type": "take" if rnd.random() < 0.75 else "drop"}
        if phase == "roll" and state["may_double"] and rnd.random() < self.args.double_rate:
            return {"type": "double"}
        return {"type": "roll"}

    def _reader(self, index: int) -> None:
        rnd = random.Random(1000 + index)
        api = Client(self.ports[index % len(self.ports)])  # spectators are anonymous; dealt to the nodes in turn
        latencies: dict[str, list[float]] = {"match": [], "tournament": []}
        tick = index % 2
        next_at = time.time() + rnd.uniform(0, self.args.poll)
        while not self.writers_done.is_set() and time.time() < self.deadline:
            pause = next_at - time.time()
            if pause > 0:
                self.writers_done.wait(pause)
                continue
            next_at += self.args.poll * rnd.uniform(0.8, 1.2)
            tick += 1
            if tick % 2:
                kind, path = "tournament", f"/api/tournaments/{self.tournament}/"
            else:
                kind, path = "match", f"/api/matches/{rnd.choice(self.match_ids)}/"
            status, body, elapsed = api.request("GET", path)
            latencies[kind].append(elapsed)
            if status != 200:
                self._error(self.read_errors, status, f"GET {path}", body)
        with self.lock:
            for kind, values in latencies.items():
                self.read_latency[kind].extend(values)
            self.reconnects += api.reconnects

    def _monitor(self) -> None:
        """Once a second: how far behind the log the slowest projection is (events), and how many
        of the bench database's connections wait for the log's advisory lock or are inside a transaction."""
        from django.db import connection

        try:
            while not self.writers_done.wait(1.0):
                self.lag_samples.append(_projection_lag()[0])
                with connection.cursor() as cursor:
                    cursor.execute(
                        "SELECT count(*) FILTER (WHERE wait_event = 'advisory'), count(*) FILTER (WHERE state LIKE"
                        " 'idle in transaction%%' OR (state = 'active' AND xact_start IS NOT NULL)) FROM"
                        " pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()")
                    self.lock_samples.append(cursor.fetchone())
        finally:
            connection.close()

    def errors(self) -> bool:
        return bool(self.command_errors or self.read_errors)

    def failed(self) -> bool:
        """An error, or a match not played to its end."""
        return self.errors() or any(not s.get("finished") for s in self.last_state.values())

    def report(self) -> None:
        commands = len(self.command_latency)
        reads = sum(len(v) for v in self.read_latency.values())
        finished = sum(1 for s in self.last_state.values() if s.get("finished"))
        print(f"recording: {self.elapsed:.1f} s (cap {self.args.seconds:.0f} s); matches finished {finished} of "
              f"{len(self.match_ids)}; commands by type: "
              + ", ".join(f"{k} {v}" for k, v in self.commands_by_type.most_common()))
        print(f"{'':<22}{'requests':>9}{'per s':>8}{'p50 ms':>9}{'p99 ms':>9}{'max ms':>9}")
        rows = [("commands (POST)", self.command_latency), ("GET match", self.read_latency["match"]),
                ("GET tournament", self.read_latency["tournament"])]
        for label, values in rows:
            print(f"{label:<22}{len(values):>9}{len(values) / self.elapsed:>8.1f}{_pct(values, 0.5):>9.1f}"
                  f"{_pct(values, 0.99):>9.1f}{max(values, default=0) * 1000:>9.1f}")
        print(f"errors: commands {dict(self.command_errors) or 0}, reads {dict(self.read_errors) or 0}"
              f" (of {commands} commands, {reads} reads); keep-alive connections closed by the server and reopened:"
              f" {self.reconnects}")
        for sample in self.error_samples:
            print("  " + sample)
        if len(self.ports) > 1:
            print("commands by node: " + ", ".join(f"node {n + 1} {c}" for n, c in sorted(self.commands_by_node.items())))
        for event in self.events:
            print(event)
        if self.lag_samples:
            print(f"projection lag during the run (slowest projection, sampled each second): median "
                  f"{statistics.median(self.lag_samples):.0f} events, max {max(self.lag_samples)} events")
        if self.lock_samples:
            waiting = [w for w, _ in self.lock_samples]
            busy = [b for _, b in self.lock_samples]
            print(f"bench DB connections waiting for the log's advisory lock (sampled each second): median "
                  f"{statistics.median(waiting):.0f}, max {max(waiting)}; in a transaction: median "
                  f"{statistics.median(busy):.0f}, max {max(busy)}")


def _projection_lag() -> tuple[int, int, dict[str, int]]:
    from django.db.models import Max

    from eventlog.models import Event, ProjectionCheckpoint
    from eventlog.projections import registered

    top = Event.objects.aggregate(p=Max("global_position"))["p"] or 0
    at = dict(ProjectionCheckpoint.objects.values_list("name", "position"))
    positions = {name: at.get(name, 0) for name in registered()}
    return top - min(positions.values()), top, positions


def _queued(broker) -> int:
    """Tasks waiting in the two queues or delivered and not yet acknowledged (but for a killed worker's: _LOST)."""
    unacked = len(set(broker.hkeys("unacked")) - _LOST) if _LOST else broker.hlen("unacked")
    return broker.llen("default") + broker.llen("projections") + unacked


def _wait_for_projections(broker, since: float, timeout: float = 600) -> bool:
    """Until every checkpoint is at the last position and no task is queued or running (three polls in a row).

    Prints when the checkpoints reached the log's end and when the queue of wake-ups
    (one ``project_all`` per append) was drained, both counted from the last command.
    """
    deadline = time.time() + timeout
    quiet, reached = 0, None
    while time.time() < deadline:
        lag, top, positions = _projection_lag()
        queued = _queued(broker)
        if lag == 0 and reached is None:
            reached = time.time()
            print(f"projections at the end of the log (position {top:,}) {reached - since:.1f} s after the last "
                  f"command; {queued} wake-up tasks still queued")
        quiet = quiet + 1 if lag == 0 and queued == 0 else 0
        if quiet == 3:
            print(f"queue drained {time.time() - since - 1.0:.1f} s after the last command: checkpoints {positions}")
            if _LOST:
                held = len(_LOST & set(broker.hkeys("unacked")))
                print(f"wake-ups held by the killed worker, still unacknowledged (given back after the broker's "
                      f"visibility timeout, 1 h; later wake-ups did their work): {held}")
            return True
        time.sleep(0.5)
    print(f"projections NOT caught up after {timeout:.0f} s: lag {lag} events, checkpoints {positions}, top {top}, "
          f"queued tasks {_queued(broker)}")
    return False


# -- checks ---------------------------------------------------------------------------------------


def rejudge(engine_events: list):
    """Re-decide a stream: each initiating event back into its command; ``decide`` must give the stored events."""
    from games.rejudging import rejudge as engine_rejudge

    return engine_rejudge(engine_events)


def _verify_streams(last_state: dict[str, dict]) -> bool:
    from eventlog.store import read_stream
    from games import selectors, streams
    from games.engine.match import replay

    same, events, problems = 0, 0, []
    for match_id, api_state in last_state.items():
        rows = read_stream(match_id)
        events += len(rows)
        engine = [streams.engine_event(r.event_type, r.payload)
                  for r in rows if r.event_type not in streams.PLATFORM_EVENTS]
        try:
            judged = rejudge(engine)
        except Exception as refused:  # noqa: BLE001 - reported, not raised
            problems.append(f"{match_id}: {refused}")
            continue
        record = streams.fold(match_id, rows)
        if judged != record.state or replay(engine) != record.state:
            problems.append(f"{match_id}: re-judged / replayed state differs from the stream's fold")
            continue
        folded = selectors.match_state_data(record)
        if folded != api_state:
            diff = {k: (api_state.get(k), folded.get(k)) for k in set(folded) | set(api_state)
                    if folded.get(k) != api_state.get(k)}
            problems.append(f"{match_id}: the API's last answer differs from the replay: {diff}")
            continue
        same += 1
    print(f"(a) streams: {same} of {len(last_state)} match streams ({events:,} events) re-judged by the engine "
          f"event by event, replayed, and equal to the API's last answer" + ("" if not problems else ": DIFFERENCES"))
    for p in problems[:20]:
        print("    " + p)
    return not problems and same == len(last_state)


def _read_models() -> list:
    from games.models import GameSummary, MatchSummary
    from ratings.models import PlayerRating, RatedMatch, RatedSlot, RatingChange
    from tournaments.models import TournamentMatchIndex, TournamentSlot, TournamentStanding, TournamentState

    return [MatchSummary, GameSummary, RatedMatch, RatedSlot, PlayerRating, RatingChange, TournamentState,
            TournamentSlot, TournamentStanding, TournamentMatchIndex]


def _dump() -> dict[str, collections.Counter]:
    """Each table as a multiset of rows (JSON text), auto ids and auto_now stamps left out."""
    from django.db.models import AutoField, BigAutoField
    from django.forms.models import model_to_dict

    out = {}
    for model in _read_models():
        auto = [f.name for f in model._meta.fields if isinstance(f, (AutoField, BigAutoField))]
        out[model.__name__] = collections.Counter(
            json.dumps(model_to_dict(row, exclude=auto), sort_keys=True, default=str) for row in model.objects.all()
        )
    return out


def _verify_projections(broker) -> bool:
    from eventlog import projections
    from tournaments.models import TournamentState

    before = _dump()
    sizes = ", ".join(f"{name} {sum(rows.values())}" for name, rows in before.items())
    timings = []
    for name in projections.rebuildable():  # a process is never rebuilt
        started = time.perf_counter()
        applied = projections.rebuild(name)
        timings.append(f"{name} {applied:,} events in {time.perf_counter() - started:.1f} s")
    after = _dump()
    print(f"(b) read models at the worker's checkpoints: {sizes}")
    print(f"    rebuilt from position 0: {'; '.join(timings)}")
    differ = False
    for name in before:
        if before[name] != after[name]:
            differ = True
            gone, new = before[name] - after[name], after[name] - before[name]
            print(f"    {name}: {sum(gone.values())} rows only in the worker's tables, "
                  f"{sum(new.values())} only in the rebuild")
            for row in list(gone)[:3]:
                print(f"      worker : {row}")
            for row in list(new)[:3]:
                print(f"      rebuild: {row}")
    print("    identical" if not differ else "    DIFFERENT")
    if _queued(broker):
        print(f"    note: the rebuild queued {_queued(broker)} task(s) (process manager woken by the rebuild)")
    state = TournamentState.objects.first()
    if state is not None:
        print(f"    tournament: winner player {state.winner}, {len(state.entries)} entries, flagged {state.flagged}")
    return not differ


if __name__ == "__main__":
    sys.exit(main())
