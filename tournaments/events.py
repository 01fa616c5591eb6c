"""The tournament stream's events: typed, frozen, and read from and written to the log as JSON payloads.

Pure Python (no Django): the decider (``tournaments/decider.py``) decides these and folds them. Each
payload is the event's fields, with the stored names; the event type is the class's name. Facts that
come from the event's matches (appended by the process manager, ``tournaments/process.py``) are named
``Slot…``: they say what the slot's match did, in the tournament's own terms.

========================  =====================================================================
``TournamentConfigured``  the event's settings (format, lengths, rounds, tie-breaks, limits…)
``PlayerEntered``         a player entered (``from_round`` > 1: a late entry to a Swiss event)
``PlayerCheckedIn``       a player is present for the draw
``PlayerCheckInCancelled``  a check-in undone by the director (before the draw)
``PlayerWithdrew``        a player left: their remaining matches are lost by forfeit
``DrawMade``              the seeding, by random draw, rating or the director's hand
``RoundPaired``           a Swiss round's pairings (re-paired while none of its matches began)
``PairingForbidden``      two players who must not meet (same club, family…)
``MatchCreated``          the process manager created the match of a slot
``ResultReported``        a result on paper, by the director or both players agreeing
``ResultConfirmed``       one player's half of a result the two players report
``SlotResultCorrected``   the director's correction of a slot's result (stored as ``ResultCorrected``
                          with schema 1: read through the upcaster below)
``MatchForfeited``        a player lost a slot without playing it (a no-show)
``MatchKept``             the director keeps a match whose pairing a correction made wrong
``SlotMatchStarted``      the slot's match began (its first game's opening roll)
``SlotFinished``          the slot's match ended: won at the board, or closed by the event
``SlotMatchResultCorrected``  the slot's match's result was set by a director on the match itself
``SlotMatchVoided``       the slot's match was voided
``TableAssigned``         the slot's match is played at this table (by the process manager, or the director)
``TableService``          the director took a table out of service, or put it back
``ChallengeIssued``       a ladder challenge (its slot ``ladder:c{n}``), with its deadline
``ChallengeDeclined``     the defender refused a challenge (``outcome``: a walkover, or cancelled)
``ChallengeLapsed``       a challenge unplayed by its deadline (``outcome`` as above)
``DivisionsMade``         a league's divisions (made at its draw) and its clock: start, days per round
``MatchUnplayed``         a league match nobody played by its round's deadline (the unplayed rule)
``StageClosed``           the director closed stage one (a Swiss or round robin): its final table
``StageDrawMade``         the draw of stage two, the knockout: the qualifiers seeded by that table
``PlayerReentered``       a buy-back: an eliminated player takes a first-round place kept open
``ReentryClosed``         no more re-entries: the places still open become byes
``RatedSet``              the event (``slot`` empty) or one slot's match is rated or unrated from now on
``SettingsChanged``       the director's new settings, whole (format, limits and ``rated`` kept as they were)
``VisibilitySet``         the event published or hidden from now on (none recorded: published, the default)
``RoundClockSet``         whether a round's (a bracket's, the event's) matches are clocked, with which preset
``RoundOnlineSet``        whether a round's (the event's) matches are played online: disconnect clock, deadline
``MoneySet``              the event's money from now on, whole: fees, the house's cut, the payout tables
``SidePoolEntered``       a player entered the side pool (or left it: ``entered`` false)
``LotAdded``              a lot of the Calcutta: one player, a pair, or the field
``LotSold``               a lot sold at the auction to its owner (a syndicate's bidder, one of its members) for a price
``LotBoughtBack``         a bought lot's players bought back half, paying its owner half the price
``PayoutMade``            money paid out: to whom (a player or a lot's owner), how much, when
``JackpotOpened``         a jackpot of the night: its seats, buy-in, the house's cut, its table, its matches' length
``JackpotBought``         a player bought a seat of a jackpot
``JackpotLeft``           a buyer left a jackpot before it started (or withdrew from the night), refunded
``JackpotStarted``        a full jackpot is played from now on as its own event, among its buyers
``JackpotOf``             (in the jackpot's own event) the night and the jackpot whose knockout it is
``TeamRegistered``        a team of a team event: its number, name and members (board order, then reserves)
``LineupSet``             the players a team puts on its boards for one team match (round), board 1 first
``TeamRoundPaired``       a Swiss of teams' round paired (its team matches), once and for good
``ProofFiled``            a player reported the slot's match, played on another server, with its match file (an
                          import awaiting the other player's consent; their consent makes it the slot's match)
``ProofDeclined``         the file waiting in a slot refused, with the reason, by the other player or the director
========================  =====================================================================

The facts other apps read (the setting "rated", ``RatedSet``, ``VisibilitySet``, ``MatchCreated``, the results
decided off the board) are defined in the published language (``published/tournaments.py``), with their schema
and upcasters; every event here shares their base.

Time enters the decider as data: a command that depends on the clock carries the reading the service took
(``at``, whole seconds since the epoch), and the events record it, so a replay never reads a clock.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field

from published.language import Upcaster

from . import money
from published.tournaments import (  # noqa: F401 - the published ones are this stream's events too
    STREAM_TYPE, MatchCreated, MatchForfeited, RatedSet, ResultReported, SlotResult, SlotResultCorrected,
    TournamentConfigured, TournamentFact, VisibilitySet, stream_id_of, tournament_pk_of,
)

TournamentEvent = TournamentFact  # every event of the stream, published or the tournament's own


@dataclass(frozen=True)
class PlayerEntered(TournamentEvent):
    player_id: int
    from_round: int = 1


@dataclass(frozen=True)
class PlayerCheckedIn(TournamentEvent):
    player_id: int


@dataclass(frozen=True)
class PlayerCheckInCancelled(TournamentEvent):
    player_id: int


@dataclass(frozen=True)
class PlayerWithdrew(TournamentEvent):
    player_id: int
    reason: str = ""


@dataclass(frozen=True)
class DrawMade(TournamentEvent):
    seeds: tuple[int, ...]
    method: str = "manual"


@dataclass(frozen=True)
class RoundPaired(TournamentEvent):
    round: int
    pairings: tuple[tuple[int, int | None], ...]
    manual: bool = False


@dataclass(frozen=True)
class PairingForbidden(TournamentEvent):
    players: tuple[int, int]


@dataclass(frozen=True)
class ResultConfirmed(SlotResult):
    rating_ramp: str = "fibs"
    player_id: int = 0

    def agrees_with(self, other: ResultConfirmed) -> bool:
        return dataclasses.replace(self, player_id=0) == dataclasses.replace(other, player_id=0)


@dataclass(frozen=True)
class MatchKept(TournamentEvent):
    slot: str
    match_id: str


@dataclass(frozen=True)
class SlotMatchStarted(TournamentEvent):
    slot: str
    match_id: str
    match_version: int


@dataclass(frozen=True)
class SlotFinished(TournamentEvent):
    slot: str
    match_id: str
    match_version: int
    winner: int
    loser: int
    winner_points: int = 0
    loser_points: int = 0
    how: str = "board"  # "board" (won), "paper" or "forfeit" (closed by the event)


@dataclass(frozen=True)
class SlotMatchResultCorrected(TournamentEvent):
    slot: str
    match_id: str
    match_version: int
    winner: int | None
    loser: int | None
    winner_points: int = 0
    loser_points: int = 0
    reason: str = ""


@dataclass(frozen=True)
class SlotMatchVoided(TournamentEvent):
    slot: str
    match_id: str
    match_version: int
    reason: str = ""


@dataclass(frozen=True)
class TableAssigned(TournamentEvent):
    slot: str
    table: int
    by_director: bool = False  # False: chosen by the process manager when it created the match


@dataclass(frozen=True)
class TableService(TournamentEvent):
    table: int
    in_service: bool


@dataclass(frozen=True)
class ChallengeIssued(TournamentEvent):
    number: int
    challenger: int
    defender: int
    issued_at: int
    deadline: int
    length: int


@dataclass(frozen=True)
class ChallengeDeclined(TournamentEvent):
    number: int
    player_id: int | None  # the defender who refused; None: the director, on their behalf
    at: int
    outcome: str  # "walkover" (to the challenger, with its MatchForfeited) or "cancelled"
    reason: str = ""


@dataclass(frozen=True)
class ChallengeLapsed(TournamentEvent):
    number: int
    at: int
    outcome: str  # as ChallengeDeclined's


@dataclass(frozen=True)
class DivisionsMade(TournamentEvent):
    divisions: tuple[tuple[int, ...], ...]
    starts_at: int
    round_days: int
    previous: int | None = None  # the league event the divisions were made from (promotion and relegation)


@dataclass(frozen=True)
class MatchUnplayed(TournamentEvent):
    slot: str
    at: int


@dataclass(frozen=True)
class StageClosed(TournamentEvent):
    stage: int
    standings: tuple[int, ...]  # the stage's table at closing, best first (a round robin of teams: team numbers)


@dataclass(frozen=True)
class StageDrawMade(TournamentEvent):
    stage: int
    seeds: tuple[int, ...]  # players; a round robin of teams' knockout: team numbers
    method: str = "standings"


@dataclass(frozen=True)
class PlayerReentered(TournamentEvent):
    player_id: int
    place: str  # the first-round slot whose open place the re-entry takes
    entry: int  # 2 for a first buy-back, 3 for a second…


@dataclass(frozen=True)
class ReentryClosed(TournamentEvent):
    open_places: tuple[str, ...] = ()  # the places left open, byes from now on


# what a change of settings keeps: the format and the site's limits are the event's record, rated-or-not is
# changed by RatedSet (which the ratings projection follows) once the event exists, and the rounds' clocks by their
# own command (RoundClockSet)
SETTINGS_KEPT = ("format", "max_players", "rated", "clock", "online")


@dataclass(frozen=True)
class SettingsChanged(TournamentEvent):
    """The director's settings from now on, whole: every setting but ``SETTINGS_KEPT`` is replaced."""

    settings: dict = field(default_factory=dict)


