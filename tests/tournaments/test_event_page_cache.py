"""The public event page is cached by the log position it shows: a client's copy is answered 304 while nothing
changes, the page changes the moment a result is in the log, and no viewer or language is ever served another's."""

import pytest
from django.test import Client
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from eventlog import cached_pages
from players.models import Player
from tests.tournaments.test_running_events import settle, start
from tournaments import event_page

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def empty_cache():
    from django.core.cache import cache

    cache.clear()


@pytest.fixture
def director(make_user):
    return make_user("dora", player=False)


@pytest.fixture
def event(director):
    players = [Player.objects.create(display_name=f"Seed {i}").pk for i in range(1, 5)]
    t = start(director, players)
    return t, settle(t)


def _report_through_the_api(director, t, slot):
    api = APIClient()
    api.credentials(HTTP_AUTHORIZATION=f"Token {Token.objects.get_or_create(user=director)[0].key}")
    answer = api.post(f"/api/tournaments/{t.pk}/commands/", {"type": "report_result", "slot": slot["key"],
                      "winner": slot["players"][0], "score": [slot["length"], 0]}, format="json")
    assert answer.status_code == 200, answer.content[:300]


def _slot_html(page: str, slot: dict) -> str:
    start = page.index(f'data-slot="{slot["key"]}"')
    return page[start:page.index('<div class="match"', start)]


def _live(page: str) -> str:
    return page[page.index('<div id="live"'):page.index('id="live-news"')]


def test_nothing_changed_is_a_304_and_a_result_changes_the_etag_and_the_page(director, event):
    t, data = event
    anonymous = Client()
    first = anonymous.get(f"/events/{t.pk}/")
    etag = first["ETag"]
    assert first.status_code == 200 and etag
    assert "Cookie" in first["Vary"] and "Accept-Language" in first["Vary"]
    again = anonymous.get(f"/events/{t.pk}/", HTTP_IF_NONE_MATCH=etag)
    assert again.status_code == 304 and again["ETag"] == etag and not again.content

    slot = next(s for s in data["slots"] if s["round"] == 1 and all(s["players"]))
    assert _slot_html(first.content.decode(), slot).count('class="win"') == 0
    _report_through_the_api(director, t, slot)
    settle(t)
    after = anonymous.get(f"/events/{t.pk}/", HTTP_IF_NONE_MATCH=etag)
    assert after.status_code == 200 and after["ETag"] != etag
    assert after.content != first.content
    live = after.content.decode()
    won = _slot_html(live, slot)
    assert 'data-status="done"' in won and won.count('class="win"') == 1
    partial = anonymous.get(f"/events/{t.pk}/?partial=1").content.decode()
    assert partial in live  # the live part the page polls is the page's own, at the same position


def _count_builds(monkeypatch) -> list:
    builds = []
    real = event_page.event_part
    monkeypatch.setattr(event_page, "event_part", lambda t, *args: builds.append(t.pk) or real(t, *args))
    return builds


def test_a_page_seen_twice_is_read_and_rendered_once(director, event, monkeypatch):
    from django.core.cache import cache

    t, _ = event
    cache.clear()  # the part the projection built: gone (a cache restarted), so the first reader builds it
    builds = _count_builds(monkeypatch)
    first = Client().get(f"/events/{t.pk}/").content.decode()
    second = Client().get(f"/events/{t.pk}/").content.decode()
    assert len(builds) == 1 and _live(first) == _live(second) and 'data-slot="' in _live(first)
    Client().get(f"/events/{t.pk}/", HTTP_ACCEPT_LANGUAGE="fr")
    assert len(builds) == 2  # the other language is its own part


