"""A match stream's published facts: what the platform says of a match, as the apps that follow matches read it
(the ratings, the tournament's process manager). The games app writes them (``games/streams.py``); the moves
in between are the engine's own and are not published.

``MatchWon`` is the board's result; ``MatchClosed`` a result its event took from elsewhere (on paper, a
forfeit); ``ResultCorrected`` and ``MatchVoided`` a director's word on the match itself.
"""

from __future__ import annotations

from dataclasses import dataclass

from .language import DEFAULT_RAMP, Fact, Upcaster

STREAM_TYPE = "match"


@dataclass(frozen=True)
class MatchFact(Fact, abstract=True):
    stream_type = STREAM_TYPE


def _registered_v1(payload: dict) -> dict:
    # schema 1 named no officiating director and was rated with the FIBS ramp
    return {"officiating_director_id": None, "rating_ramp": DEFAULT_RAMP, **payload}


@dataclass(frozen=True)
class MatchRegistered(MatchFact):
    """Who plays (``player_ids``, the seats' players; ``partners`` their partners in a consultation match), its
    rating ramp and whether it counts: rated, public, vouched for (an import waits for the other player's
    ``ImportConfirmed``)."""

    schema_version = 2
    upcasts = (Upcaster("MatchRegistered", 1, _registered_v1),)

    player_ids: tuple[int, int]
    rating_ramp: str = DEFAULT_RAMP
    rated: bool | None = True
    published: bool | None = True
    awaiting_confirmation: bool = False
    tournament_id: int | None = None
    officiating_director_id: int | None = None
    # a consultation match: each side's second player (``player_ids`` the first), who plays the side's checkers
    # with them; never rated (docs/features.md, "Consultation matches")
    partners: tuple[int, int] | None = None


@dataclass(frozen=True)
class MatchStarted(MatchFact):
    length: int = 0


@dataclass(frozen=True)
class GameStarted(MatchFact):
    """A game's opening roll: the first one says the match began."""


@dataclass(frozen=True)
class MatchWon(MatchFact):
    winner: int  # a seat
    score: tuple[int, int] = (0, 0)


@dataclass(frozen=True)
class MatchClosed(MatchFact):
    """Its event recorded the result off the board: ``how`` is "paper" (with the score) or "forfeit"."""

    winner: int
    score: tuple[int, int] | None = None
    how: str = "paper"


@dataclass(frozen=True)
class ResultCorrected(MatchFact):
    """A director set the match's result (``winner`` a seat; None: no winner)."""

    winner: int | None = None
    score: tuple[int, int] = (0, 0)
    reason: str = ""


@dataclass(frozen=True)
class MatchVoided(MatchFact):
    reason: str = ""


@dataclass(frozen=True)
class MatchRatedSet(MatchFact):
    rated: bool


@dataclass(frozen=True)
class MatchVisibilityChanged(MatchFact):
    published: bool


@dataclass(frozen=True)
class ImportConfirmed(MatchFact):
    """An imported match vouched for: it counts from here, as it then stood."""

    player_ids: tuple[int, int]
    length: int = 0
    rating_ramp: str = DEFAULT_RAMP
    finished: bool = False
    winner: int | None = None
    voided: bool = False
    published: bool | None = True
    by_seat: int | None = None


FACTS = (MatchRegistered, MatchStarted, GameStarted, MatchWon, MatchClosed, ResultCorrected, MatchVoided,
         MatchRatedSet, MatchVisibilityChanged, ImportConfirmed)
