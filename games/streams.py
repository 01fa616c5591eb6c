"""A match stream: the platform's events around the engine's, and their fold.

A match stream starts with ``MatchRegistered`` (who the players are in the
platform, who officiates it, its rating ramp, and an opaque label of the event
holding it, never looked up), then holds the engine's events (``MatchStarted``,
``DiceRolled``, ``CheckersMoved``…), and may end with a director's
``ResultCorrected`` or ``MatchVoided``, or with ``MatchClosed`` when its event
took the result from elsewhere (a paper result, a forfeit): one slot, one result;
``MatchVisibilityChanged`` follows its event being published or hidden; ``MatchOfficialAssigned`` names who
officiates it, when that was not known at registration (a match registered before registrations named him).
The engine judges its own events; the platform events are judged by the services.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from enum import StrEnum
from typing import NamedTuple

from games.engine import events as engine_events
from published import matches as published_matches
from games.engine.errors import MatchOver, Refusal
from games.engine.events import RollSource
from games.errors import Reason
from games.engine.match import OVER, MatchState, Phase, evolve

STREAM_TYPE = "match"
REGISTERED = "MatchRegistered"
RESULT_CORRECTED = "ResultCorrected"
VOIDED = "MatchVoided"
CLOSED = "MatchClosed"
SEED_COMMITTED = "DiceSeedCommitted"
SEED_REVEALED = "DiceSeedRevealed"
# whoever holds the match (its event) shows or hides it: a match follows its event's visibility
VISIBILITY_CHANGED = "MatchVisibilityChanged"
# an imported record counts for the ratings only once the other player (or an official) says it is true
IMPORT_CONFIRMED = "ImportConfirmed"
# who officiates the match (a user id), for a match whose registration did not say
OFFICIAL_ASSIGNED = "MatchOfficialAssigned"
# rated or not from now on (a friendly, a walkover): a match outside an event's slots; a slot's match is rated as its
# event says (the event's own RatedSet)
RATED_SET = "MatchRatedSet"
# the director called the match to its board (``at``, milliseconds): lateness counts from then
CALLED = "MatchCalled"
# an online match given to the player who stayed (games/online.py): what the server judged it on (who was away,
# since when, the limit, its reading); the engine's GameWon and MatchWon follow it
ONLINE_FORFEIT = "OnlineForfeitClaimed"
PLATFORM_EVENTS = (REGISTERED, RESULT_CORRECTED, VOIDED, CLOSED, SEED_COMMITTED, SEED_REVEALED, VISIBILITY_CHANGED,
                   IMPORT_CONFIRMED, OFFICIAL_ASSIGNED, RATED_SET, CALLED, ONLINE_FORFEIT)

# MatchRegistered's schema and how its older rows read are declared on its published type; a version-1
# registration reads as one with no officiating director (the data migration of the events that held such
# matches appends a MatchOfficialAssigned naming theirs) and the FIBS ramp, as it was rated.
REGISTERED_SCHEMA = published_matches.MatchRegistered.schema_version


class DiceSource(StrEnum):
    """Where a match's dice come from, fixed at registration (None for a stream registered before the rule)."""

    SERVER = "server"  # drawn from the game's committed seed
    BOARD = "board"  # read off the players' own dice


DICE_SOURCES = tuple(DiceSource)


class Ending(StrEnum):
    """How a match ended off the board; the read models show it as the match's phase instead of the board's."""

    VOIDED = "voided"
    CORRECTED = "corrected"  # a director set the result
    PAPER = "paper"  # its event recorded a result reported on paper
    FORFEIT = "forfeit"  # its event recorded a forfeit


CLOSINGS = (Ending.PAPER, Ending.FORFEIT)  # the ways a MatchClosed ends a match


@dataclass(frozen=True)
class Correction:
    winner: int | None
    score: tuple[int, int]
    reason: str


@dataclass(frozen=True)
class Closure:
    """The match's event recorded its result off the board: on paper (with the score) or by forfeit (none)."""

    winner: int
    score: tuple[int, int] | None
    how: Ending  # one of CLOSINGS

    def said(self, names=("player 1", "player 2")) -> Refusal:
        """How the match was closed, as data (the reader's language is the edge's to choose)."""
        winner, loser = names[self.winner], names[1 - self.winner]
        if self.how == Ending.FORFEIT:
            return Refusal(Reason.FORFEITED, loser=loser, winner=winner)
        if self.score:
            return Refusal(Reason.ON_PAPER_SCORE, winner=winner, won=self.score[self.winner],
                           lost=self.score[1 - self.winner])
        return Refusal(Reason.ON_PAPER, winner=winner)


