"""The season table printed for the club's wall: a PDF from the season page, and from the
director's console of every event the season counts; the points outside a player's best events read as not
counted on paper (in brackets, not only struck through); French when the reader asks. The PDF's text is read back
with pypdf."""

import io
import re

import pytest
from django.template.defaultfilters import floatformat
from django.urls import reverse
from pypdf import PdfReader

from players.models import Club, Player
from seasons import demo
from seasons.models import Season, SeasonEvent, SeasonScore, SeasonStanding
from tournaments import services as events
from tournaments.models import Tournament

from .play import riverside_season_once

# the sheets are printed by a worker (seasons/printing.py): here in-process, as in the embedded default
pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("tasks_in_process")]


def pdf_text(data: bytes) -> str:
    return "\n".join(p.extract_text() for p in PdfReader(io.BytesIO(data)).pages)


@pytest.fixture(scope="module")
def _season(django_db_setup, django_db_blocker):
    """Played once for the module, each test in a savepoint of its transaction. The test without it comes first:
    it meets an empty database."""
    yield from riverside_season_once(django_db_blocker)


@pytest.fixture
def season(db, _season):
    built, restore_cache = _season
    restore_cache()
    return Season.objects.get(pk=built.pk)


def printed_from_the_season_page(client, season, **headers) -> str:
    page = client.get(reverse("season-page", args=[season.pk]), **headers).content.decode()
    href = re.search(r'<a href="([^"]+)" id="print-table">', page).group(1)
    answer = client.get(href, **headers)
    assert answer.status_code == 200 and answer["Content-Type"] == "application/pdf"
    return pdf_text(answer.content)


def test_an_empty_season_prints_a_sheet_that_says_so(client, make_user):
    director = make_user("olga", player=False)
    club = Club.objects.create(name="Hilltop")
    club.directors.add(director)
    from seasons import services
    empty = services.season_open(actor=director, name="Spring series", club=club, rule=demo.RULE_V1,
                                 effective_from="2026-03-01")
    text = pdf_text(client.get(reverse("season-table-pdf", args=[empty.pk])).content)
    assert "Spring series" in text and "No finished event yet." in text


def test_the_season_table_prints_every_player_every_event_and_the_struck_out_points_in_brackets(client, season):
    text = printed_from_the_season_page(client, season)
    assert "Club season 2026" in text and "Riverside" in text and "Total" in text
    for name, *_ in demo.NIGHTS:  # a column's heading may wrap
        assert name in " ".join(text.split())
    lines = [" ".join(line.split()) for line in text.splitlines()]
    events = [e.tournament_id for e in SeasonEvent.objects.filter(season_id=season.pk).order_by("on", "tournament_id")]
    scores = {(s.player_id, s.tournament_id): s for s in SeasonScore.objects.filter(season_id=season.pk)}
    assert any(not s.counted for s in scores.values())  # best 3 of 4 nights: someone's weakest one is out
    for standing in SeasonStanding.objects.filter(season_id=season.pk):
        # a row reads: place, name, each night's points (bare when counted, in brackets when not) with the version
        # of the rule that scored them, "–" for a night not played, the total
        cells = []
        for t in events:
            s = scores.get((standing.player_id, t))
            shown = floatformat(s.points, "-2") if s else ""
            cells.append("–" if s is None else f"{shown} v{s.rule_version}" if s.counted
                         else f"({shown}) v{s.rule_version}")
        name = Player.objects.get(pk=standing.player_id).display_name
        row = " ".join([str(standing.rank), name, *cells, floatformat(standing.total, "-2")])
        assert row in lines, (row, lines)
    flat = " ".join(text.split())
    assert "Points in brackets and struck out are outside the player's best events: not counted in the total." in flat
    assert "The best 3 events count." in flat


def test_the_season_table_prints_in_french_when_asked(client, season):
    text = printed_from_the_season_page(client, season, HTTP_ACCEPT_LANGUAGE="fr")
    assert "Club season 2026" in text and "Joueur" in text and "Player" not in text
    flat = " ".join(text.split())
    assert "Les 3 meilleurs tournois comptent." in flat and "Les points entre parenthèses et barrés" in flat


def test_the_console_prints_the_table_of_every_season_that_counts_the_event(client, season, make_user):
    director = Season.objects.get().director
    counted = Tournament.objects.get(name=demo.NIGHTS[0][0])
    client.force_login(director)
    console = client.get(reverse("event-console", args=[counted.pk])).content.decode()
    href = reverse("season-table-pdf", args=[season.pk])
    assert f'href="{href}"' in console and "season table: Club season 2026" in console
    assert "Club season 2026" in pdf_text(client.get(href).content)
    alone = events.tournament_create(actor=director, name="Not in a season", format="single_elimination",
                                     club=counted.club)
    assert href not in client.get(reverse("event-console", args=[alone.pk])).content.decode()
