"""A Swiss of teams records each round's pairing when it pairs it: a director's correction of a round-1 board after
round 2 was paired (and a board of it played) re-derives the table of teams, and round 3 is paired from it, while
round 2's team matches and the result played in it stand. Run through the API with the process manager's advance."""

import pytest

from eventlog.models import Event
from players.models import Player
from tournaments.stream import stream_id_of
from tests.tournaments.test_team_events import send, settle

pytestmark = pytest.mark.django_db

# each team match (first-listed team, other) and the team winning each board, board 1 first (7-0), as worked by
# hand in tests/tournaments/formats/test_team_swiss.py
ROUND_1 = {(1, 3): (1, 1, 3), (2, 4): (4, 4, 4), (5, None): ()}
ROUND_2 = {(4, 1): (1, 4, 1), (5, 3): (5, 5, 5), (2, None): ()}


@pytest.fixture
def director(make_user):
    return make_user("dora", official=True, player=False)


def paired_rounds(t_id: int) -> list[tuple[int, list]]:
    rows = Event.objects.filter(stream_id=stream_id_of(t_id), event_type="TeamRoundPaired").order_by("version")
    return [(r.payload["round"], r.payload["pairings"]) for r in rows]


def current(client, t_id: int) -> dict:
    return client.get(f"/api/tournaments/{t_id}/teams/").json()


def play(client, t_id: int, match: dict, teams: tuple[int, ...], who: dict, boards=None) -> None:
    for board, team in list(zip(match["boards"], teams, strict=True))[:boards]:
        winner = next(p for p in board["players"] if who[p] // 10 == team)
        send(client, t_id, type="report_result", slot=board["slot"], winner=winner, score=[7, 0])


def test_a_correction_after_round_two_is_paired_never_pairs_it_again(api, director):
    client = api(director)
    players = {t * 10 + b: Player.objects.create(display_name=f"T{t} board {b}").pk for t in range(1, 6)
               for b in (1, 2, 3)}
    who = {pk: tb for tb, pk in players.items()}
    answer = client.post("/api/tournaments/", {"name": "Team Swiss", "format": "team_swiss",
                                               "settings": {"boards": 3, "rounds": 3}}, format="json")
    t_id = answer.json()["id"]
    for team in range(1, 6):
        send(client, t_id, type="register_team", name=f"Team {team}",
             players=[players[team * 10 + b] for b in (1, 2, 3)])
    send(client, t_id, type="draw", method="manual", seeds=[1, 2, 3, 4, 5])
    assert paired_rounds(t_id) == [(1, [[1, 3], [2, 4], [5, None]])]  # round 1 paired with the draw
    settle(t_id)
    for match in current(client, t_id)["rounds"][0]["matches"]:
        play(client, t_id, match, ROUND_1[tuple(match["teams"])], who)
    settle(t_id)
    assert paired_rounds(t_id)[1] == (2, [[4, 1], [5, 3], [2, None]])
    round_2 = current(client, t_id)["rounds"][1]["matches"]
    first = round_2[0]  # 4 v 1: board 1 played, won by team 1
    play(client, t_id, first, ROUND_2[(4, 1)], who, boards=1)
    settle(t_id)
    played = current(client, t_id)["rounds"][1]["matches"][0]["boards"][0]
    assert played["status"] == "done" and who[played["winner"]] // 10 == 1

    # the director corrects board 2 of round 1's 1 v 3: team 3 won it, and with it that team match
    board = current(client, t_id)["rounds"][0]["matches"][0]["boards"][1]
    loser = next(p for p in board["players"] if who[p] // 10 == 1)
    winner = next(p for p in board["players"] if who[p] // 10 == 3)
    assert board["winner"] == loser
    send(client, t_id, type="correct_result", slot=board["slot"], winner=winner, score=[7, 3],
         reason="scoresheet misread")
    settle(t_id)
    data = current(client, t_id)
    assert [tuple(m["teams"]) for m in data["rounds"][1]["matches"]] == [(4, 1), (5, 3), (2, None)]  # as paired
    after = data["rounds"][1]["matches"][0]["boards"][0]
    assert (after["slot"], after["winner"], after["match_id"]) == (played["slot"], played["winner"],
                                                                    played["match_id"])
    assert all(b["match_id"] for m in data["rounds"][1]["matches"] for b in m["boards"])  # nothing replaced
    assert len(paired_rounds(t_id)) == 2 and len(data["rounds"]) == 2
    # the table re-derived: 3 beat 1 in round 1. On 2 match points 4 (3 boards), 3 (2), 5 (its bye, no board); on 0
    # 1 (a board in each round) and 2 (round 2's bye counts once its round is played out)
    assert [(r["name"], r["match_points"], r["board_points"]) for r in data["standings"]] == [
        ("Team 4", 2, 3), ("Team 3", 2, 2), ("Team 5", 2, 0), ("Team 1", 0, 2), ("Team 2", 0, 0)]

    # the rest of round 2; round 3 is paired from the corrected table (as worked by hand in the pure test)
    for match in data["rounds"][1]["matches"]:
        teams = ROUND_2[tuple(match["teams"])]
        for board, team in zip(match["boards"], teams, strict=True):
            if board["status"] != "done":
                winner = next(p for p in board["players"] if who[p] // 10 == team)
                send(client, t_id, type="report_result", slot=board["slot"], winner=winner, score=[7, 0])
    settle(t_id)
    data = current(client, t_id)
    assert paired_rounds(t_id)[2] == (3, [[5, 4], [1, 2], [3, None]])
    assert [tuple(m["teams"]) for m in data["rounds"][2]["matches"]] == [(5, 4), (1, 2), (3, None)]
    assert [(r["name"], r["match_points"], r["board_points"]) for r in data["standings"]] == [
        ("Team 5", 4, 3), ("Team 4", 2, 4), ("Team 1", 2, 3), ("Team 3", 2, 2), ("Team 2", 2, 0)]
