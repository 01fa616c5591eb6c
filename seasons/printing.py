"""The season table's PDF printed by a worker, once per state of the table and language.

WeasyPrint takes seconds of CPU for a page and holds the interpreter while it works: printed on a web node's
thread, it stalled every request of that process (a bystander's page took 3.5 s behind one print). So a web
request only looks the sheet up (:class:`~seasons.models.PrintedSheet`, keyed by a digest of what it prints):
found, it is served; not found, the first request claims it and sends the print to a worker, and every request
until it is there is answered "being printed" (apikit/printing.py). The embedded default's tasks run in-process,
so there the first request prints it and is served at once.
"""

from __future__ import annotations

from datetime import timedelta

from django.db import IntegrityError, transaction
from django.utils import timezone, translation

from apikit.printing import key_of

from . import selectors, sheets
from .models import PrintedSheet, Season

CLAIM_SECONDS = 120  # a claim older than this is a print whose worker died: claimed again


def table_key(season: Season, data: dict, base_url: str, language: str) -> str:
    return key_of(f"season-{season.pk}", [data, str(season.club or ""), base_url], language)


def table_pdf(season: Season, *, base_url: str) -> bytes | None:
    """The season table's PDF in the reader's language if it is printed; else None, the print asked for."""
    language = translation.get_language()
    key = table_key(season, selectors.season_data(season), base_url, language)
    row = PrintedSheet.objects.filter(key=key).only("pdf", "claimed_at").first()
    if row is not None and row.pdf is not None:
        return bytes(row.pdf)
    if _claim(key, row):
        from .tasks import print_season_table

        print_season_table.delay(season.pk, base_url, language, key)
        found = PrintedSheet.objects.filter(key=key).values_list("pdf", flat=True).first()  # printed in-process?
        return bytes(found) if found is not None else None
    return None


def _claim(key: str, row: PrintedSheet | None) -> bool:
    now = timezone.now()
    if row is None:
        try:
            with transaction.atomic():
                PrintedSheet.objects.create(key=key, claimed_at=now)
            return True
        except IntegrityError:  # another request claimed it first
            return False
    stale = now - timedelta(seconds=CLAIM_SECONDS)
    return PrintedSheet.objects.filter(key=key, pdf__isnull=True, claimed_at__lt=stale).update(claimed_at=now) == 1


def print_table(*, season_pk: int, base_url: str, language: str, claimed: str) -> str | None:
    """Print the table as it is now (the worker's part); returns its key. Stored under the key of what it printed:
    the table may have moved on since the claim, whose row then goes. Older prints of the season in that language
    go too."""
    season = Season.objects.select_related("club").filter(pk=season_pk).first()
    if season is None:
        PrintedSheet.objects.filter(key=claimed).delete()
        return None
    with translation.override(language):
        data = selectors.season_data(season)
        key = table_key(season, data, base_url, language)
        if not PrintedSheet.objects.filter(key=key, pdf__isnull=False).exists():
            pdf = sheets.season_table_sheet(season, base_url=base_url, data=data)
            PrintedSheet.objects.update_or_create(key=key, defaults={"pdf": pdf, "claimed_at": timezone.now(),
                                                                     "printed_at": timezone.now()})
    kind = key.rsplit(":", 1)[0] + ":"
    PrintedSheet.objects.filter(key__startswith=kind).exclude(key=key).exclude(key=claimed, pdf__isnull=True).delete()
    if claimed != key:
        PrintedSheet.objects.filter(key=claimed, pdf__isnull=True).delete()
    return key
