"""The event page's brackets as a new user reads them: the event's own bracket first,
and a match at the board shows its score so far, not only "live"."""

import pytest
from django.test import Client

from games.command_handler import match_command
from games.commands import RollDice
from games.engine import commands as match_commands
from games.loading import match_load
from players.models import Player
from tests.tournaments.test_running_events import cmd, settle, start

pytestmark = pytest.mark.django_db


@pytest.fixture
def director(make_user):
    return make_user("dora", player=False)


def one_game_by_backgammon(director, match_id: str, winner_seat: int) -> None:
    """A real game on the match's stream: the loser resigns a backgammon (3 points) after the opening roll."""
    for command in (RollDice(dice=None), match_commands.Resign(1 - winner_seat, "backgammon"),
                    match_commands.AcceptResignation(winner_seat)):
        record = match_load(match_id)
        match_command(actor=director, stream_id=match_id, command=command, expected_version=record.version)


def test_main_comes_before_consolation_and_last_chance_and_a_live_match_shows_its_score(director):
    players = [Player.objects.create(display_name=f"Seed {i}").pk for i in range(1, 9)]
    t = start(director, players, consolation=True, last_chance=True,
              lengths={"main": {"default": 5}, "consolation": {"default": 3}, "last_chance": {"default": 3}})
    data = settle(t)
    first = sorted((s for s in data["slots"] if s["bracket"] == "main" and s["round"] == 1), key=lambda s: s["index"])
    for s in first[1:]:  # three on paper: the losers go on to the Consolation
        cmd(t, director, type="report_result", slot=s["key"], winner=s["players"][0], score=[s["length"], 0])
    one_game_by_backgammon(director, first[0]["match_id"], winner_seat=0)
    data = settle(t)
    assert {s["bracket"] for s in data["slots"]} >= {"main", "consolation"}
    page = Client().get(f"/events/{t.pk}/?partial=1").content.decode()
    main, consolation = page.index('data-bracket="main"'), page.index('data-bracket="consolation"')
    assert main < consolation
    if 'data-bracket="last_chance"' in page:
        assert consolation < page.index('data-bracket="last_chance"')
    # the Main's rounds halve (4, 2, 1): drawn with connector lines, its matches in pairs joined to the next round
    main_html = page[main:consolation]
    assert 'class="bracket joined"' in page[main - 40:main] and main_html.count('class="pair"') == 2 + 1 + 1
    live = page[page.index(f'data-slot="{first[0]["key"]}"'):]
    live = live[:live.index("</a>")]
    assert "live · 5 pts" in live
    scores = [cell.split("</span>")[0] for cell in live.split("</span>\n          <span>")[1:]]
    assert sorted(scores) == ["0", "3"], live


def test_a_leagues_page_counts_in_the_singular_and_the_plural_in_english_and_french(director):
    """One player up, two down, a round a day, one-point matches: said as a person says them, in both languages."""
    from tests.tournaments.test_ladders_and_leagues import field
    from tests.tournaments.test_ladders_and_leagues import start as start_league

    t = start_league(director, field(6, "L"), "league", division_size=6, round_days=1, promote=1, relegate=2,
                     lengths={"rounds": {"default": 1}})
    settle(t)
    english = Client(HTTP_ACCEPT_LANGUAGE="en").get(f"/events/{t.pk}/").content.decode()
    assert "A round every day." in english and "Next season the top player of each division goes up." in english
    assert "The bottom 2 of each division go down." in english and "live · 1 pt<" in english
    french = Client(HTTP_ACCEPT_LANGUAGE="fr").get(f"/events/{t.pk}/").content.decode()
    assert "Une ronde chaque jour." in french and "le premier de chaque division monte." in french
    assert "Les 2 derniers de chaque division descendent." in french and "en direct · 1 pt<" in french
    assert "Ronde 1 (3 à jouer) :" in french
