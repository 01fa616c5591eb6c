"""An event's visibility becomes a fact of its stream (``VisibilitySet``), which the ratings and the seasons read.

Events hidden before this kept it in ``Tournament.published`` only, so their results counted in the ratings and
the season tables. Each event whose row says otherwise than its stream (a stream with no ``VisibilitySet`` reads
as published) gets one ``VisibilitySet`` at the end of the log (the log only grows; nothing earlier is edited), so
the projections take its results out from there on, and a rebuild from position 0 does the same. Running this
again appends nothing.
"""

from django.db import migrations, models

STREAM_TYPE = "tournament"
VISIBILITY_SET = "VisibilitySet"
APPEND_LOCK = 0x43524157  # eventlog.store.APPEND_LOCK, frozen here as a migration must be


def record_visibility(apps, schema_editor):
    Tournament = apps.get_model("tournaments", "Tournament")
    Event = apps.get_model("eventlog", "Event")
    hidden = set(Tournament.objects.filter(published=False).values_list("pk", flat=True))
    shown_by_fact = set()  # published rows whose stream's last VisibilitySet says hidden (set by hand in the row)
    if schema_editor.connection.vendor == "postgresql":  # as every append: commit order is position order
        with schema_editor.connection.cursor() as cursor:
            cursor.execute("SELECT pg_advisory_xact_lock(%s)", [APPEND_LOCK])
    said: dict[str, bool] = {}
    facts = Event.objects.filter(stream_type=STREAM_TYPE, event_type=VISIBILITY_SET).order_by("global_position")
    for stream_id, payload in facts.values_list("stream_id", "payload"):
        said[stream_id] = bool(payload.get("published", True))
    for stream_id, published in said.items():
        pk = int(stream_id.rsplit("-", 1)[1])
        if not published and pk not in hidden:
            shown_by_fact.add(pk)
    wanted = {pk: False for pk in hidden if said.get(f"tournament-{pk}", True)}
    wanted.update(dict.fromkeys(shown_by_fact, True))
    if not wanted:
        return
    versions = dict(Event.objects.filter(stream_id__in=[f"tournament-{pk}" for pk in wanted])
                    .values("stream_id").annotate(v=models.Max("version")).values_list("stream_id", "v"))
    position = Event.objects.aggregate(p=models.Max("global_position"))["p"] or 0
    rows = []
    for pk in sorted(wanted):
        stream_id = f"tournament-{pk}"
        if stream_id not in versions:  # no stream: an event never configured records nothing
            continue
        position += 1
        rows.append(Event(global_position=position, stream_id=stream_id, stream_type=STREAM_TYPE,
                          version=versions[stream_id] + 1, event_type=VISIBILITY_SET, schema_version=1,
                          payload={"published": wanted[pk]},
                          metadata={"actor": None, "migration": "tournaments.0012_visibility_in_the_log"}))
    Event.objects.bulk_create(rows)


class Migration(migrations.Migration):

    dependencies = [
        ("tournaments", "0011_standing_shared"),
        ("eventlog", "0006_append_function_definer"),
    ]

    operations = [
        # the log only grows: unapplying leaves the events as they are
        migrations.RunPython(record_visibility, migrations.RunPython.noop),
    ]
