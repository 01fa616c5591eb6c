"""Shared fixtures: users and players, an API client, and a live Celery worker on the real broker."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def pytest_configure(config):
    config.pluginmanager.import_plugin("tests.hypothesis_profile")  # no deadline: not the machine's speed
    config.addinivalue_line("markers", "postgres: needs PostgreSQL (make test provides it)")
    config.addinivalue_line("markers", "worker: needs Redis and a live Celery worker (make test provides them)")
    config.addinivalue_line("markers", "system: a whole process or program at work (a browser, a live worker, a "
                                       "server, a build, the import linter): set here, by fixture or by path")


# The system tier: the tests that drive processes (a Celery worker, a live server and Chromium, gunicorn, a wheel
# build, lint-imports) rather than the code in this process. `-m "not system"` leaves the rest, the quick tier.
SYSTEM_FIXTURES = {"live_worker", "worker_env", "live_server"}
SYSTEM_PATHS = ("system/", "test_import_contracts.py", "deploy/test_packaging.py", "deploy/test_gunicorn_",
                "deploy/test_services.py", "deploy/test_embedded_run.py")


def pytest_collection_modifyitems(config, items):
    tests = Path(__file__).resolve().parent
    for item in items:
        where = item.path.relative_to(tests).as_posix() if item.path.is_relative_to(tests) else ""
        if SYSTEM_FIXTURES & set(getattr(item, "fixturenames", ())) or where.startswith(SYSTEM_PATHS):
            item.add_marker(pytest.mark.system)
    # the files with system tests first, each file's tests in their order: the long ones start while the quick ones
    # can still fill the other process (pytest-xdist's --dist loadfile hands out the files in this order)
    slow = {item.path for item in items if item.get_closest_marker("system")}
    items.sort(key=lambda item: item.path not in slow)


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


@pytest.fixture(autouse=True)
def _nothing_kept_of_rolled_back_rows():
    """SQLite gives a test the ids and log positions of the rows the test before it rolled back, and the process's
    caches of pages and snapshots are keyed by them: another test's event would be shown, or judged on. So on
    SQLite they start empty at each test (PostgreSQL never gives an id or a position twice; a module's built_once
    puts back its own)."""
    if "django" in sys.modules:  # not in the pure run, which has no Django
        from django.conf import settings

        if settings.configured and settings.DATABASES["default"]["ENGINE"].endswith("sqlite3"):
            from django.core.cache import cache

            from games import loading
            from tournaments import event_page, folding

            cache.clear()
            event_page.forget_shown()
            for snapshots in (loading.SNAPSHOTS, folding.SNAPSHOTS, folding.VIEWS):
                snapshots.forget()
    yield


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


class _StoppedTime:
    """The ``time`` module with its clock stopped at ``at``."""

    def __init__(self, at: float):
        self._at = at

    def time(self) -> float:
        return self._at

    def __getattr__(self, name):
        return getattr(time, name)


@pytest.fixture
def throttle_clock_stopped(monkeypatch):
    """The rate limiter's clock (and the Retry-After worked out from it) stopped for the test: a test that counts
    requests up to a limit must not see a minute's window end between two of them (the sliding window's count then
    rounds the past minute's share down, and one more request passes)."""
    import limits.storage.memory
    import limits.storage.redis

    from apikit import throttling

    stopped = _StoppedTime(time.time())
    for module in (limits.storage.memory, limits.storage.redis, throttling):
        monkeypatch.setattr(module, "time", stopped)


@pytest.fixture
def tasks_in_process():
    """Celery tasks run where they are sent, as in the embedded default (no broker, no worker)."""
    from deploy.celery import app

    was, app.conf.task_always_eager = app.conf.task_always_eager, True
    yield
    app.conf.task_always_eager = was


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


QUEUES = ("default", "projections", "analysis")


