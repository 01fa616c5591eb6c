"""A tournament stream's state: the fold of its events (pure Python, no Django).

The events are in ``tournaments/events.py``; the decider (``tournaments/decider.py``) judges commands
against this state. Nothing derived is kept here: brackets, pairings and standings are computed from
these facts by ``tournaments/derive.py``, and the results of the slots' matches are facts of this very
stream (``SlotFinished``…, appended by the process manager), never read from the match streams.
"""

from __future__ import annotations

import copy
import dataclasses
from dataclasses import dataclass, field
from enum import StrEnum

from published import slots

from . import events as ev
from . import money
from .formats import ladder
from .events import STREAM_TYPE, stream_id_of, tournament_pk_of  # noqa: F401 - the stream's names, re-exported


class Format(StrEnum):
    SINGLE_ELIMINATION = "single_elimination"
    DOUBLE_ELIMINATION = "double_elimination"
    SWISS = "swiss"
    ROUND_ROBIN = "round_robin"
    LADDER = "ladder"
    LEAGUE = "league"
    TEAM_ROUND_ROBIN = "team_round_robin"  # teams of N boards, each team meeting each other (formats/teams.py)
    TEAM_SWISS = "team_swiss"  # teams of N boards paired round by round by their table of teams
    TEAM_KNOCKOUT = "team_knockout"  # a bracket of teams of N boards


FORMATS = tuple(f.value for f in Format)
TEAM_FORMATS = (Format.TEAM_ROUND_ROBIN, Format.TEAM_SWISS, Format.TEAM_KNOCKOUT)  # the formats whose entrants are teams


@dataclass
class PaperResult:
    winner: int
    loser: int
    winner_points: int
    loser_points: int
    length: int
    forfeit: bool = False


@dataclass(frozen=True)
class MatchOutcome:
    """What the stream knows of a slot's match: started at all, voided, who won (a player) and the score
    (winner's points, loser's points) once it is over."""

    match_id: str
    players: tuple[int, int]
    started: bool = False
    voided: bool = False
    winner: int | None = None
    score: tuple[int, int] = (0, 0)
    finished: bool = False
    version: int = 0  # the match stream's version the last fact about it came from


@dataclass
class MoneyFacts:
    """The money recorded in the stream (the director's ``MoneySet``, side-pool entries, the Calcutta's lots,
    sales and buy-backs, the payouts made); every share is computed from these and the results, never stored."""

    settings: dict = field(default_factory=dict)  # the last MoneySet's (empty: no money recorded)
    side_pool: list[int] = field(default_factory=list)  # its entrants, in the order they entered
    lots: dict[str, money.Lot] = field(default_factory=dict)  # by name, in the order they were added
    sales: dict[str, money.Sale] = field(default_factory=dict)  # lot -> its sale (a later one replaces it)
    syndicates: dict[str, str] = field(default_factory=dict)  # lot -> the syndicate its owner bid for
    members: dict[str, tuple[str, ...]] = field(default_factory=dict)  # lot -> its syndicate's members
    payouts: list = field(default_factory=list)  # the PayoutMade events, in order
    jackpots: dict = field(default_factory=dict)  # name -> tournaments.events.JackpotFacts, in the order opened
    jackpot_of: tuple[int, str] | None = None  # this event is that night's jackpot's knockout

    @property
    def recorded(self) -> bool:
        return bool(self.settings or self.lots or self.payouts or self.jackpots)


