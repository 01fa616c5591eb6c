"""Recording matches through the API: commands judged by the engine, refusals that change nothing."""

import random

import pytest

from eventlog.models import Event
from .recorder import Recorder, event_match

pytestmark = pytest.mark.django_db


@pytest.fixture
def seats(make_user):
    return make_user("alice"), make_user("bob")


def new_match(api, user, seats, length=5, **options) -> Recorder:
    client = api(user)
    body = {"player0": seats[0].player.pk, "player1": seats[1].player.pk, "length": length, "dice": "board", **options}
    response = client.post("/api/matches/", body, format="json")
    assert response.status_code == 201, response.json()
    return Recorder(client, response.json())


def events_of(match: Recorder) -> list:
    return list(Event.objects.filter(stream_id=match.id).order_by("version").values_list("event_type", flat=True))


def test_create_match_records_registration_and_start(api, seats):
    m = new_match(api, seats[0], seats)
    assert events_of(m) == ["MatchRegistered", "MatchStarted"]
    assert m.match["players"][0]["name"] == "Alice" and m.match["length"] == 5
    assert m.match["phase"] == "opening" and m.match["position_id"] == "4HPwATDgc/ABMA"


def test_even_length_is_refused_with_a_reason(api, seats):
    response = api(seats[0]).post(
        "/api/matches/", {"player0": seats[0].player.pk, "player1": seats[1].player.pk, "length": 4}, format="json"
    )
    assert response.status_code == 400
    assert "odd number of points; 4 is even" in response.json()["detail"]


def test_server_dice_and_physical_dice_are_each_recorded_with_their_source(api, seats):
    m = new_match(api, seats[0], seats)  # dice from the board
    m.send(type="roll", dice=[3, 1])
    assert Event.objects.get(stream_id=m.id, event_type="GameStarted").payload["source"] == "physical"
    server = new_match(api, seats[0], seats, dice="server")
    server.send(type="roll")
    opening = Event.objects.get(stream_id=server.id, event_type="GameStarted")
    assert opening.payload["source"] == "server" and all(1 <= d <= 6 for d in opening.payload["dice"])


def test_a_whole_match_played_through_the_api_by_a_director(api, seats, make_user):
    director = make_user("dora", player=False)
    m = event_match(api(director), director, seats, length=3, dice="server")
    m.play_random(random.Random(3))
    assert m.match["finished"] and m.match["winner"] in (0, 1)
    assert max(m.match["score"]) >= 3


def test_illegal_move_is_refused_with_the_reason_and_the_stream_is_unchanged(api, seats):
    m = new_match(api, seats[0], seats)
    m.send(type="roll", dice=[3, 1])
    before = events_of(m)
    refused = m.send(expect=400, type="move", move="13/8")
    assert refused.json()["detail"] == "13/8 is not legal: no die of the roll 3-1 moves 5 pips"
    assert refused.json()["code"] == "illegal_move"
    assert events_of(m) == before


def test_bear_off_with_a_checker_outside_is_refused_naming_the_point(api, seats):
    m = new_match(api, seats[0], seats)
    m.send(type="roll", dice=[6, 1])
    refused = m.send(expect=400, type="move", move="6/off 8/7")
    assert "6/off 8/7 is not legal: bearing off needs all fifteen checkers in the home board" in refused.json()["detail"]


def test_double_after_rolling_is_refused(api, seats):
    m = new_match(api, seats[0], seats)
    m.send(type="roll", dice=[3, 1])
    before = events_of(m)
    refused = m.send(expect=400, type="double")
    assert refused.json()["detail"] == "you can double only before rolling"
    assert events_of(m) == before


def test_double_when_the_opponent_owns_the_cube_is_refused(api, seats):
    m = new_match(api, seats[0], seats)
    m.send(type="roll", dice=[3, 1])
    m.send(type="move", move="8/5 6/5")
    m.client = api(seats[1])
    m.send(type="double")
    m.client = api(seats[0])
    m.send(type="take")
    m.client = api(seats[1])
    m.send(type="roll", dice=[6, 4])
    m.send(type="move", move=m.match["legal_moves"][0])
    m.client = api(seats[0])
    m.send(type="roll", dice=[2, 1])
    m.send(type="move", move=m.match["legal_moves"][0])
    m.client = api(seats[1])
    before = events_of(m)
    refused = m.send(expect=400, type="double")
    assert refused.json()["detail"] == "Alice owns the cube"
    assert events_of(m) == before


def test_double_in_the_crawford_game_is_refused(api, seats, make_user):
    staff = make_user("root", official=True, player=False)
    m = new_match(api, staff, seats, length=3)
    # Alice doubles, Bob drops: 1-0; again: 2-0, Alice is at 3 - 1: game 3 is the Crawford game
    for _ in range(2):
        m.send(type="roll", dice=[3, 1])
        m.send(type="move", move="8/5 6/5")
        m.send(type="roll", dice=[6, 4])
        m.send(type="move", move=m.match["legal_moves"][0])
        m.send(type="double")
        m.send(type="drop")
    assert m.match["score"] == [2, 0] and m.match["crawford"]
    m.send(type="roll", dice=[3, 1])
    m.send(type="move", move="8/5 6/5")
    before = events_of(m)
    refused = m.send(expect=400, type="double")
    assert refused.json()["detail"] == "no doubling in the Crawford game"
    assert events_of(m) == before


