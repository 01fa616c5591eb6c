"""Importing .mat files through the API and exporting them again; GNU Backgammon reads the exports."""

import json
import os
import subprocess
from pathlib import Path

import pytest

from eventlog.models import Event
from games.engine.matfile import read_mat
from tests.games.engine.test_matfile import GNUBG, MATCHES, _games_as_gnubg_sees_them

pytestmark = pytest.mark.django_db


def import_mat(client, path: Path):
    with open(path, "rb") as f:
        return client.post("/api/matches/import/", {"file": f}, format="multipart")


@pytest.mark.skipif(not os.path.exists(GNUBG), reason="GNU Backgammon is not installed")
def test_every_gnubg_match_imported_and_exported_reads_the_same_in_gnubg(api, make_user, tmp_path):
    client = api(make_user("root", official=True, player=False))
    expected = {}
    for path in MATCHES:
        response = import_mat(client, path)
        assert response.status_code == 201, response.json()
        exported = client.get(f"/api/matches/{response.json()['id']}/export.mat")
        assert exported.status_code == 200 and exported["Content-Type"].startswith("text/plain")
        (tmp_path / path.name).write_bytes(exported.content)
        expected[path.name] = _games_as_gnubg_sees_them(read_mat(path.read_text()))
    script = Path(__file__).parent / "engine" / "gnubg_read_mat.py"
    env = dict(os.environ, MAT_DIR=str(tmp_path), OUT_FILE=str(tmp_path / "gnubg.json"))
    subprocess.run([GNUBG, "-t", "-q", "-r", "-p", str(script)], env=env, stdin=subprocess.DEVNULL,
                   stdout=subprocess.DEVNULL, check=True, timeout=600)
    seen = [json.loads(line) for line in (tmp_path / "gnubg.json").read_text().splitlines()]
    assert len(seen) == len(MATCHES)
    for gnubg_read in seen:
        assert gnubg_read["games"] == expected[gnubg_read["file"]], gnubg_read["file"]


def test_import_uses_the_names_in_the_file(api, make_user):
    from players.models import Player

    client = api(make_user("root", official=True, player=False))
    response = import_mat(client, MATCHES[2])
    assert [p["name"] for p in response.json()["players"]] == ["Alice", "Bob"]
    assert set(Player.objects.values_list("display_name", flat=True)) >= {"Alice", "Bob"}
    assert response.json()["finished"] and response.json()["score"] == [6, 1]


def test_an_illegal_move_in_a_file_is_refused_naming_game_and_move_and_nothing_is_stored(api, make_user):
    client = api(make_user("root", official=True, player=False))
    text = MATCHES[2].read_text().replace("  2) 64: 24/18 18/14", "  2) 64: 24/18 18/13", 1)
    response = client.post("/api/matches/import/", {"text": text}, format="json")
    assert response.status_code == 400
    body = response.json()
    assert body["code"] == "invalid_mat_file" and (body["game"], body["move"]) == (1, 2)
    assert body["detail"].startswith("game 1, move 2: 24/18 18/13 is not legal")
    french = client.post("/api/matches/import/", {"text": text}, format="json", HTTP_ACCEPT_LANGUAGE="fr").json()
    assert french["detail"].startswith("partie 1, coup 2 : 24/18 18/13 n'est pas légal : ")
    assert (french["code"], french["game"], french["move"]) == ("invalid_mat_file", 1, 2)
    assert Event.objects.count() == 0


@pytest.mark.parametrize(
    "content, reason",
    [
        (b"\x00\x01binary", "binary data"),
        (b"x" * 2_000_001, "larger than 2 MB"),
        (b" 5 point match\n\n Game 1\n  1) 31: 8/5 6/5 and more\n", "cannot read 'and'"),
    ],
)
def test_malformed_files_get_a_clear_error_and_store_nothing(api, make_user, content, reason, tmp_path):
    client = api(make_user("root", official=True, player=False))
    bad = tmp_path / "bad.mat"
    bad.write_bytes(content)
    response = import_mat(client, bad)
    assert response.status_code == 400 and reason in response.json()["detail"]
    assert Event.objects.count() == 0


def _truncated() -> bytes:
    text = MATCHES[2].read_text()
    return text[: text.index(" 13) 31: 6/3* 8/7") + len(" 13) 31: 6/3* 8/")].encode()


@pytest.mark.parametrize(
    "content, reason",
    [
        (_truncated(), "game 1, move 13: cannot read '8/'"),
        (MATCHES[2].read_text().encode("utf-16"), "binary data"),
        (MATCHES[2].read_text().replace(" Bob : 1", " Bob : 3", 1).encode(), "game 3: the file gives the score 4-3"),
        (MATCHES[2].read_text().replace("  9) 33: 25/22 25/22", "  9) 33: 25/21 25/22", 1).encode(), "game 1, move 9:"),
    ],
    ids=["truncated", "utf-16", "wrong-score", "illegal-move"],
)
def test_hostile_files_are_refused_naming_game_and_move(api, make_user, content, reason, tmp_path):
    client = api(make_user("root", official=True, player=False))
    bad = tmp_path / "hostile.mat"
    bad.write_bytes(content)
    response = import_mat(client, bad)
    assert response.status_code == 400 and reason in response.json()["detail"], response.json()
    assert Event.objects.count() == 0


def test_anonymous_users_cannot_import(api):
    response = import_mat(api(), MATCHES[0])
    assert response.status_code in (401, 403)
    assert Event.objects.count() == 0


def test_a_member_cannot_import_a_match_against_themselves(api, make_user):
    from players.models import Player

    member = make_user("ines")
    me = Player.objects.get(user=member).pk
    before = Event.objects.count()
    response = api(member).post("/api/matches/import/", {"text": MATCHES[2].read_text(), "player0": me,
                                                         "player1": me}, format="json")
    assert response.status_code in (400, 422), response.json()
    assert "two different players" in response.json()["detail"]
    assert Event.objects.count() == before
