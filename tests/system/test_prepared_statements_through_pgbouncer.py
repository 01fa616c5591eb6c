"""Prepared statements through PgBouncer in transaction mode, as scripts/pg_clusters.py runs it for `make
bench-scale` (the compose deployment's settings): two clients take turns on the pool's server connections, each
preparing the same statements, as two gunicorn threads do. With ``max_prepared_statements`` (PgBouncer 1.21 and
later) PgBouncer prepares a statement once per server connection under a name of its own and runs every client's
there, so the application's prepared reads (eventlog/prepared.py) stay on; without it the clients' statement names
collide on a shared server connection (Debian 12's PgBouncer 1.18, or the setting at 0)."""

import importlib.util
import shutil
import tempfile
from pathlib import Path

import psycopg
import pytest
from django.db import connection
from django.db.utils import load_backend
from rest_framework.authtoken.models import Token

from eventlog import prepared, store
from eventlog.models import Event
from players import authentication
from tests.conftest import ROOT

pytestmark = pytest.mark.django_db(transaction=True)

_spec = importlib.util.spec_from_file_location("pg_clusters", ROOT / "scripts" / "pg_clusters.py")
pg_clusters = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(pg_clusters)

POOL = "crawford_pooled"
DOUBLED = "SELECT %s::int * 2"


@pytest.fixture
def pooler():
    """Starts PgBouncer (``prepared_statements=False``: max_prepared_statements 0) in front of the test database."""
    target = connection.settings_dict
    if connection.vendor != "postgresql" or target["HOST"] not in ("127.0.0.1", "localhost") or \
            target["USER"] != "postgres":
        pytest.skip("PgBouncer in front of a local PostgreSQL trusting postgres: run `make test`")
    run = Path(tempfile.mkdtemp(prefix="crawford-pooler-"))
    pg_clusters.owned_by_postgres(run)
    server = pg_clusters.Cluster(run / "unused", int(target["PORT"] or 5432), run)
    started = []

    def start(prepared_statements: bool | None = None) -> pg_clusters.PgBouncer:
        bouncer = pg_clusters.PgBouncer(run, pg_clusters.free_port(), {POOL: (server, target["NAME"])},
                                        prepared_statements=prepared_statements)
        started.append(bouncer)
        bouncer.start()
        return bouncer

    yield start
    for bouncer in started:
        bouncer.stop()
    shutil.rmtree(run, ignore_errors=True)


def _stats(bouncer) -> dict[str, int]:
    row = next(row for row in bouncer.show("STATS") if row["database"] == POOL)
    return {name: int(row[name]) for name in ("total_client_parse_count", "total_server_parse_count",
                                              "total_bind_count")}


def _clients(bouncer, n: int = 2) -> list[psycopg.Connection]:
    # every statement prepared at its first run, each in a transaction of its own
    return [psycopg.connect(bouncer.url(POOL), prepare_threshold=0, autocommit=True) for _ in range(n)]


def _carrying(bouncer) -> None:
    version = ".".join(map(str, bouncer.version))
    assert bouncer.prepared_statements, (f"PgBouncer {version} at {bouncer.binary} carries no prepared statements "
                                         "in transaction mode (1.21 and later: scripts/install-pgbouncer.sh)")
    assert "max_prepared_statements = 200" in bouncer.config()


def test_clients_taking_turns_run_the_statements_pgbouncer_prepared_once_per_server_connection(pooler):
    bouncer = pooler()
    _carrying(bouncer)
    clients = _clients(bouncer)
    try:
        for turn in range(6):
            for n, client in enumerate(clients):
                assert client.execute(DOUBLED, [10 * turn + n]).fetchone() == (2 * (10 * turn + n),)
        on_server = clients[0].execute("SELECT name, statement FROM pg_prepared_statements", prepare=False).fetchall()
    finally:
        for client in clients:
            client.close()
    # the server connection holds it under PgBouncer's name, not under either client's
    assert any(name.startswith("PGBOUNCER_") and "$1::int * 2" in text for name, text in on_server), on_server
    stats = _stats(bouncer)
    assert stats["total_client_parse_count"] == 2 and stats["total_bind_count"] == 12, stats
    assert 1 <= stats["total_server_parse_count"] < stats["total_bind_count"], stats


def test_the_applications_prepared_reads_through_the_pooler(pooler, make_user, settings):
    settings.DATABASE_PREPARED_READS = True
    bouncer = pooler()
    _carrying(bouncer)
    dora = make_user("dora")
    key = Token.objects.create(user=dora).key
    store.append(stream_id="match-pooled", stream_type="match", expected_version=0,
                 events=[store.NewEvent("Probed", {"n": 1})])
    # two Django connections through the pooler, as two gunicorn nodes' (DATABASE_TRANSACTION_POOLER)
    through = dict(connection.settings_dict, NAME=POOL, PORT=str(bouncer.port), DISABLE_SERVER_SIDE_CURSORS=True)
    nodes = [load_backend(through["ENGINE"]).DatabaseWrapper(dict(through), f"pooled{n}") for n in range(2)]
    read_stream = store._READ_STREAM_SQL.format(table=connection.ops.quote_name(Event._meta.db_table))
    try:
        for _ in range(3):
            for node in nodes:
                with prepared.cursor(node) as cursor:
                    cursor.execute(authentication._by_token(), [authentication._APP, authentication._CODENAME, key])
                    user = dict(zip([c[0] for c in cursor.description], cursor.fetchone()))
                    cursor.execute(read_stream, ["match-pooled", 0])
                    events = [(version, event_type) for version, _, event_type, *_ in cursor.fetchall()]
                assert (user["username"], user["token_key"], events) == ("dora", key, [(1, "Probed")])
    finally:
        for node in nodes:
            node.close()
    stats = _stats(bouncer)
    assert stats["total_client_parse_count"] == 4 and stats["total_bind_count"] == 12, stats


def test_without_max_prepared_statements_the_clients_statements_collide(pooler):
    """What the two tests above would meet with PgBouncer 1.18, or 1.21+ with the setting at 0."""
    bouncer = pooler(prepared_statements=False)
    assert "max_prepared_statements = 200" not in bouncer.config()
    clients = _clients(bouncer)
    try:
        with pytest.raises(psycopg.errors.DuplicatePreparedStatement):
            for turn in range(6):
                for client in clients:
                    client.execute(DOUBLED, [turn])
    finally:
        for client in clients:
            client.close()
