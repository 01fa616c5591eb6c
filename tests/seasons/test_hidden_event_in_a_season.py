"""A hidden (unpublished) event in a season: the public season page, its API and its printed table neither name it
nor count its points; those who run the season see it listed, marked hidden. Published, it is named and scored like
any other; hidden again, it leaves again. The table is the same after ``rebuild_projections``."""

import os
import random
import re

import pytest
from django.core.management import call_command
from django.urls import reverse

from players.models import Club, Player
from seasons import services as seasons
from tests.tournaments.test_running_events import settle
from tournaments import services

from .play import RULE_V1, START, new_event, play_on_paper, projected, recomputed
from .test_season_sheet import pdf_text

# the printed table is printed by a worker (seasons/printing.py): here in-process, as in the embedded default
pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("tasks_in_process")]


def printed(client, season) -> str:
    page = client.get(reverse("season-page", args=[season.pk])).content.decode()
    answer = client.get(re.search(r'<a href="([^"]+)" id="print-table">', page).group(1))
    assert answer.status_code == 200 and answer["Content-Type"] == "application/pdf"
    return " ".join(pdf_text(answer.content).split())


def scored(data: dict) -> set[int]:
    return {s["tournament_id"] for row in data["table"] for s in row["scores"]}


def test_a_hidden_event_is_neither_named_nor_counted_in_a_public_season(api, client, make_user):
    director = make_user("dora", player=False)
    club = Club.objects.create(name="Riverside")
    club.directors.add(director)
    players = [Player.objects.create(display_name=f"P{i}", club=club).pk for i in range(4)]
    season = seasons.season_open(actor=director, name="Riverside 2026", club=club, rule=RULE_V1,
                                 effective_from=START)
    shown = new_event(director, "Open night", "single_elimination", players)
    hidden = new_event(director, "Secret night", "single_elimination", players)
    services.tournament_publish(actor=director, tournament=hidden, published=False)
    for t in (shown, hidden):
        play_on_paper(director, t, lambda t=t: settle(t), random.Random(t.pk))
        seasons.season_add_event(actor=director, season=season, tournament=t)
    settle(hidden)

    data = api().get(f"/api/seasons/{season.pk}/").json()
    assert [e["name"] for e in data["events"]] == ["Open night"] and scored(data) == {shown.pk}
    assert projected(season) == recomputed(season)
    assert "Secret night" not in client.get(reverse("season-page", args=[season.pk])).content.decode()
    text = printed(client, season)
    assert "Open night" in text and "Secret night" not in text

    # the season's director sees it listed, marked hidden, and may take it out
    own = api(director).get(f"/api/seasons/{season.pk}/").json()
    assert [(e["name"], e["published"]) for e in own["events"]] == [("Open night", True), ("Secret night", False)]
    assert scored(own) == {shown.pk}
    client.force_login(director)
    page = client.get(reverse("season-page", args=[season.pk])).content.decode()
    assert "Secret night" in page and "hidden: no points until it is published" in page
    client.logout()

    services.tournament_publish(actor=director, tournament=hidden, published=True)
    settle(hidden)
    data = api().get(f"/api/seasons/{season.pk}/").json()
    assert [e["name"] for e in data["events"]] == ["Open night", "Secret night"]
    assert scored(data) == {shown.pk, hidden.pk} and projected(season) == recomputed(season)
    assert "Secret night" in printed(client, season)

    services.tournament_publish(actor=director, tournament=hidden, published=False)
    settle(hidden)
    data = api().get(f"/api/seasons/{season.pk}/").json()
    assert [e["name"] for e in data["events"]] == ["Open night"] and scored(data) == {shown.pk}
    live = projected(season)
    call_command("rebuild_projections", stdout=open(os.devnull, "w"))
    assert projected(season) == live == recomputed(season)
