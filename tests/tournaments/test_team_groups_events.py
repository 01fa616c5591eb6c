"""Six teams of three boards in two groups, then a knockout of the top four, run through the API as a director runs
one (the WBGF Club World Championship's groups then knockout): the teams dealt by seed in snake order, each group's
boards and table of teams, the round robin closed by the director into a knockout of the qualifying teams (the group
winners first, then the runners-up), played to its winner; the console and the event page show each group's table;
the settings and the draw refuse what the format cannot play."""

import pytest

from players.models import Player
from tests.tournaments.test_team_events import send, settle

pytestmark = pytest.mark.django_db

# the team winning each team match and with how many of its three boards (a 7-0 board each); the pure test
# tests/tournaments/formats/test_team_groups.py works the same results by hand
GROUPS = {
    frozenset((1, 4)): (4, 2), frozenset((4, 5)): (4, 3), frozenset((1, 5)): (1, 3),  # group A: 1, 4, 5
    frozenset((2, 3)): (2, 3), frozenset((2, 6)): (2, 2), frozenset((3, 6)): (6, 2),  # group B: 2, 3, 6
}
KNOCKOUT = {frozenset((4, 6)): (6, 2), frozenset((1, 2)): (2, 3), frozenset((6, 2)): (2, 2)}


@pytest.fixture
def director(make_user):
    return make_user("dora", official=True, player=False)


@pytest.fixture
def players():
    return {t * 10 + b: Player.objects.create(display_name=f"T{t} board {b}").pk for t in range(1, 7)
            for b in (1, 2, 3)}


def create(client, players, teams=6, **settings) -> int:
    answer = client.post("/api/tournaments/", {"name": "Club World Championship", "format": "team_round_robin",
                                               "settings": {"boards": 3, **settings}}, format="json")
    assert answer.status_code == 201, answer.json()
    t_id = answer.json()["id"]
    for team in range(1, teams + 1):
        send(client, t_id, type="register_team", name=f"Team {team}",
             players=[players[team * 10 + b] for b in (1, 2, 3)])
    return t_id


