"""Tournament formats: structure derived from recorded facts, pure Python.

No Django, no I/O, no randomness: every function here is a pure function of
its inputs (entries in seed order, recorded results keyed by slot,
withdrawals, published pairings), so the platform stores only the facts and
re-derives the rest on every change; a corrected result re-derives
everything downstream of it.

- ``single_elimination.derive``: Main bracket, Consolation and Last Chance flights.
- ``double_elimination.derive``: winners', losers' brackets and grand final (with reset).
- ``swiss.pair_round`` / ``swiss.standings``: Swiss pairing and tables.
- ``round_robin.derive``: Berger tables, one or more cycles, with standings.
- ``ladder.derive``: a challenge ladder's rungs, challenges and history.
- ``league.derive`` / ``league.next_season``: divisions of round robins, promotion and relegation.

The value types live in ``core``; ``knockout`` is the shared machinery of the
elimination formats, ``matching`` the blossom matching Swiss relies on.
"""

from . import double_elimination, ladder, league, round_robin, single_elimination, swiss
from .core import (
    BYE,
    DONE,
    READY,
    WAITING,
    Bracket,
    FormatError,
    Lengths,
    Pairing,
    PairingError,
    Result,
    Slot,
    Standing,
)
from .standings import TIEBREAKS, standings

__all__ = [
    "BYE",
    "DONE",
    "READY",
    "TIEBREAKS",
    "WAITING",
    "Bracket",
    "FormatError",
    "Lengths",
    "Pairing",
    "PairingError",
    "Result",
    "Slot",
    "Standing",
    "double_elimination",
    "ladder",
    "league",
    "round_robin",
    "single_elimination",
    "standings",
    "swiss",
]