def test_viewers_and_languages_never_get_each_others_page(director, event, make_user):
    t, _ = event
    ann, bob = make_user("ann"), make_user("bob")
    pages = {}
    for who, user in (("anonymous", None), ("ann", ann), ("bob", bob), ("dora", director)):
        for language in ("en", "fr"):
            client = Client()
            if user is not None:
                client.force_login(user)
            answer = client.get(f"/events/{t.pk}/", HTTP_ACCEPT_LANGUAGE=language)
            pages[who, language] = answer
    assert len({a["ETag"] for a in pages.values()}) == len(pages)
    ann_mark, bob_mark = '<span class="muted">ann</span>', '<span class="muted">bob</span>'
    assert ann_mark in pages["ann", "en"].content.decode() and bob_mark not in pages["ann", "en"].content.decode()
    assert bob_mark in pages["bob", "fr"].content.decode() and ann_mark not in pages["bob", "fr"].content.decode()
    assert 'lang="fr"' in pages["anonymous", "fr"].content.decode()
    assert 'lang="en"' in pages["anonymous", "en"].content.decode()
    # the director's own link to run the event is theirs alone
    assert f"/events/{t.pk}/run/" in pages["dora", "en"].content.decode()
    assert f"/events/{t.pk}/run/" not in pages["anonymous", "en"].content.decode()
    # an ETag one viewer holds is no 304 for another
    client = Client()
    client.force_login(bob)
    answer = client.get(f"/events/{t.pk}/", HTTP_IF_NONE_MATCH=pages["ann", "en"]["ETag"])
    assert answer.status_code == 200


def test_the_etag_changes_with_the_position_it_names(rf):
    from django.contrib.auth.models import AnonymousUser

    request = rf.get("/events/1/")
    request.user = AnonymousUser()
    assert cached_pages.page_etag(request, 1, 2, 3) != cached_pages.page_etag(request, 1, 2, 4)


def test_a_part_another_request_is_building_is_waited_for_not_built_again():
    import threading

    from django.core.cache import cache
    from django.utils.translation import get_language

    built, answers = [], []
    key = f"page:event:{get_language()}:{cached_pages._digest((1, 2, 3))}"
    cache.add(key + ":building", 1, 60)  # another request has started building it
    waiting = threading.Thread(target=lambda: answers.append(
        cached_pages.fragment("event", (1, 2, 3), lambda: built.append(1) or "built here")))
    waiting.start()
    cache.set(key, "built by the other")
    waiting.join()
    assert answers == ["built by the other"] and not built


def test_a_part_whose_builder_failed_is_built_by_the_next_at_once():
    import threading

    from django.core.cache import cache
    from django.utils.translation import get_language

    answers = []
    key = f"page:event:{get_language()}:{cached_pages._digest((1, 2, 4))}"
    cache.add(key + ":building", 1, 60)  # another request has started building it
    waiting = threading.Thread(target=lambda: answers.append(
        cached_pages.fragment("event", (1, 2, 4), lambda: "built here")))
    waiting.start()
    cache.delete(key + ":building")  # and failed: its mark is gone, and no part
    waiting.join(timeout=cached_pages.BUILD_SECONDS / 2)
    assert answers == ["built here"]


def test_a_big_table_is_paged_and_a_player_is_sent_to_their_own_row(director, monkeypatch, make_user):
    from tournaments import selectors

    monkeypatch.setattr(selectors, "STANDINGS_PAGE", 3)
    eve = make_user("eve")
    players = [Player.objects.create(display_name=f"Seed {i}").pk for i in range(1, 8)] + [eve.player.pk]
    t = start(director, players)
    settle(t)
    first = Client().get(f"/events/{t.pk}/").content.decode()
    assert first.count('<tr id="standing-') == 3 and "Page 1 of 3" in first and "?standings=2" in first
    assert "Find me" not in first
    client = Client()
    client.force_login(eve)
    page = client.get(f"/events/{t.pk}/").content.decode()
    link = page.split('class="find-me"><a href="')[1].split('"')[0]
    assert link.endswith(f"#standing-{eve.player.pk}")
    own = client.get(f"/events/{t.pk}/{link.split('#')[0]}").content.decode()
    assert f'id="standing-{eve.player.pk}"' in own
    assert f'id="standing-{eve.player.pk}"' in Client().get(f"/events/{t.pk}/{link.split('#')[0]}&partial=1").content.decode()
    assert Client().get(f"/events/{t.pk}/?standings=0").status_code == 404