@dataclass(frozen=True)
class MatchRecord:
    """Everything known of one match: registration, engine state, director's decisions."""

    stream_id: str
    version: int = 0
    player_ids: tuple[int | None, int | None] = (None, None)
    tournament_id: int | None = None  # a label for the event's lists; the match never looks it up
    officiating_director_id: int | None = None  # the user who officiates it (its event's director), if any
    rating_ramp: str = "fibs"  # the new-player ramp it is rated with, fixed by whoever created it
    published: bool = True
    rated: bool = True  # its creator's word (MatchRegistered's "rated"), then a director's MatchRatedSet
    state: MatchState = field(default_factory=MatchState)
    correction: Correction | None = None
    voided: str | None = None
    closed: Closure | None = None
    created_at: object = None
    import_warnings: tuple = ()  # ({"line", "reason"}, ...): a .mat file's quirks read leniently
    dice_source: str | None = None
    imported_by: int | None = None  # the seat of the player who imported the record, if one did
    awaiting_confirmation: bool = False
    # the server's dice: the game whose seed was committed last, and how many server rolls it has given (the
    # index of the next one, games/dice.py): read from the log, so a roll needs no bookkeeping row of its own
    seed_game: int = 0
    seed_rolls: int = 0
    called_at: int | None = None  # when the director called the match (milliseconds): lateness counts from then
    clock_rule: dict | None = None  # its round's clock rule, from its registration (games/clocks.py)
    # played online (games/online.py): the disconnect clock's limit, the start deadline and how late loses
    online: dict | None = None
    partner_ids: tuple[int, int] | None = None  # a consultation match: each seat's second player

    @property
    def consultation(self) -> bool:
        return self.partner_ids is not None

    @property
    def finished(self) -> bool:
        return (self.voided is not None or self.correction is not None or self.closed is not None
                or self.state.phase == OVER)

    @property
    def winner(self) -> int | None:
        if self.voided is not None:
            return None
        if self.correction is not None:
            return self.correction.winner
        if self.closed is not None:
            return self.closed.winner
        return self.state.winner

    @property
    def score(self) -> tuple[int, int]:
        if self.correction:
            return self.correction.score
        if self.closed:
            return self.closed.score or (0, 0)
        return tuple(self.state.score)

    @property
    def phase(self) -> Phase | Ending:
        """Where the match stands: how it ended off the board, or else the board's phase."""
        if self.voided is not None:
            return Ending.VOIDED
        if self.correction is not None:
            return Ending.CORRECTED
        if self.closed is not None:
            return self.closed.how
        return self.state.phase

    def why_over(self) -> MatchOver | None:
        """Why no command of the game is taken any more, in words a player understands; None while it is open."""
        if self.voided is not None:
            return MatchOver(Reason.VOIDED_BECAUSE, why=self.voided) if self.voided else MatchOver(Reason.VOIDED)
        if self.correction is not None:
            return MatchOver(Reason.RESULT_SET)
        if self.closed is not None:
            names = tuple(n or f"player {i + 1}" for i, n in enumerate(self.state.players))  # "": not started
            return MatchOver(Reason.OVER, how=self.closed.said(names))
        return None


class Pending(NamedTuple):
    """An event about to be appended, shaped like a stored row so that it can be folded first."""

    event_type: str
    payload: dict
    version: int
    recorded_at: object = None


def engine_event(event_type: str, payload: dict):
    """The engine event of a stored row, as the log's read path gives it (older schemas upcast, the stored rows
    never edited: ``eventlog/upcasting.py``, which :func:`engine_upcasters` feeds)."""
    shape = _SHAPES.get(event_type)
    if shape is None or "type" in payload:  # what from_dict refuses or reads otherwise, it says so
        return engine_events.from_dict({"type": event_type, **payload})
    cls, fields, required = shape
    values = {k: _tuples(v) if v.__class__ is list else v for k, v in payload.items()}
    if not (values.keys() <= fields and required <= values.keys()):
        return cls(**values)  # a field it lacks or does not know: refused as the class refuses it
    # from_dict's result without its copies of the payload nor the frozen class's __init__ (an object.__setattr__ a
    # field): the fold's cost per event, every rebuild folds the log. The same value: these classes have no
    # __post_init__ nor default_factory (checked below), so a field left out reads its default from the class.
    event = object.__new__(cls)
    event.__dict__.update(values)
    return event


def _shape(cls) -> tuple[type, frozenset, frozenset]:
    fields = dataclasses.fields(cls)
    if hasattr(cls, "__post_init__") or any(f.default_factory is not dataclasses.MISSING for f in fields):
        raise TypeError(f"{cls.__name__}: engine_event builds it without __init__, which it needs")
    return (cls, frozenset(f.name for f in fields),
            frozenset(f.name for f in fields if f.default is dataclasses.MISSING))


