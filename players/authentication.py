"""API token authentication that answers, in its one query, what every command then asks of the user.

DRF's ``TokenAuthentication`` reads the token and its user (one query); every match command then asked, each in
a query of its own, which player the user is (``authority.seat_in_match``) and, for anyone not acting in their
own seat, whether they hold the officials' permission (``authority.officiates_everything``: two more, the
user's and their groups' permissions). Here the same query brings both, and :func:`players.authority.remember`
keeps them on the request's user object, which lives as long as the request.

Written in SQL rather than with the ORM's ``Subquery``/``Exists``: the ORM's version of the same question took
PostgreSQL about 5 ms to plan (nested subplans over six tables) on every request, this one 0.8 ms to plan and
0.35 ms in all (bench/RESULTS.md, 2026-11-24, session 4).
"""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group, Permission
from django.contrib.contenttypes.models import ContentType
from rest_framework import authentication, exceptions
from rest_framework.authtoken.models import Token

from . import authority
from .models import Player

_APP, _CODENAME = authority.OFFICIATE.split(".")


def _sql() -> str:
    User = get_user_model()
    t = lambda model: model._meta.db_table  # noqa: E731
    user_permissions = User.user_permissions.through._meta.db_table
    user_groups = User.groups.through._meta.db_table
    group_permissions = Group.permissions.through._meta.db_table
    # ModelBackend's rule: the permission held by the user directly or through one of their groups
    return f"""
        SELECT u.*, t.key AS token_key, t.created AS token_created,
               (SELECT p.id FROM {t(Player)} p WHERE p.user_id = t.user_id) AS crawford_player_id,
               EXISTS (SELECT 1 FROM {t(Permission)} perm JOIN {t(ContentType)} ct ON ct.id = perm.content_type_id
                       WHERE ct.app_label = %s AND perm.codename = %s AND (
                         perm.id IN (SELECT up.permission_id FROM {user_permissions} up WHERE up.user_id = t.user_id)
                         OR perm.id IN (SELECT gp.permission_id FROM {group_permissions} gp
                                        JOIN {user_groups} ug ON ug.group_id = gp.group_id
                                        WHERE ug.user_id = t.user_id))) AS crawford_officiates
        FROM {t(Token)} t JOIN {t(User)} u ON u.{User._meta.pk.column} = t.user_id
        WHERE t.key = %s"""


class TokenAuthentication(authentication.TokenAuthentication):
    def authenticate_credentials(self, key):
        found = list(get_user_model().objects.raw(_sql(), [_APP, _CODENAME, key]))
        if not found:
            raise exceptions.AuthenticationFailed("Invalid token.")
        user = found[0]
        if not user.is_active:
            raise exceptions.AuthenticationFailed("User inactive or deleted.")
        authority.remember(user, player_id=user.crawford_player_id,
                           officiates=user.is_superuser or bool(user.crawford_officiates))
        return user, Token(key=user.token_key, user=user, created=user.token_created)
