"""A team's line-up set from the director's console: the form lists each team's members by board, the reserve
comes in for board 3 of round 1, the boards follow; a line-up out of the fixed order is refused and changes
nothing."""

import pytest

from eventlog import projections
from players.models import Player
from tests.tournaments.test_team_events import settle
from tournaments import services

pytestmark = pytest.mark.django_db


def test_a_line_up_set_from_the_console_puts_the_reserve_on_its_board(make_user, client):
    director = make_user("dora", official=True, player=False)
    home = [Player.objects.create(display_name=f"Home {b}").pk for b in (1, 2, 3)]
    away = [Player.objects.create(display_name=f"Away {b}").pk for b in (1, 2, 3)]
    reserve = Player.objects.create(display_name="Home reserve").pk
    t_id = services.tournament_create(actor=director, name="Team cup", format="team_knockout",
                                      settings={"boards": 3, "reserves": 1}).pk
    client.force_login(director)
    console = f"/events/{t_id}/run/"
    projections.run_all()
    client.post(console, {"action": "register_team", "name": "Home", "players": home, "reserves": [reserve]})
    client.post(console, {"action": "register_team", "name": "Away", "players": away})
    client.post(console, {"action": "draw", "method": "rating"})
    settle(t_id)
    page = client.get(console, HTTP_ACCEPT_LANGUAGE="en").content.decode()
    form = page.split('id="set-lineup"')[1].split("</form>")[0]
    assert f'<option value="{reserve}">Home reserve (reserve)</option>' in form and form.count('name="players"') == 3
    # out of the fixed board order: refused, nothing changes
    client.post(console, {"action": "set_lineup", "team": "1", "round": "1", "players": [home[1], home[0], reserve]})
    settle(t_id)
    boards = client.get(f"/api/tournaments/{t_id}/teams/").json()["rounds"][0]["matches"][0]["boards"]
    assert [b["players"][0] for b in boards] == home
    client.post(console, {"action": "set_lineup", "team": "1", "round": "1", "players": [home[0], home[1], reserve]})
    settle(t_id)
    boards = client.get(f"/api/tournaments/{t_id}/teams/").json()["rounds"][0]["matches"][0]["boards"]
    assert [b["players"] for b in boards] == [[home[0], away[0]], [home[1], away[1]], [reserve, away[2]]]
