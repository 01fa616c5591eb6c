"""A player's figures over several matches pool them as eXtreme Gammon does, the total error over the total decisions:
an event's, a season's, and all of a player's analysed matches."""

from __future__ import annotations

import pytest
from django.conf import settings
from django.utils import timezone

from analysis import selectors
from analysis.models import MatchAnalysis, PlayerFigures
from games.models import MatchSummary
from players.models import Player

pytestmark = pytest.mark.django_db

# (chequer error, unforced moves, cube error, close cube decisions) in EMG: a long match and a short one
MATCHES = [(0.5, 100, 0.0, 0), (0.2, 10, 0.1, 2)]


def _analysed(stream_id: str, ann: Player, bob: Player, figures, *, tournament_id: int = 77, published: bool = True,
              voided: bool = False, plies: int | None = None) -> None:
    chequer, unforced, cube, close = figures
    MatchSummary.objects.create(stream_id=stream_id, tournament_id=tournament_id, player0_id=ann.pk,
                                player1_id=bob.pk, player0_name="Ann", player1_name="Bob", length=5, phase="over",
                                finished=True, published=published, voided=voided, created_at=timezone.now())
    row = MatchAnalysis.objects.create(stream_id=stream_id, plies=settings.ANALYSIS_PLIES if plies is None else plies,
                                       status=MatchAnalysis.DONE, tournament_id=tournament_id, player0_id=ann.pk,
                                       player1_id=bob.pk)
    overall = 1000 * (chequer + cube) / (unforced + close)
    for side, player in enumerate((ann, bob)):
        PlayerFigures.objects.create(
            analysis=row, side=side, player_id=player.pk, name=player.display_name, unforced_moves=unforced,
            chequer_error=chequer, chequer_rate=1000 * chequer / unforced, close_cube=close, cube_error=cube,
            cube_rate=1000 * cube / close if close else 0.0, overall_rate=overall, performance_rating=overall / 2,
            luck=0.5 * (side + 1))


def test_an_events_pr_is_the_total_error_over_the_total_decisions():
    ann, bob = Player.objects.create(display_name="Ann"), Player.objects.create(display_name="Bob")
    for i, figures in enumerate(MATCHES):
        _analysed(f"m{i}", ann, bob, figures)
    row = next(r for r in selectors.event_averages(77) if r["player_id"] == ann.pk)
    # a plain mean of the two matches' PR would be (2.5 + 12.5) / 2 = 7.5
    assert row["matches"] == 2
    assert row["performance_rating"] == pytest.approx(500 * 0.8 / 112)
    assert row["overall_rate"] == pytest.approx(1000 * 0.8 / 112)
    assert row["chequer_rate"] == pytest.approx(1000 * 0.7 / 110)
    assert row["cube_rate"] == pytest.approx(1000 * 0.1 / 2)
    assert row["luck"] == pytest.approx(0.5)


# one player's four matches of different sizes, as (checker error, unforced moves, cube error, close cube decisions):
# their PRs are 7.95, 4.00, 4.50 and 5.31, a mean of 5.44; pooled (the long match weighs by its decisions), 7.11
FOUR = [(3.18, 200, 0.0, 0), (0.24, 30, 0.0, 0), (0.18, 20, 0.0, 0), (0.1, 10, 0.02744, 2)]
FOUR_POOLED_PR = 500 * (3.18 + 0.24 + 0.18 + 0.1 + 0.02744) / 262


def _four(ann: Player, bob: Player, tournaments=(77, 77, 77, 77)) -> None:
    for i, (figures, tournament_id) in enumerate(zip(FOUR, tournaments)):
        _analysed(f"f{i}", ann, bob, figures, tournament_id=tournament_id)


def test_a_players_pr_over_all_their_matches_is_pooled_not_a_mean_of_the_matches():
    ann, bob = Player.objects.create(display_name="Ann"), Player.objects.create(display_name="Bob")
    _four(ann, bob)
    mean = sum(p["performance_rating"] for p in selectors.player_history(ann.pk)) / 4
    pooled = selectors.player_pooled(ann.pk)
    assert round(mean, 2) == 5.44 and round(pooled["performance_rating"], 2) == 7.11
    assert pooled["performance_rating"] == pytest.approx(FOUR_POOLED_PR)
    assert pooled["overall_rate"] == pytest.approx(2 * FOUR_POOLED_PR)
    assert pooled["chequer_rate"] == pytest.approx(1000 * 3.7 / 260)
    assert pooled["cube_rate"] == pytest.approx(1000 * 0.02744 / 2)
    assert (pooled["matches"], pooled["unforced_moves"], pooled["close_cube"]) == (4, 260, 2)
    # 14.2 mEMG per decision: gnubg's "Intermediate" (from 12, under 18)
    assert pooled["overall_rating"] == "Intermediate"
    assert selectors.player_pooled(Player.objects.create(display_name="Cy").pk) is None


