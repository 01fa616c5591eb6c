"""A challenge ladder: the rungs, the challenges and the ladder's history, derived from recorded facts.

Rules (the director sets ``reach``, ``on_win`` and, in the decider, the deadline and what a refused or
unplayed challenge means):

- The ladder starts in the draw's order (rung 1 at the top). A player who joins later goes to the bottom;
  a player who leaves is taken off and everybody below moves up one rung.
- A player may challenge a player at most ``reach`` rungs above them (``reach`` = K). Each player is in one
  open challenge at most, as challenger or defender: a challenge is played before the next one is issued.
- A challenge ends with a result (played, or a walkover) or cancelled. When the challenger wins, they take
  the defender's rung: with ``on_win`` ``"take_place"`` (the usual club rule) the defender and everybody
  between them move down one rung; with ``"swap"`` the two exchange rungs and the others stay. When the
  defender wins, nothing moves. A cancelled challenge moves nobody.
- A player who leaves with an open challenge loses it by walkover, and nobody moves for it (their leaving
  moves the ones below them).

The facts come in the order they were recorded (``happenings``): joins, leaves and settlements, each
settlement naming its challenge; the result of a settled challenge is looked up in ``results`` (keyed by
the challenge's slot key), so a corrected result re-derives the ladder from the moment the challenge was
first decided, never from the moment of the correction.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from .core import FormatError, Reason, Result, Slot, Standing

TAKE_PLACE = "take_place"
SWAP = "swap"
ON_WIN = (TAKE_PLACE, SWAP)


@dataclass(frozen=True)
class Config:
    reach: int = 3
    on_win: str = TAKE_PLACE
    length: int = 7

    def __post_init__(self):
        if self.reach < 1:
            raise FormatError(Reason.REACH)
        if self.on_win not in ON_WIN:
            raise FormatError(Reason.ON_WIN, choices=", ".join(ON_WIN))


@dataclass(frozen=True)
class Challenge:
    number: int
    challenger: int
    defender: int
    issued_at: int = 0  # the clock reading (seconds) the service took when it was issued
    deadline: int = 0
    length: int = 7

    @property
    def key(self) -> str:
        return key_of(self.number)


def key_of(number: int) -> str:
    return f"ladder:c{number}"


@dataclass(frozen=True)
class Join:
    player: int


@dataclass(frozen=True)
class Leave:
    player: int


@dataclass(frozen=True)
class Settle:
    """Challenge ``number`` ended here: ``how`` is "played", "walkover", "refused", "lapsed" or "cancelled"."""

    number: int
    how: str = "played"


@dataclass(frozen=True)
class Move:
    """One line of the ladder's history: what happened and the rungs (1-based) it concerned."""

    step: int
    kind: str  # "challenge", "join", "leave"
    player: int
    opponent: int | None = None
    number: int | None = None
    how: str = ""
    winner: int | None = None
    rung_before: int = 0  # the (first) player's rung before
    rung_after: int = 0  # and after
    opponent_rung_before: int = 0
    opponent_rung_after: int = 0
    result: Result | None = None


@dataclass(frozen=True)
class Ladder:
    rungs: tuple[int, ...]  # top first
    slots: tuple[Slot, ...]
    standings: tuple[Standing, ...]
    history: tuple[Move, ...]
    open: tuple[Challenge, ...]  # challenges issued and not yet settled
    ignored: tuple[str, ...] = ()


@dataclass
class _Stats:
    played: int = 0
    wins: int = 0
    losses: int = 0
    points_for: int = 0
    points_against: int = 0


def rung_of(rungs: Sequence[int], player: int) -> int:
    return list(rungs).index(player) + 1


def refusal_to_challenge(rungs: Sequence[int], open_challenges: Sequence[Challenge], challenger: int,
                         defender: int, reach: int) -> FormatError | None:
    """Why ``challenger`` may not challenge ``defender`` now (a refusal to raise), or None when they may."""
    if challenger == defender:
        return FormatError(Reason.CHALLENGE_THEMSELF)
    for p in (challenger, defender):
        if p not in rungs:
            return FormatError(Reason.NOT_ON_LADDER, player=p)
    busy = {p for c in open_challenges for p in (c.challenger, c.defender)}
    for p in (challenger, defender):
        if p in busy:
            return FormatError(Reason.CHALLENGE_OPEN, player=p)
    gap = rung_of(rungs, challenger) - rung_of(rungs, defender)
    if gap <= 0:
        return FormatError(Reason.CHALLENGE_UP)
    if gap > reach:
        return FormatError(Reason.RUNGS, reach=reach) if reach > 1 else FormatError(Reason.ONE_RUNG)
    return None


