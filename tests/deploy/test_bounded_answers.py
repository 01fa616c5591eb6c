"""No single request makes the server build an unbounded answer, and no single client can take the API's time.

Every list and stream endpoint answers a bounded page (the next page in the Link header); the API's throttles:
tests/deploy/test_throttles.py.
"""

from __future__ import annotations

import re

import pytest

from eventlog import projections
from tournaments import services as events

pytestmark = pytest.mark.django_db


def _next(response) -> str | None:
    link = response.get("Link")
    match = re.search(r"<([^>]+)>; rel=\"next\"", link or "")
    return match.group(1) if match else None


def _all_pages(client, url: str, key=None) -> tuple[list, int]:
    items, pages = [], 0
    while url:
        response = client.get(url)
        assert response.status_code == 200, response.content[:200]
        body = response.json()
        items += body[key] if key else body
        pages += 1
        url = _next(response)
    return items, pages


@pytest.fixture
def played(make_user, api):
    """Two finished one-game matches and one unfinished, between rated players; three events.

    The first is played through the API (its stream, games and dice are what the paging tests read); the
    second, needed only for a second rated result, is appended whole as the engine judged it (as
    tests/ratings/season.py makes a season), which takes milliseconds instead of a match's worth of requests.
    """
    import random

    from tests.games.recorder import Recorder
    from tests.ratings.season import quick_match

    official = make_user("olga", official=True, player=False)
    alice, bob = make_user("alice"), make_user("bob")
    client = api(official)

    def created() -> Recorder:
        body = {"player0": alice.player.pk, "player1": bob.player.pk, "length": 1}
        return Recorder(client, client.post("/api/matches/", body, format="json").json())

    first = created()
    first.play_random(random.Random(0))
    second = quick_match(alice.player.pk, bob.player.pk, 1, 1, random.Random(1))
    unfinished = created()
    unfinished.send(type="roll")
    for name in ("One", "Two", "Three"):
        events.tournament_create(actor=official, name=name, format="round_robin")
    projections.run_all()
    return [first.id, second, unfinished.id], alice


def test_every_list_answers_a_bounded_page_and_links_the_next(settings, played, api):
    settings.API_PAGE_SIZE, settings.API_PAGE_MAX = 2, 2
    ids, alice = played
    client = api()
    for url, key, total in (("/api/matches/", None, 3), ("/api/tournaments/", None, 3), ("/api/ratings/", None, 2),
                            (f"/api/players/{alice.player.pk}/ratings/", "history", 2)):
        first = client.get(url + "?limit=1000")  # more than the maximum: the maximum
        body = first.json()
        assert len(body[key] if key else body) <= 2, url
        items, pages = _all_pages(client, url, key)
        assert len(items) == total and pages == -(-total // 2), url


def test_a_match_stream_is_read_page_by_page(settings, played, api):
    settings.API_PAGE_SIZE, settings.API_PAGE_MAX = 7, 10
    from eventlog.models import Event

    ids, _ = played
    client = api()
    events_, pages = _all_pages(client, f"/api/matches/{ids[0]}/events/")
    stored = list(Event.objects.filter(stream_id=ids[0]).order_by("version").values_list("version", flat=True))
    assert [e["version"] for e in events_] == stored and pages >= len(stored) // 7
    assert len(client.get(f"/api/matches/{ids[0]}/events/?limit=100000").json()) == 10
    assert client.get(f"/api/matches/{ids[0]}/events/?limit=x").status_code == 400


def test_games_and_dice_are_paged_too(settings, played, api):
    settings.API_PAGE_SIZE = settings.API_PAGE_MAX = 1
    ids, _ = played
    client = api()
    for read in ("games/", "dice/"):
        response = client.get(f"/api/matches/{ids[0]}/{read}")
        assert response.status_code == 200 and len(response.json()) <= 1, read
