"""``eventlog_append`` takes the new events as one JSON array of ``[type, schema version, payload, content
digest]``, where it took four arrays.

Every command pays for binding its append's parameters in Python: psycopg writes a PostgreSQL array out element by
element (escaping each), and the four arrays cost ten times what the other ten parameters do together; one JSON
text costs what any text does. The function does the same work on what it is given: the lock, the version check,
the head and its hash, the receipt, the chain, the insert. It is made with its owner's rights, fixed
``search_path`` and EXECUTE kept from PUBLIC (0006); ``manage.py grant_app_role`` grants the application's role
EXECUTE on it. The function as 0007 made it stays beside it (PostgreSQL tells them apart by their arguments), so
that a process still running the release before goes on appending until it is restarted: both take the same lock
and write the same rows.
"""

from importlib import import_module

from django.db import migrations

_previous = import_module("eventlog.migrations.0007_hash_chain")

SIGNATURE = "eventlog_append(bigint, text, text, integer, jsonb, jsonb, timestamptz, text, text, text, jsonb)"

FUNCTION = """
CREATE FUNCTION eventlog_append(
    lock_key bigint, stream text, kind text, expected integer, new_events jsonb, event_metadata jsonb,
    at timestamptz, receipt_actor text, receipt_key text, receipt_fingerprint text, receipt_body jsonb,
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
    FOR i IN 1 .. jsonb_array_length(new_events) LOOP
        previous := encode(sha256(decode(previous, 'hex') || int8send(head + i)
                                  || decode(new_events -> (i - 1) ->> 3, 'hex')), 'hex');
        hashes := hashes || previous;
    END LOOP;
    INSERT INTO eventlog_event (global_position, stream_id, stream_type, version, event_type, schema_version,
                                payload, metadata, recorded_at, chain)
    SELECT head + t.n, stream, kind, expected + t.n, t.e ->> 0, (t.e ->> 1)::integer, t.e -> 2, event_metadata, at,
           hashes[t.n]
    FROM jsonb_array_elements(new_events) WITH ORDINALITY AS t(e, n);
END;
$$;
"""


def new_function(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        _previous._definer(schema_editor, SIGNATURE, FUNCTION)


def drop_new_function(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(f"DROP FUNCTION {SIGNATURE}", params=None)


class Migration(migrations.Migration):
    dependencies = [("eventlog", "0007_hash_chain")]
    operations = [migrations.RunPython(new_function, drop_new_function)]
