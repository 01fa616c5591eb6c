"""The lookups of matches across the log by their registration go through their own partial indexes, not a read
of the whole log (an import's runs holding the log's lock)."""

import pytest
from django.db import connection

from eventlog import store
from games import registrations, streams

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _postgres():
    if connection.vendor != "postgresql":
        pytest.skip("PostgreSQL's partial indexes: run `make test`, or set DATABASE_URL")


def _plan(queryset) -> str:
    with connection.cursor() as cursor:
        cursor.execute("SET LOCAL enable_seqscan = off")  # the test's log is small: ask what could serve it
        sql, params = queryset.query.sql_with_params()
        cursor.execute("EXPLAIN " + sql, params)
        return "\n".join(row[0] for row in cursor.fetchall())


def _register(stream_id: str, **payload) -> None:
    store.append(stream_id=stream_id, stream_type=streams.STREAM_TYPE, expected_version=0,
                 events=[store.NewEvent(streams.REGISTERED, payload)])


def test_an_events_matches_are_found_through_their_index():
    _register("match-in-7", tournament_id=7)
    _register("match-in-8", tournament_id=8)
    assert list(registrations.in_event(7).values_list("stream_id", flat=True)) == ["match-in-7"]
    assert "eventlog_registered_in_event" in _plan(registrations.in_event(7))


def test_an_imported_records_earlier_imports_are_found_through_their_index():
    _register("match-imported", import_fingerprint="abc")
    assert list(registrations.imported_as("abc").values_list("stream_id", flat=True)) == ["match-imported"]
    store.append(stream_id="match-imported", stream_type=streams.STREAM_TYPE, expected_version=1,
                 events=[store.NewEvent(streams.VOIDED, {"reason": "declined"})])
    assert not registrations.imported_as("abc").exists()  # a voided import counted nothing
    assert "eventlog_registered_import" in _plan(registrations.imported_as("abc"))