def _round_clock_v1(payload: dict) -> dict:
    # schema 1 gave a flat budget in minutes and a delay, which players could use: a custom clock, allowed
    return {"round": payload.get("round"), "bracket": "",
            "rule": {"use": "allowed", "preset": "custom", "per_match": payload["minutes"] * 60, "per_point": 0,
                     "per_scored": 0, "delay": payload["delay"], "overtime": 0}}


@dataclass(frozen=True)
class RoundClockSet(TournamentEvent):
    """Whether the matches of a round, a bracket, a bracket's round or the whole event (``round`` None and
    ``bracket`` empty) are clocked, and how: ``rule`` as a match is given it (``SetRoundClock.rule``). It is a
    setting of the event: folded into its settings' ``clock`` under :func:`clock_key`, replacing the key's
    earlier rule."""

    schema_version = 2
    upcasts = (Upcaster("RoundClockSet", 1, _round_clock_v1),)

    round: int | None
    bracket: str
    rule: dict

    def fold(self, facts) -> None:
        clock = {**facts.config.get("clock", {}), clock_key(self.bracket, self.round): self.rule}
        facts.config = {**facts.config, "clock": clock}


def clock_key(bracket: str, round: int | None) -> str:
    """Where the event's settings keep a clock rule: "default", "3" (round 3), "main", "main:3"."""
    if not bracket:
        return "default" if round is None else str(round)
    return bracket if round is None else f"{bracket}:{round}"


