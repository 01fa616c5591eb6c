"""A team event of four teams of three boards, run through the API as a director runs one: the teams registered
in board order, the draw, each round's boards created as ordinary matches once the round before is settled, every
board's result reported, the table of teams checked against one worked by hand; a corrected board re-derives it;
the boards are rated as any match; a line-up with a reserve replaces a board nobody has started."""

import pytest
from django.test import Client

from eventlog import projections
from players.models import Player
from ratings.models import PlayerRating
from tournaments import services
from tournaments.finishes import event_finishes
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db

# the Berger tables for four: round 1: 1 v 4, 2 v 3; round 2: 3 v 4, 1 v 2; round 3: 2 v 4, 1 v 3.
# Each board: (winner's board player, loser's, the loser's points) in 7-point matches; a player is named by team and
# board, 21 being team 2's board 1.
BOARDS = {
    1: {(1, 4): [(11, 41, 3), (12, 42, 5), (43, 13, 6)],  # team 1 wins 2-1
        (2, 3): [(31, 21, 2), (22, 32, 4), (33, 23, 0)]},  # team 3 wins 2-1
    2: {(3, 4): [(31, 41, 1), (32, 42, 1), (33, 43, 1)],  # team 3 wins 3-0
        (1, 2): [(21, 11, 6), (12, 22, 6), (23, 13, 5)]},  # team 2 wins 2-1
    3: {(2, 4): [(21, 41, 0), (22, 42, 0), (43, 23, 6)],  # team 2 wins 2-1
        (1, 3): [(11, 31, 5), (32, 12, 5), (13, 33, 2)]},  # team 1 wins 2-1
}
# By hand: teams 1, 2 and 3 each won two team matches (4 match points), team 4 none. Board points: team 1
# 2+1+2 = 5, team 2 1+2+2 = 5, team 3 2+3+1 = 6, team 4 1+0+1 = 2: team 3 first. Teams 1 and 2 are still tied, and
# team 2 won their team match (head to head 2 against 0): team 2 second. Points: team 1 won 7+7+6 + 6+7+5 + 7+5+7 = 57
# and lost 3+5+7 + 7+6+7 + 5+7+2 = 49; team 2 won 2+7+0 + 7+6+7 + 7+7+6 = 49 and lost 7+4+7 + 6+7+5 + 0+0+7 = 43;
# team 3 won 7+4+7 + 7+7+7 + 5+7+2 = 53 and lost 2+7+0 + 1+1+1 + 7+5+7 = 31; team 4 won 3+5+7 + 1+1+1 + 0+0+7 = 25
# and lost 7+7+6 + 7+7+7 + 7+7+6 = 61 (the 18 boards' 184 points, each counted once for and once against).
TABLE = [
    # rank, team, played, won, drawn, lost, match points, board points, points for, against, head to head
    (1, "Team 3", 3, 2, 0, 1, 4, 6, 53, 31, 0),
    (2, "Team 2", 3, 2, 0, 1, 4, 5, 49, 43, 2),
    (3, "Team 1", 3, 2, 0, 1, 4, 5, 57, 49, 0),
    (4, "Team 4", 3, 0, 0, 3, 0, 2, 25, 61, 0),
]


@pytest.fixture
def director(make_user):
    return make_user("dora", official=True, player=False)


@pytest.fixture
def players():
    """Player 'tb' (team t, board b) -> their id."""
    return {t * 10 + b: Player.objects.create(display_name=f"T{t} board {b}").pk for t in (1, 2, 3, 4)
            for b in (1, 2, 3)}


def settle(t_id: int) -> None:
    """What the worker does: the projections and the process manager, until nothing is left to do."""
    t = Tournament.objects.get(pk=t_id)
    for _ in range(20):
        projections.run_all()
        if not services.tournament_advance(t):
            projections.run_all()
            return
    raise AssertionError("the event did not settle")


def send(client, t_id: int, **command) -> dict:
    answer = client.post(f"/api/tournaments/{t_id}/commands/", command, format="json")
    assert answer.status_code == 200, answer.json()
    return answer.json()


def team_event(client, players, **settings) -> int:
    answer = client.post("/api/tournaments/", {"name": "Club World Championship", "format": "team_round_robin",
                                               "settings": {"boards": 3, **settings}}, format="json")
    assert answer.status_code == 201, answer.json()
    t_id = answer.json()["id"]
    for team in (1, 2, 3, 4):
        send(client, t_id, type="register_team", name=f"Team {team}",
             players=[players[team * 10 + b] for b in (1, 2, 3)])
    return t_id


