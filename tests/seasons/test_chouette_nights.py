"""A club counts its chouette nights in a season's table when it wants to, night by night: the session's sheet
gives each player named for a name on it its net points (and attendance), as the rule's components say; a name
left out (a guest) counts for nobody; removed, the night gives nothing again."""

import pytest

from eventlog import projections
from players.models import Club, Player

pytestmark = pytest.mark.django_db

RULE = {"components": [{"kind": "chouette", "per_point": 1}, {"kind": "attendance", "points": 1}]}


@pytest.fixture
def club_director(make_user):
    user = make_user("dora", player=False)
    club = Club.objects.create(name="Riverside")
    club.directors.add(user)
    return user, club


def chouette_night(api, recorder) -> str:
    """One game recorded: by hand, Ann (the box) +2, Ben -1, Cat -2, Dan +1."""
    c = api(recorder).post("/api/chouettes/", {"players": ["Ann", "Ben", "Cat", "Dan"]}, format="json").json()
    version = c["version"]
    for body in ({"type": "roll", "dice": [3, 1]}, {"type": "move", "move": "8/5 6/5"},
                 {"type": "crew_doubles", "members": ["Cat", "Dan"]},
                 {"type": "box_answers", "takes": ["Cat"], "drops": ["Dan"]},
                 {"type": "roll", "dice": [6, 5]}, {"type": "move", "move": "24/13"},
                 {"type": "box_doubles", "members": ["Ben", "Cat"]},
                 {"type": "drop", "member": "Ben"}, {"type": "drop", "member": "Cat"}):
        answer = api(recorder).post(f"/api/chouettes/{c['id']}/commands/", {"expected_version": version, **body},
                                    format="json")
        assert answer.status_code == 200, (body, answer.json())
        version = answer.json()["version"]
    assert [row["total"] for row in answer.json()["sheet"]] == [2, -1, -2, 1]
    return c["id"]


def test_a_clubs_chouette_night_counts_in_its_season_once_it_opts_in(api, club_director, make_user, client):
    user, club = club_director
    director = api(user)
    season = director.post("/api/seasons/", {"name": "Winter 2026", "club": club.pk, "rule": RULE,
                                             "effective_from": "2026-01-01"}, format="json").json()
    commands = f"/api/seasons/{season['id']}/commands/"
    night = chouette_night(api, make_user("rita"))
    members = {name: Player.objects.create(display_name=name, club=club).pk for name in ("Ann", "Ben", "Cat")}
    projections.run_all()
    assert director.get(f"/api/seasons/{season['id']}/").json()["table"] == []  # not counted until the club says

    stranger = director.post(commands, {"type": "add_chouette", "chouette": night, "players": {"Eve": members["Ann"]}},
                             format="json")
    assert stranger.status_code == 400 and stranger.json()["code"] == "bad_season_command"
    other = api(make_user("otto", player=False)).post(commands, {
        "type": "add_chouette", "chouette": night, "players": members}, format="json")
    assert other.status_code == 403
    added = director.post(commands, {"type": "add_chouette", "chouette": night, "players": members,
                                     "on": "2026-02-05"}, format="json")
    assert added.status_code == 200, added.json()
    projections.run_all()
    data = director.get(f"/api/seasons/{season['id']}/").json()
    # by hand: Ann 2 + 1 = 3, Ben -1 + 1 = 0, Cat -2 + 1 = -1; Dan, a guest nobody named, counts for nobody
    assert [(r["rank"], r["name"], r["total"], r["events"]) for r in data["table"]] == [
        (1, "Ann", 3, 1), (2, "Ben", 0, 1), (3, "Cat", -1, 1)]
    assert data["table"][0]["scores"] == [{"tournament_id": None, "chouette_id": night, "points": 3,
                                           "rule_version": 1, "counted": True}]
    assert data["chouettes"] == [{"chouette_id": night, "on": "2026-02-05", "players": members, "games": 1,
                                  "rule_version": 1}]
    page = client.get(f"/seasons/{season['id']}/").content.decode()
    assert f'data-chouette="{night}"' in page

    twice = director.post(commands, {"type": "add_chouette", "chouette": night, "players": members}, format="json")
    assert twice.status_code == 400 and twice.json()["code"] == "already_in_season"
    assert director.post(commands, {"type": "remove_chouette", "chouette": night}, format="json").status_code == 200
    projections.run_all()
    assert director.get(f"/api/seasons/{season['id']}/").json()["table"] == []
