"""Ratings are not bent without consent: imported results wait for the opponent, a record is imported once,
and a match's dice come from one source fixed when it is created, which the dice proof states roll by roll."""

from pathlib import Path

import pytest

from eventlog import projections
from eventlog.models import Event
from ratings.models import RatingChange

from .recorder import Recorder, event_match

pytestmark = pytest.mark.django_db

MATCHES = Path(__file__).resolve().parents[1] / "fixtures" / "gnubg" / "matches"
ONE_POINTER = MATCHES / "match_021_1pt.mat"  # Alice against Bob, finished


@pytest.fixture
def seats(make_user):
    return make_user("alice"), make_user("bob")


def _import(client, seats, path=ONE_POINTER, **extra):
    body = {"text": path.read_text(), "player0": seats[0].player.pk, "player1": seats[1].player.pk, **extra}
    return client.post("/api/matches/import/", body, format="json")


def _confirm(client, match: dict):
    return client.post(f"/api/matches/{match['id']}/commands/",
                       {"type": "confirm_import", "expected_version": match["version"]}, format="json")


def _rated(match_id: str) -> bool:
    projections.run_all()
    return RatingChange.objects.filter(match_key=match_id).exists()


def test_an_imported_match_is_unrated_until_its_opponent_confirms(api, seats):
    alice, bob = seats
    imported = _import(api(alice), seats)
    assert imported.status_code == 201, imported.json()
    match = imported.json()
    assert match["finished"] and not _rated(match["id"])
    assert match["awaiting_confirmation"] is True
    before = Event.objects.count()
    assert _confirm(api(alice), match).status_code == 403  # not by the one who imported it
    assert Event.objects.count() == before and not _rated(match["id"])
    confirmed = _confirm(api(bob), match)
    assert confirmed.status_code == 200, confirmed.json()
    assert confirmed.json()["state"]["awaiting_confirmation"] is False
    assert _rated(match["id"])
    again = _confirm(api(bob), confirmed.json()["state"])
    assert again.status_code == 400  # confirmed once


def test_a_stranger_cannot_confirm_an_import(api, seats, make_user):
    match = _import(api(seats[0]), seats).json()
    assert _confirm(api(make_user("eve")), match).status_code == 403
    assert not _rated(match["id"])


def test_an_official_may_confirm_an_import(api, seats, make_user):
    match = _import(api(seats[0]), seats).json()
    assert _confirm(api(make_user("olga", official=True, player=False)), match).status_code == 200
    assert _rated(match["id"])


def test_the_confirmed_rating_is_the_one_a_rebuild_gives(api, seats):
    from django.core.management import call_command

    match = _import(api(seats[0]), seats).json()
    _confirm(api(seats[1]), match)
    projections.run_all()
    live = sorted(RatingChange.objects.values_list("player_id", "rating_after", "seq"))
    call_command("rebuild_projections")
    assert sorted(RatingChange.objects.values_list("player_id", "rating_after", "seq")) == live


def test_the_same_record_cannot_be_imported_twice(api, seats):
    client = api(seats[0])
    assert _import(client, seats).status_code == 201
    before = Event.objects.count()
    again = _import(client, seats)
    assert again.status_code == 400 and "already been imported" in again.json()["detail"]
    assert Event.objects.count() == before
    # naming the players the other way round, or under other names, is still the same record of moves
    text = ONE_POINTER.read_text().replace("Alice", "Alicia")
    renamed = client.post("/api/matches/import/", {"text": text, "player0": seats[1].player.pk,
                                                   "player1": seats[0].player.pk}, format="json")
    assert renamed.status_code == 400 and Event.objects.count() == before


# -- dice: one source per match, fixed when it is created ------------------------------------------------


def _new(client, seats, **options) -> Recorder:
    body = {"player0": seats[0].player.pk, "player1": seats[1].player.pk, "length": 3, **options}
    created = client.post("/api/matches/", body, format="json")
    assert created.status_code == 201, created.json()
    return Recorder(client, created.json())


def test_a_server_dice_match_refuses_dice_from_the_board(api, seats):
    m = _new(api(seats[0]), seats, dice="server")
    assert m.match["dice_source"] == "server"
    before = Event.objects.count()
    refused = m.send(expect=400, type="roll", dice=[6, 5])
    assert "server" in refused.json()["detail"]
    assert Event.objects.count() == before
    m.send(type="roll")  # the server's roll is taken


def test_a_board_dice_match_refuses_server_rolls(api, seats):
    m = _new(api(seats[0]), seats, dice="board")
    assert m.match["dice_source"] == "board"
    refused = m.send(expect=400, type="roll")
    assert "board" in refused.json()["detail"]
    m.send(type="roll", dice=[3, 1])


def test_an_events_matches_take_the_dice_source_the_director_set(api, seats, make_user):
    director = make_user("dora", player=False)
    m = event_match(api(director), director, seats, length=3, dice="board")  # as the event creates it
    assert m.match["dice_source"] == "board"
    # a player of the event's match cannot choose another source when recording
    m.client = api(seats[0])
    assert m.send(expect=400, type="roll").status_code == 400


def test_the_dice_proof_says_exactly_which_rolls_were_the_servers(api, seats, make_user):
    import random

    m = _new(api(make_user("olga", official=True, player=False)), seats, dice="server")  # records both seats
    m.play_random(random.Random(3))
    proof = api().get(f"/api/matches/{m.id}/dice/").json()
    server = {e.version: e.payload.get("dice") or [e.payload["die"]] * 2
              for e in Event.objects.filter(stream_id=m.id, payload__source="server")}
    listed = {r["version"]: r["dice"] for line in proof for r in line["server_rolls"]}
    assert listed.keys() == server.keys() and all(sorted(listed[v]) == sorted(server[v]) for v in server)
    assert all(line["verified"] and line["board_rolls"] == [] for line in proof)
    board = _new(api(seats[0]), seats, dice="board")
    board.send(type="roll", dice=[3, 1])
    board.send(type="move", move="8/5 6/5")
    board_proof = api().get(f"/api/matches/{board.id}/dice/").json()
    assert board_proof and all(not line["verified"] and line["server_rolls"] == [] for line in board_proof)
    assert [r["version"] for line in board_proof for r in line["board_rolls"]] == [
        e.version for e in Event.objects.filter(stream_id=board.id, payload__source="physical")]
