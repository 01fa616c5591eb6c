"""What a chouette stream says that others read: its session sheet, which a club may count in a season's tables.

The games app writes the stream (``games/chouettes.py``) and answers :class:`ChouetteSheet` through the composition
root (``settings.CHOUETTE_SHEET_PROVIDER``); the seasons follow the events that change the sheet by these names.
"""

from __future__ import annotations

from dataclasses import dataclass

STREAM_TYPE = "chouette"
# the engine's events that write a game's results to the session sheet (games/engine/chouette.py)
SHEET_CHANGED_BY = ("ChouetteGameWon",)


@dataclass(frozen=True)
class ChouetteSheet:
    """A chouette session's sheet as it stands: every player's net points (by the name they sat down with, in the
    order the session started; the points sum to zero) and the games played."""

    stream_id: str
    totals: tuple[tuple[str, int], ...]
    games: int = 0