def test_a_third_user_may_not_send_commands(api, seats, make_user):
    m = new_match(api, seats[0], seats)
    carol = make_user("carol")
    m.client = api(carol)
    before = events_of(m)
    refused = m.send(expect=403, type="roll")
    assert "only the match's players" in refused.json()["detail"]
    assert events_of(m) == before


def test_anonymous_users_may_read_but_not_command(api, seats):
    m = new_match(api, seats[0], seats)
    anonymous = api()
    assert anonymous.get(f"/api/matches/{m.id}/").status_code == 200
    assert anonymous.post(f"/api/matches/{m.id}/commands/", {"type": "roll", "expected_version": 2}, format="json").status_code in (401, 403)
    assert events_of(m) == ["MatchRegistered", "MatchStarted"]


def test_a_player_cannot_act_for_the_opponent(api, seats):
    m = new_match(api, seats[0], seats)
    m.send(type="roll", dice=[1, 3])  # Bob opens
    refused = m.send(expect=400, type="move", move="8/5 6/5")
    assert refused.json()["detail"] == "it is Bob's turn, Alice cannot move"
    assert m.send(expect=403, type="move", move="8/5 6/5", player=1).json()["code"] == "permission_denied"


def test_a_stale_version_gets_409_and_changes_nothing(api, seats):
    m = new_match(api, seats[0], seats)
    m.send(type="roll", dice=[3, 1])
    before = events_of(m)
    refused = m.send(expect=409, type="move", move="8/5 6/5", expected_version=2)
    body = refused.json()  # in words for the tablet, in numbers for a program
    assert body["detail"] == "The other tablet already entered the opening roll 3-1; the screen is updated."
    assert (body["code"], body["sent_version"], body["current_version"]) == ("stale_version", 2, 3)
    assert events_of(m) == before


@pytest.mark.parametrize(
    "command, reason",
    [
        ({"type": "jump"}, "unknown command type"),
        ({"type": "roll"}, "'expected_version'"),
        ({"type": "roll", "expected_version": 2, "dice": [7, 1]}, "'dice' is two numbers from 1 to 6"),
        ({"type": "resign", "expected_version": 2, "kind": "triple"}, "'kind' is single, gammon or backgammon"),
    ],
)
def test_malformed_commands_get_400_with_a_reason(api, seats, command, reason):
    m = new_match(api, seats[0], seats)
    response = m.client.post(f"/api/matches/{m.id}/commands/", command, format="json")
    assert response.status_code == 400 and reason in response.json()["detail"]
    assert events_of(m) == ["MatchRegistered", "MatchStarted"]


def test_director_corrects_and_voids_only_by_new_events(api, seats, make_user):
    director = make_user("dora", player=False)
    m = event_match(api(director), director, seats, length=5)
    m.client = api(seats[0])
    assert m.send(expect=403, type="void", reason="wrong table").json()["code"] == "permission_denied"
    m.client = api(director)
    m.send(type="correct_result", winner=1, score=[2, 5], reason="paper scoresheet")
    assert m.match["finished"] and m.match["winner"] == 1 and m.match["score"] == [2, 5]
    m.send(type="void", reason="played by the wrong players")
    assert m.match["voided"] == "played by the wrong players"
    assert m.send(expect=400, type="roll").json()["code"] == "match_over"
    assert events_of(m)[-2:] == ["ResultCorrected", "MatchVoided"]


def test_events_carry_actor_command_and_correlation_ids(api, seats):
    m = new_match(api, seats[0], seats)
    m.client.post(f"/api/matches/{m.id}/commands/", {"type": "roll", "dice": [3, 1], "expected_version": m.version},
                  format="json", HTTP_IDEMPOTENCY_KEY="k-1", HTTP_X_CORRELATION_ID="table-7")
    rolled = Event.objects.get(stream_id=m.id, event_type="GameStarted")
    assert rolled.metadata == {"actor": seats[0].pk, "command_id": "k-1", "correlation_id": "table-7"}


def test_events_after_a_version(api, seats):
    m = new_match(api, seats[0], seats)
    m.send(type="roll", dice=[3, 1])
    events = api().get(f"/api/matches/{m.id}/events/?after=2").json()
    assert [e["type"] for e in events] == ["GameStarted"] and events[0]["version"] == 3


def test_openapi_schema_and_docs_are_served(api):
    schema = api().get("/api/schema/")
    assert schema.status_code == 200 and b"/api/matches/{stream_id}/commands/" in schema.content
    assert api().get("/api/docs/").status_code == 200


def test_token_authentication(api, seats):
    from rest_framework.authtoken.models import Token
    from rest_framework.test import APIClient

    token = Token.objects.create(user=seats[0])
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {token.key}")
    body = {"player0": seats[0].player.pk, "player1": seats[1].player.pk, "length": 1}
    assert client.post("/api/matches/", body, format="json").status_code == 201
