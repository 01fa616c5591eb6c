"""The public season PDF is printed by a worker once per state of the table and language, never on a web
thread; a reader finds it printed or is told it is being printed; a client asks for a few a minute
(seasons/printing.py, apikit/printing.py)."""

from __future__ import annotations

import random
import urllib.error
import urllib.request
from concurrent.futures import ThreadPoolExecutor

import pytest
from django.urls import reverse

from apikit import throttling
from players.models import Club, Player
from seasons import demo, sheets
from seasons.models import PrintedSheet, Season, SeasonRule
from tests.waiting import wait_for


@pytest.fixture
def season(make_user):
    director = make_user("dora", player=False)
    club = Club.objects.create(name="Riverside")
    club.directors.add(director)
    players = [Player.objects.create(display_name=n, club=club) for n in
               ("Ada", "Bruno", "Chloé", "Dimitri", "Eva", "Farid", "Greta", "Hugo")]
    demo.load(director=director, club=club, players=players, rnd=random.Random(3))
    throttling.forget_counts()
    return Season.objects.get()


@pytest.fixture
def in_process(monkeypatch, tasks_in_process):
    """Tasks run where they are sent, as in the embedded default (no broker); the prints counted."""
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
def test_the_same_table_is_printed_once_per_language_and_again_once_it_changes(client, season, in_process,
                                                                                 make_user):
    first, second = client.get(_url(season)), client.get(_url(season))
    assert first.status_code == second.status_code == 200 and first["Content-Type"] == "application/pdf"
    assert first.content == second.content and len(in_process) == 1
    french = client.get(_url(season), HTTP_ACCEPT_LANGUAGE="fr")
    assert french.status_code == 200 and french.content != first.content and len(in_process) == 2
    # the table changes (a new version of the rule from the season's start): printed anew, the old print gone
    from eventlog import projections
    from seasons import services

    rule = {"components": [{"kind": "attendance", "points": 1}]}
    services.season_set_rule(actor=make_user("ref", official=True, player=False), season=season, rule=rule,
                             effective_from=SeasonRule.objects.filter(season_id=season.pk)
                             .order_by("effective_from").first().effective_from)
    projections.run_all()
    changed = client.get(_url(season))
    assert changed.status_code == 200 and changed.content != first.content and len(in_process) == 3
    assert PrintedSheet.objects.count() == 2  # this state, in English and in French


@pytest.mark.django_db
def test_until_a_worker_has_printed_it_the_reader_is_told_and_nothing_is_printed_on_the_web_thread(
        client, season, monkeypatch):
    sent = []
    from seasons import tasks

    monkeypatch.setattr(tasks.print_season_table, "delay", lambda *args: sent.append(args))
    monkeypatch.setattr(sheets, "season_table_sheet", lambda *a, **k: pytest.fail("printed on the web thread"))
    waiting = [client.get(_url(season)) for _ in range(3)]
    assert [w.status_code for w in waiting] == [202] * 3
    assert waiting[0]["Retry-After"] == "3" and b'http-equiv="refresh"' in waiting[0].content
    assert len(sent) == 1  # asked of the worker once


@pytest.mark.django_db
def test_a_client_asking_too_often_is_told_when_to_come_back(client, season, settings, in_process,
                                                             throttle_clock_stopped):
    settings.PDF_THROTTLE_RATE = "3/minute"
    assert [client.get(_url(season)).status_code for _ in range(3)] == [200, 200, 200]
    refused = client.get(_url(season))
    assert refused.status_code == 429 and 1 <= int(refused["Retry-After"]) <= 60


def test_fifty_readers_at_once_get_one_print_by_the_worker_and_a_bystander_is_served(live_worker, live_server,
                                                                                      season):
    def fetch(path):
        try:
            with urllib.request.urlopen(live_server.url + path, timeout=300) as answer:
                return answer.status, answer.read()
        except urllib.error.HTTPError as refused:
            return refused.code, b""

    with ThreadPoolExecutor(max_workers=51) as pool:
        crowd = [pool.submit(fetch, _url(season)) for _ in range(50)]
        bystander = pool.submit(fetch, reverse("season-list-page"))
        statuses = [f.result()[0] for f in crowd]
        assert bystander.result()[0] == 200
    assert set(statuses) <= {200, 202}
    printed = wait_for(lambda: fetch(_url(season)) if fetch(_url(season))[0] == 200 else None, timeout=300,
                       what="the worker to print the table")
    assert printed[1].startswith(b"%PDF")
    assert PrintedSheet.objects.count() == 1 and PrintedSheet.objects.get().pdf is not None
