"""Repeated failed logins are locked out (django-axes): guessing a director's password is not an option."""

import pytest
from django.test import Client

pytestmark = pytest.mark.django_db


def test_ten_failed_admin_logins_lock_the_account_out_from_that_address(django_user_model):
    django_user_model.objects.create_user("dora", password="right-password-123", is_staff=True)
    client = Client(REMOTE_ADDR="203.0.113.9")
    for _ in range(9):
        response = client.post("/admin/login/", {"username": "dora", "password": "wrong"})
        assert response.status_code == 200  # the form again, with an error
    assert client.post("/admin/login/", {"username": "dora", "password": "wrong"}).status_code == 429  # the tenth
    locked = client.post("/admin/login/", {"username": "dora", "password": "right-password-123"})
    assert locked.status_code == 429
    # another address is not locked out
    other = Client(REMOTE_ADDR="198.51.100.7")
    assert other.post("/admin/login/", {"username": "dora", "password": "right-password-123"}).status_code == 302


def test_a_successful_login_resets_the_count(django_user_model):
    django_user_model.objects.create_user("dora", password="right-password-123", is_staff=True)
    client = Client(REMOTE_ADDR="203.0.113.10")
    for _ in range(9):
        client.post("/admin/login/", {"username": "dora", "password": "wrong"})
    assert client.post("/admin/login/", {"username": "dora", "password": "right-password-123"}).status_code == 302
    client.logout()
    for _ in range(9):
        client.post("/admin/login/", {"username": "dora", "password": "wrong"})
    assert client.post("/admin/login/", {"username": "dora", "password": "right-password-123"}).status_code == 302


# -- behind the shipped nginx: the client's address comes from the proxy's header, only from a trusted proxy --


def _behind_proxy(forwarded_for: str, proxy: str = "127.0.0.1") -> Client:
    """A client as nginx (deploy/services/nginx.conf) passes it on: from the proxy's address, with X-Forwarded-For."""
    return Client(REMOTE_ADDR=proxy, HTTP_X_FORWARDED_FOR=forwarded_for)


def test_behind_a_trusted_proxy_one_strangers_failures_do_not_lock_out_another_address(django_user_model, settings):
    settings.TRUSTED_PROXIES = ["127.0.0.1", "::1"]
    django_user_model.objects.create_user("dora", password="right-password-123", is_staff=True)
    stranger = _behind_proxy("203.0.113.5")
    for _ in range(10):
        stranger.post("/admin/login/", {"username": "dora", "password": "wrong"})
    assert stranger.post("/admin/login/", {"username": "dora", "password": "right-password-123"}).status_code == 429
    # the member at the club, through the same nginx, is another address: not locked out
    member = _behind_proxy("198.51.100.6")
    assert member.post("/admin/login/", {"username": "dora", "password": "right-password-123"}).status_code == 302
    from axes.models import AccessAttempt

    assert set(AccessAttempt.objects.values_list("ip_address", flat=True)) == {"203.0.113.5"}


def test_the_header_is_ignored_from_an_untrusted_address(django_user_model, settings):
    """A client talking to gunicorn directly cannot choose its address by sending the header itself."""
    settings.TRUSTED_PROXIES = ["127.0.0.1"]
    django_user_model.objects.create_user("dora", password="right-password-123", is_staff=True)
    for i in range(10):  # a new forwarded address each time: all counted against the real one
        _behind_proxy(f"192.0.2.{i}", proxy="203.0.113.77").post("/admin/login/", {"username": "dora", "password": "x"})
    locked = _behind_proxy("192.0.2.200", proxy="203.0.113.77")
    assert locked.post("/admin/login/", {"username": "dora", "password": "right-password-123"}).status_code == 429


def test_a_client_cannot_prepend_its_own_forwarded_address_through_the_proxy(django_user_model, settings):
    """nginx appends the real address ($proxy_add_x_forwarded_for): only the rightmost untrusted entry counts."""
    settings.TRUSTED_PROXIES = ["127.0.0.1"]
    django_user_model.objects.create_user("dora", password="right-password-123", is_staff=True)
    for i in range(10):
        _behind_proxy(f"192.0.2.{i}, 203.0.113.5").post("/admin/login/", {"username": "dora", "password": "x"})
    locked = _behind_proxy("192.0.2.200, 203.0.113.5")
    assert locked.post("/admin/login/", {"username": "dora", "password": "right-password-123"}).status_code == 429


def test_the_shipped_nginx_sends_the_header_and_the_example_environment_trusts_it():
    from pathlib import Path

    root = Path(__file__).resolve().parents[2]
    nginx = (root / "deploy" / "services" / "nginx.conf").read_text()
    assert "proxy_set_header X-Forwarded-For" in nginx
    env = (root / "deploy" / "services" / "env.example").read_text()
    assert "TRUSTED_PROXIES=127.0.0.1" in env
