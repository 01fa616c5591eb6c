"""``stream_id`` loses its own two indexes (the plain one and the ``LIKE`` one): the unique ``(stream_id,
version)`` index serves every lookup by stream, and no reader matches streams by prefix. Each index is written
by every append while it holds the log's lock, so the log appends faster without them. On PostgreSQL two
``DROP INDEX``; SQLite rebuilds the table (the embedded default's log is small)."""

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [("eventlog", "0008_append_events_in_one_value")]

    operations = [
        migrations.AlterField(
            model_name="event",
            name="stream_id",
            field=models.CharField(max_length=64, verbose_name="stream"),
        ),
    ]
