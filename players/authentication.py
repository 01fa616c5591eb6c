"""Who the request's user is, read with what every command then asks of them, in one query.

Django's ways of reading the user (DRF's ``TokenAuthentication``; for a session, ``ModelBackend.get_user``)
read the user alone; every match command would then ask, each in a query of its own, which player the user is
(``authority.seat_in_match``) and, for anyone not acting in their own seat, whether they hold the officials'
permission (``authority.officiates_everything``: two more, the user's and their groups' permissions). Here
the same query brings all three, and :func:`players.authority.remember` keeps the answers on the user object,
which lives as long as the request: a command through the API's token costs three SQL statements, through the
recording screen's session four (the session's own row is the fourth).

Written in SQL rather than with the ORM's ``Subquery``/``Exists``: the ORM's version of the same question takes
PostgreSQL about 5 ms to plan (nested subplans over six tables) on every request, this one 0.35 ms to plan and
0.1 ms to run, and prepared, planned once per connection.
"""

from __future__ import annotations

from functools import cache

from django.contrib.auth import backends, get_user_model
from django.contrib.auth.models import Group, Permission
from django.contrib.contenttypes.models import ContentType
from django.db import connections, router
from rest_framework import authentication, exceptions
from rest_framework.authtoken.models import Token

from eventlog import prepared

from . import authority
from .models import Player

_APP, _CODENAME = authority.OFFICIATE.split(".")


def _table(model) -> str:
    return model._meta.db_table


def _authority_columns() -> str:
    """Two columns over the user row ``u``: their player's id and whether they hold the officials' permission
    (ModelBackend's rule: held by the user directly or through one of their groups). Takes the parameters
    ``_APP, _CODENAME``."""
    User = get_user_model()
    user_id = f"u.{User._meta.pk.column}"
    user_permissions = User.user_permissions.through._meta.db_table
    user_groups = User.groups.through._meta.db_table
    group_permissions = Group.permissions.through._meta.db_table
    return f"""
        (SELECT p.id FROM {_table(Player)} p WHERE p.user_id = {user_id}) AS crawford_player_id,
        EXISTS (SELECT 1 FROM {_table(Permission)} perm JOIN {_table(ContentType)} ct ON ct.id = perm.content_type_id
                WHERE ct.app_label = %s AND perm.codename = %s AND (
                  perm.id IN (SELECT up.permission_id FROM {user_permissions} up WHERE up.user_id = {user_id})
                  OR perm.id IN (SELECT gp.permission_id FROM {group_permissions} gp
                                 JOIN {user_groups} ug ON ug.group_id = gp.group_id
                                 WHERE ug.user_id = {user_id}))) AS crawford_officiates"""


# the statements are built once per process: the same text every time, by which psycopg finds its prepared one
@cache
def _by_token() -> str:
    User = get_user_model()
    return f"""
        SELECT u.*, t.key AS token_key, t.created AS token_created, {_authority_columns()}
        FROM {_table(Token)} t JOIN {_table(User)} u ON u.{User._meta.pk.column} = t.user_id
        WHERE t.key = %s"""


@cache
def _by_id() -> str:
    User = get_user_model()
    return f"SELECT u.*, {_authority_columns()} FROM {_table(User)} u WHERE u.{User._meta.pk.column} = %s"


@cache
def _conversions(alias: str) -> tuple[tuple[str, object, tuple], ...]:
    """What the ORM does to the raw value of each column these statements read that needs it: (column, expression,
    converters). Nothing on PostgreSQL, whose driver gives Python's types; on SQLite a flag is 0 or 1 and a date is
    naive. The backend's converters depend on the alias's settings only, hence once per alias."""
    connection = connections[alias]
    User = get_user_model()
    columns = [(f.column, f.get_col(_table(User))) for f in User._meta.concrete_fields]
    columns.append(("token_created", Token._meta.get_field("created").get_col(_table(Token))))
    found = []
    for column, expression in columns:
        converters = connection.ops.get_db_converters(expression) + expression.get_db_converters(connection)
        if converters:
            found.append((column, expression, tuple(converters)))
    return tuple(found)


def _read(sql: str, key):
    """The user the statement finds, with their authority remembered and the statement's other columns set on
    it; None if none. A prepared statement (eventlog/prepared.py): its plan is most of its cost."""
    User = get_user_model()
    connection = connections[router.db_for_read(User)]
    with prepared.cursor(connection) as cursor:
        cursor.execute(sql, [_APP, _CODENAME, key])
        row = cursor.fetchone()
        # DB-API: each description row is a sequence whose item 0 is the column's name (psycopg's also has .name,
        # SQLite's is a plain tuple)
        columns = [c[0] for c in cursor.description]
    if row is None:
        return None
    values = dict(zip(columns, row))
    for column, expression, converters in _conversions(connection.alias):
        if column in values:
            for convert in converters:
                values[column] = convert(values[column], expression, connection)
    fields = User._meta.concrete_fields
    user = User.from_db(connection.alias, [f.attname for f in fields], [values.pop(f.column) for f in fields])
    for name, value in values.items():
        setattr(user, name, value)
    authority.remember(user, player_id=user.crawford_player_id,
                       officiates=user.is_superuser or bool(user.crawford_officiates))
    return user


class TokenAuthentication(authentication.TokenAuthentication):
    def authenticate_credentials(self, key):
        user = _read(_by_token(), key)
        if user is None:
            raise exceptions.AuthenticationFailed("Invalid token.")
        if not user.is_active:
            raise exceptions.AuthenticationFailed("User inactive or deleted.")
        return user, Token(key=user.token_key, user=user, created=user.token_created)


class ModelBackend(backends.ModelBackend):
    """Django's ModelBackend (passwords, permissions: unchanged), reading a session's user by the same query as
    the token. Sessions signed in under Django's own class are carried over by migration players/0008."""

    def get_user(self, user_id):
        user = _read(_by_id(), user_id)
        return user if user is not None and self.user_can_authenticate(user) else None
