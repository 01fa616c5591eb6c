"""A long match costs a visitor one game's worth: the viewer loads a game at a time, imports are capped."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from eventlog import projections
from eventlog.models import Event
from games import limits

pytestmark = pytest.mark.django_db

MATCHES = Path(__file__).resolve().parents[1] / "fixtures" / "gnubg" / "matches"
ELEVEN = MATCHES / "match_005_11pt.mat"


def _frames(page) -> list[dict]:
    return json.loads(re.search(rb'<script id="frames" type="application/json">(.*?)</script>', page.content,
                                re.S).group(1))


@pytest.fixture
def long_match(api, make_user):
    client = api(make_user("olga", official=True, player=False))
    created = client.post("/api/matches/import/", {"text": ELEVEN.read_text()}, format="json")
    assert created.status_code == 201, created.json()
    projections.run_all()
    return created.json()


def test_the_viewer_shows_one_game_at_a_time(client, long_match):
    match_id, games = long_match["id"], long_match["game"]
    assert games >= 3
    last = client.get(f"/matches/{match_id}/")
    assert last.status_code == 200
    assert {f["game"] for f in _frames(last)} == {games}  # the last game by default, and only it
    second = client.get(f"/matches/{match_id}/?game=2")
    frames = _frames(second)
    assert {f["game"] for f in frames} == {2}
    won = [f for f in frames if " wins " in f["text"]]
    assert won, "the game's end is in its page"
    first = _frames(client.get(f"/matches/{match_id}/?game=1"))
    assert first[0]["text"] == "11-point match"  # the match's start belongs to game 1
    # every event of the stream is on exactly one game's page (a roll in the step of the play it was played with)
    every = sorted(v for g in range(1, games + 1) for f in _frames(client.get(f"/matches/{match_id}/?game={g}"))
                   for v in (f["version"], f.get("roll_version")) if v is not None)
    engine = list(Event.objects.filter(stream_id=match_id).exclude(
        event_type__in=("MatchRegistered",)).order_by("version").values_list("version", flat=True))
    assert every == engine
    assert b'href="?game=1"' in second.content and b'href="?game=3"' in second.content
    assert client.get(f"/matches/{match_id}/?game=x").status_code == 200  # nonsense: the last game
    # ?at=<version> opens the game holding that event (the analysis's list of plays links so)
    inside = frames[len(frames) // 2]["version"]
    opened = client.get(f"/matches/{match_id}/?at={inside}")
    assert {f["game"] for f in _frames(opened)} == {2} and f'>{inside}</script>'.encode() in opened.content


def test_an_import_with_more_games_than_the_cap_is_refused_before_it_is_read(api, make_user):
    client = api(make_user("olga", official=True, player=False))
    text = ELEVEN.read_text()
    head, first_game = text.split(" Game 1", 1)[0], " Game 1" + text.split(" Game 1", 1)[1].split(" Game 2")[0]
    many = head + "".join(first_game.replace(" Game 1", f" Game {n}", 1) for n in range(1, limits.MAX_IMPORT_GAMES + 2))
    before = Event.objects.count()
    refused = client.post("/api/matches/import/", {"text": many}, format="json")
    assert refused.status_code == 400 and f"at most {limits.MAX_IMPORT_GAMES} games" in refused.json()["detail"]
    assert Event.objects.count() == before


def test_an_import_with_more_actions_than_the_cap_is_refused(api, make_user, monkeypatch):
    monkeypatch.setattr(limits, "MAX_IMPORT_EVENTS", 50)
    client = api(make_user("olga", official=True, player=False))
    before = Event.objects.count()
    refused = client.post("/api/matches/import/", {"text": ELEVEN.read_text()}, format="json")
    assert refused.status_code == 400 and "at most 50 actions" in refused.json()["detail"]
    assert Event.objects.count() == before


def test_the_export_primed_at_import_is_the_file_the_stream_gives(client, long_match):
    from eventlog import store
    from games.loading import match_load
    from games.mat_io import match_export_mat

    match_id = long_match["id"]
    served = client.get(f"/api/matches/{match_id}/export.mat").content.decode()
    record = match_load(match_id)
    assert served == match_export_mat(record, store.read_stream(match_id))