def clock_rule_for(config: dict, bracket: str, round: int) -> dict | None:
    """The clock rule a slot's match is created with: its bracket's round's, else its round's, its bracket's, the
    event's default; None where the director set none (any clock)."""
    rules = config.get("clock", {})
    for key in (clock_key(bracket, round), clock_key("", round), clock_key(bracket, None), "default"):
        if key in rules:
            return rules[key]
    return None


@dataclass(frozen=True)
class RoundOnlineSet(TournamentEvent):
    """Whether the matches of a round (or the whole event's: ``round`` None) are played online, and how:
    ``rule`` as ``SetRoundOnline.rule`` gives it. A setting of the event: folded into its settings' ``online`` under
    :func:`online_key`, replacing the key's earlier rule."""

    round: int | None
    rule: dict

    def fold(self, facts) -> None:
        facts.config = {**facts.config, "online": {**facts.config.get("online", {}), online_key(self.round): self.rule}}


def online_key(round: int | None) -> str:
    """Where the event's settings keep an online rule: "default", or the round's number."""
    return "default" if round is None else str(round)


def online_rule_for(config: dict, round: int) -> dict | None:
    """The online rule a slot's match is created with (``games.online.checked_rule``, in seconds): its round's,
    else the event's; None where its matches are played at the board."""
    rules = config.get("online", {})
    rule = rules.get(online_key(round), rules.get("default"))
    if not rule or not rule.get("online"):
        return None
    return {"disconnect": rule["disconnect"], "start_within": rule["start_within"] * 60, "late": rule["late"] * 60}


