"""The compose deployment past one database server: every service but the migrations reaches PostgreSQL through
PgBouncer in transaction mode, with prepared statements carried (1.21 or later), and the public pages' reads go to
a streaming replica of the primary, through the pooler too; the pooler's settings are those `make bench-scale`
runs (scripts/pg_clusters.py). No container is started here: tests/system/test_through_a_pooler_and_a_replica.py
runs that topology with a PgBouncer of 1.21 or later (scripts/install-pgbouncer.sh)."""

import configparser
import importlib.util
import re
from urllib.parse import urlparse

import yaml

from tests.conftest import ROOT

DEPLOY = ROOT / "deploy"
APP_SERVICES = ("web1", "web2", "live", "worker1", "worker2", "beat")


def _compose() -> dict:
    return yaml.safe_load((DEPLOY / "compose.yaml").read_text())


def _pooler_ini() -> configparser.ConfigParser:
    ini = configparser.ConfigParser(inline_comment_prefixes=(";",))
    ini.read_string((DEPLOY / "compose" / "pgbouncer.ini").read_text())
    return ini


def _pool_target(ini: configparser.ConfigParser, alias: str) -> dict[str, str]:
    return dict(pair.split("=", 1) for pair in ini["databases"][alias].split())


def _data_volume(service: dict) -> str:
    return next(v.split(":")[0] for v in service["volumes"] if v.endswith(":/var/lib/postgresql/data"))


def _environment(service: dict) -> dict:
    return service.get("environment", {})


def test_every_service_but_the_migrations_goes_through_the_pooler_to_the_primary_and_the_replica():
    compose, ini = _compose(), _pooler_ini()
    listen = int(ini["pgbouncer"]["listen_port"])
    for name in APP_SERVICES:
        env = _environment(compose["services"][name])
        primary, replica = urlparse(env["DATABASE_URL"]), urlparse(env["DATABASE_REPLICA_URL"])
        for url in (primary, replica):
            assert (url.hostname, url.port) == ("pgbouncer", listen), f"{name}: {url.geturl()}"
        assert _pool_target(ini, primary.path.strip("/"))["host"] == "db", name
        assert _pool_target(ini, replica.path.strip("/"))["host"] == "replica", name
        assert env["DATABASE_TRANSACTION_POOLER"] == "1", name
        assert env.get("DATABASE_PREPARED_READS", "1") != "0", f"{name}: PgBouncer 1.21+ carries them"
        assert {"pgbouncer", "replica", "migrate"} <= set(compose["services"][name]["depends_on"]), name
    migrate = _environment(compose["services"]["migrate"])
    assert urlparse(migrate["DATABASE_URL"]).hostname == "db"  # DDL and its locks never go through a pool
    assert migrate["DATABASE_TRANSACTION_POOLER"] == "0"


def test_the_pooler_runs_in_transaction_mode_carrying_prepared_statements():
    compose, settings = _compose(), _pooler_ini()["pgbouncer"]
    assert settings["pool_mode"] == "transaction"
    assert int(settings["max_prepared_statements"]) > 0
    tag = compose["services"]["pgbouncer"]["image"].rsplit(":", 1)[1]
    major, minor = map(int, re.match(r"v?(\d+)\.(\d+)", tag).groups())
    assert (major, minor) >= (1, 21), f"PgBouncer {tag} carries no prepared statements in transaction mode"
    start = (DEPLOY / "compose" / "pgbouncer.sh").read_text()
    assert settings["auth_file"] in start and "exec pgbouncer /etc/pgbouncer/pgbouncer.ini" in start


def test_the_replica_is_a_base_backup_of_the_primary_that_follows_it_on_its_own_volume():
    compose = _compose()
    replica, db = compose["services"]["replica"], compose["services"]["db"]
    script = (DEPLOY / "compose" / "replica.sh").read_text()
    assert re.search(r"pg_basebackup -h db .* -R ", script) and "hot_standby=on" in script
    assert _data_volume(replica) != _data_volume(db)
    assert replica["depends_on"]["db"]["condition"] == "service_healthy"


def test_the_bench_runs_the_pooler_the_compose_deployment_runs():
    spec = importlib.util.spec_from_file_location("pg_clusters", ROOT / "scripts" / "pg_clusters.py")
    bench = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bench)
    compose = _pooler_ini()["pgbouncer"]
    for setting, value in {**bench.POOLING, **bench.PREPARED_STATEMENTS}.items():
        assert compose[setting] == value, setting
    # where this machine's PgBouncer is older, the bench builds one that carries them as well, from a checked source
    install = (ROOT / "scripts" / "install-pgbouncer.sh").read_text()
    version = re.search(r"^VERSION=(\d+)\.(\d+)\.\d+$", install, re.M)
    assert version and (int(version[1]), int(version[2])) >= (1, 21)
    assert re.search(r"^SHA256=[0-9a-f]{64}$", install, re.M) and "sha256sum -c" in install