class Worker:
    """A real `celery worker` (with embedded beat) process against the test database and broker."""

    def __init__(self, env: dict, log: Path, *, beat: bool = True, name: str | None = None):
        self.env, self.log, self.proc = env, log, None
        self.beat, self.name = beat, name or f"tests-{os.getpid()}-{log.stem}@%h"

    def start(self) -> None:
        self.log.write_text("")
        out = open(self.log, "a")
        beat = ["-B", "-s", str(self.log.with_suffix(".beat"))] if self.beat else []
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "celery", "-A", "deploy", "worker", "-Q", ",".join(QUEUES), "-n", self.name,
             "--pool", "solo", "--without-gossip", "--without-mingle", "-l", "info", *beat],
            cwd=ROOT, env=self.env, stdout=out, stderr=subprocess.STDOUT, start_new_session=True,
        )
        deadline = time.time() + 300  # seconds on a quiet machine; a busy one is many times slower
        while "ready." not in self.log.read_text():
            if self.proc.poll() is not None or time.time() > deadline:
                raise RuntimeError("the Celery worker did not start:\n" + self.log.read_text()[-3000:])
            time.sleep(0.1)

    def alive(self) -> bool:
        return self.proc is not None and self.proc.poll() is None

    def kill(self) -> None:
        """SIGKILL: no goodbye, unacknowledged tasks stay with the broker."""
        if self.alive():
            os.killpg(self.proc.pid, signal.SIGKILL)
            self.proc.wait()

    def stop(self) -> None:
        if self.alive():
            os.killpg(self.proc.pid, signal.SIGTERM)
            try:
                self.proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                self.kill()


class SessionWorker(Worker):
    """The session's one worker: started by the first test that asks for it, and again only after a test killed it.

    Between its tests it takes no task (its consumers are cancelled once the task in hand is done, and its beat,
    a process of its own, is stopped): a test without it sees no worker, as before, and a test that starts a
    worker of its own is that worker's only competitor-free consumer. Each test reads only its own lines of the
    log (truncated at its start; the worker appends).
    """

    def __init__(self, env: dict, log: Path):
        super().__init__(env, log, beat=False, name=f"tests-{os.getpid()}@%h")
        self.beat_proc = None

    @property
    def hostname(self) -> str:
        return self.name.replace("%h", socket.gethostname())

    def resume(self) -> None:
        if not self.alive():
            self.start()  # consumes its queues from the start
        else:
            self.log.write_text("")
            self._control("add_consumer")
        if self.beat_proc is None or self.beat_proc.poll() is not None:
            self.beat_proc = subprocess.Popen(
                [sys.executable, "-m", "celery", "-A", "deploy", "beat", "-l", "warning",
                 "-s", str(self.log.with_suffix(".beat"))],
                cwd=ROOT, env=self.env, stdout=open(self.log.with_suffix(".beat.log"), "a"),
                stderr=subprocess.STDOUT, start_new_session=True)
        else:
            os.killpg(self.beat_proc.pid, signal.SIGCONT)

    def pause(self) -> None:
        """No new task from here on, and none in hand: then the database may be flushed under it.

        An analysis still running now is one no assertion reads (a test of an analysis waits for it in its body):
        the match a test imported queues one, seconds to a minute of gnubg. Its gnubg is stopped rather than waited
        for; the run ends as after gnubg's crash (its row queued again, for a sweep that finds it flushed)."""
        if self.beat_proc is not None and self.beat_proc.poll() is None:
            os.killpg(self.beat_proc.pid, signal.SIGSTOP)
        if self.alive():
            idle = threading.Event()
            stopper = threading.Thread(target=self._stop_analyses_until, args=(idle,), daemon=True)
            stopper.start()
            try:
                self._wait_idle()
            finally:
                idle.set()
                stopper.join()

    def _wait_idle(self) -> None:
        self._control("cancel_consumer")  # answered between tasks
        from deploy.celery import app

        deadline = time.time() + 600  # the task in hand may be a long one on a busy machine
        while True:  # a solo worker answers between tasks: an empty answer is a worker with nothing in hand
            answer = app.control.inspect(destination=[self.hostname], timeout=5).reserved() or {}
            if answer.get(self.hostname) == []:
                return
            if time.time() > deadline or not self.alive():
                raise RuntimeError(f"the worker did not go idle: {answer}")

    def _stop_analyses_until(self, idle: threading.Event) -> None:
        """Kill the worker's gnubg processes (its process group's) until it is idle: the analysis task fails at
        once and the worker takes its next task, or answers."""
        while not idle.wait(0.1):
            for pid in _group_processes(self.proc.pid, "gnubg"):
                try:
                    os.kill(pid, signal.SIGKILL)
                except ProcessLookupError:
                    pass

    def _control(self, command: str) -> None:
        from deploy.celery import app

        for queue in QUEUES:
            replies = getattr(app.control, command)(queue, destination=[self.hostname], reply=True, timeout=120)
            if not replies:
                raise RuntimeError(f"the worker did not answer {command}({queue})")

    def stop(self) -> None:
        if self.beat_proc is not None and self.beat_proc.poll() is None:
            os.killpg(self.beat_proc.pid, signal.SIGKILL)
            self.beat_proc.wait()
        super().stop()


