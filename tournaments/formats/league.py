"""A league: divisions of round-robin groups played over weeks, with promotion and relegation between seasons.

Rules:

- The season's divisions are fixed at its draw: division 1 is the top one. A first season splits the
  field in the draw's order into ``divisions_for(n, size)`` divisions as even as possible (the upper ones
  take the extra player). A next season is made by :func:`next_season` from the previous season's final
  tables.
- Each division is a round robin (``round_robin.derive``: Berger tables, ``cycles`` cycles), its slot keys
  prefixed with the division: ``d2:rr:c1:r3:t1``. Round r of every division is due by its deadline,
  ``starts_at + r × round_days`` (seconds: the clock reading the draw recorded, plus whole days).
- A walkover: a match one player did not turn up for is given to the other by the director (a forfeit:
  a win and a loss, 0–0). A match nobody played by its round's deadline is settled by the ``unplayed``
  rule: ``"double_loss"`` (a loss for both, a win for neither) or ``"void"`` (it counts for nothing).
- Tables per division: wins, then the tie-breaks asked for, then the draw's order
  (``standings.standings``); a double loss adds a played match and a loss to both, and changes no rank.
- Promotion and relegation: in the next season the top ``promote`` of every division but the first go up
  one division, the bottom ``relegate`` of every division but the last go down one. Players of the old
  season who did not enter the new one are left out; newcomers start in the bottom division.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from . import round_robin
from .core import SETTLED, FormatError, Lengths, Reason, Result, Slot, Standing

DAY = 86_400
DOUBLE_LOSS = "double_loss"
VOID = "void"
UNPLAYED_RULES = (DOUBLE_LOSS, VOID)


@dataclass(frozen=True)
class Config:
    cycles: int = 1
    lengths: Lengths = field(default_factory=Lengths)
    withdrawn: frozenset[int] = frozenset()
    tiebreaks: tuple[str, ...] = ()
    unplayed: str = DOUBLE_LOSS
    promote: int = 1
    relegate: int = 1

    def __post_init__(self):
        if self.unplayed not in UNPLAYED_RULES:
            raise FormatError(Reason.UNPLAYED, choices=", ".join(UNPLAYED_RULES))


@dataclass(frozen=True)
class Division:
    number: int
    players: tuple[int, ...]
    slots: tuple[Slot, ...]
    standings: tuple[Standing, ...]
    finished: bool
    promoted: tuple[int, ...] = ()  # as things stand (final once ``finished``)
    relegated: tuple[int, ...] = ()


@dataclass(frozen=True)
class League:
    divisions: tuple[Division, ...]
    winner: int | None  # division 1's winner once every division is finished

    @property
    def slots(self) -> tuple[Slot, ...]:
        return tuple(s for d in self.divisions for s in d.slots)


def divisions_for(n: int, size: int) -> list[int]:
    """The sizes of the divisions of a first season of ``n`` players with divisions of ``size`` at most."""
    if size < 2:
        raise FormatError(Reason.DIVISION_SIZE)
    if n < 2:
        return [n] if n else []
    count = max(1, -(-n // size))
    while count > 1 and n // count < 2:
        count -= 1
    base, extra = divmod(n, count)
    return [base + (1 if i < extra else 0) for i in range(count)]


def split(players: Sequence[int], size: int) -> list[tuple[int, ...]]:
    out, start = [], 0
    for length in divisions_for(len(players), size):
        out.append(tuple(players[start:start + length]))
        start += length
    return out


def prefix(division: int) -> str:
    return f"d{division}"


def division_of_key(key: str) -> int | None:
    head = key.split(":", 1)[0]
    return int(head[1:]) if head.startswith("d") and head[1:].isdigit() else None


def deadline(starts_at: int, round_days: int, round_no: int) -> int:
    """When round ``round_no`` (1-based) is due: ``round_no`` periods of ``round_days`` after the start."""
    return starts_at + round_no * round_days * DAY


def zones(count: int, division: int, size: int, promote: int, relegate: int) -> tuple[int, int]:
    """How many of division ``division`` (of ``count``) go up and down: none up from the top, none down from
    the bottom, and never the same player both ways."""
    up = min(promote, size) if division > 1 else 0
    down = min(relegate, size - up) if division < count else 0
    return up, down


def derive(divisions: Sequence[Sequence[int]], results: Mapping[str, Result], unplayed: frozenset[str] = frozenset(),
           config: Config = Config()) -> League:
    """Every division's schedule and table. ``unplayed``: slot keys settled by the unplayed rule (their round's
    deadline passed with no result); a result recorded later for one of them stands."""
    seen = [p for d in divisions for p in d]
    if len(set(seen)) != len(seen):
        raise FormatError(Reason.TWO_DIVISIONS)
    out = []
    count = len(divisions)
    for number, players in enumerate(divisions, 1):
        head = prefix(number) + ":"
        own = {k[len(head):]: r for k, r in results.items() if k.startswith(head)}
        rr = round_robin.derive(players, own, round_robin.Config(
            cycles=config.cycles, lengths=config.lengths, withdrawn=config.withdrawn, tiebreaks=config.tiebreaks))
        slots = []
        losses: dict[int, int] = {}
        for s in rr.slots:
            key = head + s.key
            void = s.result is None and s.status not in SETTLED and key in unplayed
            if void and config.unplayed == DOUBLE_LOSS:
                for p in s.players:
                    losses[p] = losses.get(p, 0) + 1
            slots.append(dataclasses.replace(s, key=key, bracket=prefix(number), void=void))
        table = tuple(dataclasses.replace(r, played=r.played + losses.get(r.player, 0),
                                          losses=r.losses + losses.get(r.player, 0)) for r in rr.standings)
        finished = all(s.status in SETTLED for s in slots)
        up, down = zones(count, number, len(players), config.promote, config.relegate)
        order = [r.player for r in table]
        out.append(Division(number, tuple(players), tuple(slots), table, finished,
                            tuple(order[:up]), tuple(order[len(order) - down:]) if down else ()))
    done = bool(out) and all(d.finished for d in out)
    winner = out[0].standings[0].player if done and out[0].standings else None
    return League(tuple(out), winner)


def next_season(final: Sequence[Sequence[int]], entrants: Sequence[int], promote: int,
                relegate: int) -> list[tuple[int, ...]]:
    """The next season's divisions from the previous one's final tables (each division's players in final
    order, division 1 first): the top ``promote`` of each division go up one, the bottom ``relegate`` go down
    one; who did not enter again is left out; newcomers (``entrants`` not in ``final``, in their order) join
    the bottom division. Each new division lists who came down first, then who stayed, then who came up."""
    count = len(final)
    if count == 0:
        return [tuple(entrants)] if entrants else []
    stay: list[list[int]] = [[] for _ in final]
    down_into: list[list[int]] = [[] for _ in final]
    up_into: list[list[int]] = [[] for _ in final]
    for i, table in enumerate(final):
        up, down = zones(count, i + 1, len(table), promote, relegate)
        table = list(table)
        if up:
            up_into[i - 1] += table[:up]
        if down:
            down_into[i + 1] += table[len(table) - down:]
        stay[i] += table[up:len(table) - down]
    entered = set(entrants)
    divisions = [[p for p in down_into[i] + stay[i] + up_into[i] if p in entered] for i in range(count)]
    placed = {p for d in divisions for p in d}
    divisions[-1] += [p for p in entrants if p not in placed]
    return [tuple(d) for d in divisions if d]
