"""Sessions signed in under Django's ModelBackend now name ``players.authentication.ModelBackend`` (the same
rules, reading the user with their authority in one query): without this, Django would no longer know the
backend a stored session names and everyone signed in would be signed out by the upgrade."""

from django.db import migrations

DJANGOS = "django.contrib.auth.backends.ModelBackend"
PLAYERS = "players.authentication.ModelBackend"
BACKEND_KEY = "_auth_user_backend"  # django.contrib.auth.BACKEND_SESSION_KEY


def _rename_backend(apps, old: str, new: str) -> None:
    from django.contrib.sessions.backends.db import SessionStore  # its class name salts the stored data

    store = SessionStore()
    Session = apps.get_model("sessions", "Session")
    for session in Session.objects.filter(session_data__isnull=False).iterator():
        data = store.decode(session.session_data)  # an unreadable session decodes to {} and is left as it is
        if data.get(BACKEND_KEY) == old:
            data[BACKEND_KEY] = new
            Session.objects.filter(pk=session.pk).update(session_data=store.encode(data))


def forwards(apps, schema_editor):
    _rename_backend(apps, DJANGOS, PLAYERS)


def backwards(apps, schema_editor):
    _rename_backend(apps, PLAYERS, DJANGOS)


class Migration(migrations.Migration):

    dependencies = [
        ("players", "0007_player_language"),
        ("sessions", "0001_initial"),
    ]

    operations = [migrations.RunPython(forwards, backwards)]
