"""Who the tests merge players as."""

from __future__ import annotations


def registrar():
    """A user who may change players, as the admin's merge action asks (``players.authority.may_merge_players``).

    The permission is made again if missing: a transactional test's flush empties the permissions table."""
    from django.contrib.auth import get_user_model
    from django.contrib.auth.models import Permission
    from django.contrib.contenttypes.models import ContentType

    from players.models import Player

    ContentType.objects.clear_cache()  # a flush gave the content types new ids
    change, _ = Permission.objects.get_or_create(content_type=ContentType.objects.get_for_model(Player),
                                                 codename="change_player", defaults={"name": "Can change player"})
    user, _ = get_user_model().objects.get_or_create(username="registrar")
    user.user_permissions.add(change)
    return get_user_model().objects.get(pk=user.pk)  # afresh: has_perm caches what it read