@dataclass(frozen=True)
class MoneySet(TournamentEvent):
    """The event's money from now on, whole (``tournaments.commands.SetMoney.money``): the currency and its unit
    of payment, the fees, the house's cut, the payout tables of the pools and the Calcutta (``tournaments.money``).
    Every share is computed again from it: what was paid before stays paid, and shows as owed or overpaid."""

    money: dict = field(default_factory=dict)

    def fold(self, facts) -> None:
        facts.money.settings = dict(self.money)


@dataclass(frozen=True)
class SidePoolEntered(TournamentEvent):
    player_id: int
    entered: bool = True

    def fold(self, facts) -> None:
        side = facts.money.side_pool
        if self.entered and self.player_id not in side:
            side.append(self.player_id)
        elif not self.entered and self.player_id in side:
            side.remove(self.player_id)


@dataclass(frozen=True)
class LotAdded(TournamentEvent):
    """A lot of the Calcutta: ``players`` (one, or a pair), or the ``field`` (everyone in no other lot)."""

    name: str
    players: tuple[int, ...] = ()
    field: bool = False

    def fold(self, facts) -> None:
        facts.money.lots[self.name] = money.Lot(self.name, tuple(self.players), self.field)


def _lot_sold_v1(payload: dict) -> dict:
    # schema 1 named a syndicate without its members: its bidder, the owner, is the one member it named
    syndicate = payload.get("syndicate", "")
    return {**payload, "members": [payload["owner"]] if syndicate else []}


@dataclass(frozen=True)
class LotSold(TournamentEvent):
    """``lot`` sold to ``owner`` (the bidder) for ``price`` (minor units); a later sale of the same lot (a bid
    corrected) replaces it. A syndicate's sale names it and its ``members``, the bidder among them: the bidder is
    the owner, the one payee of the lot's return."""

    schema_version = 2
    upcasts = (Upcaster("LotSold", 1, _lot_sold_v1),)

    lot: str
    owner: str
    price: int
    syndicate: str = ""
    members: tuple[str, ...] = ()

    def fold(self, facts) -> None:
        facts.money.sales[self.lot] = money.Sale(self.lot, self.owner, self.price)
        facts.money.syndicates[self.lot] = self.syndicate
        facts.money.members[self.lot] = tuple(self.members)


@dataclass(frozen=True)
class LotBoughtBack(TournamentEvent):
    """The players of ``lot`` bought back half of it: they pay its owner half the price and share its return
    50/50."""

    lot: str

    def fold(self, facts) -> None:
        sale = facts.money.sales.get(self.lot)
        if sale is not None:  # a reader takes any fact; verify_log names a buy-back of no sale
            facts.money.sales[self.lot] = dataclasses.replace(sale, bought_back=True)


@dataclass(frozen=True)
class PayoutMade(TournamentEvent):
    """``amount`` (minor units) paid to a player (``player_id``) or a lot's owner (``owner``) at ``at`` (seconds
    since the epoch): what was paid, never changed by a later correction of the shares."""

    amount: int
    at: int
    player_id: int | None = None
    owner: str = ""
    note: str = ""

    def fold(self, facts) -> None:
        facts.money.payouts.append(self)