@dataclass
class Facts:
    """Everything recorded in a tournament stream."""

    version: int = 0
    config: dict = field(default_factory=dict)
    entered: list[int] = field(default_factory=list)
    entered_round: dict[int, int] = field(default_factory=dict)
    checked_in: set[int] = field(default_factory=set)
    withdrawn: dict[int, int] = field(default_factory=dict)  # player -> rounds published when they withdrew
    seeds: list[int] | None = None
    rounds: list[list[tuple[int, int | None]]] = field(default_factory=list)
    forbidden: set[frozenset[int]] = field(default_factory=set)
    matches: dict[str, dict] = field(default_factory=dict)  # slot -> {"match_id", "players", "length"}
    superseded: dict[str, list[str]] = field(default_factory=dict)  # slot -> voided earlier match ids
    outcomes: dict[str, MatchOutcome] = field(default_factory=dict)  # match id -> what its slot facts say
    paper: dict[str, PaperResult] = field(default_factory=dict)
    confirmations: dict[str, dict[int, ev.ResultConfirmed]] = field(default_factory=dict)
    corrections: dict[str, PaperResult] = field(default_factory=dict)
    kept: dict[str, str] = field(default_factory=dict)  # slot -> match id the director kept
    round_paired_at: list[int] = field(default_factory=list)  # stream version of each round's pairing
    corrected_at: int = 0  # stream version of the latest correction
    tables: dict[str, int] = field(default_factory=dict)  # slot -> table number
    out_of_service: set[int] = field(default_factory=set)  # tables the director closed
    # a ladder: its challenges, and the joins, leaves and settlements in the order they were recorded
    challenges: dict[int, ladder.Challenge] = field(default_factory=dict)
    ladder_log: list = field(default_factory=list)
    # a league: its divisions and clock (``DivisionsMade``) and the matches settled by the unplayed rule
    divisions: list[tuple[int, ...]] = field(default_factory=list)
    league_clock: tuple[int, int] = (0, 7)  # (starts_at, round_days)
    unplayed: set[str] = field(default_factory=set)
    league_previous: int | None = None  # the league event this season's divisions were made from
    stage_closed: tuple[int, ...] | None = None  # stage one's table when the director closed it
    stage_seeds: list[int] | None = None  # the knockout stage's draw
    reentries: list[tuple[int, str]] = field(default_factory=list)  # (player, first-round place), in order
    reentry_closed: bool = False
    money: MoneyFacts = field(default_factory=MoneyFacts)
    # a team event: its teams by number ({"name", "members": board order, then the reserves}) and the line-ups
    # set for one team match ((round, team) -> the players, board 1 first; none set: the team's first N members)
    teams: dict[int, dict] = field(default_factory=dict)
    lineups: dict[tuple[int, int], tuple[int, ...]] = field(default_factory=dict)
    # a Swiss of teams: each round's team matches as paired (``TeamRoundPaired``), round 1 first
    team_rounds: list[tuple[tuple[int, int | None], ...]] = field(default_factory=list)
    # a slot's match reported from another server with its file, waiting for consent: {"match_id", "player"}
    proofs: dict[str, dict] = field(default_factory=dict)

    @property
    def staged(self) -> bool:
        """A Swiss or round robin whose top ``qualifiers`` go on to a knockout."""
        return bool(self.config.get("qualifiers")) and self.format in (Format.SWISS, Format.ROUND_ROBIN)

    @property
    def team_staged(self) -> bool:
        """A round robin of teams whose top ``qualifiers`` teams go on to a knockout of teams."""
        return bool(self.config.get("qualifiers")) and self.format == Format.TEAM_ROUND_ROBIN

    rated_event: bool | None = None  # the director's RatedSet for the whole event (None: the setting "rated")
    rated_slots: dict[str, bool] = field(default_factory=dict)  # slot -> its own RatedSet
    published: bool = True  # the last VisibilitySet (none: an event is public from its creation)

    @property
    def event_rated(self) -> bool:
        return self.config.get("rated", True) if self.rated_event is None else self.rated_event

    def slot_rated(self, slot: str) -> bool:
        """A slot's own setting, else the event's."""
        return self.rated_slots.get(slot, self.event_rated)

    @property
    def format(self) -> str:
        return self.config.get("format", "")

    @property
    def drawn(self) -> bool:
        return self.seeds is not None

    @property
    def active(self) -> list[int]:
        return [p for p in self.entered if p not in self.withdrawn]

    def slot_of(self, match_id: str) -> str | None:
        return next((slot for slot, link in self.matches.items() if link["match_id"] == match_id), None)


