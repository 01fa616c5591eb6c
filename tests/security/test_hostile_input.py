"""Hostile input (malformed bodies, addresses and headers): a JSON 4xx with a short reason, nothing stored."""

from __future__ import annotations

import json

import pytest
from django.test import Client

from .conftest import event_count, mat_text

pytestmark = pytest.mark.django_db

DEEP = 100_000


def _writes(world) -> list[str]:
    match_id = world.new_match()
    return ["/api/matches/", f"/api/matches/{match_id}/commands/", "/api/matches/import/", "/api/tournaments/",
            f"/api/tournaments/{world.event.pk}/commands/"]


def _short_json_refusal(response, status=(400,)) -> dict:
    assert response.status_code in status, (response.status_code, response.content[:300])
    assert response["Content-Type"].startswith("application/json"), response.content[:300]
    body = response.json()
    assert len(response.content) < 2000, response.content[:300]
    return body


def test_deeply_nested_json_is_refused_on_every_write_endpoint(world):
    client = world.client("official")
    nested_lists = "[" * DEEP + "]" * DEEP
    nested_inside = '{"type": "roll", "expected_version": 1, "dice": ' + "[" * 5000 + "]" * 5000 + "}"
    nested_objects = '{"a": ' * 3000 + "1" + "}" * 3000
    for url in _writes(world):
        for body in (nested_lists, nested_inside, nested_objects):
            before = event_count()
            response = client.post(url, body, content_type="application/json")
            assert "detail" in _short_json_refusal(response), url
            assert event_count() == before, url


@pytest.mark.parametrize("path", ["/api/matches/%00/", "/api/matches/%00/events/", "/api/matches/%00/commands/",
                                  "/api/matches/a%00b/export.mat", "/matches/%00/", "/matches/%00/record/",
                                  "/api/tournaments/1%00/"])
def test_a_nul_in_a_path_is_refused(world, path):
    for client in (world.client("anonymous"), world.client("official")):
        response = client.get(path)
        assert 400 <= response.status_code < 500, (path, response.status_code, response.content[:300])
        if path.startswith("/api/"):
            _short_json_refusal(response, status=(400, 401, 403, 404, 405))
        response = client.post(path, {"type": "roll", "expected_version": 1}, format="json")
        assert 400 <= response.status_code < 500, (path, response.status_code)


def test_a_body_over_the_upload_limit_answers_json(world):
    client = world.client("official")
    big = json.dumps({"type": "roll", "expected_version": 1, "reason": "x" * 3_000_000})
    for url in _writes(world):
        before = event_count()
        response = client.post(url, big, content_type="application/json")
        assert "detail" in _short_json_refusal(response, status=(400, 413)), url
        assert event_count() == before


@pytest.mark.parametrize("field,value", [
    ("type", "x" * 400_000), ("move", "13/8 " * 80_000), ("kind", "y" * 400_000), ("reason", "z" * 400_000),
    ("dice", ["w" * 400_000, 1]),
])
def test_a_refusal_never_echoes_the_whole_input(world, field, value):
    match_id = world.new_match()
    client = world.client("official")
    command = {"type": "move" if field != "type" else value, "expected_version": world.version(match_id)}
    if field == "reason":
        command["type"] = "void"
    command[field] = value
    before = event_count()
    response = client.post(f"/api/matches/{match_id}/commands/", command, format="json")
    _short_json_refusal(response)
    assert event_count() == before


def test_tournament_and_import_refusals_are_short_too(world):
    client = world.client("official")
    long = "q" * 400_000
    for url, body in [
        (f"/api/tournaments/{world.event.pk}/commands/", {"type": long}),
        (f"/api/tournaments/{world.event.pk}/commands/", {"type": "report_result", "slot": long}),
        (f"/api/tournaments/{world.event.pk}/commands/", {"type": "draw", "method": long}),
        ("/api/tournaments/", {"name": "N", "format": long}),
        ("/api/tournaments/", {"name": "N", "format": "swiss", "settings": {long: 1}}),
        ("/api/matches/import/", {"text": mat_text().replace("Alice", long)}),
        ("/api/matches/import/", {"text": long}),
    ]:
        before = event_count()
        _short_json_refusal(client.post(url, body, format="json"))
        assert event_count() == before


def test_an_idempotency_key_longer_than_the_store_holds_is_refused(world):
    match_id = world.new_match()
    before = event_count()
    response = world.client("official").post(
        f"/api/matches/{match_id}/commands/", {"type": "roll", "dice": [3, 1], "expected_version": world.version(match_id)},
        format="json", HTTP_IDEMPOTENCY_KEY="k" * 400_000)
    _short_json_refusal(response)
    assert event_count() == before


@pytest.mark.parametrize("rounds", ["abc", [1], None, {"n": 1}, 1.5, True])
def test_swiss_rounds_of_the_wrong_type_are_refused(world, rounds):
    before = event_count()
    response = world.client("official").post("/api/tournaments/", {
        "name": "Swiss", "format": "swiss", "settings": {"rounds": rounds}}, format="json")
    _short_json_refusal(response)
    assert event_count() == before


def test_the_console_refuses_numbers_that_are_not_numbers(world):
    from tournaments import services

    director = world.user("director")
    a, b = world.player("player").pk, world.player("opponent").pk
    for pid in (a, b):
        services.tournament_command(actor=director, tournament=world.event, command={"type": "enter", "player": pid})
    services.tournament_command(actor=director, tournament=world.event,
                                command={"type": "draw", "method": "manual", "seeds": [a, b]})
    slot = services.tournament_view(world.event)[1].slots[0].key
    browser = Client()
    browser.force_login(director)
    url = f"/events/{world.event.pk}/run/"
    for form in ({"winner": "abc", "winner_points": "3", "loser_points": "0"},
                 {"winner": str(a), "winner_points": "three", "loser_points": "0"},
                 {"winner": str(a), "winner_points": "9" * 5000, "loser_points": "0"},
                 {"winner": str(a), "winner_points": str(2**40), "loser_points": "0"}):
        before = event_count()
        response = browser.post(url, {"action": "report_result", "slot": slot, **form})
        assert response.status_code in (200, 302), (form, response.status_code)
        assert event_count() == before, form
