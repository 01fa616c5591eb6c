"""What a tournament gave each player, as a season reads it: the event's published finishes
(``published.tournaments.EventFinishes``), asked of the tournaments app through the composition root
(``settings.EVENT_FINISHES_PROVIDER``), so a corrected result changes the season too and seasons reads no
tournament's modules."""

from __future__ import annotations

from datetime import date
from functools import lru_cache

from django.conf import settings
from django.utils.module_loading import import_string

from published.chouettes import ChouetteSheet
from published.tournaments import EventFinishes

from . import scoring


@lru_cache(maxsize=1)
def _provider(path: str):
    return import_string(path)


def event_finishes(tournament_id: int) -> EventFinishes:
    return _provider(settings.EVENT_FINISHES_PROVIDER)(tournament_id)


def chouette_sheet(stream_id: str) -> ChouetteSheet:
    """A chouette session's sheet as it stands (``settings.CHOUETTE_SHEET_PROVIDER``)."""
    return _provider(settings.CHOUETTE_SHEET_PROVIDER)(stream_id)


def chouette_result(sheet: ChouetteSheet, on: date, players: dict[str, int]) -> scoring.EventResult:
    """A chouette night as the season scores it: each named player's net points on the sheet."""
    finishes = tuple(scoring.Finish(players[name], 0, (), points) for name, points in sheet.totals if name in players)
    return scoring.EventResult(sheet.stream_id, on, len(sheet.totals), finishes, chouette=True)


def finishes_of(tournament_id: int) -> tuple[bool, bool, bool, int, list[dict]]:
    """(finished, rated, published, field size, [{"player", "place", "wins": [[bracket, round, forfeit, rated],
    ...]}]): the event's finishes as a season keeps them.

    An event counts for a season once it has its winner, and only while it is rated (an unrated event's matches
    stay out of the season tables) and published (a hidden event counts nowhere public: its stream's last
    ``VisibilitySet``); an unrated slot's win is not counted."""
    done = event_finishes(tournament_id)
    finishes = [{"player": f.player, "place": f.place,
                 "wins": [[w.bracket, w.round, w.forfeit, w.rated] for w in f.wins]} for f in done.finishes]
    return done.finished, done.rated, done.published, done.field_size, finishes


def event_result(tournament_id: int, on: date, field_size: int, finishes: list[dict]) -> scoring.EventResult:
    return scoring.EventResult(tournament_id, on, field_size, tuple(
        scoring.Finish(f["player"], f["place"], tuple(scoring.Win(*win) for win in f["wins"]))
        for f in finishes))