@dataclass(frozen=True)
class JackpotOpened(TournamentEvent):
    """A jackpot of the night: ``size`` seats at ``buy_in`` (minor units) each, the house's cut (``cut_fixed`` or
    ``cut_percent`` rounded as the pools' cut, whichever is greater), paid by ``table`` to the finishes of its own
    knockout of ``length``-point matches among its buyers (``tournaments/jackpots.py``)."""

    name: str
    buy_in: int
    size: int
    table: str = "winner_takes_all"
    cut_fixed: int = 0
    cut_percent: int = 0
    length: int = 5

    def fold(self, facts) -> None:
        facts.money.jackpots[self.name] = JackpotFacts(self.name, self.buy_in, self.size, self.table, self.cut_fixed,
                                                       self.cut_percent, self.length)


@dataclass
class JackpotFacts:
    """A jackpot as its events left it: its terms, its buyers in the order they bought, and once started the
    event its knockout is played in."""

    name: str
    buy_in: int
    size: int
    table: str
    cut_fixed: int
    cut_percent: int
    length: int
    buyers: list[int] = field(default_factory=list)
    event_id: int | None = None

    @property
    def full(self) -> bool:
        return len(self.buyers) >= self.size


@dataclass(frozen=True)
class JackpotBought(TournamentEvent):
    """``player_id`` bought a seat of ``jackpot``."""

    jackpot: str
    player_id: int

    def fold(self, facts) -> None:
        jackpot = facts.money.jackpots.get(self.jackpot)
        if jackpot is not None and self.player_id not in jackpot.buyers:
            jackpot.buyers.append(self.player_id)


@dataclass(frozen=True)
class JackpotLeft(TournamentEvent):
    """``player_id`` left ``jackpot`` before it started, their buy-in handed back (``withdrew``: they withdrew from
    the night)."""

    jackpot: str
    player_id: int
    withdrew: bool = False

    def fold(self, facts) -> None:
        jackpot = facts.money.jackpots.get(self.jackpot)
        if jackpot is not None and self.player_id in jackpot.buyers:
            jackpot.buyers.remove(self.player_id)


@dataclass(frozen=True)
class JackpotStarted(TournamentEvent):
    """``jackpot``, full, is played from now on as the event ``event_id`` (its knockout among ``players``, its
    buyers): its seats are final, and its finishes pay its pool."""

    jackpot: str
    event_id: int
    players: tuple[int, ...] = ()

    def fold(self, facts) -> None:
        jackpot = facts.money.jackpots.get(self.jackpot)
        if jackpot is not None:
            jackpot.event_id = self.event_id


@dataclass(frozen=True)
class JackpotOf(TournamentEvent):
    """This event is the knockout of jackpot ``jackpot`` of the night ``night_id``: the night's ledger pays its
    finishes (the first event of the jackpot's stream after its settings)."""

    night_id: int
    jackpot: str

    def fold(self, facts) -> None:
        facts.money.jackpot_of = (self.night_id, self.jackpot)


JACKPOT_EVENTS = (JackpotOpened, JackpotBought, JackpotLeft, JackpotStarted, JackpotOf)
MONEY_EVENTS = (MoneySet, SidePoolEntered, LotAdded, LotSold, LotBoughtBack, PayoutMade, *JACKPOT_EVENTS)


@dataclass(frozen=True)
class TeamRegistered(TournamentEvent):
    """A team of a team event: its number (1, 2… in the order they registered), its name and its ``members``,
    the board order first, then its reserves (``tournaments/formats/teams.py``)."""

    number: int
    name: str
    members: tuple[int, ...]

    def fold(self, facts) -> None:
        facts.teams[self.number] = {"name": self.name, "members": tuple(self.members)}


@dataclass(frozen=True)
class LineupSet(TournamentEvent):
    """The players ``team`` puts on the boards of its team match of ``round``, board 1 first (none set: the first
    N members of the team as it registered)."""

    round: int
    team: int
    players: tuple[int, ...]

    def fold(self, facts) -> None:
        facts.lineups[(self.round, self.team)] = tuple(self.players)


