"""Hardening: CSRF on session-authenticated writes, the effective production settings, login lockout.

``manage.py check --deploy`` itself runs in tests/deploy/test_services.py; here the values it leads to
are read back from a process started with DEBUG=0, and the headers that process's application sends.
The lockout of repeated failed logins for one user name is in tests/deploy/test_login_throttling.py
(admin login); here: the API's session login, and many user names tried from one address.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.test import Client

from tournaments import services
from tournaments.models import Tournament

from .conftest import event_count, mat_text

pytestmark = pytest.mark.django_db

ROOT = Path(__file__).resolve().parents[2]


# -- CSRF -------------------------------------------------------------------------------------------


def _writes(world) -> list[tuple[str, dict]]:
    """Every write of the API, each with a body that would succeed for staff."""
    match_id = world.new_match()
    a, b = world.player("player").pk, world.player("opponent").pk
    return [
        ("/api/matches/", {"player0": a, "player1": b, "length": 5, "dice": "board"}),
        (f"/api/matches/{match_id}/commands/", {"type": "roll", "dice": [3, 1],
                                                "expected_version": world.version(match_id)}),
        ("/api/matches/import/", {"text": mat_text(), "player0": a, "player1": b}),
        ("/api/tournaments/", {"name": "Club night", "format": "single_elimination"}),
        (f"/api/tournaments/{world.event.pk}/commands/", {"type": "enter", "player": a}),
    ]


def _csrf_token(client: Client) -> str:
    client.get("/api-auth/login/")  # a page with a form, shown logged in or not, sets the cookie
    return client.cookies["csrftoken"].value


def test_session_authenticated_api_writes_need_the_csrf_token(world):
    client = Client(enforce_csrf_checks=True)
    client.force_login(world.user("official"))
    for url, body in _writes(world):
        before = event_count()
        response = client.post(url, json.dumps(body), content_type="application/json")
        assert response.status_code == 403, (url, response.status_code)
        assert "CSRF" in response.json()["detail"], url
        assert event_count() == before, url
    token = _csrf_token(client)
    for url, body in _writes(world):
        response = client.post(url, json.dumps(body), content_type="application/json", HTTP_X_CSRFTOKEN=token)
        assert response.status_code in (200, 201), (url, response.status_code, response.content[:300])


def test_token_authenticated_api_writes_need_no_csrf_token(world):
    """A program with a token sends no cookie, so there is nothing to forge: no CSRF check."""
    client = Client(enforce_csrf_checks=True, HTTP_AUTHORIZATION=f"Token {world.tokens['official']}")
    for url, body in _writes(world):
        response = client.post(url, json.dumps(body), content_type="application/json")
        assert response.status_code in (200, 201), (url, response.status_code, response.content[:300])


@pytest.fixture
def superuser(django_user_model):
    return django_user_model.objects.create_superuser("root", password="pw-root-1234")


def test_admin_forms_need_the_csrf_token(world, superuser):
    client = Client(enforce_csrf_checks=True)
    client.force_login(superuser)
    for pid in (world.player("player").pk, world.player("opponent").pk):
        services.tournament_command(actor=superuser, tournament=world.event, command={"type": "enter", "player": pid})
    run = f"/events/{world.event.pk}/run/"  # the console: the admin's old run address leads there
    before, tournaments = event_count(), Tournament.objects.count()
    for url, form in [
        (run, {"action": "draw", "method": "random"}),
        ("/admin/tournaments/tournament/add/", {"name": "Forged", "format": "swiss", "rounds": "3", "published": "on"}),
        (f"/admin/tournaments/tournament/{world.event.pk}/change/", {"name": "Renamed", "published": "on"}),
        ("/admin/logout/", {}),
    ]:
        response = client.post(url, form)
        assert response.status_code == 403 and b"CSRF" in response.content, url
    assert event_count() == before and Tournament.objects.count() == tournaments
    assert Tournament.objects.get(pk=world.event.pk).name == "Club night"
    token = _csrf_token(client)
    response = client.post(run, {"action": "draw", "method": "random", "csrfmiddlewaretoken": token})
    assert response.status_code == 302 and event_count() > before


def test_the_console_needs_the_csrf_token_from_a_director_who_is_not_staff_too(world):
    client = Client(enforce_csrf_checks=True)
    client.force_login(world.user("director"))
    for pid in (world.player("player").pk, world.player("opponent").pk):
        services.tournament_command(actor=world.user("director"), tournament=world.event,
                                    command={"type": "enter", "player": pid})
    run, before = f"/events/{world.event.pk}/run/", event_count()
    response = client.post(run, {"action": "draw", "method": "random"})
    assert response.status_code == 403 and b"CSRF" in response.content and event_count() == before
    logout = client.post("/accounts/logout/")
    assert logout.status_code == 403 and "_auth_user_id" in client.session  # a forged logout is refused too
    token = _csrf_token(client)
    response = client.post(run, {"action": "draw", "method": "random", "csrfmiddlewaretoken": token})
    assert response.status_code == 302 and event_count() > before


@pytest.mark.parametrize("login", ["/accounts/login/", "/admin/login/", "/api-auth/login/"])
def test_login_forms_need_the_csrf_token(django_user_model, login):
    django_user_model.objects.create_user("dora", password="right-password-123", is_staff=True)
    client = Client(enforce_csrf_checks=True)
    response = client.post(login, {"username": "dora", "password": "right-password-123"})
    assert response.status_code == 403 and "_auth_user_id" not in client.session
    token = _csrf_token(client)
    response = client.post(login, {"username": "dora", "password": "right-password-123",
                                   "csrfmiddlewaretoken": token})
    assert response.status_code == 302 and "_auth_user_id" in client.session


# -- production settings, read back from a process started like production --------------------------

PRODUCTION = {"DEBUG": "0", "SECRET_KEY": "s" * 40 + "-a-long-production-like-secret-key-0123456789",
              "ALLOWED_HOSTS": "crawford.example.org", "CSRF_TRUSTED_ORIGINS": "https://crawford.example.org"}

PROBE = r"""
import json
from django.conf import settings as s
from django.test import Client
values = {name: getattr(s, name, None) for name in (
    "DEBUG", "ALLOWED_HOSTS", "SESSION_COOKIE_SECURE", "SESSION_COOKIE_HTTPONLY", "CSRF_COOKIE_SECURE",
    "SECURE_HSTS_SECONDS", "SECURE_HSTS_INCLUDE_SUBDOMAINS", "SECURE_CONTENT_TYPE_NOSNIFF", "X_FRAME_OPTIONS",
    "SECURE_SSL_REDIRECT", "SECURE_PROXY_SSL_HEADER", "SECURE_REFERRER_POLICY", "MIDDLEWARE")}
