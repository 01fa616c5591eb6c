"""A player's page: every link opens, each rated match names its opponent, date and event."""

import re

import pytest
from django.test import Client
from django.utils import timezone

from games.loading import match_load
from players.models import Player
from tests.tournaments.test_running_events import cmd, play_to_end, settle, start

pytestmark = pytest.mark.django_db
ENGLISH_MONTHS = ["Jan.", "Feb.", "March", "April", "May", "June", "July", "Aug.", "Sept.", "Oct.", "Nov.", "Dec."]


def test_every_link_of_a_player_page_opens_after_paper_results_and_corrections(make_user):
    director = make_user("dora", player=False)
    names = ["Ann", "Bob", "Cid", "Dan", "Eve", "Fay", "Gus", "Hal"]
    players = [Player.objects.create(display_name=n).pk for n in names]
    t = start(director, players, consolation=True, lengths={"main": {"default": 3}, "consolation": {"default": 3}})
    from tournaments.models import Tournament

    Tournament.objects.filter(pk=t.pk).update(published=True)
    data = settle(t)
    first = [s for s in data["slots"] if s["bracket"] == "main" and s["round"] == 1]
    play_to_end(director, first[0]["match_id"], winner_seat=0)
    for s in first[1:]:
        cmd(t, director, type="report_result", slot=s["key"], winner=s["players"][0], score=[3, 1])
    settle(t)
    cmd(t, director, type="correct_result", slot=first[1]["key"], winner=first[1]["players"][1], score=[3, 2],
        reason="scoresheet")
    cmd(t, director, type="correct_result", slot=first[0]["key"], winner=first[0]["players"][1], score=[3, 0],
        reason="wrong winner")
    cmd(t, director, type="void_match", slot=first[0]["key"], reason="wrong dice")
    settle(t)
    browser = Client()
    for pid in players:
        page = browser.get(f"/players/{pid}/").content.decode()
        assert page.count("<h2>Rated matches</h2>") == 1 and 'id="rating"' in page
        rows = page.split("<h2>Rated matches</h2>")[1]
        links = re.findall(r'href="(/[^"]+)"', rows)
        assert links, "a rated match that links nowhere"
        for link in links:
            assert browser.get(link).status_code == 200, link
        assert "Club night" in rows  # the event, not a match id
        assert not re.search(r">[0-9a-f]{9,}", rows)
        opponents = {names[i] for i, p in enumerate(players) if p != pid}
        assert any(o in rows for o in opponents)
        today = timezone.localdate()  # the date of each match, its month as English abbreviates it ("Nov.", "June")
        assert f"{today.day} {ENGLISH_MONTHS[today.month - 1]} {today.year}" in rows
    # the corrected-then-voided slot: its match is voided, so the row links to the event instead
    loser_page = browser.get(f"/players/{first[0]['players'][0]}/").content.decode()
    assert f"/matches/{first[0]['match_id']}/" not in loser_page.split("<h2>Rated matches</h2>")[1]
    assert match_load(first[0]["match_id"]).voided
