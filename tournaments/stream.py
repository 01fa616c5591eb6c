"""A tournament stream: the director's and players' facts, folded.

Events (stream type ``tournament``, stream id ``tournament-<pk>``):

``TournamentConfigured``  format and its settings (lengths per bracket and round, rounds, tie-breaks…)
``PlayerEntered`` / ``PlayerCheckedIn`` / ``PlayerWithdrew``
``DrawMade``              the seed order (random, by rating, or the director's), for the record
``RoundPaired``           a Swiss round's pairings as published (automatic or the director's override)
``PairingForbidden``      two players who must not meet (family members…)
``MatchCreated``          the match stream made for a slot (by the process manager)
``ResultReported``        a final score for a match played on paper (director, or both players agreeing)
``ResultConfirmed``       one player's word on a paper result (two that agree make a ResultReported)
``ResultCorrected``       the director's correction of an earlier result
``MatchForfeited``        a forfeit or no-show
``MatchKept``             the director keeps a match whose pairing a correction made wrong

Nothing derived is stored here: brackets, pairings of rounds not yet published
and standings are computed from these facts and the match streams' results.
"""

from __future__ import annotations

from dataclasses import dataclass, field

STREAM_TYPE = "tournament"
FORMATS = ("single_elimination", "double_elimination", "swiss", "round_robin")


def stream_id_of(tournament_pk: int) -> str:
    return f"tournament-{tournament_pk}"


@dataclass
class PaperResult:
    winner: int
    loser: int
    winner_points: int
    loser_points: int
    length: int
    forfeit: bool = False


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
    paper: dict[str, PaperResult] = field(default_factory=dict)
    confirmations: dict[str, dict[int, dict]] = field(default_factory=dict)
    corrections: dict[str, PaperResult] = field(default_factory=dict)
    kept: dict[str, str] = field(default_factory=dict)  # slot -> match id the director kept
    round_paired_at: list[int] = field(default_factory=list)  # stream version of each round's pairing
    corrected_at: int = 0  # stream version of the latest correction

    @property
    def format(self) -> str:
        return self.config.get("format", "")

    @property
    def drawn(self) -> bool:
        return self.seeds is not None


def fold(rows) -> Facts:
    facts = Facts()
    for row in rows:
        apply(facts, row.event_type, row.payload)
        facts.version = row.version
        if row.event_type == "RoundPaired":
            del facts.round_paired_at[row.payload["round"] - 1 :]
            facts.round_paired_at.append(row.version)
        elif row.event_type == "ResultCorrected":
            facts.corrected_at = row.version
    return facts


def apply(facts: Facts, kind: str, p: dict) -> None:
    if kind == "TournamentConfigured":
        facts.config = dict(p)
    elif kind == "PlayerEntered":
        if p["player_id"] not in facts.entered:
            facts.entered.append(p["player_id"])
        facts.entered_round[p["player_id"]] = p.get("from_round", 1)
        facts.withdrawn.pop(p["player_id"], None)
    elif kind == "PlayerCheckedIn":
        facts.checked_in.add(p["player_id"])
    elif kind == "PlayerWithdrew":
        facts.withdrawn[p["player_id"]] = len(facts.rounds)
    elif kind == "DrawMade":
        facts.seeds = list(p["seeds"])
    elif kind == "RoundPaired":
        pairs = [(a, b) for a, b in p["pairings"]]
        if p["round"] <= len(facts.rounds):
            facts.rounds[p["round"] - 1] = pairs  # re-paired before any match of it started
        else:
            facts.rounds.append(pairs)
    elif kind == "PairingForbidden":
        facts.forbidden.add(frozenset(p["players"]))
    elif kind == "MatchCreated":
        old = facts.matches.get(p["slot"])
        if old:
            facts.superseded.setdefault(p["slot"], []).append(old["match_id"])
        facts.matches[p["slot"]] = {"match_id": p["match_id"], "players": tuple(p["players"]), "length": p["length"]}
        facts.kept.pop(p["slot"], None)
    elif kind == "ResultReported":
        facts.paper[p["slot"]] = _result(p)
        facts.confirmations.pop(p["slot"], None)
    elif kind == "ResultConfirmed":
        facts.confirmations.setdefault(p["slot"], {})[p["player_id"]] = p
    elif kind == "ResultCorrected":
        facts.corrections[p["slot"]] = _result(p)
    elif kind == "MatchForfeited":
        facts.paper[p["slot"]] = _result(p, forfeit=True)
    elif kind == "MatchKept":
        facts.kept[p["slot"]] = p["match_id"]


def _result(p: dict, forfeit: bool = False) -> PaperResult:
    return PaperResult(
        p["winner"], p["loser"], p.get("winner_points", 0), p.get("loser_points", 0), p.get("length", 0), forfeit
    )
