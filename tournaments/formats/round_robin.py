"""Round robin on Berger tables, one or more cycles.

``derive(players, results, config)`` lays out every round of every cycle
and fills in the results. Rules:

- Players are numbered 1..n in seed order (the order of ``players``). An
  odd field gets a dummy number n+1; meeting the dummy is a bye (a rest
  round: not a win, not a match). A field of N numbers (n rounded up to
  even) plays N-1 rounds per cycle.
- Round r of a cycle is the Berger table: number N meets number
  o = ((r-1)·N/2 mod (N-1)) + 1, and the other numbers pair as o+k v o-k
  (k = 1..N/2-1, counted round the circle 1..N-1). So round 1 is 1 v N,
  2 v N-1, ..., and over a cycle everyone meets everyone once.
- Every cycle repeats the same pairings in the same round order.
- Tables: Berger order (the pair with number N first, then k = 1, 2, ...),
  with the bye, if any, moved to the last table. Slot keys are
  ``rr:c{cycle}:r{round in the cycle}:t{table}``; ``Slot.round`` is the
  overall round ((cycle-1)·(N-1) + round) and ``Slot.players`` are in seed
  order.
- A withdrawn player forfeits every match without a recorded result: a
  ``Result(forfeit=True)`` for the opponent (both withdrawn: the better
  seed is credited). Results already recorded stand. This is the clubs'
  usual rule (rather than voiding the player's results): everybody plays
  the same number of matches, and nobody loses a win they earned against
  the player who left. The decider records these forfeits as the
  withdrawal's own facts (``MatchForfeited``), so the matches end at once.
- ``Lengths`` apply to overall rounds (``final`` = the last overall round).
- Standings: ``standings.standings`` with byes counting for nothing, the
  tie-breaks of ``config.tiebreaks``, withdrawn players after every player
  still in. ``winner`` is the leader once every
  match is settled.
- Groups: ``groups(players, n)`` deals the seeds into ``n`` groups in snake
  order (1 2 3 3 2 1 …: group A holds seeds 1, 6, 7, 12…), so the groups are
  as even as the seeding; each group is its own round robin
  (``config.group`` = g: keys ``rr:g{g}:c…``, bracket ``group{g}``).
  ``group_order(tables)`` ranks the players of all groups for a knockout:
  by their place in their group, then score, points difference and group,
  so K qualifiers are the group winners, then the runners-up, and so on,
  the best of a tier filling the last places.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from .core import SETTLED, FormatError, Lengths, Pairing, Reason, Result, Slot, Standing
from .knockout import Empty, Entrant, Spec, check_entrants, resolve
from .standings import standings


@dataclass(frozen=True)
class Config:
    cycles: int = 1
    lengths: Lengths = field(default_factory=Lengths)
    withdrawn: frozenset[int] = frozenset()
    tiebreaks: tuple[str, ...] = ()
    group: int = 0  # one of several groups (keys rr:g{group}:…); 0: the event's only round robin

    def __post_init__(self):
        if self.cycles < 1:
            raise FormatError(Reason.CYCLES)


@dataclass(frozen=True)
class Schedule:
    slots: tuple[Slot, ...]
    standings: tuple[Standing, ...]
    winner: int | None
    ignored: tuple[str, ...] = ()

    def slot(self, key: str) -> Slot:
        for s in self.slots:
            if s.key == key:
                return s
        raise KeyError(key)

    def round(self, overall: int) -> list[Slot]:
        return [s for s in self.slots if s.round == overall]


def berger(numbers: int, round_no: int) -> list[tuple[int, int]]:
    """Round ``round_no`` (1-based) of the Berger table for an even count of ``numbers``."""
    if numbers % 2 or numbers < 2 or not 1 <= round_no < numbers:
        raise FormatError(Reason.BERGER_ROUND, round=round_no, numbers=numbers)
    ring = numbers - 1

    def at(i: int) -> int:  # position on the circle 1..ring
        return (i - 1) % ring + 1

    o = ((round_no - 1) * (numbers // 2)) % ring + 1
    return [(o, numbers)] + [(at(o + k), at(o - k)) for k in range(1, numbers // 2)]


def table_key(cycle: int, round_no: int, table: int, group: int = 0) -> str:
    return f"rr:{f'g{group}:' if group else ''}c{cycle}:r{round_no}:t{table}"


def groups(players: Sequence[int], count: int) -> list[list[int]]:
    """The seeds dealt into ``count`` groups in snake order (see the module docstring)."""
    if count < 1:
        raise FormatError(Reason.GROUPS)
    out: list[list[int]] = [[] for _ in range(count)]
    for i, p in enumerate(players):
        lap, pos = divmod(i, count)
        out[pos if lap % 2 == 0 else count - 1 - pos].append(p)
    return out


def group_order(tables: Sequence[Sequence[Standing]], left_out: frozenset[int] = frozenset()) -> list[int]:
    """Every group's players in qualifying order: place in the group (``left_out`` players, e.g. withdrawn, take
    none and come last), then score, points difference, and the group's number."""
    ranked = []
    for g, table in enumerate(tables):
        place = 0
        for row in table:
            if row.player in left_out:
                ranked.append(((1, 0, 0, 0, g), row.player))
                continue
            place += 1
            ranked.append(((0, place, -row.score, -(row.points_for - row.points_against), g), row.player))
    return [p for _, p in sorted(ranked)]


def derive(players: Sequence[int], results: Mapping[str, Result], config: Config = Config()) -> Schedule:
    entrants = check_entrants(players)
    n = len(entrants)
    numbers = n + n % 2
    per_cycle = numbers - 1 if n >= 2 else 0
    total = per_cycle * config.cycles
    specs = []
    for cycle in range(1, config.cycles + 1):
        for r in range(1, per_cycle + 1):
            tables = [tuple(sorted(t)) for t in berger(numbers, r)]
            tables.sort(key=lambda t: t[1] > n)  # the bye (dummy number n+1) last; stable otherwise
            overall = (cycle - 1) * per_cycle + r
            bracket = f"group{config.group}" if config.group else "rr"
            for t, (a, b) in enumerate(tables, 1):
                sides = (Entrant(entrants[a - 1], a), Entrant(entrants[b - 1], b) if b <= n else Empty())
                specs.append(Spec(table_key(cycle, r, t, config.group), bracket, overall, t,
                                  config.lengths.of(overall, total), sides))
    slots, ignored = resolve(specs, results, frozenset(config.withdrawn))
    rounds = [[Pairing(s.players[0], s.players[1], s.result) for s in slots if s.round == r]
              for r in range(1, total + 1)]
    table = standings(entrants, rounds, config.tiebreaks, bye_is_win=False, withdrawn=config.withdrawn)
    finished = all(s.status in SETTLED for s in slots)
    known = {s.key for s in slots}
    return Schedule(
        slots=tuple(slots),
        standings=tuple(table),
        winner=table[0].player if finished and table else None,
        ignored=tuple(ignored) + tuple(sorted(k for k in results if k not in known)),
    )
