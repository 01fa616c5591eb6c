"""``/api/`` is the API's root in JSON, and an unknown address under it answers JSON even with DEBUG on."""

import pytest
from django.test import override_settings


@pytest.mark.django_db
@pytest.mark.parametrize("debug", [True, False])
def test_the_api_root_lists_the_collections_in_json(client, debug):
    with override_settings(DEBUG=debug):
        root = client.get("/api/", HTTP_ACCEPT="application/json")
        missing = client.get("/api/no-such-thing/", HTTP_ACCEPT="application/json")
    assert root.status_code == 200 and root["Content-Type"].startswith("application/json")
    body = root.json()
    assert body["matches"].endswith("/api/matches/") and body["tournaments"].endswith("/api/tournaments/")
    assert body["ratings"].endswith("/api/ratings/") and body["schema"].endswith("/api/schema/")
    assert client.get(body["matches"]).status_code == 200
    assert body["player_records"].endswith("/api/players/{id}/records/")
    assert body["head_to_head"].endswith("/api/players/{id}/head-to-head/{opponent_id}/")
    assert missing.status_code == 404 and missing.json()["code"] == "not_found"
