"""Reads of the ratings projection: a club's list and a player's history."""

from __future__ import annotations

from players.models import Player

from .formula import PROVISIONAL_BELOW
from .models import PlayerRating, RatingChange

SORTS = {"rating": "-rating", "experience": "-experience", "matches": "-matches", "name": "name"}


def rating_list(*, club_id: int | None = None, sort: str = "rating") -> list[dict]:
    """Active players (at least one rated match), with experience and the provisional flag."""
    players = Player.objects.all()
    if club_id is not None:
        players = players.filter(club_id=club_id)
    names = dict(players.values_list("pk", "display_name"))
    rows = [
        {
            "player_id": r.player_id,
            "name": names[r.player_id],
            "rating": round(r.rating, 2),
            "experience": r.experience,
            "matches": r.matches,
            "provisional": r.experience < PROVISIONAL_BELOW,
        }
        for r in PlayerRating.objects.filter(player_id__in=names)
    ]
    key = SORTS.get(sort, "-rating")
    reverse = key.startswith("-")
    rows.sort(key=lambda row: (row[key.lstrip("-")], row["name"]) if not reverse else (-row[key.lstrip("-")], row["name"]))
    return rows


def rating_history(player_id: int) -> list[dict]:
    return [
        {
            "match": c.match_key,
            "seq": c.seq,
            "opponent_id": c.opponent_id,
            "won": c.won,
            "length": c.length,
            "rating_before": c.rating_before,
            "rating_after": c.rating_after,
            "experience_after": c.experience_after,
        }
        for c in RatingChange.objects.filter(player_id=player_id).order_by("seq")
    ]


def player_rating(player_id: int) -> dict:
    row = PlayerRating.objects.filter(player_id=player_id).first()
    rating, experience = (row.rating, row.experience) if row else (1500.0, 0)
    return {"rating": round(rating, 2), "experience": experience, "provisional": experience < PROVISIONAL_BELOW}
