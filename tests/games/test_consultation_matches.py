"""Consultation matches: two players a side. The match, its pages and its .mat export name both players of each
side; either partner records for their side; the match is never rated, not even by a director's set_rated."""

import random

import pytest

from eventlog import projections
from ratings.models import PlayerRating

from tests.games.recorder import Recorder

pytestmark = pytest.mark.django_db


class Partners(Recorder):
    """Each side recorded by its partner: a command goes from the side whose turn it is (the other, if refused)."""

    def __init__(self, sides, match: dict):
        super().__init__(sides[0], match)
        self.sides = sides

    def send(self, expect: int = 200, key: str | None = None, **command):
        command.setdefault("expected_version", self.version)
        first = self.match.get("turn") or 0
        for seat in (first, 1 - first):
            response = self.sides[seat].post(f"/api/matches/{self.id}/commands/", command, format="json")
            if response.status_code == 200:
                self.match = response.json()["state"]
                return response
        raise AssertionError(response.json())


@pytest.fixture
def four(make_user):
    return {name: make_user(name) for name in ("ada", "bruno", "chloe", "dimitri")}


def consultation(api, four, **more) -> dict:
    p = {name: user.player.pk for name, user in four.items()}
    answer = api(four["ada"]).post("/api/matches/", {
        "player0": p["ada"], "partner0": p["bruno"], "player1": p["chloe"], "partner1": p["dimitri"], "length": 1,
        **more}, format="json")
    assert answer.status_code == 201, answer.json()
    return answer.json()


def test_each_side_is_named_by_both_its_players_and_either_partner_records_for_it(api, four, make_user, client):
    match = consultation(api, four)
    assert [(s["name"], s["partner_id"]) for s in match["players"]] == [
        ("Ada & Bruno", four["bruno"].player.pk), ("Chloe & Dimitri", four["dimitri"].player.pk)]
    stranger = api(make_user("eva")).post(f"/api/matches/{match['id']}/commands/",
                                          {"type": "roll", "expected_version": match["version"]}, format="json")
    assert stranger.status_code == 403
    Partners((api(four["bruno"]), api(four["dimitri"])), match).play_random(random.Random(7))  # the partners
    assert api(four["ada"]).get(f"/api/matches/{match['id']}/").json()["finished"]
    assert client.get(f"/matches/{match['id']}/").content.decode().count("Ada &amp; Bruno") >= 1
    exported = api(four["dimitri"]).get(f"/api/matches/{match['id']}/export.mat").content.decode()
    assert "Ada & Bruno" in exported and "Chloe & Dimitri" in exported


def test_a_consultation_match_is_not_rated(api, four, make_user):
    match = consultation(api, four)
    Partners((api(four["ada"]), api(four["chloe"])), match).play_random(random.Random(3))
    projections.run_all()
    ids = [user.player.pk for user in four.values()]
    assert not PlayerRating.objects.filter(player_id__in=ids, matches__gt=0).exists()
    official = api(make_user("olga", official=True, player=False))
    state = official.get(f"/api/matches/{match['id']}/").json()
    refused = official.post(f"/api/matches/{match['id']}/commands/",
                            {"type": "set_rated", "rated": True, "expected_version": state["version"]},
                            format="json")
    assert refused.status_code == 400 and "consultation" in refused.json()["detail"]
    # the same four in an ordinary match are rated as usual
    p = {name: user.player.pk for name, user in four.items()}
    single = api(four["ada"]).post("/api/matches/", {"player0": p["ada"], "player1": p["chloe"], "length": 1},
                                   format="json").json()
    Partners((api(four["ada"]), api(four["chloe"])), single).play_random(random.Random(3))
    projections.run_all()
    assert PlayerRating.objects.filter(player_id__in=[p["ada"], p["chloe"]], matches=1).count() == 2


def test_a_side_has_two_different_players_or_one(api, four):
    p = {name: user.player.pk for name, user in four.items()}
    half = api(four["ada"]).post("/api/matches/", {"player0": p["ada"], "partner0": p["bruno"],
                                                   "player1": p["chloe"], "length": 1}, format="json")
    assert half.status_code == 400
    twice = api(four["ada"]).post("/api/matches/", {"player0": p["ada"], "partner0": p["chloe"],
                                                    "player1": p["chloe"], "partner1": p["dimitri"], "length": 1},
                                  format="json")
    assert twice.status_code == 400