def play_open(client, t_id: int, outcomes: dict, who: dict) -> int:
    """Every ready board of the team matches ``outcomes`` names, reported; how many."""
    reported = 0
    for r in client.get(f"/api/tournaments/{t_id}/teams/").json()["rounds"]:
        for m in r["matches"]:
            if m["rests"] or frozenset(m["teams"]) not in outcomes:
                continue
            team, boards = outcomes[frozenset(m["teams"])]
            for i, b in enumerate(m["boards"]):
                if b["status"] != "ready":
                    continue
                winner = next(p for p in b["players"] if (who[p] // 10 == team) == (i < boards))
                send(client, t_id, type="report_result", slot=b["slot"], winner=winner, score=[7, 0])
                reported += 1
    return reported


def rows(table: list[dict]) -> list[tuple]:
    return [(r["rank"], r["name"], r["match_points"], r["board_points"]) for r in table]


def test_six_teams_in_two_groups_then_a_knockout_of_four_to_its_winner(api, director, players, client):
    api_client = api(director)
    who = {pk: tb for tb, pk in players.items()}
    t_id = create(api_client, players, groups=2, qualifiers=4)
    send(api_client, t_id, type="draw", method="manual", seeds=[1, 2, 3, 4, 5, 6])
    settle(t_id)
    data = api_client.get(f"/api/tournaments/{t_id}/teams/").json()
    assert [m["group"] for m in data["rounds"][0]["matches"]] == ["Group A"] * 2 + ["Group B"] * 2
    assert {tuple(sorted(t for t in m["teams"] if t)) for r in data["rounds"] for m in r["matches"]
            if m["group"] == "Group A" and not m["rests"]} == {(1, 4), (1, 5), (4, 5)}
    assert {b["slot"].split(":")[1] for r in data["rounds"] for m in r["matches"] for b in m["boards"]} == {"g1", "g2"}
    assert data["stage"] == {"qualifiers": 4, "closed": False, "seeds": []}
    early = api_client.post(f"/api/tournaments/{t_id}/commands/", {"type": "close_stage"}, format="json")
    assert early.status_code == 400 and early.json()["code"] == "stage_not_finished"
    while play_open(api_client, t_id, GROUPS, who):  # a round at a time: each waits for the one before
        settle(t_id)
    data = api_client.get(f"/api/tournaments/{t_id}/teams/").json()
    assert [g["name"] for g in data["groups"]] == ["Group A", "Group B"]
    assert rows(data["groups"][0]["standings"]) == [(1, "Team 4", 4, 5), (2, "Team 1", 2, 4), (3, "Team 5", 0, 0)]
    assert rows(data["groups"][1]["standings"]) == [(1, "Team 2", 4, 5), (2, "Team 6", 2, 3), (3, "Team 3", 0, 1)]
    assert data["winner"] is None and [t["key"] for t in data["tiebreaks"]][0] == "match_points"

    client.force_login(director)
    console = client.get(f"/events/{t_id}/run/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert 'data-teams="group1"' in console and "Table of teams · Group B" in console and 'id="close-stage"' in console
    page = client.get(f"/events/{t_id}/", HTTP_ACCEPT_LANGUAGE="fr").content.decode()
    assert "Classement des équipes · Poule A" in page and "Classement des équipes · Poule B" in page

    send(api_client, t_id, type="close_stage")
    settle(t_id)
    data = api_client.get(f"/api/tournaments/{t_id}/teams/").json()
    # the group winners first (4 and 2 level on match points and boards: group A's first), then the runners-up (1, 6)
    assert [(q["seed"], q["name"]) for q in data["stage"]["seeds"]] == [
        (1, "Team 4"), (2, "Team 2"), (3, "Team 1"), (4, "Team 6")]
    semis = data["rounds"][3]
    assert semis["knockout"] and semis["label"] == "Stage 2 · Knockout · Semi-final"
    assert [tuple(m["teams"]) for m in semis["matches"]] == [(4, 6), (2, 1)]
    assert all(b["slot"].startswith("team:ko:r4:") and b["match_id"] for m in semis["matches"] for b in m["boards"])
    while play_open(api_client, t_id, KNOCKOUT, who):
        settle(t_id)
    data = api_client.get(f"/api/tournaments/{t_id}/teams/").json()
    final = data["rounds"][4]
    assert final["label"] == "Stage 2 · Knockout · Final" and [tuple(m["teams"]) for m in final["matches"]] == [(6, 2)]
    assert final["matches"][0]["through"] == 2 and data["winner"] == 2
    # the groups' tables stand as they were closed
    assert rows(data["groups"][0]["standings"])[0] == (1, "Team 4", 4, 5)


def test_one_group_keeps_its_keys_and_its_knockout_follows(api, director, players):
    api_client = api(director)
    who = {pk: tb for tb, pk in players.items()}
    t_id = create(api_client, players, teams=4, qualifiers=2)
    send(api_client, t_id, type="draw", method="manual", seeds=[1, 2, 3, 4])
    settle(t_id)
    data = api_client.get(f"/api/tournaments/{t_id}/teams/").json()
    assert data["rounds"][0]["matches"][0]["boards"][0]["slot"] == "team:r1:m1:b1" and data["groups"] == []
    results = {frozenset(p): (min(p), 3) for p in ((1, 2), (1, 3), (1, 4), (2, 3), (2, 4), (3, 4))}  # by seed
    while play_open(api_client, t_id, results, who):
        settle(t_id)
    data = api_client.get(f"/api/tournaments/{t_id}/teams/").json()
    assert data["winner"] is None  # the knockout decides it
    send(api_client, t_id, type="close_stage")
    settle(t_id)
    while play_open(api_client, t_id, {frozenset((1, 2)): (2, 2)}, who):
        settle(t_id)
    data = api_client.get(f"/api/tournaments/{t_id}/teams/").json()
    assert [tuple(m["teams"]) for m in data["rounds"][-1]["matches"]] == [(1, 2)] and data["winner"] == 2


def test_groups_and_qualifiers_are_refused_where_the_format_cannot_play_them(api, director, players):
    api_client = api(director)
    for fmt, settings, reason in (
            ("team_swiss", {"rounds": 3, "groups": 2}, "groups are a round robin's"),
            ("team_knockout", {"qualifiers": 4}, "qualifiers go from a Swiss or a round robin"),
            ("team_round_robin", {"qualifiers": 4, "reentry": {"until_round": 1}},
             "re-entry is a player's buy-back: a team event takes none")):
        answer = api_client.post("/api/tournaments/", {"name": "Refused", "format": fmt,
                                                       "settings": {"boards": 3, **settings}}, format="json")
        assert answer.status_code == 400 and answer.json()["code"] == "bad_event", (fmt, answer.json())
        assert reason in answer.json()["detail"]
    french = api_client.post("/api/tournaments/", {"name": "Refused", "format": "team_round_robin", "settings": {
        "boards": 3, "reentry": {"until_round": 1}}}, format="json", HTTP_ACCEPT_LANGUAGE="fr")
    assert "une compétition par équipes n'en prend pas" in french.json()["detail"]
    t_id = create(api_client, players, teams=3, groups=2)
    refused = api_client.post(f"/api/tournaments/{t_id}/commands/", {"type": "draw", "method": "manual",
                                                                     "seeds": [1, 2, 3]}, format="json")
    assert refused.status_code == 400 and "2 groups need at least 4 teams" in refused.json()["detail"]
    french = api_client.post(f"/api/tournaments/{t_id}/commands/", {"type": "draw", "method": "manual",
                                                                    "seeds": [1, 2, 3]}, format="json",
                             HTTP_ACCEPT_LANGUAGE="fr")
    assert "2 poules demandent au moins 4 équipes" in french.json()["detail"]


def test_a_groups_board_and_a_knockout_board_are_named_for_people():
    from django.utils import translation

    from tournaments.names import slot_name

    with translation.override("en"):
        assert slot_name("team:g2:r3:m1:b2") == "Group B · Round 3 · team match 1 · board 2"
        assert slot_name("team:ko:r4:m2:b1") == "Stage 2 · Knockout · Round 4 · team match 2 · board 1"
        assert slot_name("team:r1:m1:b3") == "Round 1 · team match 1 · board 3"