def test_a_result_renders_its_own_round_again_not_the_others(director, monkeypatch):
    from django.core.cache import cache
    from django.template import loader

    players = [Player.objects.create(display_name=f"Seed {i}").pk for i in range(1, 9)]
    t = start(director, players)
    data = settle(t)
    cache.clear()  # what the projection built: this reader builds it all
    rendered = []
    real = loader.render_to_string
    monkeypatch.setattr(event_page, "render_to_string",
                        lambda name, context=None, *a, **k: rendered.append((name, context)) or real(name, context, *a, **k))
    Client().get(f"/events/{t.pk}/")
    assert len([n for n, _ in rendered if n == "tournaments/bracket_round.html"]) == 3  # quarter-finals to final
    rendered.clear()
    slot = next(s for s in data["slots"] if s["round"] == 1 and all(s["players"]))
    _report_through_the_api(director, t, slot)
    settle(t)
    page = Client().get(f"/events/{t.pk}/").content.decode()
    again = [c["label"] for n, c in rendered if n == "tournaments/bracket_round.html"]
    assert len(again) == 2  # the round of the result and the one its winner goes on to; the final is kept
    # (rendered by the projection, before the page was asked for)
    assert _slot_html(page, slot).count('class="win"') == 1


def _entries(page: str) -> str:
    start = page.index("<h2>Entries</h2>")
    return page[start:page.index("</ul>", start)]


def test_the_entries_say_who_checked_in_and_who_withdrew_as_the_log_does(director, event):
    from tests.tournaments.test_running_events import cmd, settle

    t, data = event
    entries = _entries(Client().get(f"/events/{t.pk}/").content.decode())
    assert entries.count("<li>") == 4 and entries.count("✓") == 4 and "(withdrawn)" not in entries
    leaving = data["entries"][2]
    cmd(t, director, type="withdraw", player=leaving["player_id"], reason="went home")
    settle(t)
    entries = _entries(Client().get(f"/events/{t.pk}/").content.decode())
    line = next(li for li in entries.split("<li>") if leaving["name"] in li)
    assert "(withdrawn)" in line and entries.count("(withdrawn)") == 1 and entries.count("<li>") == 4


def test_the_projection_builds_the_part_a_result_changes_before_any_reader_asks(director, event, monkeypatch):
    t, data = event
    builds = _count_builds(monkeypatch)
    first = Client().get(f"/events/{t.pk}/")
    assert not builds  # built when the draw was projected
    slot = next(s for s in data["slots"] if s["round"] == 1 and all(s["players"]))
    _report_through_the_api(director, t, slot)
    settle(t)
    built_by_the_projection = len(builds)
    after = Client().get(f"/events/{t.pk}/")
    assert built_by_the_projection >= 1 and len(builds) == built_by_the_projection  # no reader built it
    assert after["ETag"] != first["ETag"] and _slot_html(after.content.decode(), slot).count('class="win"') == 1


def test_the_log_moving_elsewhere_leaves_the_part_built_and_a_decision_shows_at_once(director, event, monkeypatch):
    """The part is keyed by what it shows, not by how far the log has gone: another event's news changes this
    page's ETag (its position) but reads and renders nothing of it again; the latest decisions, read from the
    event's stream, show a result the moment it is appended, before the projections run."""
    from django.core.cache import cache

    t, data = event
    cache.clear()
    builds = _count_builds(monkeypatch)
    first = Client().get(f"/events/{t.pk}/")
    assert len(builds) == 1
    elsewhere = start(director, [Player.objects.create(display_name=f"Other {i}").pk for i in range(1, 5)])
    settle(elsewhere)
    again = Client().get(f"/events/{t.pk}/")
    assert again["ETag"] != first["ETag"] and builds.count(t.pk) == 1
    assert _live(again.content.decode()).split(">", 1)[1] == _live(first.content.decode()).split(">", 1)[1]

    monkeypatch.setattr("eventlog.projections.run_all", lambda: {})  # appended, not yet projected
    slot = next(s for s in data["slots"] if s["round"] == 1 and all(s["players"]))
    _report_through_the_api(director, t, slot)
    reported = Client().get(f"/events/{t.pk}/").content.decode()
    assert builds.count(t.pk) == 1 and _slot_html(reported, slot).count('class="win"') == 0  # the tables: not yet
    names = [Player.objects.get(pk=p).display_name for p in slot["players"]]
    history = reported[reported.index('class="history"'):]
    assert f"{names[0]} beat {names[1]}" in history


