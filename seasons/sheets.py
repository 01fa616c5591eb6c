"""The season table as a PDF for the club's wall, printed as the events' sheets are (``tournaments/sheets.py``).

On paper a line through a number is easy to miss, or to read as another digit: a point outside the player's best
events is printed struck through *and* in brackets, greyed, with the key under the table.
"""

from __future__ import annotations

from django.urls import reverse
from django.utils.translation import gettext as _

from tournaments.models import Tournament
from tournaments.sheets import render_pdf

from . import selectors
from .models import Season, SeasonEvent

LANDSCAPE_FROM = 6  # events: more columns than fit across a portrait A4


def season_table_sheet(season: Season, *, base_url: str, data: dict | None = None) -> bytes:
    data = selectors.season_data(season) if data is None else data
    bests = sorted({r["rule"]["best"] for r in data["rules"] if r["rule"].get("best")})
    context = {"season": season, "data": data, "grid": selectors.table_grid(data), "bests": bests,
               "landscape": len(data["events"]) >= LANDSCAPE_FROM,
               "struck": any(not c["counted"] for row in data["table"] for c in row["scores"])}
    return render_pdf("seasons/sheets/table.html", context, base_url)


def console_links(tournament: Tournament) -> list[dict]:
    """For the director's console (``settings.CONSOLE_SHEETS``): the table of every season that counts the event."""
    ids = SeasonEvent.objects.filter(tournament_id=tournament.pk).values_list("season_id", flat=True)
    return [{"label": _("season table: %(season)s") % {"season": s.name},
             "url": reverse("season-table-pdf", args=[s.pk])}
            for s in Season.objects.filter(pk__in=ids).order_by("name", "pk")]