host = s.ALLOWED_HOSTS[0]
plain = Client().get("/admin/login/", HTTP_HOST=host)
secure = Client().get("/admin/login/", HTTP_HOST=host, secure=True)
values["http"] = [plain.status_code, plain.get("Location")]
values["headers"] = {k: secure.get(k) for k in (
    "Strict-Transport-Security", "X-Frame-Options", "X-Content-Type-Options", "Referrer-Policy")}
values["status"] = secure.status_code
values["cookies"] = {k: {"secure": bool(c["secure"]), "httponly": bool(c["httponly"])}
                     for k, c in secure.cookies.items()}
print("PROBE" + json.dumps(values))
"""


def _production(tmp_path, **env) -> subprocess.CompletedProcess:
    full = {**os.environ, **PRODUCTION, **env}
    full.pop("DJANGO_SETTINGS_MODULE", None)
    # an empty SQLite file: nothing here may need the database, and nothing real could be touched
    full["DATABASE_URL"] = f"sqlite:///{tmp_path / 'empty.sqlite3'}"
    full["CRAWFORD_VAR_DIR"] = str(tmp_path)
    return subprocess.run([sys.executable, "manage.py", "shell", "-c", PROBE], cwd=ROOT, env=full,
                          capture_output=True, text=True, timeout=600)


@pytest.fixture(scope="module")
def production(tmp_path_factory):
    run = _production(tmp_path_factory.mktemp("production"))
    assert run.returncode == 0, run.stdout + run.stderr
    line = next(line for line in run.stdout.splitlines() if line.startswith("PROBE"))
    return json.loads(line[len("PROBE"):])


def test_production_settings_are_the_hardened_ones(production):
    assert production["DEBUG"] is False
    assert production["ALLOWED_HOSTS"] == ["crawford.example.org"]
    assert production["SESSION_COOKIE_SECURE"] is True and production["SESSION_COOKIE_HTTPONLY"] is True
    assert production["CSRF_COOKIE_SECURE"] is True
    assert production["SECURE_HSTS_SECONDS"] >= 31_536_000  # a year
    assert production["SECURE_HSTS_INCLUDE_SUBDOMAINS"] is True
    assert production["SECURE_CONTENT_TYPE_NOSNIFF"] is True
    assert production["X_FRAME_OPTIONS"] == "DENY"
    assert production["SECURE_SSL_REDIRECT"] is True
    assert production["SECURE_PROXY_SSL_HEADER"] == ["HTTP_X_FORWARDED_PROTO", "https"]  # nginx says https
    assert production["SECURE_REFERRER_POLICY"] == "same-origin"
    middleware = production["MIDDLEWARE"]
    assert middleware[0] == "django.middleware.security.SecurityMiddleware"
    for needed in ("django.middleware.csrf.CsrfViewMiddleware",
                   "django.middleware.clickjacking.XFrameOptionsMiddleware",
                   "django.contrib.sessions.middleware.SessionMiddleware"):
        assert needed in middleware


def test_production_answers_with_the_hardening_headers(production):
    assert production["http"] == [301, "https://crawford.example.org/admin/login/"]  # plain HTTP goes to HTTPS
    assert production["status"] == 200
    headers = production["headers"]
    assert headers["Strict-Transport-Security"].startswith("max-age=31536000")
    assert "includeSubDomains" in headers["Strict-Transport-Security"]
    assert headers["X-Frame-Options"] == "DENY"
    assert headers["X-Content-Type-Options"] == "nosniff"
    assert headers["Referrer-Policy"] == "same-origin"
    assert production["cookies"]["csrftoken"]["secure"] is True


def test_production_refuses_to_start_without_a_secret_key(tmp_path):
    run = _production(tmp_path, SECRET_KEY="")
    assert run.returncode != 0 and "SECRET_KEY must be set" in run.stderr


# -- repeated failed logins -------------------------------------------------------------------------


def test_ten_failed_api_logins_lock_that_user_name_out_from_that_address(django_user_model):
    """The browsable API's session login (/api-auth/login/) is locked out like the admin's."""
    django_user_model.objects.create_user("dora", password="right-password-123", is_staff=True)
    client = Client(REMOTE_ADDR="203.0.113.21")
    statuses = [client.post("/api-auth/login/", {"username": "dora", "password": f"guess-{i}"}).status_code
                for i in range(10)]
    assert statuses[:9] == [200] * 9 and statuses[9] == 429
    locked = client.post("/api-auth/login/", {"username": "dora", "password": "right-password-123"})
    assert locked.status_code == 429 and "_auth_user_id" not in client.session
    # the count is per address and user name, the same for the admin's login
    assert client.post("/admin/login/", {"username": "dora", "password": "right-password-123"}).status_code == 429


SPRAY = 30  # settings.AXES_ADDRESS_FAILURE_LIMIT: user names tried from one address
LOGINS = ["/accounts/login/", "/admin/login/", "/api-auth/login/"]


def _spray(client, login, names) -> list[int]:
    return [client.post(login, {"username": name, "password": "Summer2026!"}).status_code for name in names]


@pytest.mark.parametrize("login", LOGINS)
def test_many_user_names_tried_from_one_address_are_locked_out(django_user_model, login):
    django_user_model.objects.create_user("dora", password="right-password-123", is_staff=True)
    client = Client(REMOTE_ADDR="203.0.113.33")
    statuses = _spray(client, login, [f"member{i}" for i in range(SPRAY)])
    assert statuses[:SPRAY - 1] == [200] * (SPRAY - 1) and statuses[-1] == 429  # each name failed only once
    after = client.post(login, {"username": "dora", "password": "right-password-123"})
    assert after.status_code == 429 and "_auth_user_id" not in client.session
    # another address is not touched: the club next door still logs in
    elsewhere = Client(REMOTE_ADDR="198.51.100.7")
    assert elsewhere.post(login, {"username": "dora", "password": "right-password-123"}).status_code == 302


def test_members_sharing_an_address_may_each_mistype_a_few_times(django_user_model):
    """A club's wifi: twenty members who each get their password wrong once are not locked out."""
    django_user_model.objects.create_user("dora", password="right-password-123")
    client = Client(REMOTE_ADDR="203.0.113.34")
    assert _spray(client, "/accounts/login/", [f"member{i}" for i in range(20)]) == [200] * 20
    assert client.post("/accounts/login/", {"username": "dora", "password": "right-password-123"}).status_code == 302


