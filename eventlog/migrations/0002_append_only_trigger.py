"""On PostgreSQL the database itself refuses UPDATE, DELETE and TRUNCATE on the event log."""

from django.db import migrations

FORWARD = """
CREATE OR REPLACE FUNCTION eventlog_event_is_append_only() RETURNS trigger AS $$
BEGIN
    RAISE EXCEPTION 'the event log is append-only: % on eventlog_event is not allowed', TG_OP
        USING ERRCODE = 'insufficient_privilege';
END;
$$ LANGUAGE plpgsql;

CREATE TRIGGER eventlog_event_no_update_delete
    BEFORE UPDATE OR DELETE ON eventlog_event
    FOR EACH ROW EXECUTE FUNCTION eventlog_event_is_append_only();

CREATE TRIGGER eventlog_event_no_truncate
    BEFORE TRUNCATE ON eventlog_event
    FOR EACH STATEMENT EXECUTE FUNCTION eventlog_event_is_append_only();
"""

BACKWARD = """
DROP TRIGGER IF EXISTS eventlog_event_no_truncate ON eventlog_event;
DROP TRIGGER IF EXISTS eventlog_event_no_update_delete ON eventlog_event;
DROP FUNCTION IF EXISTS eventlog_event_is_append_only();
"""


def forward(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(FORWARD, params=None)


def backward(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(BACKWARD, params=None)


class Migration(migrations.Migration):
    dependencies = [("eventlog", "0001_initial")]
    operations = [migrations.RunPython(forward, backward)]