@dataclass(frozen=True)
class TeamRoundPaired(TournamentEvent):
    """A round of a Swiss of teams paired: its team matches (first-listed team, opponent or None for the bye), as
    the table of teams paired them when the rounds before it were played out. Recorded once, before its boards'
    matches are made, and never paired again: a correction of an earlier board re-ranks the table and pairs the
    rounds still to come, never this one."""

    round: int
    pairings: tuple[tuple[int, int | None], ...]

    def fold(self, facts) -> None:
        pairs = tuple((a, b) for a, b in self.pairings)
        if self.round <= len(facts.team_rounds):
            facts.team_rounds[self.round - 1] = pairs
        else:
            facts.team_rounds.append(pairs)


TEAM_EVENTS = (TeamRegistered, LineupSet, TeamRoundPaired)


@dataclass(frozen=True)
class ProofFiled(TournamentEvent):
    """``player`` reported the match of ``slot``, played on another server, with its match file: imported as
    ``match_id``, it waits for the other player's consent (``tournaments/proofs.py``), which makes it the slot's
    match (``MatchCreated``). A later file replaces it."""

    slot: str
    match_id: str
    player: int

    def fold(self, facts) -> None:
        facts.proofs[self.slot] = {"match_id": self.match_id, "player": self.player}


@dataclass(frozen=True)
class ProofDeclined(TournamentEvent):
    """The match file waiting in ``slot`` (imported as ``match_id``) refused, with ``reason``, by the slot's other
    player (``player``) or the event's director (``player`` None): it no longer waits, its import is voided, and the
    slot is played, reported or decided as any other."""

    slot: str
    match_id: str
    reason: str
    player: int | None = None

    def fold(self, facts) -> None:
        if facts.proofs.get(self.slot, {}).get("match_id") == self.match_id:
            del facts.proofs[self.slot]


LADDER_EVENTS = (ChallengeIssued, ChallengeDeclined, ChallengeLapsed)
LEAGUE_EVENTS = (DivisionsMade, MatchUnplayed)

EVENTS: dict[str, type[TournamentEvent]] = {
    cls.__name__: cls
    for cls in (TournamentConfigured, PlayerEntered, PlayerCheckedIn, PlayerWithdrew, DrawMade, RoundPaired,
                PairingForbidden, MatchCreated, ResultReported, ResultConfirmed, SlotResultCorrected, MatchForfeited,
                MatchKept, SlotMatchStarted, SlotFinished, SlotMatchResultCorrected, SlotMatchVoided, StageClosed,
                StageDrawMade, PlayerReentered, ReentryClosed, TableAssigned, TableService, PlayerCheckInCancelled,
                RatedSet, SettingsChanged, VisibilitySet, RoundClockSet, RoundOnlineSet, *LADDER_EVENTS,
                *LEAGUE_EVENTS,
                *MONEY_EVENTS, *TEAM_EVENTS, ProofFiled, ProofDeclined)
}
# events that change no result, only how the matches to come are played or the event's money: a follower of the
# results (the seasons, subscribed by published.tournaments.EVENT_TYPES) need not be told of them
CHANGES_NO_RESULT: tuple[type[TournamentEvent], ...] = (RoundClockSet, RoundOnlineSet, *MONEY_EVENTS, ProofFiled,
                                                        ProofDeclined)
# facts the process manager appends from the slots' matches
MATCH_FACTS = ("SlotMatchStarted", "SlotFinished", "SlotMatchResultCorrected", "SlotMatchVoided")


class UnknownEvent(ValueError):
    """A row of a type this module does not know (not a tournament event)."""


def from_payload(event_type: str, payload: dict) -> TournamentEvent:
    """The typed event of a payload of today's schema (the log's read path upcasts older rows)."""
    cls = EVENTS.get(event_type)
    if cls is None:
        raise UnknownEvent(f"unknown tournament event {event_type!r}")
    return cls.from_payload(payload)
