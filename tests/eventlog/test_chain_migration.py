"""An existing log gets its hash chain once, from the migration: every event's hash as the append would have
linked it, and the appends after it chain on from the last."""

import json

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from eventlog import chain, store, verification
from eventlog.store import NewEvent

BEFORE = [("eventlog", "0006_append_function_definer")]


def migrate(targets=None):
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(targets or executor.loader.graph.leaf_nodes())


@pytest.mark.django_db(transaction=True)
def test_the_migration_chains_an_existing_log_and_appends_chain_on(postgres):
    migrate(BEFORE)
    try:
        with connection.cursor() as cursor:
            for position, (stream, version, payload) in enumerate(
                    [("a", 1, {"n": 1}), ("b", 1, {"x": 2.5, "t": "é"}), ("a", 2, {"n": [1, 2]})], start=1):
                cursor.execute(
                    "INSERT INTO eventlog_event (global_position, stream_id, stream_type, version, event_type, "
                    "schema_version, payload, metadata, recorded_at) VALUES (%s, %s, 'test', %s, 'Old', 1, %s, "
                    "'{\"actor\": null}', now())", [position, stream, version, json.dumps(payload)])
    finally:
        migrate()
    report = verification.walk()
    assert report.ok and report.events == 3 and report.head_hash != chain.GENESIS
    store.append(stream_id="a", stream_type="test", expected_version=2, events=[NewEvent("New", {})])
    report = verification.walk()
    assert report.ok and report.events == 4


@pytest.mark.django_db(transaction=True)
def test_a_process_of_the_release_before_appends_through_the_function_it_knows_and_the_chain_holds(postgres):
    """The append's function as eventlog 0007 made it (four arrays) stays beside today's (one JSON array): a node
    not yet restarted after the upgrade goes on appending, chained on the same head under the same lock."""
    from django.utils import timezone

    store.append(stream_id="a", stream_type="test", expected_version=0, events=[NewEvent("New", {"n": 1})])
    now, metadata = timezone.now(), {"actor": None}
    digest = chain.content_digest(stream_id="a", stream_type="test", version=2, event_type="Old", schema_version=1,
                                  payload={"n": [2, 3]}, metadata=metadata, recorded_at=now)
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT stream_version, head, kept FROM eventlog_append(%s::bigint, 'a', 'test', 1, ARRAY['Old'], "
            "ARRAY[1], ARRAY[%s::jsonb], ARRAY[%s], %s::jsonb, %s::timestamptz, NULL, NULL, NULL, NULL)",
            [store.APPEND_LOCK, json.dumps({"n": [2, 3]}), digest, json.dumps(metadata), now])
        assert cursor.fetchone() == (1, 1, False)
    store.append(stream_id="a", stream_type="test", expected_version=2, events=[NewEvent("New", {"n": 4}),
                                                                            NewEvent("New", {"n": 5})])
    report = verification.walk()
    assert report.ok and report.events == 4
    assert [e.payload for e in store.read_stream("a")] == [{"n": 1}, {"n": [2, 3]}, {"n": 4}, {"n": 5}]
