"""A chouette recorded through the API and its page: the stream's events, the refusals, the sheet, the log's
verification re-judging the stream."""

import pytest

from eventlog import store, verification
from games import chouettes

pytestmark = pytest.mark.django_db


@pytest.fixture
def recorder(make_user):
    return make_user("rita")


def send(api, user, chouette_id, version, **body):
    return api(user).post(f"/api/chouettes/{chouette_id}/commands/", {"expected_version": version, **body},
                          format="json")


def test_a_game_recorded_through_the_api_is_a_stream_the_log_verifies(api, recorder):
    opened = api(recorder).post("/api/chouettes/", {"players": ["Ann", "Ben", "Cat", "Dan"]}, format="json")
    assert opened.status_code == 201, opened.json()
    c = opened.json()
    assert (c["box"], c["captain"], c["phase"], c["version"]) == ("Ann", "Ben", "opening", 2)
    version = c["version"]
    for body in ({"type": "roll", "dice": [3, 1]}, {"type": "move", "move": "8/5 6/5"},
                 {"type": "crew_doubles", "members": ["Cat", "Dan"]},
                 {"type": "box_answers", "takes": ["Cat"], "drops": ["Dan"]},
                 {"type": "roll", "dice": [6, 5]}, {"type": "move", "move": "24/13"},
                 {"type": "box_doubles", "members": ["Ben", "Cat"]},
                 {"type": "drop", "member": "Ben"}, {"type": "drop", "member": "Cat"}):
        answer = send(api, recorder, c["id"], version, **body)
        assert answer.status_code == 200, (body, answer.json())
        version = answer.json()["version"]
    c = answer.json()
    # by hand: Dan +1 (the box dropped his double); Ben -1 and Cat -2 (they dropped the box's doubles, Cat's cube on
    # 2); the box wins 1 + 2 - 1 = 2. The box beat the last captain (Cat): it stays, Ben goes to the bottom.
    assert c["games"] == [{"game": 1, "results": [{"player": "Ann", "points": 2}, {"player": "Ben", "points": -1},
                                                  {"player": "Cat", "points": -2}, {"player": "Dan", "points": 1}],
                           "box_stays": True, "line": ["Ann", "Cat", "Dan", "Ben"]}]
    assert sum(row["total"] for row in c["sheet"]) == 0
    types = [row.event_type for row in store.read_stream(c["id"])]
    assert types[:3] == ["ChouetteOpened", "ChouetteStarted", "ChouetteGameStarted"]
    assert types[-4:] == ["CubeDropped", "CaptainChanged", "CubeDropped", "ChouetteGameWon"]
    report = verification.judge_streams()
    assert report.ok and "chouette" not in report.streams_unjudged


def test_refusals_are_said_with_their_code_and_append_nothing(api, recorder, make_user, client):
    c = api(recorder).post("/api/chouettes/", {"players": ["Ann", "Ben", "Cat", "Dan"]}, format="json").json()
    refused = send(api, recorder, c["id"], c["version"], type="move", move="8/5 6/5")
    assert refused.status_code == 400 and refused.json()["code"] == "invalid_action"
    assert send(api, recorder, c["id"], c["version"], type="roll", dice=[7, 1]).json()["code"] == "bad_command"
    assert send(api, recorder, c["id"], c["version"] - 1, type="roll", dice=[3, 1]).status_code == 409
    stranger = make_user("sam")
    assert send(api, stranger, c["id"], c["version"], type="roll", dice=[3, 1]).status_code == 403
    assert api(recorder).post("/api/chouettes/", {"players": list("ABCDEFG")}, format="json").json()["code"] \
        == "invalid_action"  # 7 players and no partner
    french = api(recorder).post("/api/chouettes/", {"players": list("ABCDEFG")}, format="json",
                                HTTP_ACCEPT_LANGUAGE="fr")
    assert french.json()["detail"] == "à 7 joueurs, la boîte doit prendre un partenaire"
    assert chouettes.chouette_load(c["id"]).version == c["version"]
    assert api().get("/api/chouettes/chouette-nope/").status_code == 404


def test_the_page_records_by_forms_and_shows_the_sheet_in_french(client, recorder):
    client.force_login(recorder)
    page = client.post("/chouettes/new/", {"players": "Ann\nBen\nCat", "variation": "half"})
    assert page.status_code == 302
    chouette_id = page["Location"].rstrip("/").rsplit("/", 1)[-1]
    client.post(f"/chouettes/{chouette_id}/", {"type": "roll", "expected_version": 2, "dice": ["3", "1"]})
    client.post(f"/chouettes/{chouette_id}/", {"type": "move", "expected_version": 3, "move": "8/5 6/5"})
    client.post(f"/chouettes/{chouette_id}/", {"type": "crew_doubles", "expected_version": 4,
                                               "members": ["Ben", "Cat"]})
    refused = client.post(f"/chouettes/{chouette_id}/", {"type": "box_answers", "expected_version": 6,
                                                         "takes": [], "drops": ["Ben"]}, HTTP_ACCEPT_LANGUAGE="en")
    assert refused.status_code == 400 and "the box answers every double offered" in refused.content.decode()
    done = client.post(f"/chouettes/{chouette_id}/", {"type": "box_answers", "expected_version": 6,
                                                      "drops": ["Ben", "Cat"]})
    assert done.status_code == 302
    french = client.get(f"/chouettes/{chouette_id}/", HTTP_ACCEPT_LANGUAGE="fr").content.decode()
    assert "Feuille de la séance" in french and "Boîte : Ben." in french
    state = chouettes.chouette_load(chouette_id).state
    assert dict(state.sheet) == {"Ann": -2, "Ben": 1, "Cat": 1} and state.box == "Ben"