def test_four_teams_of_three_boards_run_through_the_api_to_their_table(api, director, players):
    client = api(director)
    t_id = team_event(client, players)
    send(client, t_id, type="draw", method="manual", seeds=[1, 2, 3, 4])
    who = {pk: tb for tb, pk in players.items()}
    for round_no in (1, 2, 3):
        settle(t_id)
        data = client.get(f"/api/tournaments/{t_id}/teams/").json()
        rounds = {r["round"]: r for r in data["rounds"]}
        # this round's boards are ordinary matches, created for it; the next round's wait for it to be settled
        for match in rounds[round_no]["matches"]:
            assert [b["status"] for b in match["boards"]] == ["ready"] * 3 and all(b["match_id"] for b in match["boards"])
        assert all(b["status"] == "waiting" and not b["match_id"] for r in data["rounds"] if r["round"] > round_no
                   for m in r["matches"] for b in m["boards"])
        for match in rounds[round_no]["matches"]:
            pair = tuple(int(name.split()[-1]) for name in match["names"])
            for board, (winner, loser, lost_with) in zip(match["boards"], BOARDS[round_no][pair], strict=True):
                assert {who[p] for p in board["players"]} == {winner, loser}
                assert who[board["players"][0]] // 10 == pair[0]  # the first-listed team's player first
                send(client, t_id, type="report_result", slot=board["slot"], winner=players[winner],
                     score=[7, lost_with])
    settle(t_id)
    data = client.get(f"/api/tournaments/{t_id}/teams/").json()
    assert [(r["rank"], r["name"], r["played"], r["won"], r["drawn"], r["lost"], r["match_points"],
             r["board_points"], r["points_for"], r["points_against"], r["head_to_head"])
            for r in data["standings"]] == TABLE
    assert data["winner"] == 3 and data["to_win"] == 2
    assert [t["key"] for t in data["tiebreaks"]] == ["match_points", "board_points", "head_to_head",
                                                     "points_difference", "seed"]
    team_matches = [(m["names"], m["board_wins"], m["winner"]) for r in data["rounds"] for m in r["matches"]]
    assert team_matches[0] == (["Team 1", "Team 4"], [2, 1], 1)
    # a season reads the event as finished, each player placed by their own boards (the players' table)
    finishes = event_finishes(t_id)
    assert finishes.finished and len(finishes.finishes) == 12
    won = {f.player: len(f.wins) for f in finishes.finishes}
    assert (won[players[31]], won[players[41]]) == (2, 0)  # 31 beat 21 and 41, lost to 11; 41 lost all three
    # every board is an ordinary match, rated as any: each of the twelve players has three rated matches
    assert dict(PlayerRating.objects.filter(player_id__in=players.values()).values_list("player_id", "matches")) \
        == {pk: 3 for pk in players.values()}

    # the director corrects the last board of 1 v 3: team 3 wins that team match, and the table follows
    last = data["rounds"][2]["matches"][1]["boards"][2]
    send(client, t_id, type="correct_result", slot=last["slot"], winner=players[33], score=[7, 2],
         reason="scoresheet misread")
    settle(t_id)
    data = client.get(f"/api/tournaments/{t_id}/teams/").json()
    assert [(r["name"], r["match_points"], r["board_points"], r["points_for"], r["points_against"])
            for r in data["standings"]] == [("Team 3", 6, 7, 58, 26), ("Team 2", 4, 5, 49, 43),
                                            ("Team 1", 2, 4, 52, 54), ("Team 4", 0, 2, 25, 61)]
    assert data["rounds"][2]["matches"][1]["winner"] == 3