def derive(initial: Sequence[int], challenges: Sequence[Challenge], happenings: Sequence[Join | Leave | Settle],
           results: Mapping[str, Result], config: Config = Config()) -> Ladder:
    """The ladder after the recorded facts; every challenge is a slot (its key ``ladder:c{n}``)."""
    if len(set(initial)) != len(initial):
        raise FormatError(Reason.TWICE_ON_LADDER)
    by_number = {c.number: c for c in challenges}
    rungs = list(initial)
    stats: dict[int, _Stats] = {p: _Stats() for p in rungs}
    history: list[Move] = []
    settled: dict[int, tuple[Result | None, str]] = {}
    open_now: dict[int, Challenge] = {}
    issued = sorted(challenges, key=lambda c: c.number)
    ignored: list[str] = []

    def settle(c: Challenge, result: Result | None, how: str) -> None:
        settled[c.number] = (result, how)
        open_now.pop(c.number, None)
        before = (rung_of(rungs, c.challenger) if c.challenger in rungs else 0,
                  rung_of(rungs, c.defender) if c.defender in rungs else 0)
        if result is not None and result.winner == c.challenger and all(before):
            _promote(rungs, c.challenger, c.defender, config.on_win)
        if result is not None:
            for p, won in ((result.winner, True), (result.loser, False)):
                s = stats.setdefault(p, _Stats())
                s.played += 1
                s.wins += won
                s.losses += not won
                s.points_for += result.winner_points if won else result.loser_points
                s.points_against += result.loser_points if won else result.winner_points
        after = (rung_of(rungs, c.challenger) if c.challenger in rungs else 0,
                 rung_of(rungs, c.defender) if c.defender in rungs else 0)
        history.append(Move(len(history) + 1, "challenge", c.challenger, c.defender, c.number, how,
                            result.winner if result else None, before[0], after[0], before[1], after[1], result))

    for c in issued:
        open_now[c.number] = c  # each challenge is open from its issue until its settlement below
    for h in happenings:
        if isinstance(h, Join):
            if h.player not in rungs:
                rungs.append(h.player)
                stats.setdefault(h.player, _Stats())
                history.append(Move(len(history) + 1, "join", h.player, rung_after=len(rungs)))
        elif isinstance(h, Leave):
            if h.player not in rungs:
                continue
            for c in [c for c in open_now.values() if h.player in (c.challenger, c.defender)]:
                other = c.defender if h.player == c.challenger else c.challenger
                # a walkover for the one who stays; nobody moves for it (the leaving moves those below)
                settle(c, Result(other, h.player, forfeit=True), "withdrawal")
            before = rung_of(rungs, h.player)
            rungs.remove(h.player)
            history.append(Move(len(history) + 1, "leave", h.player, rung_before=before))
        elif isinstance(h, Settle):
            c = by_number.get(h.number)
            if c is None or c.number in settled:
                continue
            result = results.get(c.key)
            if h.how == "cancelled":
                settle(c, None, h.how)
            elif result is None:
                continue  # decided once, the decision since voided: open again, it settles with its next result
            elif result.players != {c.challenger, c.defender}:
                ignored.append(c.key)
            else:
                settle(c, result, h.how)
    slots = []
    for c in issued:
        result, how = settled.get(c.number, (None, ""))
        slots.append(Slot(c.key, "ladder", c.number, 1, (c.challenger, c.defender), c.length, False, result,
                          void=how == "cancelled"))
    standings = tuple(
        Standing(p, rank, s.played, s.wins, s.losses, s.points_for, s.points_against, {}, float(s.wins))
        for rank, (p, s) in enumerate(((p, stats[p]) for p in rungs), 1)
    )
    return Ladder(tuple(rungs), tuple(slots), standings, tuple(history),
                  tuple(c for c in issued if c.number in open_now), tuple(ignored))


def _promote(rungs: list[int], challenger: int, defender: int, on_win: str) -> None:
    i, j = rungs.index(defender), rungs.index(challenger)
    if on_win == SWAP:
        rungs[i], rungs[j] = challenger, defender
    else:
        rungs.pop(j)
        rungs.insert(i, challenger)
