"""Shared fixtures: users and players, an API client, and a live Celery worker on the real broker."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def pytest_configure(config):
    config.addinivalue_line("markers", "postgres: needs PostgreSQL (make test provides it)")
    config.addinivalue_line("markers", "worker: needs Redis and a live Celery worker (make test provides them)")


def officials_group():
    """The migrations' "Officials" group; a flushed database (transactional tests) has lost it, so make it again."""
    from django.contrib.auth.models import Group, Permission
    from django.contrib.contenttypes.models import ContentType

    from players import authority
    from players.models import Player

    ContentType.objects.clear_cache()  # a flush gave the content types new ids
    officiate, _ = Permission.objects.get_or_create(
        content_type=ContentType.objects.get_for_model(Player), codename="officiate",
        defaults={"name": "Run every event and officiate every match"},
    )
    group, _ = Group.objects.get_or_create(name=authority.OFFICIALS_GROUP)
    group.permissions.add(officiate)
    return group


@pytest.fixture
def make_user(django_user_model):
    def make(username: str, *, official: bool = False, player: bool = True, club=None):
        """``official``: staff in the "Officials" group, who run every event and officiate every match."""
        from players.models import Player

        user = django_user_model.objects.create_user(username=username, password="pw-" + username, is_staff=official)
        if official:
            user.groups.add(officials_group())
        if player:
            Player.objects.create(display_name=username.capitalize(), user=user, club=club)
        return user

    return make


@pytest.fixture
def api():
    from rest_framework.test import APIClient

    def client(user=None):
        c = APIClient()
        if user is not None:
            c.force_authenticate(user)
        return c

    return client


def _using_postgres() -> bool:
    from django.db import connection

    return connection.vendor == "postgresql"


@pytest.fixture
def postgres(db):
    if not _using_postgres():
        pytest.skip("needs PostgreSQL: run `make test`, or set DATABASE_URL")


class Worker:
    """A real `celery worker` (with embedded beat) process against the test database and broker."""

    def __init__(self, env: dict, log: Path):
        self.env, self.log, self.proc = env, log, None

    def start(self) -> None:
        self.log.write_text("")
        out = open(self.log, "a")
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "celery", "-A", "deploy", "worker", "-B", "-Q", "default,projections,analysis",
             "--pool", "solo", "--without-gossip", "--without-mingle", "-l", "info",
             "-s", str(self.log.with_suffix(".beat"))],
            cwd=ROOT, env=self.env, stdout=out, stderr=subprocess.STDOUT, start_new_session=True,
        )
        deadline = time.time() + 60
        while "ready." not in self.log.read_text():
            if self.proc.poll() is not None or time.time() > deadline:
                raise RuntimeError("the Celery worker did not start:\n" + self.log.read_text()[-3000:])
            time.sleep(0.2)

    def kill(self) -> None:
        """SIGKILL: no goodbye, unacknowledged tasks stay with the broker."""
        if self.proc and self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGKILL)
            self.proc.wait()

    def stop(self) -> None:
        if self.proc and self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGTERM)
            try:
                self.proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                self.kill()


@pytest.fixture(scope="session")
def broker_url():
    from django.conf import settings

    if not settings.REDIS_URL:
        pytest.skip("needs Redis: run `make test`, or set REDIS_URL")
    import redis

    redis.Redis.from_url(settings.REDIS_URL).flushdb()
    return settings.REDIS_URL


@pytest.fixture(scope="session")
def worker_env(django_db_setup, django_db_blocker, broker_url, tmp_path_factory):
    """Environment for a worker process that sees the test database."""
    from django.db import connection

    if not _using_postgres():
        pytest.skip("the live worker tests need PostgreSQL")
    s = connection.settings_dict
    url = f"postgres://{s['USER']}@{s['HOST'] or '127.0.0.1'}:{s['PORT'] or 5432}/{s['NAME']}"
    env = dict(os.environ, DATABASE_URL=url, REDIS_URL=broker_url, SWEEP_SECONDS="2",
               CELERY_BEAT_SCHEDULER="celery.beat:PersistentScheduler", PYTHONUNBUFFERED="1")
    return env, tmp_path_factory.mktemp("worker")


@pytest.fixture
def live_worker(worker_env, transactional_db):
    env, where = worker_env
    worker = Worker(env, where / "worker.log")
    worker.start()
    yield worker
    worker.stop()



# The event log refuses TRUNCATE even to its owner; a transactional test's teardown
# empties every table, so it runs as PostgreSQL's maintenance role ("replica": user
# triggers off, superusers only), and every test starts with the triggers back on.


@pytest.fixture(autouse=True)
def _event_log_triggers_on(request):
    if "django_db_blocker" not in request.fixturenames and not request.config.pluginmanager.has_plugin("django"):
        yield  # the pure tests' run (tests/pure.py): no database, no Django
        return
    marker = request.node.get_closest_marker("django_db")
    transactional = marker is not None and marker.kwargs.get("transaction", False)
    if transactional or "transactional_db" in request.fixturenames or "live_worker" in request.fixturenames:
        request.getfixturevalue("transactional_db")
        yield
        _set_replication_role("replica")
        return
    if marker is not None or "db" in request.fixturenames or "postgres" in request.fixturenames:
        with request.getfixturevalue("django_db_blocker").unblock():
            _set_replication_role("origin")
    yield


def _set_replication_role(role: str) -> None:
    from django.db import connection

    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute(f"SET session_replication_role = {role}")