def test_parts_built_already_are_read_together_and_only_a_missing_one_is_built():
    cached_pages.fragment("a", (1,), lambda: "A")
    built = []
    assert cached_pages.fragments(("a", (1,), lambda: built.append("a") or "A again"),
                                  ("b", (1,), lambda: built.append("b") or "B")) == ["A", "B"]
    assert built == ["b"] and cached_pages.fragment("b", (1,), lambda: "B again") == "B"


def test_a_result_renders_again_its_own_run_of_a_rounds_matches_not_the_rounds_others(director, monkeypatch):
    """A big round's matches are rendered a run at a time (here runs of two): a result renders its own run again
    (and the run its winner goes on to), and the page shows every match of the round as before."""
    from django.core.cache import cache
    from django.template import loader

    monkeypatch.setattr(event_page, "ROUND_CHUNK", 2)
    players = [Player.objects.create(display_name=f"Seed {i}").pk for i in range(1, 9)]
    t = start(director, players)
    data = settle(t)
    cache.clear()
    rendered = []
    real = loader.render_to_string
    monkeypatch.setattr(event_page, "render_to_string",
                        lambda name, context=None, *a, **k: rendered.append((name, context)) or real(name, context, *a, **k))
    before = Client().get(f"/events/{t.pk}/").content.decode()
    runs = [c["round"] for n, c in rendered if n == "tournaments/bracket_slots.html"]
    assert [len(r) for r in runs] == [2, 2, 2, 1]  # quarter-finals in two runs, the semi-finals, the final
    rendered.clear()
    slot = next(s for s in data["slots"] if s["round"] == 1 and all(s["players"]))
    _report_through_the_api(director, t, slot)
    settle(t)
    page = Client().get(f"/events/{t.pk}/").content.decode()
    again = [[s["key"] for s in c["round"]] for n, c in rendered if n == "tournaments/bracket_slots.html"]
    assert len(again) == 2 and any(slot["key"] in run for run in again)  # its run, and the semi-final it feeds
    assert _slot_html(page, slot).count('class="win"') == 1
    assert page.count('<div class="match"') == before.count('<div class="match"') == 7
    assert page.count('<div class="pair">') == before.count('<div class="pair">') == 3 + 1  # pairs stay whole


def test_the_event_and_the_positions_a_page_shows_are_read_together_as_apart(director, event, make_user):
    from django.http import Http404
    from django.test.utils import CaptureQueriesContext
    from django.db import connection

    from eventlog import live, store
    from tournaments import services, stream

    t, _ = event
    with CaptureQueriesContext(connection) as queries:
        shown, version, position = services.visible_as_shown(director, t.pk)
    assert len(queries) == 1
    assert shown == services.visible_or_404(director, t.pk) and shown.name == t.name
    assert (version, position) == (store.stream_version(stream.stream_id_of(t.pk)), live.projected_position())
    assert version > 0
    t.published = False
    t.save(update_fields=["published"])
    from django.contrib.auth.models import AnonymousUser

    for viewer in (AnonymousUser(), make_user("stranger")):
        with pytest.raises(Http404):
            services.visible_as_shown(viewer, t.pk)
    assert services.visible_as_shown(director, t.pk)[0] == t
    with pytest.raises(Http404):
        services.visible_as_shown(director, t.pk + 1000)
