"""A public page is rendered once for every viewer who is not signed in, at the positions it shows, in their
language, each viewer's own CSRF token written into it; a signed-in viewer's page, and a request whose query string
the page does not read as it is written, are rendered for themselves."""

import random
import re

import pytest
from django.test import Client

from eventlog import projections
from players.models import Player
from ratings import views as rating_views
from tests.ratings.season import quick_match
from tests.tournaments.test_event_page_cache import _report_through_the_api, _slot_html
from tests.tournaments.test_event_page_cache import director, empty_cache, event  # noqa: F401 - the fixtures
from tests.tournaments.test_running_events import settle
from tournaments import views

pytestmark = pytest.mark.django_db

TOKEN = re.compile(r'name="csrfmiddlewaretoken" value="([^"]+)"')


@pytest.fixture
def renders(monkeypatch):
    """The event pages and rating lists rendered, by path."""
    done = []
    real_event, real_ratings = views._event_response, rating_views._rating_list

    def event_response(request, *args):
        done.append(request.get_full_path())
        return real_event(request, *args)

    def rating_list(request, *args):
        done.append(request.get_full_path())
        return real_ratings(request, *args)

    monkeypatch.setattr(views, "_event_response", event_response)
    monkeypatch.setattr(rating_views, "_rating_list", rating_list)
    return done


def _without_token(html: str) -> str:
    return TOKEN.sub("", html)


def _switch_language(client: Client, token: str) -> int:
    return client.post("/i18n/setlang/", {"language": "fr", "next": "/", "csrfmiddlewaretoken": token}).status_code


def test_viewers_not_signed_in_share_one_render_each_with_a_token_of_their_own(event, renders):
    t, _ = event
    ann, bob = Client(enforce_csrf_checks=True), Client(enforce_csrf_checks=True)
    first, second = ann.get(f"/events/{t.pk}/"), bob.get(f"/events/{t.pk}/")
    assert first.status_code == second.status_code == 200
    assert renders == [f"/events/{t.pk}/"]
    assert _without_token(first.content.decode()) == _without_token(second.content.decode())
    ann_token, bob_token = TOKEN.findall(first.content.decode()), TOKEN.findall(second.content.decode())
    assert ann_token and bob_token and "\x00" not in second.content.decode()
    # each viewer's form is theirs: their own token passes, the other's does not
    assert _switch_language(bob, ann_token[0]) == 403
    assert _switch_language(bob, bob_token[0]) == 302
    assert _switch_language(ann, ann_token[0]) == 302
    # a first visit with no cookie yet is given one, and its page's token goes with it
    carl = Client(enforce_csrf_checks=True)
    third = carl.get(f"/events/{t.pk}/")
    assert "csrftoken" in third.cookies and len(renders) == 1
    assert _switch_language(carl, TOKEN.findall(third.content.decode())[0]) == 302


def test_a_result_changes_the_shared_page_the_moment_it_is_projected(director, event, renders):
    t, data = event
    before = Client().get(f"/events/{t.pk}/").content.decode()
    slot = next(s for s in data["slots"] if s["round"] == 1 and all(s["players"]))
    _report_through_the_api(director, t, slot)
    settle(t)
    after = Client().get(f"/events/{t.pk}/").content.decode()
    assert len(renders) == 2
    assert _slot_html(before, slot).count('class="win"') == 0 and _slot_html(after, slot).count('class="win"') == 1


def test_signed_in_viewers_and_other_languages_are_not_served_the_shared_page(event, renders, make_user):
    t, _ = event
    Client().get(f"/events/{t.pk}/")
    ann = Client()
    ann.force_login(make_user("ann"))
    mine = ann.get(f"/events/{t.pk}/").content.decode()
    french = Client().get(f"/events/{t.pk}/", HTTP_ACCEPT_LANGUAGE="fr").content.decode()
    Client().get(f"/events/{t.pk}/", HTTP_ACCEPT_LANGUAGE="fr")
    assert len(renders) == 3  # the anonymous English page, Ann's own, the anonymous French one
    assert '<span class="muted">ann</span>' in mine and 'lang="fr"' in french
    assert '<span class="muted">ann</span>' not in Client().get(f"/events/{t.pk}/").content.decode()


def test_a_query_the_page_does_not_read_as_written_is_rendered_for_itself(event, renders):
    t, _ = event
    for query in ("?utm=x", "?standings=01", "?partial=yes", "?standings=1&standings=1"):
        for _ in range(2):
            assert Client().get(f"/events/{t.pk}/{query}").status_code == 200
    assert len(renders) == 8
    for _ in range(2):
        Client().get(f"/events/{t.pk}/?standings=1")
    assert len(renders) == 9  # shared
    for _ in range(2):  # the live part alone: its parts are cached already, it is not kept again as a page
        assert Client().get(f"/events/{t.pk}/?partial=1&standings=1").status_code == 200
    assert len(renders) == 11


@pytest.fixture
def rated(make_user):
    ids = [Player.objects.create(display_name=n).pk for n in ("Ann", "Bea", "Cid")]
    rnd = random.Random(3)
    quick_match(ids[0], ids[1], 5, 0, rnd)
    quick_match(ids[2], ids[1], 3, 0, rnd)
    projections.run_all()
    return ids


def test_the_ratings_list_is_shared_too_and_moves_with_a_result(rated, renders):
    first = Client().get("/ratings/").content.decode()
    assert _without_token(Client().get("/ratings/").content.decode()) == _without_token(first)
    Client().get("/ratings/?sort=nonsense")
    Client().get("/ratings/?sort=nonsense")
    assert renders == ["/ratings/", "/ratings/?sort=nonsense", "/ratings/?sort=nonsense"]
    quick_match(rated[1], rated[0], 11, 0, random.Random(4))
    projections.run_all()
    after = Client().get("/ratings/").content.decode()
    assert len(renders) == 4 and after.split("<table>")[1] != first.split("<table>")[1]


def test_a_page_that_is_not_a_200_goes_to_its_own_viewer_only(rf):
    from django.contrib.auth.models import AnonymousUser
    from django.http import HttpResponse

    from eventlog import cached_pages

    rendered = []

    def gone():
        rendered.append(1)
        return HttpResponse("gone", status=410)

    for _ in range(2):
        request = rf.get("/events/9/")
        request.user = AnonymousUser()
        assert cached_pages.shared_by_anonymous_viewers(request, (9, 1, 1), gone).status_code == 410
    assert len(rendered) == 2
