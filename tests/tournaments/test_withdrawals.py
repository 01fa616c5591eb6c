"""A withdrawal in every format, through the services and the real database: the withdrawn player's live match
(begun or not) ends at once, forfeited to the opponent, who goes on; a player with no live match just leaves. The
standings list a withdrawn player after every player who was still in (see ``test_withdrawn_players_rank``)."""

import re
from html import unescape

import pytest
from django.test import Client

from games.command_handler import match_command
from games.commands import RollDice
from games.loading import match_load
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
    match_command(actor=director, stream_id=begun["match_id"], command=RollDice(),
                          expected_version=match_load(begun["match_id"]).version)

    cmd(t, director, type="withdraw", player=victor, reason="ill")

    # at once, with no process manager run in between: every live match of his is over, forfeited
    for s in mine:
        record = match_load(s["match_id"])
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
    assert match_load(slot["match_id"]).closed is not None
    settle(t)
    shown = next(s for s in client.get(f"/api/tournaments/{t.pk}/").json()["slots"] if s["key"] == slot["key"])
    assert shown["status"] == "done" and shown["forfeit"] and shown["winner"] != ids["Victor"]


# -- standings: a withdrawn player ranks after every player still in ---------------------------------------------


def play_out(t, director, winner_of) -> dict:
    data = settle(t)
    for _ in range(12):
        if not report_ready(t, director, data, winner_of):
            return data
        data = settle(t)
    raise AssertionError("the event did not end")


def standings_shown(t) -> list[str]:
    """The event page's standings, the player's cell of each row in order, as a visitor reads it."""
    html = Client().get(f"/events/{t.pk}/?partial=1").content.decode()
    rows = []
    for table in re.findall(r'<table class="standings".*?<tbody>(.*?)</tbody>', html, re.S):
        for row in re.findall(r"<tr[^>]*>(.*?)</tr>", table, re.S):
            cell = re.findall(r"<td>(.*?)</td>", row, re.S)[1]
            rows.append(" ".join(unescape(re.sub(r"<[^>]+>", " ", cell)).split()))
    return rows


def test_withdrawn_players_rank_after_every_player_still_in_a_round_robin(director, api):
    """Victor won his first match and left: the remaining two were forfeited to his opponents. Dan, who played
    every match out and won none, still ranks above him."""
    ids = people("Victor", "Bruno", "Chloé", "Dan")
    victor = ids["Victor"]
    t = start(director, list(ids.values()), fmt="round_robin")
    data = settle(t)
    first = next(s for s in live_slots(data, victor) if s["round"] == 1)
    cmd(t, director, type="report_result", slot=first["key"], winner=victor, score=[first["length"], 0])
    cmd(t, director, type="withdraw", player=victor)
    data = play_out(t, director, lambda s: min(s["players"]))

    rows = api(director).get(f"/api/tournaments/{t.pk}/").json()["standings"]
    score = {r["player_id"]: r["score"] for r in rows}
    assert min(score[p] for p in ids.values() if p != victor) < score[victor]  # he would rank above someone
    assert [r["player_id"] for r in rows][-1] == victor
    assert rows[-1]["withdrawn"] and rows[-1]["rank"] == 4
    assert [r["player_id"] for r in data["standings"]][-1] == victor
    assert standings_shown(t)[-1].startswith("Victor (withdrew)")
    assert data["winner"] != victor
    # the rule is said under the table, and on the rules page it links to
    page = Client().get(f"/events/{t.pk}/?partial=1").content.decode()
    assert "A player who withdrew is listed after every player still in." in page
    assert 'href="/events/rules/#withdrawals"' in page
    rules = Client().get("/events/rules/").content.decode()
    assert 'id="withdrawals"' in rules and "listed after every player still in" in rules


def test_withdrawn_players_rank_after_every_player_still_in_a_swiss_and_in_the_season(director):
    """Victor won his first two rounds and withdrew during the third (that match forfeited): players who played
    all three rounds on fewer points still rank above him, on the page, in the API and in the season's places."""
    ids = people("Victor", "Ada", "Bruno", "Chloé", "Dan", "Eva")
    victor = ids["Victor"]
    t = start(director, list(ids.values()), fmt="swiss", rounds=3)
    data = settle(t)
    for _ in range(2):
        report_ready(t, director, data, lambda s: victor if victor in s["players"] else min(s["players"]))
        data = settle(t)
    assert live_slots(data, victor)
    cmd(t, director, type="withdraw", player=victor, reason="ill")  # his round-3 match forfeited
    data = play_out(t, director, lambda s: max(s["players"]))

    score = {r["player_id"]: r["score"] for r in data["standings"]}
    assert min(score[p] for p in ids.values() if p != victor) < score[victor] == 2
    last = data["standings"][-1]
    assert (last["player_id"], last["rank"], last["withdrawn"]) == (victor, 6, True)
    assert standings_shown(t)[-1].startswith("Victor (withdrew)")
    finished, _rated, _published, field, places = finishes_of(t.pk)
    assert finished and field == 6
    assert {f["player"]: f["place"] for f in places}[victor] == 6


def test_a_withdrawn_semi_finalist_ranks_after_the_one_who_played_the_semi_final(director):
    """Victor, seed 1, won his quarter-final and withdrew before his semi-final: both semi-finalists out in that
    round, the one who played it ranks above him (and both above the quarter-final losers)."""
    ids = people("Victor", "Ada", "Bruno", "Chloé", "Dan", "Eva", "Farid", "Greta")
    victor = ids["Victor"]
    t = start(director, list(ids.values()), lengths={"main": {"default": 3}})
    data = settle(t)
    report_ready(t, director, data, lambda s: min(s["players"]))  # the better seed wins every quarter-final
    data = settle(t)
    assert live_slots(data, victor)
    cmd(t, director, type="withdraw", player=victor)
    data = play_out(t, director, lambda s: min(s["players"]))

    main = [r for r in data["standings"] if r["flight"] == "main"]
    semi_losers = [r["player_id"] for r in main[2:4]]
    assert semi_losers[1] == victor and main[3]["withdrawn"] and not main[2]["withdrawn"]
    assert main[2]["wins"] == main[3]["wins"] == 1  # as far, as many wins: only the withdrawal tells them apart
    assert standings_shown(t)[3].startswith("Victor (withdrew)")
