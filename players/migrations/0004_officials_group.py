"""The "Officials" group: put a federation's officials in it (see players/authority.py)."""

from django.contrib.auth.management import create_permissions
from django.db import migrations

PERMISSIONS = ["officiate", "view_club", "view_player", "add_player", "change_player"]


def create_group(apps, schema_editor):
    # permissions are made after migrations by default; the group needs them now
    config = apps.get_app_config("players")
    config.models_module = True  # a migration's app state has none; create_permissions skips such apps
    create_permissions(config, apps=apps, verbosity=0)
    config.models_module = None
    Group = apps.get_model("auth", "Group")
    Permission = apps.get_model("auth", "Permission")
    group, _ = Group.objects.get_or_create(name="Officials")
    group.permissions.add(*Permission.objects.filter(content_type__app_label="players", codename__in=PERMISSIONS))


def remove_group(apps, schema_editor):
    apps.get_model("auth", "Group").objects.filter(name="Officials").delete()


class Migration(migrations.Migration):
    dependencies = [
        ("players", "0003_club_directors_officiate"),
        ("auth", "0012_alter_user_first_name_max_length"),
        ("contenttypes", "0002_remove_content_type_name"),
    ]

    operations = [migrations.RunPython(create_group, remove_group)]
