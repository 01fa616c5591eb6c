"""The match viewer's heading gives the match's result when it was decided off the board: a result reported on
paper ("Dimitri won 3–1 (reported on paper)", not the board's 0–0), a director's correction, a forfeit; stepping
through the moves changes the board's score beside the board, never the heading.

Headless Debian Chromium driven by Playwright against the live server; the projections and the process manager run
in-process. Screenshots go to var/screenshots/ (viewer-*.png)."""

import pytest

from games.command_handler import match_command
from games.commands import RollDice
from games.loading import match_load
from players.models import Player
from tests.tournaments.test_running_events import cmd, play_to_end, settle
from tournaments import services
from tournaments.models import Tournament

from .test_club_night_in_a_browser import browser_page, shot  # noqa: F401 - the fixture

NAMES = ["Ada", "Bruno", "Chloé", "Dimitri", "Eva", "Farid", "Greta", "Hugo"]


@pytest.mark.django_db(transaction=True)
def test_the_viewer_heads_a_match_decided_off_the_board_with_its_result(live_server, browser_page, make_user):
    page, url = browser_page, live_server.url
    director = make_user("dora", player=False)
    ids = [Player.objects.create(display_name=n).pk for n in NAMES]
    t = services.tournament_create(actor=director, name="Club night", format="single_elimination",
                                   settings={"lengths": {"main": {"default": 3}}, "dice": "board"})
    Tournament.objects.filter(pk=t.pk).update(published=True)
    for p in ids:
        cmd(t, director, type="enter", player=p)
    cmd(t, director, type="draw", method="manual", seeds=ids)
    data = settle(t)
    first = {s["key"]: s for s in data["slots"] if s["round"] == 1}
    paper, corrected, forfeit = (first[f"main:r1:m{i}"] for i in (1, 2, 3))
    names = dict(zip(ids, NAMES, strict=True))

    # the paper one was begun at the board (its opening roll entered), then reported on paper, 3-1 to the second
    record = match_load(paper["match_id"])
    match_command(actor=director, stream_id=paper["match_id"], command=RollDice(dice=(3, 1)),
                  expected_version=record.version)
    cmd(t, director, type="report_result", slot=paper["key"], winner=paper["players"][1], score=[3, 1])
    # the corrected one was played to its end at the board (its first player won), then corrected by the director
    play_to_end(director, corrected["match_id"], winner_seat=0)
    settle(t)
    cmd(t, director, type="correct_result", slot=corrected["key"], winner=corrected["players"][1], score=[3, 2],
        reason="scoresheet signed by both")
    cmd(t, director, type="withdraw", player=forfeit["players"][1], reason="ill")  # the other side wins by forfeit
    settle(t)

    seat = match_load(paper["match_id"]).player_ids.index(paper["players"][1])
    page.goto(f"{url}/matches/{paper['match_id']}/")
    page.wait_for_selector("#board .point")
    assert page.inner_text("#match-result") == f"{names[paper['players'][1]]} won 3–1 (reported on paper)"
    heading = page.inner_text("#score")
    assert heading == ("1–3" if seat == 1 else "3–1")
    assert page.inner_text("#frame-score") == "0–0"  # the board had only its opening roll
    page.click("#first")
    assert page.inner_text("#score") == heading  # stepping moves the board, not the heading
    shot(page, "viewer-paper-result")

    page.goto(f"{url}/matches/{corrected['match_id']}/")
    page.wait_for_selector("#board .point")
    winner = names[corrected["players"][1]]
    said = f"{winner} won 3–2 (result set by the director: scoresheet signed by both)"
    assert page.inner_text("#match-result") == said
    seat = match_load(corrected["match_id"]).player_ids.index(corrected["players"][1])
    assert page.inner_text("#score") == ("2–3" if seat == 1 else "3–2")
    board = page.inner_text("#frame-score")  # the board's own end: its first player's win
    assert board != page.inner_text("#score") and board.split("–")[seat] == "0"
    shot(page, "viewer-corrected-result")

    page.goto(f"{url}/matches/{forfeit['match_id']}/")
    page.wait_for_selector("#board")
    assert page.inner_text("#match-result") == f"{names[forfeit['players'][0]]} won by forfeit"
    assert page.inner_text("#score") == "–"
    assert not page.console_errors, page.console_errors
