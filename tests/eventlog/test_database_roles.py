"""The application's database role can append to the log and read it, never rewrite it nor switch off its guard.

Migrations run as the owner (here the test run's role); ``manage.py grant_app_role`` gives the application's
role its privileges; then, connected as that role, every way around the append-only trigger is refused.
"""

from __future__ import annotations

import json

import pytest
from django.core.management import call_command
from django.db import connection

pytestmark = pytest.mark.django_db(transaction=True)

APP_ROLE = "crawford_app_test"


def _as_app_role():
    import psycopg

    s = connection.settings_dict
    return psycopg.connect(host=s["HOST"] or "127.0.0.1", port=s["PORT"] or 5432, dbname=s["NAME"], user=APP_ROLE,
                           autocommit=True)


@pytest.fixture
def app_role(postgres):
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1 FROM pg_roles WHERE rolname = %s", [APP_ROLE])
        if cursor.fetchone() is None:
            cursor.execute(f"CREATE ROLE {APP_ROLE} LOGIN")
    call_command("grant_app_role", APP_ROLE, stdout=open("/dev/null", "w"))
    from eventlog import store
    from eventlog.store import NewEvent

    store.append(stream_id="s-1", stream_type="test", expected_version=0, events=[NewEvent("First", {})])
    with _as_app_role() as conn:
        yield conn


def _events(*events) -> str:
    """The append's events as its function takes them: [type, schema version, payload, content digest]."""
    return json.dumps([[*event, "00" * 32] for event in events])


APPEND_ARGUMENTS = "bigint, text, text, integer, jsonb, jsonb, timestamptz, text, text, text, jsonb"

REFUSED = [
    "UPDATE eventlog_event SET payload = '{\"forged\": true}'",
    "DELETE FROM eventlog_event",
    "TRUNCATE eventlog_event",
    "ALTER TABLE eventlog_event DISABLE TRIGGER ALL",
    "ALTER TABLE eventlog_event DISABLE TRIGGER eventlog_event_no_update_delete",
    "DROP TRIGGER eventlog_event_no_update_delete ON eventlog_event",
    "SET session_replication_role = replica",
    "CREATE TABLE sneaky (id int)",
    # the append's function (eventlog/migrations/0005) is the owner's: not to be replaced, dropped or made to run
    # with the owner's rights
    f"ALTER FUNCTION eventlog_append({APPEND_ARGUMENTS}) SECURITY DEFINER",
    f"DROP FUNCTION eventlog_append({APPEND_ARGUMENTS})",
]


@pytest.mark.parametrize("statement", REFUSED)
def test_the_application_role_cannot_rewrite_the_log_nor_disable_its_trigger(app_role, statement):
    import psycopg

    with pytest.raises(psycopg.errors.InsufficientPrivilege):
        app_role.execute(statement)
    with connection.cursor() as cursor:
        cursor.execute("SELECT count(*), bool_and(payload = '{}'::jsonb) FROM eventlog_event")
        assert cursor.fetchone() == (1, True)
        cursor.execute("SELECT count(*) FROM pg_trigger WHERE tgrelid = 'eventlog_event'::regclass "
                       "AND NOT tgisinternal AND tgenabled = 'O'")
        assert cursor.fetchone()[0] == 2  # both guards still there and enabled


FORGED_ROW = ("INSERT INTO eventlog_event (global_position, stream_id, stream_type, version, event_type, "
              "schema_version, payload, metadata, recorded_at) VALUES (1001, 's-1', 'test', 2, 'Forged', 1, '{}', "
              "'{}', now())")


def test_the_application_role_cannot_insert_into_the_log_directly(app_role):
    """A direct INSERT would skip the lock, the version check and the position: only the function appends."""
    import psycopg

    with pytest.raises(psycopg.errors.InsufficientPrivilege):
        app_role.execute(FORGED_ROW)
    assert app_role.execute("SELECT count(*) FROM eventlog_event").fetchone()[0] == 1


def test_a_temp_table_cannot_stand_in_for_the_log_in_the_append(app_role):
    """The function's search_path is fixed: a session's TEMP ``eventlog_event`` is not where it writes."""
    from django.utils import timezone

    from eventlog.store import _APPEND_CALL, APPEND_LOCK

    app_role.execute("CREATE TEMP TABLE eventlog_event (LIKE public.eventlog_event)")
    called = app_role.execute(_APPEND_CALL, [APPEND_LOCK, "s-1", "test", 1, _events(["Second", 1, {"n": 2}]), "{}",
                                             timezone.now(), None, None, None, None]).fetchone()
    assert called[:3] == (1, 1, False)
    assert app_role.execute("SELECT count(*) FROM pg_temp.eventlog_event").fetchone()[0] == 0
    with connection.cursor() as cursor:
        cursor.execute("SELECT version, global_position FROM eventlog_event WHERE event_type = 'Second'")
        assert cursor.fetchone() == (2, 2)


def test_the_application_role_appends_reads_and_keeps_the_read_models(app_role):
    # as the application appends: through the log's function, which runs with its owner's rights
    from django.utils import timezone

    from eventlog.store import _APPEND_CALL, APPEND_LOCK

    called = app_role.execute(_APPEND_CALL, [APPEND_LOCK, "s-1", "test", 1, _events(["Second", 1, {"n": 2}]), "{}",
                                             timezone.now(), "app", "key-2", "f", '{"version": 2}']).fetchone()
    assert called[:3] == (1, 1, True)
    assert app_role.execute("SELECT version, global_position, payload FROM eventlog_event WHERE event_type = 'Second'"
                            ).fetchone() == (2, 2, {"n": 2})
    # a stale version writes nothing
    stale = app_role.execute(_APPEND_CALL, [APPEND_LOCK, "s-1", "test", 1, _events(["Late", 1, {}]), "{}",
                                            timezone.now(), None, None, None, None]).fetchone()
    assert stale[:3] == (2, 2, False)
    assert app_role.execute("SELECT count(*) FROM eventlog_event").fetchone()[0] == 2
    # the read models are the application's to rewrite (projections, rebuilds)
    # (a game's row)
    app_role.execute("INSERT INTO games_gamesummary (stream_id, game, score0_before, score1_before, crawford, "
                     "post_crawford, finished, points, kind, reason) "
                     "VALUES ('s-1', 1, 0, 0, false, false, false, 0, '', '')")
    app_role.execute("UPDATE games_gamesummary SET score0_before = 1")
    app_role.execute("DELETE FROM games_gamesummary")


def test_grant_app_role_refuses_a_superuser(postgres):
    from django.core.management.base import CommandError

    with pytest.raises(CommandError, match="superuser"):
        call_command("grant_app_role", connection.settings_dict["USER"] or "postgres")
