"""A strict Content-Security-Policy on every page, and pages that need nothing it forbids.

The browser tests (tests/site/) load the pages in Chromium, where anything the policy refused would be a
console error; here every page's answer is read: the header, and no inline script, style or event handler.
"""

from __future__ import annotations

import re

import pytest
from django.test import Client

pytestmark = pytest.mark.django_db

INLINE_SCRIPT = re.compile(rb"<script(?![^>]*\bsrc=)(?![^>]*application/json)[^>]*>", re.I)
STYLE_ATTRIBUTE = re.compile(rb"\sstyle\s*=", re.I)
STYLE_ELEMENT = re.compile(rb"<style[\s>]", re.I)
HANDLER = re.compile(rb"\son[a-z]+\s*=", re.I)


def _pages(world) -> list[str]:
    match_id = world.new_match()
    player = world.player("player").pk
    return ["/", f"/events/{world.event.pk}/", f"/events/{world.event.pk}/?partial=1",
            f"/events/{world.event.pk}/history/", f"/matches/{match_id}/", f"/matches/{match_id}/record/", f"/players/{player}/", "/ratings/", "/ratings/formula/",
            "/accounts/login/", "/admin/", f"/events/{world.event.pk}/run/", f"/events/{world.event.pk}/run/?partial=1",
            "/admin/tournaments/tournament/add/", "/api/docs/", "/api/", "/play/", f"/players/{player}/fair-play/"]


def test_every_page_carries_a_strict_policy_and_needs_nothing_it_forbids(world, django_user_model):
    client = Client()
    client.force_login(django_user_model.objects.create_superuser("root", password="pw-root-1234"))
    for url in _pages(world):
        response = client.get(url)
        assert response.status_code == 200, (url, response.status_code)
        policy = response.headers.get("Content-Security-Policy", "")
        assert "script-src 'self'" in policy and "style-src 'self'" in policy, url
        assert "unsafe-inline" not in policy and "unsafe-eval" not in policy and "*" not in policy, url
        assert "frame-ancestors 'none'" in policy and "object-src 'none'" in policy, url
        if response["Content-Type"].startswith("text/html"):
            body = response.content
            assert not INLINE_SCRIPT.search(body), (url, INLINE_SCRIPT.search(body).group(0))
            assert not STYLE_ELEMENT.search(body), url
            assert not STYLE_ATTRIBUTE.search(body), (url, body[STYLE_ATTRIBUTE.search(body).start() - 80:][:160])
            assert not HANDLER.search(body), (url, HANDLER.search(body).group(0))


def test_the_api_answers_carry_the_policy_too(world):
    response = world.client("anonymous").get("/api/ratings/")
    assert "default-src 'self'" in response.headers["Content-Security-Policy"]
