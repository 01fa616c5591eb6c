"""The value types every format shares: recorded facts in, derived structure out.

Facts are ``Result`` (who won a match) and ``Pairing`` (who was paired in a
Swiss or round-robin round). Everything else (``Slot``, ``Bracket``,
``Standing``) is derived and never stored: the formats rebuild it from the
facts on every call.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import Enum, StrEnum

class SlotStatus(StrEnum):
    """Where a slot stands: the one definition every module (formats, decider, read models, pages) compares to."""

    WAITING = "waiting"  # a player of the slot is not known yet
    READY = "ready"  # both players known, no result yet
    BYE = "bye"  # at most one player: the slot needs no match
    DONE = "done"  # a result (recorded, or a forfeit derived from a withdrawal)
    VOID = "void"  # never to be played, with no result: a cancelled challenge, a league match unplayed by its deadline


WAITING, READY, BYE, DONE = SlotStatus.WAITING, SlotStatus.READY, SlotStatus.BYE, SlotStatus.DONE
VOID = SlotStatus.VOID
SETTLED = frozenset({DONE, BYE, VOID})  # a slot nothing more is played in


def gettext_noop(message: str) -> str:
    """``message`` as it is: the call marks it for the translators' catalogue (gettext's tools extract it)."""
    return message


class Reason(Enum):
    """Exactly why a format refuses its inputs: the member's name says it, its value is the English
    template filled in with the refusal's ``params``."""

    RESULT_TWO_PLAYERS = gettext_noop("a result needs two different players, got %(player)s twice")
    PAIRED_WITH_THEMSELF = gettext_noop("player %(player)s paired with themself")
    FOREIGN_RESULT = gettext_noop("result %(result)s does not belong to pairing %(a)s-%(b)s")
    ENTERED_TWICE = gettext_noop("a player is entered twice")
    LISTED_TWICE = gettext_noop("a player is listed twice")
    REACH = gettext_noop("a ladder's reach is at least one rung")
    ON_WIN = gettext_noop("on_win is one of %(choices)s")
    CHALLENGE_THEMSELF = gettext_noop("a player does not challenge themself")
    NOT_ON_LADDER = gettext_noop("player %(player)s is not on the ladder")
    CHALLENGE_OPEN = gettext_noop("player %(player)s has a challenge open already: it is played first")
    CHALLENGE_UP = gettext_noop("a challenge goes up the ladder: challenge a player above you")
    ONE_RUNG = gettext_noop("a player may challenge at most 1 rung above them")
    RUNGS = gettext_noop("a player may challenge at most %(reach)s rungs above them")
    TWICE_ON_LADDER = gettext_noop("a player is on the ladder twice")
    UNPLAYED = gettext_noop("unplayed is one of %(choices)s")
    DIVISION_SIZE = gettext_noop("a division has at least two players")
    TWO_DIVISIONS = gettext_noop("a player is in two divisions")
    CYCLES = gettext_noop("a round robin has at least one cycle")
    BERGER_ROUND = gettext_noop("no round %(round)s in a Berger table of %(numbers)s")
    GROUPS = gettext_noop("at least one group")
    REENTRY_COUNTS = gettext_noop("re-entry: until_round and times are at least 1")
    REENTRY_OR_CONSOLATION = gettext_noop("re-entry and a Consolation both take the Main's early losers: choose one")
    LAST_CHANCE = gettext_noop("a Last Chance flight is fed by the Consolation: configure one")
    CONSOLATION_FEEDS = gettext_noop("consolation_feeds counts Main rounds whose losers enter: at least 1")
    UNKNOWN_TIEBREAK = gettext_noop("unknown tie-break %(tiebreak)s; choose from %(choices)s")
    PAIRED_NOT_LISTED = gettext_noop("player %(player)s is paired but not listed")
    EARLIER_ROUNDS = gettext_noop("round %(round)s needs the %(earlier)s earlier rounds, got %(got)s")
    NO_RESULT_YET = gettext_noop("%(table)s (%(a)s v %(b)s) has no result yet")
    NO_PAIRING = gettext_noop("round %(round)s: no pairing of %(players)s players avoids the forbidden pairings")
    # team events (tournaments/formats/teams.py)
    TEAM_BOARDS = gettext_noop("a team plays at least one board and has zero reserves or more")
    TEAM_TO_WIN = gettext_noop("a team match of %(boards)s boards is won with more than half of them, at most all")
    TEAM_MEMBER_TWICE = gettext_noop("a player is in two teams")
    TEAM_SIZE = gettext_noop("team %(team)s lists %(least)s to %(most)s players")
    LINEUP_BOARDS = gettext_noop("team %(team)s lines up %(boards)s different players, one a board")
    LINEUP_STRANGER = gettext_noop("player %(player)s is not in team %(team)s")
    LINEUP_ORDER = gettext_noop("team %(team)s plays its boards in the order fixed for the event")


class FormatError(ValueError):
    """Inputs a format cannot work with (duplicate players, unknown tie-break, ...): ``FormatError(reason,
    **params)``, a refusal as data (the tournament's refusals carry a format's reason on)."""

    def __init__(self, reason: Reason | str, /, **params):
        self.reason = reason if isinstance(reason, Reason) else None  # a text: kept as it is
        self.params = params
        super().__init__(reason.value % params if isinstance(reason, Reason) else reason)


class PairingError(FormatError):
    """No pairing satisfies the hard constraints (forbidden pairings)."""


@dataclass(frozen=True)
class Result:
    """The outcome of one match. Points are the match points each side scored."""

    winner: int
    loser: int
    winner_points: int = 0
    loser_points: int = 0
    forfeit: bool = False

    def __post_init__(self):
        if self.winner == self.loser:
            raise FormatError(Reason.RESULT_TWO_PLAYERS, player=self.winner)

    @property
    def players(self) -> frozenset[int]:
        return frozenset((self.winner, self.loser))


