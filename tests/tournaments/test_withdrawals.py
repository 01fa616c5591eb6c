"""A withdrawal in every format, through the services and the real database: the withdrawn player's live match
(begun or not) ends at once, forfeited to the opponent, who goes on; a player with no live match just leaves. The
standings list a withdrawn player after every player who was still in (see ``test_withdrawn_players_rank``)."""

import pytest

from games import services as matches
from games.commands import RollDice
from players.models import Player
from seasons.results import finishes_of
from tests.tournaments.test_running_events import cmd, settle, start
from tournaments import services
from tournaments.selectors import tournament_data, tournament_history

pytestmark = pytest.mark.django_db


@pytest.fixture
def director(make_user):
    return make_user("dora", player=False)


def people(*names) -> dict[str, int]:
    return {n: Player.objects.create(display_name=n).pk for n in names}


def live_slots(data: dict, player: int) -> list[dict]:
    return [s for s in data["slots"] if s["status"] == "ready" and player in s["players"]]


def report_ready(t, director, data, winner_of) -> int:
    ready = [s for s in data["slots"] if s["status"] == "ready"]
    for s in ready:
        cmd(t, director, type="report_result", slot=s["key"], winner=winner_of(s), score=[s["length"], 0])
    return len(ready)


FORMATS = {
    "single_elimination": {"lengths": {"main": {"default": 3}}},
    "double_elimination": {},
    "swiss": {"rounds": 2},
    "round_robin": {},
}


@pytest.mark.parametrize("fmt", list(FORMATS))
def test_a_withdrawal_forfeits_the_live_match_at_once_and_the_opponent_goes_on(director, fmt):
    ids = people("Ada", "Bruno", "Chloé", "Victor")
    victor = ids["Victor"]
    t = start(director, list(ids.values()), fmt=fmt, **FORMATS[fmt])
    data = settle(t)
    mine = live_slots(data, victor)
    assert mine and all(s["match_id"] for s in mine)
    begun = mine[0]  # one of them under way: the opening roll made
    matches.match_command(actor=director, stream_id=begun["match_id"], command=RollDice(),
                          expected_version=matches.match_load(begun["match_id"]).version)

    cmd(t, director, type="withdraw", player=victor, reason="ill")

    # at once, with no process manager run in between: every live match of his is over, forfeited
    for s in mine:
        record = matches.match_load(s["match_id"])
        opponent = next(p for p in s["players"] if p != victor)
        assert record.closed is not None and record.player_ids[record.winner] == opponent
    history = [line["text"] for line in tournament_history(t)]
    opponents = {next(p for p in s["players"] if p != victor) for s in mine}
    names = {v: k for k, v in ids.items()}
    for o in opponents:
        assert any(text.endswith(f"Victor forfeited to {names[o]} (score unknown)") for text in history), history
    data = settle(t)
    for s in mine:
        now = next(x for x in data["slots"] if x["key"] == s["key"])
        assert now["status"] == "done" and now["forfeit"] and now["winner"] != victor
    assert not live_slots(data, victor)

    # the event goes on without him to its end: nobody is ever asked to play Victor again
    for _ in range(12):
        if not report_ready(t, director, data, lambda s: min(s["players"])):
            break
        data = settle(t)
        assert not live_slots(data, victor)
    assert data["winner"] is not None and data["winner"] != victor
    if fmt == "swiss":
        assert victor not in {p for s in data["slots"] if s["round"] == 2 for p in s["players"]}


def test_the_opponent_of_a_withdrawn_player_advances_in_the_bracket(director):
    ids = people("Ada", "Bruno", "Chloé", "Victor")
    t = start(director, list(ids.values()), lengths={"main": {"default": 3}})
    data = settle(t)
    (slot,) = live_slots(data, ids["Victor"])
    opponent = next(p for p in slot["players"] if p != ids["Victor"])
    cmd(t, director, type="withdraw", player=ids["Victor"])
    data = settle(t)
    final = next(s for s in data["slots"] if s["key"] == "main:r2:m1")
    assert opponent in final["players"]


def test_withdrawing_a_player_with_no_live_match_only_withdraws_them(director):
    ids = people("Ada", "Bruno", "Chloé", "Victor")
    t = start(director, list(ids.values()), lengths={"main": {"default": 3}})
    data = settle(t)
    (slot,) = live_slots(data, ids["Victor"])
    opponent = next(p for p in slot["players"] if p != ids["Victor"])
    cmd(t, director, type="report_result", slot=slot["key"], winner=opponent, score=[3, 0])
    settle(t)

    events = cmd(t, director, type="withdraw", player=ids["Victor"], reason="went home")

    assert [e.event_type for e in events] == ["PlayerWithdrew"]
    data = settle(t)
    assert ids["Victor"] in data["withdrawn"]
    assert next(s for s in data["slots"] if s["key"] == slot["key"])["forfeit"] is False


def test_a_withdrawal_through_the_api_closes_the_live_match(director, api):
    ids = people("Ada", "Bruno", "Chloé", "Victor")
    t = start(director, list(ids.values()), fmt="swiss", rounds=2)
    data = settle(t)
    (slot,) = live_slots(data, ids["Victor"])
    client = api(director)
    answer = client.post(f"/api/tournaments/{t.pk}/commands/", {"type": "withdraw", "player": ids["Victor"]},
                         format="json")
    assert answer.status_code == 200, answer.content
    assert [e["type"] for e in answer.json()["appended"]] == ["PlayerWithdrew", "MatchForfeited"]
    assert matches.match_load(slot["match_id"]).closed is not None
    settle(t)
    shown = next(s for s in client.get(f"/api/tournaments/{t.pk}/").json()["slots"] if s["key"] == slot["key"])
    assert shown["status"] == "done" and shown["forfeit"] and shown["winner"] != ids["Victor"]