def test_a_line_up_brings_in_a_reserve_and_the_boards_nobody_started_are_made_again(api, director, players):
    client = api(director)
    reserve = Player.objects.create(display_name="Reserve").pk
    answer = client.post("/api/tournaments/", {"name": "Team championship", "format": "team_round_robin",
                                               "settings": {"boards": 3, "reserves": 1}}, format="json")
    t_id = answer.json()["id"]
    send(client, t_id, type="register_team", name="Home", players=[players[11], players[12], players[13]],
         reserves=[reserve])
    send(client, t_id, type="register_team", name="Away", players=[players[21], players[22], players[23]])
    refused = client.post(f"/api/tournaments/{t_id}/commands/", {"type": "enter", "player": players[31]},
                          format="json")
    assert refused.status_code == 400 and refused.json()["code"] == "bad_team"
    send(client, t_id, type="draw", method="manual", seeds=[1, 2])
    settle(t_id)
    before = client.get(f"/api/tournaments/{t_id}/teams/").json()["rounds"][0]["matches"][0]["boards"]
    # the board order is fixed for the event: the reserve comes in for board 2, the others keep their order
    out_of_order = client.post(f"/api/tournaments/{t_id}/commands/", {
        "type": "set_lineup", "team": 1, "round": 1, "players": [players[13], players[11], reserve]}, format="json")
    assert out_of_order.status_code == 400 and out_of_order.json()["code"] == "bad_team"
    send(client, t_id, type="set_lineup", team=1, round=1, players=[players[11], players[13], reserve])
    settle(t_id)
    after = client.get(f"/api/tournaments/{t_id}/teams/").json()["rounds"][0]["matches"][0]["boards"]
    assert [b["players"] for b in after] == [[players[11], players[21]], [players[13], players[22]],
                                             [reserve, players[23]]]
    assert after[0]["match_id"] == before[0]["match_id"]
    assert after[1]["match_id"] not in (None, before[1]["match_id"])
    # once a board of the team match has a result, its line-up stands
    send(client, t_id, type="report_result", slot=after[0]["slot"], winner=players[11], score=[7, 0])
    late = client.post(f"/api/tournaments/{t_id}/commands/", {
        "type": "set_lineup", "team": 1, "round": 1, "players": [players[11], players[12], players[13]]},
        format="json")
    assert late.status_code == 400 and late.json()["code"] == "bad_team"


def test_the_console_and_the_event_page_show_the_team_matches_and_the_table_of_teams(api, director, players, client):
    t_id = team_event(api(director), players)
    send(api(director), t_id, type="draw", method="manual", seeds=[1, 2, 3, 4])
    settle(t_id)
    slot = "team:r1:m1:b1"  # round 1: Team 1 v Team 4, board 1
    send(api(director), t_id, type="report_result", slot=slot, winner=players[11], score=[7, 3])
    settle(t_id)
    client.force_login(director)
    console = client.get(f"/events/{t_id}/run/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert 'data-teams="standings"' in console and "Table of teams" in console
    assert 'data-team-match="1-1"' in console and "Team 1 1–0 Team 4" in console
    assert f'data-slot="{slot}"' in console and "T1 board 1 7–3" in console
    assert "A team match is won with 2 of its 3 boards." in console
    assert "Head to head" in console and "waiting for the round before" in console
    page = client.get(f"/events/{t_id}/", HTTP_ACCEPT_LANGUAGE="fr").content.decode()
    assert "Classement des équipes" in page and "Team 1 1–0 Team 4" in page
    assert "Un match par équipes se gagne avec 2 de ses 3 tabliers." in page


def test_the_same_event_run_from_the_console_to_its_table_of_teams(director, players, client):
    from tournaments.formats.teams import board_key

    t_id = services.tournament_create(actor=director, name="Club World Championship", format="team_round_robin",
                                      settings={"boards": 3}).pk
    client.force_login(director)
    console = f"/events/{t_id}/run/"
    projections.run_all()
    assert 'id="register-team"' in client.get(console).content.decode()
    for team in (1, 2, 3, 4):
        answer = client.post(console, {"action": "register_team", "name": f"Team {team}",
                                       "players": [players[team * 10 + b] for b in (1, 2, 3)]})
        assert answer.status_code == 302
    projections.run_all()
    page = client.get(console, HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "4. Team 4: T4 board 1, T4 board 2, T4 board 3" in page
    client.post(console, {"action": "draw", "method": "rating"})  # equal ratings: the teams in registration order
    for round_no in (1, 2, 3):
        settle(t_id)
        for m, (pair, boards) in enumerate(BOARDS[round_no].items(), 1):
            for b, (winner, loser, lost_with) in enumerate(boards, 1):
                client.post(console, {"action": "report_result", "slot": board_key(round_no, m, b),
                                      "winner": players[winner], "winner_points": "7", "loser_points": str(lost_with)})
    settle(t_id)
    page = client.get(console, HTTP_ACCEPT_LANGUAGE="en").content.decode()
    rows = page.split('data-teams="standings"')[1].split("</table>")[0]
    assert [int(row.split('data-team="')[1].split('"')[0]) for row in rows.split("<tr")[2:]] == [3, 2, 1, 4]
    assert 'id="register-team"' not in page
    data = Client().get(f"/api/tournaments/{t_id}/teams/").json()
    assert [(r["rank"], r["name"], r["played"], r["won"], r["drawn"], r["lost"], r["match_points"],
             r["board_points"], r["points_for"], r["points_against"], r["head_to_head"])
            for r in data["standings"]] == TABLE