def event_of(row) -> ev.TournamentEvent:
    """The typed event of a stored row (``event_type``, ``payload``), as the log's read path gives it: older
    schemas upcast by the types' own declarations (``eventlog/upcasting.py``)."""
    return ev.from_payload(row.event_type, row.payload)


def fold(rows) -> Facts:
    """The state after the stored rows (each with ``event_type``, ``payload``, ``version``), in order."""
    facts = Facts()
    for row in rows:
        apply(facts, event_of(row), row.version)
    return facts


def evolve(facts: Facts, event: ev.TournamentEvent, version: int | None = None) -> Facts:
    """The state after one more event; ``facts`` is left as it was. (``fold`` applies in place: the same result
    without copying the state at every event.)"""
    new = copy.deepcopy(facts)
    apply(new, event, facts.version + 1 if version is None else version)
    return new


def apply(facts: Facts, e: ev.TournamentEvent, version: int) -> None:
    """``evolve`` in place: for a fold, and for callers that apply facts they just decided to their own copy."""
    facts.version = version
    match e:
        case ev.TournamentConfigured(config=config):
            facts.config = dict(config)
        case ev.SettingsChanged(settings=settings):
            kept = {k: facts.config[k] for k in ev.SETTINGS_KEPT if k in facts.config}
            facts.config = {**settings, **kept}
        case ev.PlayerEntered(player_id=pid, from_round=from_round):
            if facts.drawn and facts.format == Format.LADDER:
                facts.ladder_log.append(ladder.Join(pid))
            if pid not in facts.entered:
                facts.entered.append(pid)
            facts.entered_round[pid] = from_round
            facts.withdrawn.pop(pid, None)
        case ev.PlayerCheckedIn(player_id=pid):
            facts.checked_in.add(pid)
        case ev.PlayerCheckInCancelled(player_id=pid):
            facts.checked_in.discard(pid)
        case ev.PlayerWithdrew(player_id=pid):
            facts.withdrawn[pid] = len(facts.rounds)
            if facts.drawn and facts.format == Format.LADDER:
                facts.ladder_log.append(ladder.Leave(pid))
        case ev.DrawMade(seeds=seeds):
            facts.seeds = list(seeds)
        case ev.RoundPaired(round=round_no, pairings=pairings):
            pairs = [(a, b) for a, b in pairings]
            if round_no <= len(facts.rounds):
                facts.rounds[round_no - 1] = pairs  # re-paired before any match of it started
            else:
                facts.rounds.append(pairs)
            del facts.round_paired_at[round_no - 1:]
            facts.round_paired_at.append(version)
        case ev.PairingForbidden(players=players):
            facts.forbidden.add(frozenset(players))
        case ev.MatchCreated(slot=slot, match_id=match_id, players=players, length=length):
            old = facts.matches.get(slot)
            if old:
                facts.superseded.setdefault(slot, []).append(old["match_id"])
            facts.matches[slot] = {"match_id": match_id, "players": tuple(players), "length": length}
            facts.outcomes.setdefault(match_id, MatchOutcome(match_id, (players[0], players[1])))
            facts.kept.pop(slot, None)
            facts.proofs.pop(slot, None)
        case ev.ResultReported():
            facts.paper[e.slot] = _paper(e)
            facts.confirmations.pop(e.slot, None)
            _settle(facts, e.slot, "played")
        case ev.ResultConfirmed():
            facts.confirmations.setdefault(e.slot, {})[e.player_id] = e
        case ev.SlotResultCorrected():
            facts.corrections[e.slot] = _paper(e)
            facts.corrected_at = version
        case ev.MatchForfeited():
            facts.paper[e.slot] = _paper(e, forfeit=True)
            _settle(facts, e.slot, "walkover")
        case ev.MatchKept(slot=slot, match_id=match_id):
            facts.kept[slot] = match_id
        case ev.TableAssigned(slot=slot, table=table):
            facts.tables[slot] = table
        case ev.TableService(table=table, in_service=in_service):
            (facts.out_of_service.discard if in_service else facts.out_of_service.add)(table)
        case ev.StageClosed(standings=standings):
            facts.stage_closed = tuple(standings)
        case ev.StageDrawMade(seeds=seeds):
            facts.stage_seeds = list(seeds)
        case ev.PlayerReentered(player_id=pid, place=place):
            facts.reentries.append((pid, place))
        case ev.ReentryClosed():
            facts.reentry_closed = True
        case ev.RatedSet(rated=rated, slot=slot):
            if slot:
                facts.rated_slots[slot] = rated
            else:
                facts.rated_event = rated
        case ev.VisibilitySet(published=published):
            facts.published = published
        case ev.SlotMatchStarted() | ev.SlotFinished() | ev.SlotMatchResultCorrected() | ev.SlotMatchVoided():
            _match_fact(facts, e)
            if isinstance(e, ev.SlotFinished):
                _settle(facts, e.slot, "played" if e.how != "forfeit" else "walkover")
            if isinstance(e, ev.SlotMatchVoided):
                _void_slot_result(facts, e.slot, e.match_id)
        case ev.ChallengeIssued():
            facts.challenges[e.number] = ladder.Challenge(e.number, e.challenger, e.defender, e.issued_at,
                                                          e.deadline, e.length)
        case ev.ChallengeDeclined() | ev.ChallengeLapsed():
            how = "refused" if isinstance(e, ev.ChallengeDeclined) else "lapsed"
            facts.ladder_log.append(ladder.Settle(e.number, "cancelled" if e.outcome == "cancelled" else how))
        case ev.DivisionsMade():
            facts.divisions = [tuple(d) for d in e.divisions]
            facts.league_clock = (e.starts_at, e.round_days)
            facts.league_previous = e.previous
        case ev.MatchUnplayed(slot=slot):
            facts.unplayed.add(slot)
        case _ if hasattr(e, "fold"):
            e.fold(facts)  # an event that says its own state change beside its fields (tournaments/events.py)


