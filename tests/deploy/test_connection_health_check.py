"""The check of a connection kept across requests: a quiet one is reused without a round trip, one the server has
ended is found out before a request's query is sent on it (deploy/postgresql/base.py)."""

import psycopg
import pytest
from django.db import connections

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("postgres")]  # PostgreSQL's connections


@pytest.fixture
def kept():
    """A connection of its own to the test database, outside the test's transaction, as a web thread keeps one."""
    wrapper = connections.create_connection("default")
    wrapper.ensure_connection()
    yield wrapper
    wrapper.close()


def _ended_by_the_server(wrapper) -> None:
    pid = wrapper.connection.info.backend_pid
    admin = connections.create_connection("default")
    try:
        with admin.cursor() as cursor:
            cursor.execute("SELECT pg_terminate_backend(%s)", [pid])
            # the backend has said goodbye and closed its end once it is gone from the server's list
            while True:
                cursor.execute("SELECT count(*) FROM pg_stat_activity WHERE pid = %s", [pid])
                if not cursor.fetchone()[0]:
                    break
                cursor.execute("SELECT pg_sleep(0.05)")
    finally:
        admin.close()


def test_a_quiet_connection_is_usable_without_a_statement(kept):
    def no_statement(*args, **kwargs):
        raise AssertionError("the health check sent a statement")

    kept.connection.cursor = no_statement
    kept.connection.execute = no_statement
    assert kept.is_usable()


def test_a_connection_the_server_ended_is_not_usable(kept):
    _ended_by_the_server(kept)
    assert not kept.is_usable()


def test_a_request_after_the_server_ended_its_connection_gets_a_new_one(kept):
    kept.health_check_enabled, kept.health_check_done = True, False
    old_pid = kept.connection.info.backend_pid
    _ended_by_the_server(kept)
    kept.close_if_health_check_failed()
    with kept.cursor() as cursor:
        cursor.execute("SELECT pg_backend_pid()")
        assert cursor.fetchone()[0] != old_pid


def test_a_connection_left_in_a_failed_transaction_is_asked_and_not_usable(kept):
    kept.connection.execute("BEGIN")
    with pytest.raises(psycopg.Error):
        kept.connection.execute("SELECT no_such_column FROM pg_class")
    assert not kept.is_usable()  # the server refuses the check's statement
