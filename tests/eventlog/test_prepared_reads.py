"""The reads every command makes (the token's user with their authority, the match's new events) are statements
PostgreSQL plans once per connection (eventlog/prepared.py), still counted and logged as Django's; turned off by
``DATABASE_PREPARED_READS``."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from rest_framework.authtoken.models import Token

from eventlog import store
from players import authentication, authority

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _postgres():
    if connection.vendor != "postgresql":
        pytest.skip("PostgreSQL's prepared statements: run `make test`, or set DATABASE_URL")


def prepared_statements() -> list[str]:
    with connection.cursor() as cursor:
        cursor.execute("SELECT statement FROM pg_prepared_statements")
        return [row[0] for row in cursor.fetchall()]


def test_the_commands_reads_are_prepared_and_still_logged(make_user):
    dora = make_user("dora", official=True, player=False)
    key = Token.objects.create(user=dora).key
    store.append(stream_id="match-prepared", stream_type="match", expected_version=0,
                 events=[store.NewEvent("Probed", {"n": 1})])
    with CaptureQueriesContext(connection) as queries:
        for _ in range(3):
            user = authentication._read(authentication._by_token(), key)
            rows = store.read_stream_rows("match-prepared")
    assert user.pk == dora.pk and user.username == "dora" and user.token_key == key
    assert authority.officiates_everything(user) and authority.player_id_of(user) is None
    assert [(r.version, r.event_type, r.payload) for r in rows] == [(1, "Probed", {"n": 1})]
    statements = prepared_statements()
    assert any("token_key" in s for s in statements) and any("ORDER BY version" in s for s in statements)
    logged = [q["sql"] for q in queries.captured_queries]
    assert len(logged) == 6 and all(isinstance(sql, str) and "SELECT" in sql for sql in logged)


def test_turned_off_nothing_is_prepared(settings, make_user):
    settings.DATABASE_PREPARED_READS = False
    ann = make_user("ann")
    key = Token.objects.create(user=ann).key
    unique = authentication._by_token() + " AND 'turned off' <> ''"  # a statement no other test sends
    user = authentication._read(unique, key)
    assert user.pk == ann.pk and authority.player_id_of(user) == ann.player.pk
    assert not any("turned off" in s for s in prepared_statements())
    settings.DATABASE_PREPARED_READS = True
    authentication._read(unique, key)
    assert any("turned off" in s for s in prepared_statements())  # the check itself can see one


def test_one_server_cursor_is_kept_per_connection_and_a_use_inside_another_gets_its_own():
    from eventlog import prepared

    with prepared.cursor(connection) as outer:
        kept = outer.cursor
        outer.execute("SELECT generate_series(1, 3)")
        assert outer.fetchone() == (1,)
        with prepared.cursor(connection) as inner:  # while the outer one's rows are still being read
            assert inner.cursor is not kept
            inner.execute("SELECT 'inner'")
            assert inner.fetchone() == ("inner",)
        assert inner.cursor.closed and not kept.closed
        assert outer.fetchall() == [(2,), (3,)]  # the outer rows untouched by the inner statement
    with prepared.cursor(connection) as again:
        assert again.cursor is kept
        again.execute("SELECT 2")
        assert again.fetchone() == (2,)