def test_a_hidden_or_voided_match_and_another_depth_are_not_pooled():
    ann, bob = Player.objects.create(display_name="Ann"), Player.objects.create(display_name="Bob")
    _four(ann, bob)
    _analysed("hidden", ann, bob, (9.0, 10, 0.0, 0), published=False)
    _analysed("voided", ann, bob, (9.0, 10, 0.0, 0), voided=True)
    _analysed("deeper", ann, bob, (9.0, 10, 0.0, 0), plies=settings.ANALYSIS_PLIES + 1)
    pooled = selectors.player_pooled(ann.pk)
    assert pooled["matches"] == 4 and pooled["performance_rating"] == pytest.approx(FOUR_POOLED_PR)


def test_the_players_analysis_api_gives_the_pooled_figures_beside_the_matches(api):
    ann, bob = Player.objects.create(display_name="Ann"), Player.objects.create(display_name="Bob")
    _four(ann, bob)
    body = api().get(f"/api/players/{ann.pk}/analysis/").json()
    assert [m["match"] for m in body["matches"]] == ["f0", "f1", "f2", "f3"]
    assert body["pooled"]["matches"] == 4 and body["pooled"]["overall_rating"] == "Intermediate"
    assert body["pooled"]["performance_rating"] == pytest.approx(FOUR_POOLED_PR)
    nobody = Player.objects.create(display_name="Cy")
    assert api().get(f"/api/players/{nobody.pk}/analysis/").json() == {"pooled": None, "matches": []}


def test_a_seasons_figures_pool_the_analysed_matches_of_its_published_events():
    from seasons import selectors as seasons
    from seasons.models import Season, SeasonEvent

    ann, bob = Player.objects.create(display_name="Ann"), Player.objects.create(display_name="Bob")
    _four(ann, bob, tournaments=(77, 78, 78, 77))  # the four matches over two events of the season
    _analysed("hidden-event", ann, bob, (9.0, 10, 0.0, 0), tournament_id=79)
    _analysed("other-event", ann, bob, (9.0, 10, 0.0, 0), tournament_id=80)
    season = Season.objects.create(name="Winter")
    for tournament_id, published in ((77, True), (78, True), (79, False)):
        SeasonEvent.objects.create(season_id=season.pk, tournament_id=tournament_id, on=timezone.localdate(),
                                   finished=True, published=published)
    rows = seasons.analysis_figures(seasons.season_data(season, with_hidden=True))
    row = next(r for r in rows if r["player_id"] == ann.pk)
    assert row["matches"] == 4 and round(row["performance_rating"], 2) == 7.11
    assert row["performance_rating"] == pytest.approx(FOUR_POOLED_PR)
    assert row["name"] == "Ann" and {r["player_id"] for r in rows} == {ann.pk, bob.pk}


def test_the_season_page_shows_each_players_pooled_pr(client):
    from seasons.models import Season, SeasonEvent

    ann, bob = Player.objects.create(display_name="Ann"), Player.objects.create(display_name="Bob")
    _four(ann, bob, tournaments=(77, 78, 78, 77))
    season = Season.objects.create(name="Winter")
    for tournament_id in (77, 78):
        SeasonEvent.objects.create(season_id=season.pk, tournament_id=tournament_id, on=timezone.localdate(),
                                   finished=True)
    page = client.get(f"/seasons/{season.pk}/").content.decode()
    section = page[page.index('id="season-analysis"'):page.index("</section>", page.index('id="season-analysis"'))]
    assert "PR (XG scale)" in section and "pooled as eXtreme Gammon pools them" in section
    ann_row = section[section.index(f'/players/{ann.pk}/'):]
    ann_row = ann_row[:ann_row.index("</tr>")]
    assert '<td class="num">4</td>' in ann_row and '<td class="num pr">7.1</td>' in ann_row
    french = client.get(f"/seasons/{season.pk}/", HTTP_ACCEPT_LANGUAGE="fr").content.decode()
    assert "PR (échelle XG)" in french and "cumulés comme eXtreme Gammon" in french
    assert '<td class="num pr">7,1</td>' in french
    empty = Season.objects.create(name="Spring")
    assert 'id="season-analysis"' not in client.get(f"/seasons/{empty.pk}/").content.decode()
