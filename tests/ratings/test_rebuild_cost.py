"""The cost of a ratings rebuild: a fixed number of queries per batch, whatever the field."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from eventlog import projections
from players.models import Player
from ratings.models import PlayerRating, RatingChange

from .season import recompute, season


def rebuild_queries(field: int, played: list) -> tuple[int, int]:
    """Queries of a rebuild after 60 more matches among ``field`` new players (``played``: every match so far):
    (all of them, those that are not bulk inserts)."""
    players = [Player.objects.create(display_name=f"Field {field} player {i}").pk for i in range(field)]
    played += season(players, 60, seed=field)
    with CaptureQueriesContext(connection) as queries:
        projections.rebuild("ratings")
    expected = {pid: (r.rating, r.experience) for pid, r in recompute([(w, l, n) for _, w, l, n in played]).items()}
    assert {r.player_id: (r.rating, r.experience) for r in PlayerRating.objects.all()} == expected
    assert RatingChange.objects.count() == 2 * len(played)
    return len(queries), sum(not q["sql"].startswith("INSERT") for q in queries.captured_queries)


@pytest.mark.django_db
def test_a_rebuild_does_not_query_player_by_player():
    """60 matches among 8 players, then 60 more among 60 others: a rebuild of either is one batch, and makes
    as many queries. Before, every player met for the
    first time cost one query of their own (2,000 in bench/ratings.py)."""
    played: list = []
    projections.run("ratings")  # the checkpoint's row exists before either count
    small = rebuild_queries(8, played)  # 60 matches, 8 players
    large = rebuild_queries(60, played)  # 120 matches, 68 players: still one batch
    if connection.vendor == "sqlite":  # Django splits a bulk insert by SQLite's 999 parameters: more rows, more
        small, large = small[1], large[1]  # inserts there; every other query as many
    assert large == small, (small, large)
