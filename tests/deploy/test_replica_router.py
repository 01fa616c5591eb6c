"""A PostgreSQL replica for the public pages (deploy/replica.py): which reads go there, and what never does.

The replica alias is a mirror of the test database (``TEST: {"MIRROR": "default"}``): the same server and data,
reached through its own connection, so the queries each connection sent show where the router sent them.
Transactional tests: a mirror's connection sees only committed rows.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import connections, transaction
from django.test import override_settings
from django.test.utils import CaptureQueriesContext

from deploy.replica import REPLICA, ReplicaRouter, reads_tolerate_lag
from eventlog.models import Event

ROOT = Path(__file__).resolve().parents[2]
MIDDLEWARE = "deploy.replica.LagTolerantReadsMiddleware"

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True, databases=["default", REPLICA])]


@pytest.fixture
def routed():
    """The router and its middleware on, as deploy/settings.py puts them when DATABASE_REPLICA_URL is set."""
    middleware = list(settings.MIDDLEWARE)
    middleware.insert(middleware.index("django.contrib.auth.middleware.AuthenticationMiddleware") + 1, MIDDLEWARE)
    with override_settings(DATABASE_ROUTERS=["deploy.replica.ReplicaRouter"], MIDDLEWARE=middleware):
        yield


@pytest.fixture
def match(api, make_user):
    director = make_user("dora", official=True, player=False)
    ann, bob = make_user("ann"), make_user("bob")
    created = api(director).post("/api/matches/", {"player0": ann.player.pk, "player1": bob.player.pk, "length": 3},
                                 format="json")
    assert created.status_code == 201, created.content
    return created.json()["id"], ann


def _event_reads(captured) -> int:
    return sum(1 for q in captured.captured_queries if q["sql"].lstrip().upper().startswith("SELECT")
               and "eventlog_event" in q["sql"])


def _traffic(fn):
    """(result, queries on the primary, queries on the replica) of ``fn()``."""
    with CaptureQueriesContext(connections["default"]) as primary, CaptureQueriesContext(connections[REPLICA]) as rep:
        result = fn()
    return result, primary, rep


def test_the_replica_is_its_own_connection_to_the_same_database(routed):
    assert connections[REPLICA] is not connections["default"]
    assert connections[REPLICA].settings_dict["NAME"] == connections["default"].settings_dict["NAME"]


def test_an_anonymous_reader_is_answered_from_the_replica(routed, match, api):
    match_id, _ = match
    for path in (f"/api/matches/{match_id}/", f"/matches/{match_id}/"):
        answer, primary, replica = _traffic(lambda: api().get(path))
        assert answer.status_code == 200, (path, answer.content[:300])
        assert _event_reads(replica) >= 1, path  # the stream was read on the replica...
        assert _event_reads(primary) == 0, path  # ...and not on the primary
    from_replica = api().get(f"/api/matches/{match_id}/").json()
    with override_settings(DATABASE_ROUTERS=[]):
        assert api().get(f"/api/matches/{match_id}/").json() == from_replica


def test_a_signed_in_reader_and_a_token_read_the_primary(routed, match, api, make_user):
    match_id, ann = match
    session = api()
    session.force_login(ann)  # a session cookie, as the site's pages have it
    for client in (session, _token_client(ann)):
        answer, primary, replica = _traffic(lambda: client.get(f"/api/matches/{match_id}/"))
        assert answer.status_code == 200
        assert _event_reads(primary) >= 1 and len(replica.captured_queries) == 0


@pytest.mark.usefixtures("postgres")  # the command's statements as PostgreSQL runs them
def test_a_command_reads_and_writes_the_primary_only(routed, match, api):
    match_id, ann = match
    client = api(ann)
    state = client.get(f"/api/matches/{match_id}/").json()
    answer, primary, replica = _traffic(lambda: client.post(
        f"/api/matches/{match_id}/commands/", {"type": "roll", "expected_version": state["version"]}, format="json",
        HTTP_IDEMPOTENCY_KEY="replica-1"))
    assert answer.status_code == 200, answer.content
    assert len(replica.captured_queries) == 0
    # the append is one round trip, the call of the log's function (eventlog/migrations/0005): look for it
    assert any("eventlog_append(" in q["sql"] for q in primary.captured_queries)


def test_the_router_keeps_transactions_writes_and_sign_in_on_the_primary(routed):
    router = ReplicaRouter()
    user_model = get_user_model()
    assert Event.objects.all().db == "default"  # not a public page's read: primary
    with reads_tolerate_lag():
        assert Event.objects.all().db == REPLICA
        assert user_model.objects.all().db == "default"  # sign-in tables never lag
        with transaction.atomic():
            assert Event.objects.all().db == "default"  # a transaction reads what it will write after
        assert router.db_for_write(Event) == "default"
    assert Event.objects.all().db == "default"
    assert router.allow_migrate(REPLICA, "eventlog") is False and router.allow_migrate("default", "eventlog")


def test_the_settings_add_the_replica_only_when_its_url_is_set():
    probe = ("import json, deploy.settings as s; print(json.dumps({'aliases': sorted(s.DATABASES), "
             "'routers': s.DATABASE_ROUTERS, 'middleware': '" + MIDDLEWARE + "' in s.MIDDLEWARE, "
             "'mirror': s.DATABASES.get('replica', {}).get('TEST')}))")
    env = {k: v for k, v in os.environ.items() if k != "DATABASE_REPLICA_URL"}
    env.update(SECRET_KEY="probe-" + "k" * 40, DJANGO_SETTINGS_MODULE="deploy.settings")

    def settings_with(**extra):
        out = subprocess.run([sys.executable, "-c", probe], cwd=ROOT, env=dict(env, **extra), capture_output=True,
                             text=True, check=True)
        return json.loads(out.stdout)

    assert settings_with() == {"aliases": ["default"], "routers": [], "middleware": False, "mirror": None}
    on = settings_with(DATABASE_REPLICA_URL="postgres://crawford@replica.example:5432/crawford")
    assert on == {"aliases": ["default", "replica"], "routers": ["deploy.replica.ReplicaRouter"], "middleware": True,
                  "mirror": {"MIRROR": "default"}}


def _token_client(user):
    from rest_framework.authtoken.models import Token
    from rest_framework.test import APIClient

    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {Token.objects.get_or_create(user=user)[0].key}")
    return client
