"""A match does not look up its event to know who officiates it: the creator names its official in the match's
registration (schema 2 of ``MatchRegistered``). A schema-1 registration named only its event (``tournament_id``), so
each such match gets, once, a ``MatchOfficialAssigned`` fact naming its event's director: appended, never edited
in, as everything in the log. The event type and payload are written out here as they are stored (a migration is
frozen; the match stream's event types are never renamed).
"""

from django.db import migrations

OFFICIAL_ASSIGNED = "MatchOfficialAssigned"
CAUSE = "migration tournaments.0005_match_officials"


def name_the_officials(apps, schema_editor):
    from eventlog.store import NewEvent, append, stream_version

    Event = apps.get_model("eventlog", "Event")
    Tournament = apps.get_model("tournaments", "Tournament")
    assigned = set(Event.objects.filter(stream_type="match", event_type=OFFICIAL_ASSIGNED)
                   .values_list("stream_id", flat=True))
    registrations = (Event.objects.filter(stream_type="match", event_type="MatchRegistered", version=1)
                     .exclude(payload__has_key="officiating_director_id").values_list("stream_id", "payload"))
    directors = dict(Tournament.objects.values_list("pk", "director_id"))
    for stream_id, payload in registrations.iterator():
        director = directors.get(payload.get("tournament_id"))
        if director is None or stream_id in assigned:
            continue  # a casual match (officials only, as before), or an event gone: nobody to name
        append(stream_id=stream_id, stream_type="match", expected_version=stream_version(stream_id),
               events=[NewEvent(OFFICIAL_ASSIGNED, {"officiating_director_id": director})],
               metadata={"actor": None, "command_id": None, "correlation_id": CAUSE})


class Migration(migrations.Migration):
    dependencies = [
        ("eventlog", "0003_projectionfailure"),
        ("tournaments", "0004_standings_per_flight"),
    ]

    # the log only grows: there is nothing to undo, a second run finds every match named
    operations = [migrations.RunPython(name_the_officials, migrations.RunPython.noop, elidable=True)]
