"""A match of an online round played on another server, in real browsers: Alice follows her banner's "Played on
another server?" to her match's page and sends the match file; Bob, in his own browser, sees it waiting (as the
director's console does) and consents; the slot is decided by the file's match. Headless Debian Chromium
(Playwright) against the live server; screenshots in var/screenshots/ (played-elsewhere-*.png)."""

from pathlib import Path

import pytest

from players.models import Player
from tournaments import services
from tournaments.selectors import tournament_data

from .test_accessibility import _axe
from .test_club_night_in_a_browser import shot
from .test_live_in_a_browser import browser, open_page  # noqa: F401 (fixtures)
from .test_online_play_in_a_browser import logged_in

MATCH_FILE = Path(__file__).resolve().parents[1] / "fixtures" / "gnubg" / "matches" / "match_012_3pt.mat"


@pytest.fixture
def online_cup(django_user_model):
    """A knockout of four played online, directed by Dora; round 1 pairs Alice with Bob (Alice wins the file 4-1)."""
    from tests.tournaments.test_running_events import settle

    dora = django_user_model.objects.create_user("dora", password="dora-pass-1234")
    players = {}
    for name in ("alice", "cid", "dan", "bob"):
        user = django_user_model.objects.create_user(name, password=f"{name}-pass-1234")
        players[name] = Player.objects.create(display_name=name.capitalize(), user=user)
    event = services.tournament_create(actor=dora, name="Online cup", format="single_elimination",
                                       settings={"lengths": {"main": {"default": 3}}})
    for command in ({"type": "set_round_online", "online": True},
                    *({"type": "enter", "player": p.pk} for p in players.values()),
                    {"type": "draw", "method": "manual", "seeds": [p.pk for p in players.values()]}):
        services.tournament_command(actor=dora, tournament=event, command=command)
    data = settle(event)
    ours = next(s for s in data["slots"] if set(s["players"]) == {players["alice"].pk, players["bob"].pk})
    return event, players, ours["key"]


def test_a_player_sends_the_file_of_a_match_played_elsewhere_and_the_opponent_consents(
        live_server, browser, online_cup, tmp_path):  # noqa: F811
    event, players, key = online_cup
    url = live_server.url
    alice = logged_in(browser, live_server, "alice")
    alice.goto(f"{url}/")
    alice.click("#played-elsewhere")
    alice.wait_for_selector("#proof-send")
    shot(alice, "played-elsewhere-01-alice")
    upload = tmp_path / "galaxy-alice-bob.mat"
    upload.write_text(MATCH_FILE.read_text())
    alice.set_input_files("#proof-mat", str(upload))
    alice.click("#proof-send")
    alice.wait_for_selector("#proof-waiting")
    assert "it counts once your opponent consents" in alice.inner_text("body")
    shot(alice, "played-elsewhere-02-sent")
    assert services.tournament_facts(event).proofs[key]["player"] == players["alice"].pk

    bob = logged_in(browser, live_server, "bob")
    bob.goto(f"{url}/events/{event.pk}/my-result/")
    bob.wait_for_selector("#proof-to-consent")
    assert "Alice sent the match played on another server" in bob.inner_text("#proof-to-consent")
    assert _axe(bob)["blocking"] == []  # axe-core: no critical or serious violation on the page with the file waiting
    shot(bob, "played-elsewhere-03-bob")

    dora = logged_in(browser, live_server, "dora")  # the director's console shows the file waiting in the slot
    dora.goto(f"{url}/events/{event.pk}/run/")
    dora.wait_for_selector(".proof-consent")
    assert "Alice sent the match played on another server" in dora.inner_text("#results")
    assert _axe(dora)["blocking"] == []
    bob.click("#proof-consent")
    bob.wait_for_selector("text=its match is the slot's")
    shot(bob, "played-elsewhere-04-consented")

    data = tournament_data(event)
    decided = next(s for s in data["slots"] if s["key"] == key)
    assert decided["status"] == "done" and decided["winner"] == players["alice"].pk and decided["score"] == [4, 1]
    assert alice.errors == [] and bob.errors == [] and dora.errors == []
