"""On PostgreSQL an append is one call of a function in the database, ``eventlog_append`` (eventlog/store.py).

As message-db's ``write_message``: the log's lock, the stream's version check, the next global position, the
command's idempotency receipt and the insert, in one statement that the server plans once per connection (the
same work sent as one string of SQL would be planned anew at every append: about half of its time on the
server). A function's statements each see a snapshot of their own (it is
VOLATILE, and the log is read at READ COMMITTED): the version and position read after the lock is granted see
every append committed before. ``SECURITY INVOKER`` (the default): it can do nothing its caller's role may not;
the application's role appends through it with its INSERT on the log, and the append-only trigger still holds.
"""

from django.db import migrations

FORWARD = """
CREATE OR REPLACE FUNCTION eventlog_append(
    lock_key bigint, stream text, kind text, expected integer, event_types text[], schema_versions integer[],
    payloads jsonb[], event_metadata jsonb, at timestamptz,
    receipt_actor text, receipt_key text, receipt_fingerprint text, receipt_body jsonb,
    OUT stream_version integer, OUT head bigint, OUT kept boolean)
LANGUAGE plpgsql VOLATILE AS $$
BEGIN
    PERFORM pg_advisory_xact_lock(lock_key);
    SELECT coalesce(max(version), 0) INTO stream_version FROM eventlog_event WHERE stream_id = stream;
    SELECT coalesce(max(global_position), 0) INTO head FROM eventlog_event;
    kept := false;
    IF stream_version <> expected THEN
        RETURN;  -- stale: nothing written, the caller raises
    END IF;
    IF receipt_key IS NOT NULL THEN
        -- waits for a holder of the key that has not committed; nothing is appended when the key is taken
        INSERT INTO eventlog_commandresult (actor, key, fingerprint, status_code, body, created_at)
        VALUES (receipt_actor, receipt_key, receipt_fingerprint, 200, receipt_body, at)
        ON CONFLICT (actor, key) DO NOTHING;
        IF NOT FOUND THEN
            RETURN;
        END IF;
        kept := true;
    END IF;
    INSERT INTO eventlog_event (global_position, stream_id, stream_type, version, event_type, schema_version,
                                payload, metadata, recorded_at)
    SELECT head + t.n, stream, kind, expected + t.n, t.event_type, t.schema_version, t.payload, event_metadata, at
    FROM unnest(event_types, schema_versions, payloads) WITH ORDINALITY AS t(event_type, schema_version, payload, n);
END;
$$;
"""

BACKWARD = """
DROP FUNCTION IF EXISTS eventlog_append(bigint, text, text, integer, text[], integer[], jsonb[], jsonb, timestamptz,
                                        text, text, text, jsonb);
"""


def forward(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(FORWARD, params=None)


def backward(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(BACKWARD, params=None)


class Migration(migrations.Migration):
    dependencies = [("eventlog", "0004_verbose_names")]
    operations = [migrations.RunPython(forward, backward)]
