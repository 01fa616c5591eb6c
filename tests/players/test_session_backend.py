"""A session's user is read with their player and powers in one statement (players.authentication.ModelBackend),
and nothing of Django's session rules is lost on the way: a changed password, a deactivated user and a session
of an unknown user still sign the request out; sessions signed in under Django's own backend before the upgrade
are carried over by migration players/0008."""

import importlib

import pytest
from django.apps import apps
from django.conf import settings
from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY
from django.contrib.sessions.backends.db import SessionStore
from django.db import connection
from django.test.utils import CaptureQueriesContext
from rest_framework.test import APIClient

from players import authority
from players.authentication import ModelBackend

pytestmark = pytest.mark.django_db

renaming = importlib.import_module("players.migrations.0008_sessions_under_the_players_backend")


def test_the_backend_reads_the_user_with_their_player_and_powers_in_one_statement(make_user):
    ann, dora = make_user("ann"), make_user("dora", official=True, player=False)
    with CaptureQueriesContext(connection) as queries:
        read_ann, read_dora = ModelBackend().get_user(ann.pk), ModelBackend().get_user(dora.pk)
        assert authority.player_id_of(read_ann) == ann.player.pk and not authority.officiates_everything(read_ann)
        assert authority.player_id_of(read_dora) is None and authority.officiates_everything(read_dora)
    assert len(queries) == 2, [q["sql"] for q in queries.captured_queries]
    assert (read_ann.pk, read_ann.username, read_ann.password) == (ann.pk, "ann", ann.password)


def test_a_superuser_officiates_and_an_unknown_or_inactive_user_is_nobody(make_user, django_user_model):
    root = django_user_model.objects.create_superuser("root", password="pw-root")
    assert authority.officiates_everything(ModelBackend().get_user(root.pk))
    gone = make_user("gone")
    gone.is_active = False
    gone.save()
    assert ModelBackend().get_user(gone.pk) is None
    assert ModelBackend().get_user(10**9) is None


def me(client) -> int:
    return client.get("/api/players/me/").status_code


def test_a_signed_in_session_answers_until_the_password_changes(make_user):
    ann = make_user("ann")
    client = APIClient()
    client.force_login(ann)
    assert client.session[BACKEND_SESSION_KEY] == "players.authentication.ModelBackend"
    assert me(client) == 200
    ann.set_password("a new one")
    ann.save()
    assert me(client) in (401, 403)  # Django's session hash check, after the backend's read


def session_signed_in_by(user, backend: str) -> str:
    store = SessionStore()
    store[SESSION_KEY], store[BACKEND_SESSION_KEY] = str(user.pk), backend
    store[HASH_SESSION_KEY] = user.get_session_auth_hash()
    store.create()
    return store.session_key


def test_sessions_of_djangos_backend_are_carried_over_by_the_migration(make_user):
    ann, bob = make_user("ann"), make_user("bob")
    old = session_signed_in_by(ann, renaming.DJANGOS)
    new = session_signed_in_by(bob, renaming.PLAYERS)
    client = APIClient()
    client.cookies[settings.SESSION_COOKIE_NAME] = old
    assert me(client) in (401, 403)  # what the upgrade would do without the migration
    renaming.forwards(apps, None)
    client.cookies[settings.SESSION_COOKIE_NAME] = old
    assert me(client) == 200 and client.get("/api/players/me/").json()["id"] == ann.player.pk
    assert SessionStore(session_key=new).load()[BACKEND_SESSION_KEY] == renaming.PLAYERS  # untouched
    renaming.backwards(apps, None)
    assert SessionStore(session_key=old).load()[BACKEND_SESSION_KEY] == renaming.DJANGOS