def test_a_successful_login_does_not_clear_the_address_count(django_user_model):
    """An attacker with an account of their own cannot wipe the address's count between sprays."""
    django_user_model.objects.create_user("mallory", password="mallorys-own-pw-1")
    client = Client(REMOTE_ADDR="203.0.113.35")
    assert _spray(client, "/accounts/login/", [f"member{i}" for i in range(SPRAY - 5)]) == [200] * (SPRAY - 5)
    assert client.post("/accounts/login/", {"username": "mallory", "password": "mallorys-own-pw-1"}).status_code == 302
    client.post("/accounts/logout/")
    assert _spray(client, "/accounts/login/", [f"other{i}" for i in range(5)])[-1] == 429


# -- a failure no refusal covers ------------------------------------------------------------------


def test_an_unexpected_failure_is_still_json_for_api_clients(world, monkeypatch):
    """Say the database connection dies under a request: API clients get JSON with a reason, people the page."""
    from django.db import OperationalError

    from games import views
    from games.api import views as api_views

    def connection_lost(*args, **kwargs):
        raise OperationalError("terminating connection due to administrator command")

    match_id = world.new_match()
    monkeypatch.setattr(api_views, "match_load", connection_lost)
    monkeypatch.setattr(views, "match_load", connection_lost)
    client = Client(raise_request_exception=False)
    answer = client.get(f"/api/matches/{match_id}/")
    assert answer.status_code == 500 and answer["Content-Type"] == "application/json"
    assert answer.json()["code"] == "server_error" and "Idempotency-Key" in answer.json()["detail"]
    page = client.get(f"/matches/{match_id}/")
    assert page.status_code == 500 and page["Content-Type"].startswith("text/html")
