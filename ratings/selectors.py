"""Reads of the ratings projection: a club's list and a player's history."""

from __future__ import annotations

from players.models import Player

from .formula import PROVISIONAL_BELOW
from .models import PlayerRating, RatedMatch, RatedSlot, RatingChange

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
    """The player's rated matches in order: opponent, date, and where to see the match.

    ``match`` is the rated result's key (a match stream, or an event's slot ``tournament-<pk>:<slot>``);
    ``match_id`` is a match stream one can open (the slot's match when it has one that was not voided) and
    ``tournament_id`` the event, so a page never links to an address that does not exist."""
    from eventlog.models import Event

    changes = list(RatingChange.objects.filter(player_id=player_id).order_by("seq"))
    slot_keys = [c.match_key for c in changes if ":" in c.match_key]
    slot_match = dict(RatedSlot.objects.filter(slot_key__in=slot_keys).values_list("slot_key", "match_key"))
    voided = set(RatedMatch.objects.filter(key__in=list(slot_match.values()), voided=True).values_list("key", flat=True))
    dates = dict(Event.objects.filter(global_position__in=[c.seq for c in changes])
                 .values_list("global_position", "recorded_at"))
    names = dict(Player.objects.filter(pk__in={c.opponent_id for c in changes}).values_list("pk", "display_name"))
    out = []
    for c in changes:
        if ":" in c.match_key:
            stream, _ = c.match_key.split(":", 1)
            tournament_id = int(stream.rsplit("-", 1)[1])
            match_id = slot_match.get(c.match_key) or None
            match_id = None if match_id in voided else match_id
        else:
            tournament_id, match_id = None, c.match_key
        out.append({
            "match": c.match_key,
            "match_id": match_id,
            "tournament_id": tournament_id,
            "seq": c.seq,
            "date": dates.get(c.seq),
            "opponent_id": c.opponent_id,
            "opponent": names.get(c.opponent_id, ""),
            "won": c.won,
            "length": c.length,
            "rating_before": c.rating_before,
            "rating_after": c.rating_after,
            "experience_after": c.experience_after,
        })
    return out


def player_rating(player_id: int) -> dict:
    row = PlayerRating.objects.filter(player_id=player_id).first()
    rating, experience = (row.rating, row.experience) if row else (1500.0, 0)
    return {"rating": round(rating, 2), "experience": experience, "provisional": experience < PROVISIONAL_BELOW}
