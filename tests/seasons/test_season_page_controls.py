"""The season's director's controls on its page and "Open a season" on /seasons/, outside the admin: through
seasons/services.py (the API's rule of who may), a bad rule or a stranger's request changing nothing."""

import json
import re
from html import unescape

import pytest
from django.urls import reverse

from eventlog import projections
from eventlog.models import Event
from players.models import Club
from seasons import services
from seasons.decider import stream_id_of
from seasons.models import Season
from seasons.selectors import season_data
from tournaments import services as events

from .play import RULE_V1, RULE_V2

pytestmark = pytest.mark.django_db


@pytest.fixture
def club_director(make_user):
    user = make_user("dora", player=False)
    club = Club.objects.create(name="Riverside")
    club.directors.add(user)
    return user, club


@pytest.fixture
def season(club_director):
    user, club = club_director
    season = services.season_open(actor=user, name="Riverside 2026", club=club, rule=RULE_V1,
                                  effective_from="2026-01-01")
    projections.run_all()
    return season


def club_event(user, club, name):
    return events.tournament_create(actor=user, name=name, format="single_elimination", club=club)


def textarea(html: str) -> str:
    return unescape(re.search(r'<textarea name="rule"[^>]*>(.*?)</textarea>', html, re.S).group(1))


def appended(season) -> int:
    return Event.objects.filter(stream_id=stream_id_of(season.pk)).count()


def post(client, season, **form):
    response = client.post(reverse("season-page", args=[season.pk]), form, follow=True)
    assert response.status_code == 200
    return response.content.decode()


def test_the_director_adds_and_removes_events_and_sets_a_rule(client, club_director, season, make_user):
    user, club = club_director
    first, second = club_event(user, club, "Night 1"), club_event(user, club, "Night 2")
    elsewhere = events.tournament_create(actor=make_user("olga", official=True), name="Other club's night",
                                         format="single_elimination")
    client.force_login(user)
    page = client.get(reverse("season-page", args=[season.pk])).content.decode()
    assert "Night 1" in page and "Night 2" in page and "Other club" not in page
    assert json.loads(textarea(page)) == season_data(season)["rules"][-1]["rule"]  # the current rule, prefilled

    html = post(client, season, action="add_event", tournament=first.pk, on="2026-02-03")
    assert "Night 1 is in the season" in html
    post(client, season, action="add_event", tournament=second.pk)
    added = {e["tournament_id"]: e["on"].isoformat() for e in season_data(season)["events"]}
    assert set(added) == {first.pk, second.pk} and added[first.pk] == "2026-02-03"
    before = appended(season)
    url = reverse("season-page", args=[season.pk])
    assert client.post(url, {"action": "add_event", "tournament": elsewhere.pk}).status_code == 403  # not the club's
    assert appended(season) == before
    html = post(client, season, action="add_event", tournament=first.pk)
    assert "in the season already" in html and appended(season) == before

    post(client, season, action="remove_event", tournament=second.pk)
    assert [e["tournament_id"] for e in season_data(season)["events"]] == [first.pk]

    html = post(client, season, action="set_rule", rule=json.dumps(RULE_V2), effective_from="2026-03-01")
    assert "A new version of the rule is set" in html
    rules = season_data(season)["rules"]
    assert [r["version"] for r in rules] == [1, 2] and rules[1]["rule"]["components"][1]["per_win"] == 2
    assert str(rules[1]["effective_from"]) == "2026-03-01"


@pytest.mark.parametrize("rule, why", [
    ("{not json", "the rule is not JSON"),
    (json.dumps({"components": [{"kind": "lottery"}]}), "rule:"),
    (json.dumps(RULE_V2), "is a date"),
])
def test_a_bad_rule_is_refused_and_nothing_changes(client, club_director, season, rule, why):
    client.force_login(club_director[0])
    before = (appended(season), season_data(season)["rules"])
    form = {"action": "set_rule", "rule": rule, "effective_from": "2026-03-01"}
    if why == "is a date":
        form["effective_from"] = "March"
    html = post(client, season, **form)
    assert "Nothing was changed" in html and why in html
    assert (appended(season), season_data(season)["rules"]) == before
    if rule.startswith("{not"):
        assert textarea(html) == "{not json"  # what the director typed, kept to correct it


def test_others_get_403_and_change_nothing(client, club_director, season, make_user):
    user, club = club_director
    night = club_event(user, club, "Night 1")
    before = appended(season)
    url = reverse("season-page", args=[season.pk])
    for who in (None, make_user("pat")):
        if who:
            client.force_login(who)
        page = client.get(url).content.decode()
        assert "Run this season" not in page
        for form in ({"action": "add_event", "tournament": night.pk}, {"action": "remove_event", "tournament": night.pk},
                     {"action": "set_rule", "rule": json.dumps(RULE_V2), "effective_from": "2026-03-01"}):
            assert client.post(url, form).status_code == 403
        assert client.post(reverse("season-list-page"), {"name": "Mine", "club": club.pk}).status_code == 403
        assert "Open a season" not in client.get(reverse("season-list-page")).content.decode()
    assert appended(season) == before and Season.objects.count() == 1


def test_a_clubs_director_opens_a_season(client, club_director, make_user):
    user, club = club_director
    other = Club.objects.create(name="Hilltop")
    client.force_login(user)
    page = client.get(reverse("season-list-page")).content.decode()
    assert "Open a season" in page and "Riverside" in page and "Hilltop" not in page
    response = client.post(reverse("season-list-page"), {"name": "Thursday nights 2026", "club": club.pk,
                                                          "kind": "series"})
    season = Season.objects.get(name="Thursday nights 2026")
    assert response.status_code == 302 and response.url == reverse("season-page", args=[season.pk])
    assert season.kind == "series" and season.club == club and season.director == user
    assert "Run this season" in client.get(response.url).content.decode()
    # another club's name, or no name: refused, nothing opened
    assert client.post(reverse("season-list-page"), {"name": "Theirs", "club": other.pk}).status_code == 403
    html = client.post(reverse("season-list-page"), {"name": " ", "club": club.pk}, follow=True).content.decode()
    assert "Nothing was opened" in html and Season.objects.count() == 1


def test_a_rules_brackets_are_named_in_the_readers_words(client, season):
    """The rule's weights by bracket as the event pages name the brackets, never the rule's key ("consolation")."""
    services.season_set_rule(actor=season.club.directors.first(), season=season, rule=RULE_V2,
                             effective_from="2026-06-01")
    projections.run_all()
    english = re.sub(r"\s+", " ", client.get(reverse("season-page", args=[season.pk]),
                                             HTTP_ACCEPT_LANGUAGE="en").content.decode())
    assert "1 per match won, Consolation × 0.50 </li>" in english
    assert "2 per match won, Consolation × 0.50, round 4 × 2 </li>" in english
    french = re.sub(r"\s+", " ", client.get(reverse("season-page", args=[season.pk]),
                                            HTTP_ACCEPT_LANGUAGE="fr").content.decode())
    assert "2 par match gagné, Consolante × 0,50, ronde 4 × 2 </li>" in french
    assert "Points selon la place et le nombre de participants :" in french and "consolation ×" not in french
