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
