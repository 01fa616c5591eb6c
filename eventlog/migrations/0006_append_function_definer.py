"""``eventlog_append`` runs with its owner's rights, and the application's role appends only through it.

With the function ``SECURITY INVOKER``, the application's role needed INSERT on the log, and with it could write
a row directly, at any position, with no lock and no version check. As ``SECURITY DEFINER`` (owned by the role
that ran the migrations, which owns the log) the function is the one way in: ``manage.py grant_app_role`` grants
the application's role EXECUTE on it and SELECT on the log, no INSERT. Its ``search_path`` is fixed to the log's
schema with ``pg_temp`` last, as PostgreSQL's documentation asks of a definer function, so that a caller's TEMP
table named ``eventlog_event`` cannot stand in for the log.
"""

from django.db import migrations

SIGNATURE = ("eventlog_append(bigint, text, text, integer, text[], integer[], jsonb[], jsonb, timestamptz, "
             "text, text, text, jsonb)")


def forward(apps, schema_editor):
    if schema_editor.connection.vendor != "postgresql":
        return
    with schema_editor.connection.cursor() as cursor:
        cursor.execute("SELECT current_schema()")
        schema = cursor.fetchone()[0]
    q = schema_editor.connection.ops.quote_name
    schema_editor.execute(f"ALTER FUNCTION {SIGNATURE} SECURITY DEFINER SET search_path = {q(schema)}, pg_temp",
                          params=None)
    # functions are executable by PUBLIC by default: only the owner and the roles grant_app_role names call it
    schema_editor.execute(f"REVOKE EXECUTE ON FUNCTION {SIGNATURE} FROM PUBLIC", params=None)


def backward(apps, schema_editor):
    if schema_editor.connection.vendor != "postgresql":
        return
    schema_editor.execute(f"ALTER FUNCTION {SIGNATURE} SECURITY INVOKER RESET search_path", params=None)
    schema_editor.execute(f"GRANT EXECUTE ON FUNCTION {SIGNATURE} TO PUBLIC", params=None)


class Migration(migrations.Migration):
    dependencies = [("eventlog", "0005_append_function")]
    operations = [migrations.RunPython(forward, backward)]
