"""Which result an event's slot counts: one rule, read by the event itself (its brackets and standings,
``tournaments/derive.py``) and by whoever counts its results elsewhere (the ratings, the seasons).

A slot has at most one result. The director's correction stands whatever became of the match. Else the result
decided off the board (on paper, or a forfeit). Else the result of the slot's current match, unless that match
was voided (a superseded match never counts). Voiding the slot's current match voids the result decided off the
board that closed it (the slot is open again until the director reports it anew), but not a correction, nor a
result between other players than the match's (one of a superseded pairing).
"""

from __future__ import annotations

from typing import TypeVar

R = TypeVar("R")


def counted(correction: R | None, decided: R | None, match_result: R | None) -> R | None:
    """The slot's one result: the correction, else the result decided off the board, else the current match's
    (None when that match was voided or is not over)."""
    if correction is not None:
        return correction
    if decided is not None:
        return decided
    return match_result


def voided_with_match(decided_players, match_players) -> bool:
    """Whether voiding the slot's current match (played by ``match_players``) voids the result decided off the
    board between ``decided_players``: only one between the same two."""
    return set(decided_players) == set(match_players)
