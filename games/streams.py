"""A match stream: the platform's events around the engine's, and their fold.

A match stream starts with ``MatchRegistered`` (who the players are in the
platform, which tournament), then holds the engine's events (``MatchStarted``,
``DiceRolled``, ``CheckersMoved``…), and may end with a director's
``ResultCorrected`` or ``MatchVoided``. The engine judges its own events; the
platform events are judged by the services.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from typing import NamedTuple

from games.engine import events as engine_events
from games.engine.match import MatchState, evolve

STREAM_TYPE = "match"
REGISTERED = "MatchRegistered"
RESULT_CORRECTED = "ResultCorrected"
VOIDED = "MatchVoided"
SEED_COMMITTED = "DiceSeedCommitted"
SEED_REVEALED = "DiceSeedRevealed"
PLATFORM_EVENTS = (REGISTERED, RESULT_CORRECTED, VOIDED, SEED_COMMITTED, SEED_REVEALED)


@dataclass(frozen=True)
class Correction:
    winner: int | None
    score: tuple[int, int]
    reason: str


@dataclass(frozen=True)
class MatchRecord:
    """Everything known of one match: registration, engine state, director's decisions."""

    stream_id: str
    version: int = 0
    player_ids: tuple[int | None, int | None] = (None, None)
    tournament_id: int | None = None
    published: bool = True
    state: MatchState = field(default_factory=MatchState)
    correction: Correction | None = None
    voided: str | None = None
    created_at: object = None

    @property
    def finished(self) -> bool:
        return self.voided is not None or self.correction is not None or self.state.phase == "over"

    @property
    def winner(self) -> int | None:
        if self.voided is not None:
            return None
        if self.correction is not None:
            return self.correction.winner
        return self.state.winner

    @property
    def score(self) -> tuple[int, int]:
        return self.correction.score if self.correction else tuple(self.state.score)


class Pending(NamedTuple):
    """An event about to be appended, shaped like a stored row so that it can be folded first."""

    event_type: str
    payload: dict
    version: int
    recorded_at: object = None


def engine_event(event_type: str, payload: dict):
    return engine_events.from_dict({"type": event_type, **payload})


def engine_payload(event) -> tuple[str, dict]:
    data = engine_events.to_dict(event)
    return data.pop("type"), data


def fold(stream_id: str, rows, record: MatchRecord | None = None, check=None) -> MatchRecord:
    """Fold stored events (with ``event_type``, ``payload``, ``version``) into a :class:`MatchRecord`.

    Given ``record``, the rows are the events after it and are folded onto it. Given ``check``, it is
    called with the engine's state after each engine event (the services' limits, before appending).
    """
    record = record or MatchRecord(stream_id)
    state = record.state
    changes: dict = {}
    for row in rows:
        kind, payload = row.event_type, row.payload
        if kind == REGISTERED:
            changes.update(
                player_ids=tuple(payload["player_ids"]),
                tournament_id=payload.get("tournament_id"),
                published=payload.get("published", True),
                created_at=getattr(row, "recorded_at", None),
            )
        elif kind == RESULT_CORRECTED:
            winner = payload.get("winner")
            changes["correction"] = Correction(winner, tuple(payload["score"]), payload.get("reason", ""))
        elif kind == VOIDED:
            changes["voided"] = payload.get("reason", "")
        elif kind in (SEED_COMMITTED, SEED_REVEALED):
            pass  # the dice's proof: nothing the rules look at
        else:
            state = evolve(state, engine_event(kind, payload))
            if check is not None:
                check(state)
        changes["version"] = row.version
    return dataclasses.replace(record, state=state, **changes)