@dataclass(frozen=True)
class Lengths:
    """Match length per round of one bracket (or event).

    ``rounds`` overrides any round; ``final`` is the length of the bracket's
    last round unless ``rounds`` names that round; ``default`` covers the rest.
    ``Lengths(7, final=9)``: 7-point matches, a 9-point final.
    """

    default: int = 7
    rounds: Mapping[int, int] = field(default_factory=dict)
    final: int | None = None

    def of(self, round_no: int, last_round: int | None = None) -> int:
        if round_no in self.rounds:
            return self.rounds[round_no]
        if self.final is not None and round_no == last_round:
            return self.final
        return self.default


@dataclass(frozen=True)
class Slot:
    """One match of a structure, identified by a stable, human-readable ``key``.

    Keys: ``"main:r1:m3"``, ``"consolation:r2:m1"``, ``"last_chance:r1:m2"``,
    ``"winners:r2:m1"``, ``"losers:r3:m2"``, ``"grand_final:r1:m1"``,
    ``"grand_final:r2:m1"`` (the reset), ``"swiss:r3:t4"``, ``"rr:c1:r5:t2"``.
    Rounds and indexes count from 1.

    ``players`` holds None where a player is not known yet *or* where there is
    nobody (the empty side of a bye; ``bye`` is then True). ``sources`` says in
    words where each side comes from (``"seed 3"``, ``"winner main:r1:m1"``,
    ``"bye"``); ``feeds`` names the slots the winner and the loser go on to
    (None: nowhere, or a fresh draw). ``known`` tells, per side, whether it
    is settled (a player, or known to be nobody): a side None and known is
    the empty side of a bye, a side None and not known is still to come.
    ``entries`` marks, per side, which entry of its player this is (a
    re-entered player's second entry is 2, all along its path).
    """

    key: str
    bracket: str
    round: int
    index: int
    players: tuple[int | None, int | None]
    length: int
    bye: bool
    result: Result | None
    feeds: tuple[str | None, str | None] = (None, None)
    sources: tuple[str, str] = ("", "")
    known: tuple[bool, bool] = (True, True)
    void: bool = False  # settled without a result (ladders and leagues): ``status`` VOID
    entries: tuple[int, int] = (1, 1)  # per side: 1 for a first entry, 2, 3… for a re-entry (buy-back)

    @property
    def status(self) -> SlotStatus:
        if self.result is not None:
            return DONE
        if self.void:
            return VOID
        if not all(self.known):
            return WAITING
        return BYE if self.bye else READY

    @property
    def winner(self) -> int | None:
        """The winner, or the lone player of a bye; None while undecided or for an empty slot."""
        if self.result is not None:
            return self.result.winner
        if self.status == BYE:
            return next((p for p in self.players if p is not None), None)
        return None

    @property
    def loser(self) -> int | None:
        return self.result.loser if self.result is not None else None


@dataclass(frozen=True)
class Bracket:
    """Everything derived for an elimination event.

    ``slots`` come bracket by bracket, round by round, index by index.
    ``champions`` maps each bracket name to its winner (None while undecided);
    ``winner`` is the event's winner. ``eliminated`` maps each bracket to the
    players who lost in it, in order of elimination (by round, then by slot
    index). ``fields`` maps each bracket to the players who appear in it so
    far. ``awaiting_draw`` lists brackets whose draw needs results still
    missing. ``ignored`` lists the keys of recorded results that were not
    applied: unknown keys, or results whose players no longer match the slot
    (an upstream correction changed who plays there).
    """

    slots: tuple[Slot, ...]
    winner: int | None
    champions: Mapping[str, int | None]
    eliminated: Mapping[str, tuple[int, ...]]
    fields: Mapping[str, tuple[int, ...]]
    awaiting_draw: tuple[str, ...] = ()
    ignored: tuple[str, ...] = ()

    def slot(self, key: str) -> Slot:
        for s in self.slots:
            if s.key == key:
                return s
        raise KeyError(key)

    def round(self, bracket: str, round_no: int) -> list[Slot]:
        return [s for s in self.slots if s.bracket == bracket and s.round == round_no]

    def rounds(self, bracket: str) -> int:
        return max((s.round for s in self.slots if s.bracket == bracket), default=0)


@dataclass(frozen=True)
class Pairing:
    """A pairing of a Swiss or round-robin round: ``b`` None is a bye."""

    a: int
    b: int | None
    result: Result | None = None

    def __post_init__(self):
        if self.a == self.b:
            raise FormatError(Reason.PAIRED_WITH_THEMSELF, player=self.a)
        if self.result is not None and (self.b is None or self.result.players != {self.a, self.b}):
            raise FormatError(Reason.FOREIGN_RESULT, result=self.result, a=self.a, b=self.b)


@dataclass(frozen=True)
class Standing:
    """One line of a table. ``score`` is match wins plus points credited on a late entry.

    ``played`` = ``wins`` + ``losses``: matches against an opponent
    (forfeits included), and byes where the format scores a bye as a win (a
    Swiss); ``byes`` counts byes, whether they count as wins or for nothing
    (a round robin's rest rounds). ``tiebreaks`` holds the value of every
    tie-break asked for, by name.
    """

    player: int
    rank: int
    played: int
    wins: int
    losses: int
    points_for: int
    points_against: int
    tiebreaks: dict[str, float]
    score: float = 0
    byes: int = 0
    shared: bool = False  # another player holds the same place (players out in the same round of a knockout: 3=)
