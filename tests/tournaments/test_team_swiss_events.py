"""A Swiss of five teams of three boards over three rounds, run through the API: each round paired from the table
of teams once the round before is settled (its boards then created as ordinary matches), no rematch, a bye to the
lowest team without one scoring a won team match, and the final table and winner against one worked by hand."""

import pytest

from players.models import Player
from tests.tournaments.test_team_events import send, settle

pytestmark = pytest.mark.django_db

# per round, each team match (first-listed team, other) and the team winning each board, board 1 first (7-0);
# the pairings are the ones worked by hand in tests/tournaments/formats/test_team_swiss.py
ROUNDS = {
    1: {(1, 3): (1, 1, 3), (2, 4): (4, 4, 4), (5, None): ()},
    2: {(4, 1): (1, 4, 1), (5, 3): (5, 5, 5), (2, None): ()},
    3: {(1, 2): (1, 1, 1), (5, 4): (4, 5, 4), (3, None): ()},
}
# rank, team, match points, board points: 1 on 6 (2+2+3 boards); 4 and 5 on 4, 4 ahead on boards (6 to 4);
# 3 and 2 on 2 (each its bye), 3 ahead on boards (1 to 0)
TABLE = [(1, "Team 1", 6, 7), (2, "Team 4", 4, 6), (3, "Team 5", 4, 4), (4, "Team 3", 2, 1), (5, "Team 2", 2, 0)]


@pytest.fixture
def director(make_user):
    return make_user("dora", official=True, player=False)


def test_five_teams_play_a_swiss_of_three_rounds_through_the_api(api, director):
    client = api(director)
    players = {t * 10 + b: Player.objects.create(display_name=f"T{t} board {b}").pk for t in range(1, 6)
               for b in (1, 2, 3)}
    who = {pk: tb for tb, pk in players.items()}
    refused = client.post("/api/tournaments/", {"name": "Team Swiss", "format": "team_swiss",
                                                "settings": {"boards": 3}}, format="json")
    assert refused.status_code == 400  # a Swiss needs its number of rounds
    answer = client.post("/api/tournaments/", {"name": "Team Swiss", "format": "team_swiss",
                                               "settings": {"boards": 3, "rounds": 3}}, format="json")
    assert answer.status_code == 201, answer.json()
    t_id = answer.json()["id"]
    for team in range(1, 6):
        send(client, t_id, type="register_team", name=f"Team {team}",
             players=[players[team * 10 + b] for b in (1, 2, 3)])
    send(client, t_id, type="draw", method="manual", seeds=[1, 2, 3, 4, 5])
    for round_no, matches in ROUNDS.items():
        settle(t_id)
        data = client.get(f"/api/tournaments/{t_id}/teams/").json()
        assert [r["round"] for r in data["rounds"]] == list(range(1, round_no + 1))  # the next one is not paired
        current = data["rounds"][-1]["matches"]
        assert [(m["teams"][0], m["teams"][1]) for m in current] == list(matches)
        for match in current:
            if match["rests"]:
                assert match["boards"] == []
                continue
            for board, team in zip(match["boards"], matches[tuple(match["teams"])], strict=True):
                assert board["status"] == "ready" and board["match_id"]
                winner = next(p for p in board["players"] if who[p] // 10 == team)
                send(client, t_id, type="report_result", slot=board["slot"], winner=winner, score=[7, 0])
    settle(t_id)
    data = client.get(f"/api/tournaments/{t_id}/teams/").json()
    assert [(r["rank"], r["name"], r["match_points"], r["board_points"]) for r in data["standings"]] == TABLE
    assert data["winner"] == 1 and len(data["rounds"]) == 3
