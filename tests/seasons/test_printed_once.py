"""The public season PDF is printed once per state of the table and language, never twice at once, and a client
asks for a few a minute: a crowd of readers cannot turn it into a CPU drain (apikit/printing.py)."""

from __future__ import annotations

import random
import urllib.error
import urllib.request
from concurrent.futures import ThreadPoolExecutor

import pytest
from django.core.cache import cache
from django.urls import reverse

from apikit import throttling
from players.models import Club, Player
from seasons import demo, sheets
from seasons.models import Season, SeasonRule


@pytest.fixture
def season(make_user):
    director = make_user("dora", player=False)
    club = Club.objects.create(name="Riverside")
    club.directors.add(director)
    players = [Player.objects.create(display_name=n, club=club) for n in ("Ada", "Bruno", "Chloé", "Dimitri", "Eva", "Farid", "Greta", "Hugo")]
    demo.load(director=director, club=club, players=players, rnd=random.Random(3))
    cache.clear()
    throttling.forget_counts()
    return Season.objects.get()


@pytest.fixture
def prints(monkeypatch):
    """Every real print of a season table, counted."""
    made = []
    real = sheets.season_table_sheet

    def counted(*args, **kwargs):
        made.append(1)
        return real(*args, **kwargs)

    monkeypatch.setattr(sheets, "season_table_sheet", counted)
    return made


def _url(season) -> str:
    return reverse("season-table-pdf", args=[season.pk])


@pytest.mark.django_db
def test_the_same_table_is_printed_once_per_language_and_again_once_it_changes(client, season, prints, make_user):
    first, second = client.get(_url(season)), client.get(_url(season))
    assert first.status_code == second.status_code == 200 and first.content == second.content
    assert len(prints) == 1
    french = client.get(_url(season), HTTP_ACCEPT_LANGUAGE="fr")
    assert french.status_code == 200 and french.content != first.content and len(prints) == 2
    # the table changes (a new version of the rule from the season's start): printed anew
    from eventlog import projections
    from seasons import services

    rule = {"components": [{"kind": "attendance", "points": 1}]}
    data_before = client.get(_url(season)).content
    services.season_set_rule(actor=make_user("ref", official=True, player=False), season=season, rule=rule,
                             effective_from=SeasonRule.objects.filter(season_id=season.pk).order_by("effective_from")
                             .first().effective_from)
    projections.run_all()
    changed = client.get(_url(season))
    assert changed.status_code == 200 and changed.content != data_before and len(prints) == 3


@pytest.mark.django_db
def test_a_table_being_printed_elsewhere_is_answered_come_back_in_a_few_seconds(client, season, prints,
                                                                                  monkeypatch):
    monkeypatch.setattr(cache, "add", lambda *args, **kwargs: False)  # another node holds the print's claim
    busy = client.get(_url(season))
    assert busy.status_code == 503 and busy["Retry-After"] == "5" and prints == []


@pytest.mark.django_db
def test_a_client_asking_too_often_is_told_when_to_come_back(client, season, settings):
    settings.PDF_THROTTLE_RATE = "3/minute"
    assert [client.get(_url(season)).status_code for _ in range(3)] == [200, 200, 200]
    refused = client.get(_url(season))
    assert refused.status_code == 429 and 1 <= int(refused["Retry-After"]) <= 60


@pytest.mark.django_db(transaction=True)
def test_fifty_readers_at_once_get_one_print_and_a_bystander_is_served(live_server, season, prints):
    def fetch(path):
        try:
            with urllib.request.urlopen(live_server.url + path, timeout=300) as answer:
                return answer.status
        except urllib.error.HTTPError as refused:
            return refused.code

    with ThreadPoolExecutor(max_workers=51) as pool:
        crowd = [pool.submit(fetch, _url(season)) for _ in range(50)]
        bystander = pool.submit(fetch, reverse("season-list-page"))
        statuses = [f.result() for f in crowd]
        assert bystander.result() == 200
    assert set(statuses) <= {200, 503} and 200 in statuses
    assert len(prints) == 1
