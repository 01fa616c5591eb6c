"""Merges become events: ``Player.merged_into`` turns into a read model of the log's ``PlayersMerged`` events.

Merges made before this (the column set by the old admin action) are appended to the players' stream once,
one ``PlayersMerged`` per kept player, at the end of the log (the log only grows; nothing earlier is edited).
A duplicate the stream records already is left alone, so running this again appends nothing. The projections
then read those events like any merge: the ratings are recomputed with them (the same figures the column gave),
and the ``players`` projection writes the column again from the log.
"""

from django.db import migrations, models
import django.db.models.deletion

STREAM = "players"
MERGED = "PlayersMerged"
APPEND_LOCK = 0x43524157  # eventlog.store.APPEND_LOCK, frozen here as a migration must be
REASON = "merged before merges were recorded in the log (migration players.0005)"


def record_merges(apps, schema_editor):
    Player = apps.get_model("players", "Player")
    Event = apps.get_model("eventlog", "Event")
    column = dict(Player.objects.filter(merged_into__isnull=False).values_list("pk", "merged_into_id"))
    if not column:
        return
    if schema_editor.connection.vendor == "postgresql":  # as every append: commit order is position order
        with schema_editor.connection.cursor() as cursor:
            cursor.execute("SELECT pg_advisory_xact_lock(%s)", [APPEND_LOCK])
    recorded: dict[int, int] = {}
    stream = Event.objects.filter(stream_id=STREAM).order_by("version")
    for event_type, payload in stream.values_list("event_type", "payload"):
        if event_type == MERGED:
            gone = set(payload["duplicates"])
            recorded = {d: (payload["kept"] if k in gone else k) for d, k in recorded.items()}
            recorded.update(dict.fromkeys(payload["duplicates"], payload["kept"]))

    def person(pk: int) -> int:
        seen = {pk}
        while pk in column and column[pk] not in seen:  # the old action kept the column flat; a chain is followed
            pk = column[pk]
            seen.add(pk)
        return recorded.get(pk, pk)

    groups: dict[int, list[int]] = {}
    for dup in sorted(column):
        kept = person(dup)
        if dup not in recorded and kept != dup:
            groups.setdefault(kept, []).append(dup)
    if not groups:
        return
    version = stream.aggregate(v=models.Max("version"))["v"] or 0
    position = Event.objects.aggregate(p=models.Max("global_position"))["p"] or 0
    Event.objects.bulk_create([
        Event(global_position=position + i, stream_id=STREAM, stream_type=STREAM, version=version + i,
              event_type=MERGED, schema_version=1,
              payload={"kept": kept, "duplicates": dups, "reason": REASON, "actor": None},
              metadata={"actor": None, "migration": "players.0005_merges_in_the_log"})
        for i, (kept, dups) in enumerate(sorted(groups.items()), start=1)
    ])


class Migration(migrations.Migration):

    dependencies = [
        ("players", "0004_officials_group"),
        ("eventlog", "0003_projectionfailure"),
    ]

    operations = [
        migrations.AlterField(
            model_name="player",
            name="merged_into",
            field=models.ForeignKey(blank=True, editable=False, help_text="a duplicate entry of the same person, counted as that player (from the log's merges)", null=True, on_delete=django.db.models.deletion.SET_NULL, related_name="duplicates", to="players.player"),
        ),
        # the log only grows: unapplying leaves the events (and the column, which the projection keeps) as they are
        migrations.RunPython(record_merges, migrations.RunPython.noop),
    ]