_SHAPES = {name: _shape(cls) for name, cls in engine_events.EVENT_TYPES.items()}


def _tuples(value: list) -> tuple:
    # a list built, then made a tuple: a third quicker than a tuple of a generator, over a rebuild's million events
    return tuple([_tuples(v) if v.__class__ is list else v for v in value])


def engine_upcasters():
    """The engine's own declarations (its schema table and ``upcast``) as the log's upcasting mechanism takes them:
    every type whose schema moved on, read from each older schema."""
    for name, current in engine_events.SCHEMA_VERSION.items():
        for older in range(1, current):
            yield (STREAM_TYPE, name, older, name,
                   lambda payload, name=name, older=older, current=current: (
                       name, engine_events.upcast(name, payload, older), current))


def engine_payload(event) -> tuple[str, dict]:
    data = engine_events.to_dict(event)
    return data.pop("type"), data


def fold(stream_id: str, rows, record: MatchRecord | None = None, check=None, built: dict | None = None) -> MatchRecord:
    """Fold stored events (with ``event_type``, ``payload``, ``version``) into a :class:`MatchRecord`.

    Given ``record``, the rows are the events after it and are folded onto it. Given ``check``, it is
    called with the engine's state after each engine event (the services' limits, before appending).
    Given ``built``, the engine events already made, by (type, ``id`` of the payload): for a caller whose rows
    share one payload object for equal payloads (a rebuild's), each made once; the caller keeps those payloads
    alive (an id is never reused while its object lives) and unchanged while it holds ``built``.
    """
    record = record or MatchRecord(stream_id)
    state = record.state
    changes: dict = {}
    seed_game, seed_rolls = record.seed_game, record.seed_rolls
    for row in rows:
        kind, payload = row.event_type, row.payload
        if kind == REGISTERED:
            changes.update(
                player_ids=tuple(payload["player_ids"]),
                tournament_id=payload.get("tournament_id"),
                officiating_director_id=payload["officiating_director_id"],
                rating_ramp=payload["rating_ramp"],
                published=payload.get("published", True),
                rated=payload.get("rated", True) is not False,
                created_at=getattr(row, "recorded_at", None),
                import_warnings=tuple(payload.get("import_warnings", ())),
                dice_source=payload.get("dice"),
                imported_by=payload.get("imported_by_seat"),
                awaiting_confirmation=bool(payload.get("awaiting_confirmation", False)),
                clock_rule=payload.get("clock"),
                online=payload.get("online"),
                partner_ids=tuple(payload["partners"]) if payload.get("partners") else None,
            )
        elif kind == OFFICIAL_ASSIGNED:
            changes["officiating_director_id"] = payload["officiating_director_id"]
        elif kind == IMPORT_CONFIRMED:
            changes["awaiting_confirmation"] = False
        elif kind == RESULT_CORRECTED:
            winner = payload.get("winner")
            changes["correction"] = Correction(winner, tuple(payload["score"]), payload.get("reason", ""))
        elif kind == VOIDED:
            changes["voided"] = payload.get("reason", "")
        elif kind == CLOSED:
            score = payload.get("score")
            changes["closed"] = Closure(payload["winner"], tuple(score) if score else None,
                                        Ending(payload.get("how", Ending.PAPER)))
        elif kind == VISIBILITY_CHANGED:
            changes["published"] = bool(payload["published"])
        elif kind == RATED_SET:
            changes["rated"] = bool(payload["rated"])
        elif kind == CALLED:
            changes["called_at"] = int(payload["at"])
        elif kind == SEED_COMMITTED:  # the dice's proof: nothing the rules look at
            seed_game, seed_rolls = payload["game"], 0
        elif kind in (SEED_REVEALED, ONLINE_FORFEIT):  # the dice's proof, a forfeit's grounds: the engine's events follow
            pass
        else:
            if kind in _ROLLS and payload.get("source", RollSource.SERVER) == RollSource.SERVER:
                seed_rolls += 1
            if built is None:
                event = engine_event(kind, payload)
            else:
                key = (kind, id(payload))
                event = built.get(key)
                if event is None:
                    event = built[key] = engine_event(kind, payload)
            state = evolve(state, event)
            if check is not None:
                check(state)
        changes["version"] = row.version
    return dataclasses.replace(record, state=state, seed_game=seed_game, seed_rolls=seed_rolls, **changes)


_ROLLS = ("OpeningRollTied", "GameStarted", "DiceRolled")  # each a roll of the dice (games/dice.py counts the same)
