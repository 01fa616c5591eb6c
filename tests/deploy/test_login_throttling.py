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
