"""A result reported on paper, a forfeit, a correction or a void ends the slot's match: no command is taken
any more (with the reason), and the pages show the result."""

import pytest
from django.test import Client

from players.models import Player
from tests.tournaments.test_running_events import cmd, settle, slot, start

pytestmark = pytest.mark.django_db


@pytest.fixture
def director(make_user):
    return make_user("dora", player=False)


def test_a_paper_result_and_a_forfeit_close_their_matches_on_the_api_and_the_pages(director, api):
    names = ["Ann", "Bob", "Cid", "Dan"]
    players = [Player.objects.create(display_name=n).pk for n in names]
    t = start(director, players, lengths={"main": {"default": 5}})
    data = settle(t)
    paper, forfeit = slot(data, "main:r1:m1"), slot(data, "main:r1:m2")
    cmd(t, director, type="report_result", slot=paper["key"], winner=paper["players"][1], score=[5, 2])
    cmd(t, director, type="forfeit", slot=forfeit["key"], winner=forfeit["players"][0], reason="no-show")
    settle(t)
    # (the API says why it takes no command; the viewer's heading says who won and how)
    for s, because, shown in ((paper, "reported on paper", "reported on paper"),
                              (forfeit, "forfeited", "won by forfeit")):
        state = api().get(f"/api/matches/{s['match_id']}/").json()
        assert state["finished"] and because in state["over_because"]
        answer = api(director).post(f"/api/matches/{s['match_id']}/commands/",
                                    {"type": "roll", "expected_version": state["version"]}, format="json")
        assert answer.status_code == 400 and because in answer.json()["detail"]
        viewer = Client().get(f"/matches/{s['match_id']}/").content.decode()
        assert "Record at the board" not in viewer and shown in viewer
    name = dict(zip(players, names))
    french = api().get(f"/api/matches/{forfeit['match_id']}/", HTTP_ACCEPT_LANGUAGE="fr").json()["over_because"]
    assert french == (f"ce match est terminé : {name[forfeit['players'][1]]} a déclaré forfait : "
                      f"{name[forfeit['players'][0]]} gagne")
    staff = Client()
    staff.force_login(director)
    viewer = staff.get(f"/matches/{paper['match_id']}/").content.decode()
    assert "Record at the board" not in viewer and "won 5–2 (reported on paper)" in viewer
    home = Client().get("/").content.decode()
    rows = {s["key"]: next(r for r in home.split("<tr>") if s["match_id"] in r) for s in (paper, forfeit)}
    assert "game 0" not in rows[paper["key"]] and "game 0" not in rows[forfeit["key"]]
    assert "result reported on paper" in rows[paper["key"]] and "2–5" in rows[paper["key"]]  # the winner sat second
    assert "Dan forfeited" in rows[forfeit["key"]] or "Cid forfeited" in rows[forfeit["key"]]
