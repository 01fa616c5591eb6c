"""A tournament stream's published facts: what an event says that other apps read (the ratings, the seasons):
its setting "rated" and the director's ``RatedSet``, its visibility, which match plays a slot, and the results
its director decided off the board (on paper, by forfeit, corrected). Which result a slot counts is
``published.slots``'s rule.

The tournaments app's own events share their base (``TournamentFact``) and are defined in
``tournaments/events.py``; :data:`EVENT_TYPES` names every type a tournament stream holds, for a follower that
reads all of them.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .language import DEFAULT_RAMP, Fact, Upcaster, _json

STREAM_TYPE = "tournament"


def stream_id_of(tournament_pk: int) -> str:
    return f"tournament-{tournament_pk}"


def tournament_pk_of(stream_id: str) -> int:
    return int(stream_id.rsplit("-", 1)[1])


@dataclass(frozen=True)
class TournamentFact(Fact, abstract=True):
    stream_type = STREAM_TYPE


@dataclass(frozen=True)
class TournamentConfigured(TournamentFact):
    """The event's settings; its payload is the settings themselves."""

    config: dict = field(default_factory=dict)

    def to_payload(self) -> dict:
        return _json(dict(self.config))

    @classmethod
    def from_payload(cls, payload: dict):
        return cls(dict(payload))

    @property
    def rated(self) -> bool:
        return self.config.get("rated", True) is not False


@dataclass(frozen=True)
class MatchCreated(TournamentFact):
    """``match_id`` plays ``slot`` from now on (a slot's earlier match, voided, is superseded)."""

    slot: str
    match_id: str
    players: tuple[int, int]
    length: int


@dataclass(frozen=True)
class SlotResult(TournamentFact, abstract=True):
    slot: str
    winner: int
    loser: int
    winner_points: int = 0
    loser_points: int = 0
    length: int = 0


@dataclass(frozen=True)
class ResultReported(SlotResult):
    """A result on paper, by the director or both players agreeing."""

    rating_ramp: str = DEFAULT_RAMP
    reported_by: str = "director"  # or "players"


@dataclass(frozen=True)
class SlotResultCorrected(SlotResult):
    """The director's correction of a slot's result. Schema 1 stored it as ``ResultCorrected``, the match's
    correction's name."""

    schema_version = 2
    upcasts = (Upcaster("ResultCorrected", 1),)

    rating_ramp: str = DEFAULT_RAMP
    reason: str = ""


@dataclass(frozen=True)
class MatchForfeited(SlotResult):
    """A player lost a slot without playing it (a no-show)."""

    reason: str = ""

    @property
    def rating_ramp(self) -> str:
        return DEFAULT_RAMP  # never rated; named as every slot result's is


@dataclass(frozen=True)
class RatedSet(TournamentFact):
    """Rated or not (federations' rated-match policies): the whole event when ``slot`` is empty, else one slot
    (a walkover, a friendly). A slot's own setting wins over the event's. Unrated results stay out of the ratings
    and the season tables; the event's own standings still count them."""

    rated: bool
    slot: str = ""


@dataclass(frozen=True)
class VisibilitySet(TournamentFact):
    """The event published (public) or hidden (a draft, seen by its officials and entrants only). A hidden event's
    results count nowhere public: the ratings, the records and the season tables read them as if they had always been
    public once it is published, and leave them out again when it is hidden."""

    published: bool


@dataclass(frozen=True)
class Win:
    """A match a player won in an event: in which bracket and round, by forfeit or not, and whether it was rated."""

    bracket: str
    round: int
    forfeit: bool
    rated: bool


@dataclass(frozen=True)
class Finish:
    player: int
    place: int  # in the event's main table, the champion first
    wins: tuple[Win, ...] = ()


@dataclass(frozen=True)
class EventFinishes:
    """What an event gave each player, as the event itself reads its stream (its brackets, tables and the slots'
    counted results): asked of the tournaments app by whoever scores events (a season), through the composition
    root (``settings.EVENT_FINISHES_PROVIDER``: a function of the event's id), never by reading its modules.

    ``finished``: the event has its winner (else no finishes); ``rated`` and ``published``: its setting and
    director's word, and its visibility, as they stand."""

    finished: bool
    rated: bool
    published: bool
    finishes: tuple[Finish, ...] = ()

    @property
    def field_size(self) -> int:
        return len(self.finishes)


FACTS = (TournamentConfigured, MatchCreated, ResultReported, SlotResultCorrected, MatchForfeited, RatedSet,
         VisibilitySet)

# every type a tournament stream holds (the published ones and the tournament's own, tournaments/events.py)
EVENT_TYPES = (
    "TournamentConfigured", "PlayerEntered", "PlayerCheckedIn", "PlayerWithdrew", "DrawMade", "RoundPaired",
    "PairingForbidden", "MatchCreated", "ResultReported", "ResultConfirmed", "SlotResultCorrected", "MatchForfeited",
    "MatchKept", "SlotMatchStarted", "SlotFinished", "SlotMatchResultCorrected", "SlotMatchVoided", "StageClosed",
    "StageDrawMade", "PlayerReentered", "ReentryClosed", "TableAssigned", "TableService", "PlayerCheckInCancelled",
    "RatedSet", "SettingsChanged", "VisibilitySet", "ChallengeIssued", "ChallengeDeclined", "ChallengeLapsed",
    "DivisionsMade", "MatchUnplayed", "TeamRegistered", "LineupSet", "TeamRoundPaired",
)
