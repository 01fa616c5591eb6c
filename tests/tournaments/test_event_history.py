"""The event page shows the latest decisions of its history, read from the stream's tail; the whole history has a
page of its own, in the order it was decided."""

import pytest
from django.test import Client

from players.models import Player
from tests.tournaments.test_running_events import cmd, settle, start
from tournaments import selectors

pytestmark = pytest.mark.django_db


def _history(html: str) -> list[str]:
    part = html[html.index('class="history"'):]
    part = part[:part.index("</ol>") if "</ol>" in part else part.index("</ul>")]
    lines = [line.split("</li>")[0].split(" — <em>")[0] for line in part.split("<li>")[1:]]
    return [line.split("</span> · ", 1)[1].strip() for line in lines]


@pytest.fixture
def played(make_user):
    """A 4-player knockout played to its end: two semi-finals and a final reported by the director, a semi-final
    corrected between them."""
    director = make_user("dora", player=False)
    players = [Player.objects.create(display_name=f"Seed {i}").pk for i in range(1, 5)]
    t = start(director, players)
    data = settle(t)
    semis = [s for s in data["slots"] if s["round"] == 1]
    for s in semis:
        cmd(t, director, type="report_result", slot=s["key"], winner=s["players"][0], score=[s["length"], 0])
    cmd(t, director, type="correct_result", slot=semis[0]["key"], winner=semis[0]["players"][0],
        score=[semis[0]["length"], 1], reason="typo")
    data = settle(t)
    final = next(s for s in data["slots"] if s["round"] == 2)
    cmd(t, director, type="report_result", slot=final["key"], winner=final["players"][1], score=[final["length"], 2])
    settle(t)
    return t


def test_the_latest_lines_are_the_end_of_the_whole_history(played):
    whole = selectors.tournament_history(played)
    assert len(whole) == 4
    for count in (1, 3, 4, 10):
        lines, more = selectors.latest_history(played, count)
        assert lines == whole[-count:] and more == (count < 4)


def test_the_page_shows_the_latest_and_links_the_whole_history(played, monkeypatch):
    from django.core.cache import cache

    monkeypatch.setattr(selectors, "HISTORY_ON_PAGE", 2)
    cache.clear()  # the page the projection built with the count of lines it had then
    whole = [line["text"] for line in selectors.tournament_history(played)]
    page = Client().get(f"/events/{played.pk}/").content.decode()
    assert _history(page) == whole[::-1][:2]  # newest first
    assert f'href="/events/{played.pk}/history/"' in page

    reader = Client()
    history = reader.get(f"/events/{played.pk}/history/")
    assert history.status_code == 200 and history["ETag"]
    assert _history(history.content.decode()) == whole[::-1]
    assert "corrected" in whole[2] and "typo" in history.content.decode()
    again = reader.get(f"/events/{played.pk}/history/", HTTP_IF_NONE_MATCH=history["ETag"])
    assert again.status_code == 304


def test_the_history_page_speaks_french_and_hides_a_hidden_event(played, monkeypatch):
    monkeypatch.setattr(selectors, "HISTORY_ON_PAGE", 2)
    page = Client(HTTP_ACCEPT_LANGUAGE="fr").get(f"/events/{played.pk}/").content.decode()
    assert "Tout l’historique" in page and "Les 2 dernières décisions." in page
    assert "Retour au tournoi" in Client(HTTP_ACCEPT_LANGUAGE="fr").get(f"/events/{played.pk}/history/").content.decode()

    played.published = False
    played.save(update_fields=["published"])
    assert Client().get(f"/events/{played.pk}/history/").status_code == 404
