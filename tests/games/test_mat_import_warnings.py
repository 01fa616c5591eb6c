"""A .mat file read leniently keeps its warnings on the match; a dead cube is refused when recording here."""

from pathlib import Path

import pytest

from eventlog.models import Event
from games import streams

pytestmark = pytest.mark.django_db

QUIRKS = Path(__file__).resolve().parents[1] / "fixtures" / "mat_quirks"


def test_an_imported_dead_cube_double_is_read_and_its_warning_kept_on_the_record(api, make_user):
    client = api(make_user("root", official=True, player=False))
    response = client.post("/api/matches/import/", {"text": (QUIRKS / "dead_cube_double.mat").read_text()}, format="json")
    assert response.status_code == 201, response.json()
    registered = Event.objects.get(stream_id=response.json()["id"], event_type=streams.REGISTERED)
    reasons = [w["reason"] for w in registered.payload["import_warnings"]]
    assert reasons == ["a dead cube is doubled: Alice needs 1 point and the cube already gives 1 "
                       "(gnubg refuses it at the table); read as written"]
    shown = client.get(f"/api/matches/{response.json()['id']}/").json()
    assert shown["import_warnings"] == [{"line": 10, "reason": reasons[0]}]


def test_a_file_without_quirks_has_no_warnings(api, make_user):
    client = api(make_user("root", official=True, player=False))
    text = (Path(__file__).resolve().parents[1] / "fixtures" / "gnubg" / "matches" / "match_003_5pt.mat").read_text()
    response = client.post("/api/matches/import/", {"text": text}, format="json")
    registered = Event.objects.get(stream_id=response.json()["id"], event_type=streams.REGISTERED)
    assert "import_warnings" not in registered.payload
    assert client.get(f"/api/matches/{response.json()['id']}/").json()["import_warnings"] == []


def test_empty_names_in_a_file_become_players_named_as_the_engine_reads_them(api, make_user):
    client = api(make_user("root", official=True, player=False))
    response = client.post("/api/matches/import/", {"text": (QUIRKS / "empty_names.mat").read_text()}, format="json")
    assert response.status_code == 201, response.json()
    assert [p["name"] for p in response.json()["players"]] == ["Player 1", "Bob"]


def test_may_double_is_false_with_a_dead_cube_so_the_recording_screen_hides_double(api, make_user):
    from players.models import Player

    client = api(make_user("root", official=True, player=False))
    a, b = Player.objects.create(display_name="Ann"), Player.objects.create(display_name="Ben")
    created = client.post("/api/matches/", {"player0": a.pk, "player1": b.pk, "length": 1, "dice": "board"}, format="json")
    assert created.status_code == 201, created.json()
    match = created.json()
    version = match["version"]
    for command in ({"type": "roll", "dice": [3, 1]}, {"type": "move", "move": "8/5 6/5"}):
        reply = client.post(f"/api/matches/{match['id']}/commands/", {**command, "expected_version": version}, format="json")
        assert reply.status_code in (200, 201), reply.json()
        version = client.get(f"/api/matches/{match['id']}/").json()["version"]
    state = client.get(f"/api/matches/{match['id']}/").json()
    assert state["phase"] == "roll" and state["may_double"] is False
    refused = client.post(f"/api/matches/{match['id']}/commands/", {"type": "double", "expected_version": state["version"]},
                          format="json")
    assert refused.status_code in (400, 409) and "the cube is dead" in refused.json()["detail"]
