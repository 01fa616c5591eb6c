"""An event's figures pool the player's matches as eXtreme Gammon does: the total error over the total decisions."""

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


def _analysed(stream_id: str, ann: Player, bob: Player, figures) -> None:
    chequer, unforced, cube, close = figures
    MatchSummary.objects.create(stream_id=stream_id, tournament_id=77, player0_id=ann.pk, player1_id=bob.pk,
                                player0_name="Ann", player1_name="Bob", length=5, phase="over", finished=True,
                                created_at=timezone.now())
    row = MatchAnalysis.objects.create(stream_id=stream_id, plies=settings.ANALYSIS_PLIES, status=MatchAnalysis.DONE,
                                       tournament_id=77, player0_id=ann.pk, player1_id=bob.pk)
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