def _group_processes(group: int, name: str) -> list[int]:
    """The processes of the process group whose command is ``name`` (Linux's /proc; none elsewhere)."""
    found = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            text = stat.read_text()
        except OSError:  # ended meanwhile
            continue
        command, fields = text[text.index("(") + 1:text.rindex(")")], text[text.rindex(")") + 2:].split()
        if command == name and int(fields[2]) == group:  # state, ppid, pgrp
            found.append(int(stat.parent.name))
    return found


@pytest.fixture(scope="session")
def broker_url():
    """Redis, the site's broker and shared cache: a test of what a broker (tasks sent, not run in-process) or a
    shared cache changes asks for it, and is skipped without it (a run on SQLite alone, as `make run` has it)."""
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


@pytest.fixture(scope="session")
def _session_worker(worker_env):
    env, where = worker_env
    worker = SessionWorker(env, where / "worker.log")
    yield worker
    worker.stop()


@pytest.fixture
def live_worker(_session_worker, transactional_db):
    """The session's worker, taking tasks for this test only (its teardown waits until the worker is idle)."""
    _session_worker.resume()
    yield _session_worker
    _session_worker.pause()



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


def built_once(django_db_blocker, build):
    """A module fixture's body: ``build()`` run once, inside a transaction rolled back when the module is done
    (each test then runs in a savepoint of it, pytest-django's own transaction nested), instead of in every test's
    setup. Yields what was built and a function that puts this process's cache back as the build left it (call it
    at each test's start: a test's rolled-back writes must not leave it pages of a world that never was)."""
    from django.core.cache import cache
    from django.db import transaction

    with django_db_blocker.unblock():
        _set_replication_role("origin")
        outer = transaction.atomic()
        outer.__enter__()
        try:
            built = build()
        except BaseException:
            transaction.set_rollback(True)
            outer.__exit__(None, None, None)
            raise
    # the tests' cache is the process's memory (tests/settings.py): its entries as the build left them
    saved = (cache._cache.copy(), cache._expire_info.copy()) if hasattr(cache, "_expire_info") else None

    def restore_cache() -> None:
        if saved is not None:
            with cache._lock:
                cache._cache.clear()
                cache._cache.update(saved[0])
                cache._expire_info.clear()
                cache._expire_info.update(saved[1])

    yield built, restore_cache
    with django_db_blocker.unblock():
        transaction.set_rollback(True)
        outer.__exit__(None, None, None)


# Django's LocaleMiddleware activates a request's language in the thread and leaves it there (each real request
# activates its own): a French page fetched by one test made a later test's history lines French, in whichever
# process xdist gave both files to.
@pytest.fixture(autouse=True)
def _language_reset(request):
    yield
    if request.config.pluginmanager.has_plugin("django"):
        from django.utils import translation

        translation.deactivate()


def _set_replication_role(role: str) -> None:
    from django.db import connection

    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute(f"SET session_replication_role = {role}")
