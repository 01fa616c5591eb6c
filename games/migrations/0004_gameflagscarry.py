from django.db import migrations, models


def replay_match_summary(apps, schema_editor):
    # Streams projected before this migration have no carry to resume from: the next
    # run replays the log into the projection (upserts: the rows stay readable meanwhile).
    apps.get_model("eventlog", "ProjectionCheckpoint").objects.filter(name="match_summary").update(position=0)


class Migration(migrations.Migration):

    dependencies = [
        ("games", "0003_diceseed"),
        ("eventlog", "0002_append_only_trigger"),
    ]

    operations = [
        migrations.CreateModel(
            name="GameFlagsCarry",
            fields=[
                ("stream_id", models.CharField(max_length=64, primary_key=True, serialize=False)),
                ("length", models.PositiveIntegerField(default=0)),
                ("crawford_rule", models.BooleanField(default=True)),
                ("crawford_played", models.BooleanField(default=False)),
                ("score0", models.PositiveIntegerField(default=0)),
                ("score1", models.PositiveIntegerField(default=0)),
            ],
        ),
        migrations.RunPython(replay_match_summary, migrations.RunPython.noop),
    ]
