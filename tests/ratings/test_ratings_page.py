"""The public ratings list a page at a time: every place numbered across pages, a player sent to the page they are
on (their row its target), and the page cached by the log position it shows (304 until a result changes it)."""

import random

import pytest
from django.core.cache import cache
from django.test import Client

from eventlog import projections
from players.models import Player
from ratings import pages
from tests.ratings.season import quick_match

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def small_pages(monkeypatch):
    cache.clear()
    monkeypatch.setattr(pages, "PAGE_SIZE", 2)


@pytest.fixture
def five(make_user):
    """Five rated players; the winners of longer matches rank higher: Ann, Bea, Cid, Dan, then Eve (the user)."""
    eve = make_user("eve")
    ids = [Player.objects.create(display_name=n).pk for n in ("Ann", "Bea", "Cid", "Dan")] + [eve.player.pk]
    rnd = random.Random(3)
    for winner, loser, length in ((0, 4, 11), (1, 4, 7), (2, 4, 5), (3, 4, 3)):
        quick_match(ids[winner], ids[loser], length, 0, rnd)
    projections.run_all()
    return ids, eve


def _places(html: str) -> list[str]:
    return [cell.split("</td>")[0] for cell in html.split('<tr id="player-')[1:] for cell in [cell.split("<td>", 1)[1]]]


def test_pages_number_every_place_and_a_page_past_the_end_is_not_found(five):
    ids, _ = five
    first = Client().get("/ratings/").content.decode()
    third = Client().get("/ratings/?page=3").content.decode()
    assert _places(first) == ["1", "2"] and "Page 1 of 3" in first and 'rel="next"' in first
    assert _places(third) == ["5"] and f'id="player-{ids[4]}"' in third and 'rel="next"' not in third
    for bad in ("4", "0", "two"):
        assert Client().get(f"/ratings/?page={bad}").status_code == 404


def test_a_player_is_sent_to_the_page_with_their_own_row(five):
    ids, eve = five
    client = Client()
    client.force_login(eve)
    page = client.get("/ratings/").content.decode()
    link = f'page=3#player-{ids[4]}'
    assert link in page and "Find me: place 5" in page
    assert f'id="player-{ids[4]}"' in client.get("/ratings/?club=&sort=rating&page=3").content.decode()
    assert "Find me" not in Client().get("/ratings/").content.decode()  # nobody to find


def test_a_304_while_nothing_changes_and_a_new_result_changes_the_page(five):
    ids, _ = five
    client = Client()
    first = client.get("/ratings/")
    again = client.get("/ratings/", HTTP_IF_NONE_MATCH=first["ETag"])
    assert again.status_code == 304
    quick_match(ids[4], ids[0], 11, 0, random.Random(4))  # Eve beats Ann
    projections.run_all()
    after = client.get("/ratings/", HTTP_IF_NONE_MATCH=first["ETag"])
    assert after.status_code == 200 and after["ETag"] != first["ETag"]
    def table(page):
        return page.content.decode().split("<table>")[1].split("</table>")[0]
    assert table(after) != table(first)  # Ann's rating, on the first page, is lower
