"""The log's hash chain (eventlog/chain.py): a ``chain`` column, ``eventlog_append`` computing it under the lock,
and every existing event's hash computed once, in log order.

The function keeps its owner's rights, its fixed ``search_path`` and its EXECUTE kept from PUBLIC (0006); its
arguments gain the events' content digests (the application computes them: the canonical form is Python's) and
its result the hashes it wrote. The previous event's hash is read under the lock with the head position, so
two appends never chain from the same predecessor.

The backfill edits rows of an append-only log, once: the trigger that refuses UPDATE is disabled for the
migration's transaction (it holds the table's lock meanwhile: appends and reads of the log wait; see
docs/operations.md). A row inserted later without a hash (a tool writing behind the application's back) keeps
the column's default, an empty hash, which ``manage.py verify_log`` names.
"""

import django.utils.timezone
from django.db import migrations, models

import eventlog.chain

OLD_SIGNATURE = ("eventlog_append(bigint, text, text, integer, text[], integer[], jsonb[], jsonb, timestamptz, "
                 "text, text, text, jsonb)")
SIGNATURE = ("eventlog_append(bigint, text, text, integer, text[], integer[], jsonb[], text[], jsonb, timestamptz, "
             "text, text, text, jsonb)")

FUNCTION = """
CREATE FUNCTION eventlog_append(
    lock_key bigint, stream text, kind text, expected integer, event_types text[], schema_versions integer[],
    payloads jsonb[], content_digests text[], event_metadata jsonb, at timestamptz,
    receipt_actor text, receipt_key text, receipt_fingerprint text, receipt_body jsonb,
    OUT stream_version integer, OUT head bigint, OUT kept boolean, OUT hashes text[])
LANGUAGE plpgsql VOLATILE AS $$
DECLARE
    previous text;
BEGIN
    PERFORM pg_advisory_xact_lock(lock_key);
    SELECT coalesce(max(version), 0) INTO stream_version FROM eventlog_event WHERE stream_id = stream;
    -- the head and its hash: one row of the primary key's index, read once the lock is held
    SELECT global_position, chain INTO head, previous FROM eventlog_event ORDER BY global_position DESC LIMIT 1;
    IF NOT FOUND THEN
        head := 0;
        previous := '0000000000000000000000000000000000000000000000000000000000000000';
    END IF;
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
    -- chain(n) = sha256(chain(n-1) || position as int8 big-endian || content digest): eventlog/chain.py link()
    hashes := ARRAY[]::text[];
    FOR i IN 1 .. coalesce(array_length(content_digests, 1), 0) LOOP
        previous := encode(sha256(decode(previous, 'hex') || int8send(head + i) || decode(content_digests[i], 'hex')),
                           'hex');
        hashes := hashes || previous;
    END LOOP;
    INSERT INTO eventlog_event (global_position, stream_id, stream_type, version, event_type, schema_version,
                                payload, metadata, recorded_at, chain)
    SELECT head + t.n, stream, kind, expected + t.n, t.event_type, t.schema_version, t.payload, event_metadata, at,
           t.chain
    FROM unnest(event_types, schema_versions, payloads, hashes)
         WITH ORDINALITY AS t(event_type, schema_version, payload, chain, n);
END;
$$;
"""

OLD_FUNCTION = """
CREATE FUNCTION eventlog_append(
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
        RETURN;
    END IF;
    IF receipt_key IS NOT NULL THEN
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

BATCH = 5000
TRIGGER = "eventlog_event_no_update_delete"


def _definer(schema_editor, signature: str, body: str) -> None:
    with schema_editor.connection.cursor() as cursor:
        cursor.execute("SELECT current_schema()")
        schema = cursor.fetchone()[0]
    q = schema_editor.connection.ops.quote_name
    schema_editor.execute(body, params=None)
    schema_editor.execute(f"ALTER FUNCTION {signature} SECURITY DEFINER SET search_path = {q(schema)}, pg_temp",
                          params=None)
    schema_editor.execute(f"REVOKE EXECUTE ON FUNCTION {signature} FROM PUBLIC", params=None)


def new_function(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(f"DROP FUNCTION {OLD_SIGNATURE}", params=None)
        _definer(schema_editor, SIGNATURE, FUNCTION)


def old_function(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(f"DROP FUNCTION {SIGNATURE}", params=None)
        _definer(schema_editor, OLD_SIGNATURE, OLD_FUNCTION)


def chain_existing(apps, schema_editor):
    """Every event's hash, in log order, in batches of positions read and written back."""
    Event = apps.get_model("eventlog", "Event")
    connection = schema_editor.connection
    postgresql = connection.vendor == "postgresql"
    if postgresql:
        schema_editor.execute(f"ALTER TABLE eventlog_event DISABLE TRIGGER {TRIGGER}", params=None)
    previous, after = eventlog.chain.GENESIS, 0
    while True:
        rows = list(Event.objects.filter(global_position__gt=after).order_by("global_position")[:BATCH])
        if not rows:
            break
        for row in rows:
            row.chain = previous = eventlog.chain.of_row(row, previous)
        after = rows[-1].global_position
        if postgresql:
            with connection.cursor() as cursor:
                cursor.execute("UPDATE eventlog_event e SET chain = v.chain "
                               "FROM unnest(%s::bigint[], %s::text[]) AS v(position, chain) "
                               "WHERE e.global_position = v.position",
                               [[r.global_position for r in rows], [r.chain for r in rows]])
        else:
            Event.objects.bulk_update(rows, ["chain"])
    if postgresql:
        schema_editor.execute(f"ALTER TABLE eventlog_event ENABLE TRIGGER {TRIGGER}", params=None)


class Migration(migrations.Migration):
    dependencies = [("eventlog", "0006_append_function_definer")]
    operations = [
        migrations.AddField("event", "chain", models.CharField(
            "chain hash", max_length=64, db_default="", editable=False,
            help_text="sha256 of the previous event's hash, this position and this event's content")),
        migrations.AlterField("event", "recorded_at", models.DateTimeField(
            "recorded at", default=django.utils.timezone.now, editable=False)),
        migrations.RunPython(chain_existing, migrations.RunPython.noop),
        migrations.RunPython(new_function, old_function),
    ]
