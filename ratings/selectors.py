"""Reads of the ratings projection: a club's list and a player's history."""

from __future__ import annotations

from django.conf import settings
from django.utils.module_loading import import_string

from apikit import ids
from players import authority
from players.models import Player
from players.selectors import display_names

from .formula import PROVISIONAL_BELOW
from .models import PlayerRating, RatedMatch, RatedSlot, RatingChange

SORTS = {"rating": "-rating", "experience": "-experience", "matches": "-matches", "name": "name"}


def rating_list(*, club_id: int | None = None, sort: str = "rating") -> list[dict]:
    """Active players (at least one rated match), with experience and the provisional flag."""
    players = Player.objects.all()
    if club_id is not None:  # a number past any row's id names no club (and SQLite could not bind it)
        players = players.filter(club_id=club_id) if ids.is_id(club_id) else players.none()
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


def rating_rows(player_ids: list[int]) -> list[dict]:
    """These players' ratings, in the order given: a page of the list."""
    names = display_names(player_ids)
    ratings = PlayerRating.objects.in_bulk(player_ids)
    return [{"player_id": p, "name": names.get(p, ""), "rating": round(ratings[p].rating, 2),
             "experience": ratings[p].experience, "matches": ratings[p].matches,
             "provisional": ratings[p].experience < PROVISIONAL_BELOW} for p in player_ids if p in ratings]


def rating_history(player_id: int, *, viewer=None) -> list[dict]:
    """The player's rated matches in order: opponent, date, and where to see the match; those of matches
    ``viewer`` may not see are left out.

    ``match`` is the rated result's key (a match stream, or an event's slot ``tournament-<pk>:<slot>``);
    ``match_id`` is a match stream one can open (the slot's match when it has one that was not voided) and
    ``tournament_id`` the event, so a page never links to an address that does not exist. A match of an
    unpublished event is hidden (its event's visibility, in the log) from all but officials and the player
    whose history it is; so is a paper result of such an event."""
    from eventlog.models import Event

    changes = list(RatingChange.objects.filter(player_id=player_id).order_by("seq"))
    if not _sees_hidden_results(viewer, player_id):
        hidden = hidden_results({c.match_key for c in changes})
        changes = [c for c in changes if c.match_key not in hidden]
    slot_keys = [c.match_key for c in changes if ":" in c.match_key]
    slot_match = dict(RatedSlot.objects.filter(slot_key__in=slot_keys).values_list("slot_key", "match_key"))
    voided = set(RatedMatch.objects.filter(key__in=list(slot_match.values()), voided=True).values_list("key", flat=True))
    dates = dict(Event.objects.filter(global_position__in=[c.seq for c in changes])
                 .values_list("global_position", "recorded_at"))
    names = display_names({c.opponent_id for c in changes})
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


def _sees_hidden_results(viewer, player_id: int) -> bool:
    if viewer is None or not viewer.is_authenticated:
        return False
    return authority.officiates_everything(viewer) or Player.objects.filter(pk=player_id, user=viewer).exists()


def hidden_results(keys: set[str]) -> set[str]:
    """The rated results (match stream ids, or ``tournament-<pk>:<slot>`` for paper results) that are hidden.

    A match stream says its own visibility (``MatchRegistered`` and any later ``MatchVisibilityChanged``, the
    last one standing); a paper result has the visibility of its event."""
    from eventlog.models import Event
    from published import language
    from published import matches as m

    slots = {k for k in keys if k.startswith("tournament-")}
    shown: dict[str, bool] = {}
    for row in (Event.objects.filter(stream_id__in=keys - slots,
                                     event_type__in=language.names(m.MatchRegistered, m.MatchVisibilityChanged))
                .order_by("stream_id", "version").values("stream_id", "payload")):
        shown[row["stream_id"]] = bool(row["payload"].get("published", True))
    hidden = {k for k, visible in shown.items() if not visible}
    events = {k: int(k.split(":", 1)[0].rsplit("-", 1)[1]) for k in slots if k.split(":", 1)[0].rsplit("-", 1)[1].isdigit()}
    if events:
        # ratings read games and players only: which events are public is answered by the provider the composition
        # root names (settings.PUBLISHED_EVENTS_PROVIDER, the tournaments' selector)
        public = set(import_string(settings.PUBLISHED_EVENTS_PROVIDER)(set(events.values())))
        hidden |= {k for k, pk in events.items() if pk not in public}
    return hidden


def player_rating(player_id: int) -> dict:
    row = PlayerRating.objects.filter(player_id=player_id).first()
    rating, experience = (row.rating, row.experience) if row else (1500.0, 0)
    return {"rating": round(rating, 2), "experience": experience, "provisional": experience < PROVISIONAL_BELOW}


class TournamentRatings:
    """What an event asks of the ratings, through ``settings.TOURNAMENT_RATINGS_PROVIDER`` (tournaments does not
    import ratings: the composition root names this class)."""

    @staticmethod
    def club_ramp(club_id: int | None) -> str:
        """The new-player ramp a club's events are rated with ("fibs" without a club or a rule)."""
        from .models import ClubRatingRule

        if club_id is None:
            return "fibs"
        return ClubRatingRule.objects.filter(club_id=club_id).values_list("ramp", flat=True).first() or "fibs"

    @staticmethod
    def ratings(player_ids) -> dict[int, float]:
        """The current rating of each rated player among ``player_ids`` (the unrated are left out)."""
        return dict(PlayerRating.objects.filter(player_id__in=list(player_ids)).values_list("player_id", "rating"))