def _settle(facts: Facts, slot: str, how: str) -> None:
    """A ladder challenge's result, at the moment it was recorded: the ladder moves in this order (a settlement
    already made, or one whose result is later voided, is passed over by ``ladder.derive``)."""
    if facts.format == Format.LADDER and slot.startswith("ladder:c") and slot[8:].isdigit():
        facts.ladder_log.append(ladder.Settle(int(slot[8:]), how))


def _void_slot_result(facts: Facts, slot: str, match_id: str) -> None:
    """One slot, one result (``published/slots.py``): voiding the slot's current match voids the result it was
    closed with (reported on paper, or a forfeit), so the slot is open again; the director reports it again."""
    link = facts.matches.get(slot)
    paper = facts.paper.get(slot)
    if link is None or link["match_id"] != match_id or paper is None:
        return
    if slots.voided_with_match((paper.winner, paper.loser), link["players"]):
        del facts.paper[slot]
        facts.confirmations.pop(slot, None)
    if facts.kept.get(slot) == match_id:
        del facts.kept[slot]


def _match_fact(facts: Facts, e) -> None:
    o = facts.outcomes.get(e.match_id) or MatchOutcome(e.match_id, (0, 0))
    match e:
        case ev.SlotMatchStarted():
            o = _replace(o, started=True)
        case ev.SlotFinished():
            o = _replace(o, started=True, finished=True, winner=e.winner, score=(e.winner_points, e.loser_points))
        case ev.SlotMatchResultCorrected():
            o = _replace(o, started=True, finished=True, winner=e.winner, score=(e.winner_points, e.loser_points))
        case ev.SlotMatchVoided():
            o = _replace(o, voided=True, winner=None, started=True, finished=True)  # as a match over
    facts.outcomes[e.match_id] = _replace(o, version=max(o.version, e.match_version))


def _replace(outcome: MatchOutcome, **changes) -> MatchOutcome:
    return dataclasses.replace(outcome, **changes)


def _paper(e, forfeit: bool = False) -> PaperResult:
    return PaperResult(e.winner, e.loser, e.winner_points, e.loser_points, e.length, forfeit)
