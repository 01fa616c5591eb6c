"""A knockout of four teams of two boards run through the API: the seeded bracket, each semi-final shared 1-1 and
sent on by the rule for an even split (the points over all the boards, then board 1), the final created once both
semi-finals are settled, and its winner the event's; the event page shows who went on."""

import pytest

from players.models import Player
from tests.tournaments.test_team_events import send, settle

pytestmark = pytest.mark.django_db

# each board: (the team winning it, the loser's points), 7-point matches
ROUNDS = {
    1: {(1, 4): [(4, 5), (1, 0)],  # 1-1; team 1's points 5 + 7 = 12 against 7 + 0: team 1 goes on
        (2, 3): [(3, 3), (2, 3)]},  # 1-1, 10 points each: team 3 won board 1 and goes on
    2: {(1, 3): [(1, 2), (1, 6)]},  # the final: team 1 2-0
}


@pytest.fixture
def director(make_user):
    return make_user("dora", official=True, player=False)


def test_four_teams_knockout_through_the_api_to_its_winner(api, director, client):
    players = {t * 10 + b: Player.objects.create(display_name=f"T{t} board {b}").pk for t in range(1, 5)
               for b in (1, 2)}
    who = {pk: tb for tb, pk in players.items()}
    api_client = api(director)
    answer = api_client.post("/api/tournaments/", {"name": "Team cup", "format": "team_knockout",
                                               "settings": {"boards": 2}}, format="json")
    assert answer.status_code == 201, answer.json()
    t_id = answer.json()["id"]
    for team in range(1, 5):
        send(api_client, t_id, type="register_team", name=f"Team {team}", players=[players[team * 10 + b] for b in (1, 2)])
    send(api_client, t_id, type="draw", method="manual", seeds=[1, 2, 3, 4])
    for round_no, matches in ROUNDS.items():
        settle(t_id)
        data = api_client.get(f"/api/tournaments/{t_id}/teams/").json()
        assert [r["round"] for r in data["rounds"]] == list(range(1, round_no + 1))
        current = data["rounds"][-1]["matches"]
        assert [tuple(m["teams"]) for m in current] == list(matches)
        for match in current:
            for board, (team, lost_with) in zip(match["boards"], matches[tuple(match["teams"])], strict=True):
                assert board["status"] == "ready" and board["match_id"]
                winner = next(p for p in board["players"] if who[p] // 10 == team)
                send(api_client, t_id, type="report_result", slot=board["slot"], winner=winner, score=[7, lost_with])
    settle(t_id)
    data = api_client.get(f"/api/tournaments/{t_id}/teams/").json()
    semis = data["rounds"][0]["matches"]
    assert [(m["board_wins"], m["winner"], m["through"]) for m in semis] == [([1, 1], None, 1), ([1, 1], None, 3)]
    assert data["rounds"][1]["matches"][0]["through"] == 1 and data["winner"] == 1
    client.force_login(director)
    page = client.get(f"/events/{t_id}/", HTTP_ACCEPT_LANGUAGE="en")
    assert page.status_code == 200 and "Team 3 goes on" in page.content.decode()
    console = client.get(f"/events/{t_id}/run/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "Team knockout" in console and "Team 1 goes on" in console
