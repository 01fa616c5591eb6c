"""The machinery shared by the elimination formats.

A structure is a list of ``Spec``: a slot's key, place and two ``Source``
(where each side's player comes from: a seed, a bye, the winner or the loser of
an earlier slot, ...). ``resolve`` walks the specs in order and fills in
players and results from the recorded facts, so a corrected result flows down
to every slot that depends on it and nothing else.

Rules applied by ``resolve`` (shared by every elimination format):

- A recorded result applies only if its two players are the slot's two
  players; otherwise it is listed in ``ignored`` (stale after a correction).
- A side known to be empty makes the slot a bye: its lone player advances
  without a result; an empty slot (both sides empty) sends nobody on.
- A withdrawn player forfeits every match that has no recorded result: a
  derived ``Result(forfeit=True)`` for the opponent. If both players have
  withdrawn, the one listed first (the better placed) is credited, so the
  structure still completes; they forfeit their next match in turn.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, replace

from .core import FormatError, Lengths, Result, Slot


class _Nobody:
    """The empty side of a bye (as opposed to None: not known yet)."""

    def __repr__(self) -> str:
        return "NOBODY"


NOBODY = _Nobody()
Value = int | _Nobody | None  # a player, nobody, or not known yet


def bracket_order(size: int) -> list[int]:
    """Seed numbers in bracket position order for a power-of-two ``size``.

    The usual recursive order: every pair of a round adds up to ``size + 1``,
    so seeds 1 and 2 can meet only in the final, 1-4 only from the
    semi-finals, and so on (16: 1 16 8 9 4 13 5 12 2 15 7 10 3 14 6 11).
    """
    order = [1]
    while len(order) < size:
        total = 2 * len(order) + 1
        order = [s for seed in order for s in (seed, total - seed)]
    return order


def bracket_size(n: int) -> int:
    size = 1
    while size < n:
        size *= 2
    return size


# --- sources -------------------------------------------------------------------


@dataclass(frozen=True)
class Entrant:
    player: int
    seed: int

    def value(self, done: Mapping[str, Slot]) -> Value:
        return self.player

    def __str__(self) -> str:
        return f"seed {self.seed}"


@dataclass(frozen=True)
class Reentrant:
    """A player's later entry (a buy-back) into a first-round place kept open for re-entries."""

    player: int
    entry: int

    def value(self, done: Mapping[str, Slot]) -> Value:
        return self.player

    def __str__(self) -> str:
        return f"re-entry {self.entry}"


@dataclass(frozen=True)
class OpenPlace:
    """A first-round place kept open for a re-entry: not known while re-entry is open."""

    def value(self, done: Mapping[str, Slot]) -> Value:
        return None

    def __str__(self) -> str:
        return "open for re-entry"


@dataclass(frozen=True)
class Empty:
    def value(self, done: Mapping[str, Slot]) -> Value:
        return NOBODY

    def __str__(self) -> str:
        return "bye"


def _settled(slot: Slot) -> bool:
    return slot.result is not None or (all(slot.known) and slot.bye)


@dataclass(frozen=True)
class WinnerOf:
    key: str

    def value(self, done: Mapping[str, Slot]) -> Value:
        slot = done[self.key]
        if not _settled(slot):
            return None
        return NOBODY if slot.winner is None else slot.winner

    def __str__(self) -> str:
        return f"winner {self.key}"


@dataclass(frozen=True)
class LoserOf:
    key: str

    def value(self, done: Mapping[str, Slot]) -> Value:
        slot = done[self.key]
        if not _settled(slot):
            return None
        return NOBODY if slot.loser is None else slot.loser

    def __str__(self) -> str:
        return f"loser {self.key}"


@dataclass(frozen=True)
class LoserIf:
    """The loser of ``key`` if that is ``player``, else nobody (a bye holder's first match)."""

    key: str
    player: int

    def value(self, done: Mapping[str, Slot]) -> Value:
        slot = done[self.key]
        if not _settled(slot):
            return None
        return self.player if slot.loser == self.player else NOBODY

    def __str__(self) -> str:
        return f"loser {self.key} if {self.player}"


@dataclass(frozen=True)
class ResetSide:
    """Side ``side`` of ``key`` if the player on side 1 won it, else nobody (a bracket reset)."""

    key: str
    side: int

    def value(self, done: Mapping[str, Slot]) -> Value:
        slot = done[self.key]
        if not _settled(slot):
            return None
        if slot.result is None or slot.winner != slot.players[1]:
            return NOBODY
        return slot.players[self.side]

    def __str__(self) -> str:
        return f"{'winner' if self.side else 'loser'} {self.key} if the reset is needed"


Source = Entrant | Reentrant | OpenPlace | Empty | WinnerOf | LoserOf | LoserIf | ResetSide


@dataclass(frozen=True)
class Spec:
    key: str
    bracket: str
    round: int
    index: int
    length: int
    sources: tuple[Source, Source]


def key(bracket: str, round_no: int, index: int) -> str:
    return f"{bracket}:r{round_no}:m{index}"


# --- building structures --------------------------------------------------------


def seeded_round(players: Sequence[int]) -> list[tuple[Source, Source]]:
    """First-round sides of a seeded draw: standard order, byes to the top seeds."""
    size = max(2, bracket_size(len(players)))
    order = bracket_order(size)

    def side(seed: int) -> Source:
        return Entrant(players[seed - 1], seed) if seed <= len(players) else Empty()

    return [(side(order[i]), side(order[i + 1])) for i in range(0, size, 2)]


def knockout(bracket: str, first: Sequence[tuple[Source, Source]], lengths: Lengths) -> list[Spec]:
    """A plain knockout: ``first`` round sides, then winners meet pairwise to a final."""
    rounds = len(first).bit_length()  # len(first) is a power of two
    specs, current, rnd = [], list(first), 1
    while current:
        keys = []
        for i, sides in enumerate(current, 1):
            specs.append(Spec(key(bracket, rnd, i), bracket, rnd, i, lengths.of(rnd, rounds), sides))
            keys.append(specs[-1].key)
        current = [(WinnerOf(a), WinnerOf(b)) for a, b in zip(keys[::2], keys[1::2])]
        rnd += 1
    return specs


def drop_in(bracket: str, main: str, size: int, feeds: int, lengths: Lengths,
            first_losers: Sequence[Source] | None = None) -> tuple[list[Spec], Source]:
    """A bracket fed by the losers of a knockout ``main`` of ``size`` draw positions.

    Round 1 pairs the losers of main round 1 (``first_losers`` may replace
    those sources). Then, for each main round r = 2..``feeds``: when r > 2 an
    internal round first halves the field, and a drop-in round sets the
    survivors against the losers of main round r. Then internal rounds to a
    final. The drop-in losers come in reversed order when r is even and with
    their halves swapped when r is odd, so that the new arrivals meet players
    from the other half of the main draw (the standard losers'-bracket
    crossing). With ``feeds`` = number of main rounds this is the losers'
    bracket of a double elimination.

    Returns the specs and the source of the bracket's champion (with a single
    loser to feed it, nothing is played and that loser is the champion).
    """
    losers = list(first_losers) if first_losers is not None else [
        LoserOf(key(main, 1, i)) for i in range(1, size // 2 + 1)
    ]
    if len(losers) < 2:
        return [], losers[0] if losers else Empty()
    # Each round is a list of sides whose WinnerOf placeholders name round positions of the
    # previous round; built first so that the number of rounds (for the final's length) is known.
    rounds: list[list[tuple]] = [list(zip(losers[::2], losers[1::2]))]
    for r in range(2, feeds + 1):
        if r > 2:
            rounds.append(_halve(len(rounds[-1])))
        dropped = [LoserOf(key(main, r, i)) for i in range(1, size // 2**r + 1)]
        half = len(dropped) // 2
        dropped = dropped[::-1] if r % 2 == 0 else dropped[half:] + dropped[:half]
        rounds.append([(_Prev(i), d) for i, d in enumerate(dropped)])
    while len(rounds[-1]) > 1:
        rounds.append(_halve(len(rounds[-1])))
    specs: list[Spec] = []
    previous: list[str] = []
    for rnd, sides in enumerate(rounds, 1):
        keys = []
        for i, pair in enumerate(sides, 1):
            real = tuple(WinnerOf(previous[s.position]) if isinstance(s, _Prev) else s for s in pair)
            specs.append(Spec(key(bracket, rnd, i), bracket, rnd, i, lengths.of(rnd, len(rounds)), real))
            keys.append(specs[-1].key)
        previous = keys
    return specs, WinnerOf(previous[0])


@dataclass(frozen=True)
class _Prev:
    position: int  # the winner of this 0-based position of the previous round


def _halve(width: int) -> list[tuple]:
    return [(_Prev(i), _Prev(i + 1)) for i in range(0, width, 2)]


# --- resolving ------------------------------------------------------------------


def resolve(specs: Sequence[Spec], results: Mapping[str, Result], withdrawn: Collection[int],
            done: dict[str, Slot] | None = None) -> tuple[list[Slot], list[str]]:
    """Fill players and results into ``specs`` (in dependency order).

    ``done`` holds slots resolved earlier (another bracket this one depends
    on) and receives the new ones. Returns the slots and the keys of recorded
    results that did not apply.
    """
    done = {} if done is None else done
    slots, ignored = [], []
    for spec in specs:
        values = [src.value(done) for src in spec.sources]
        players = tuple(v if isinstance(v, int) else None for v in values)
        known = tuple(v is not None for v in values)
        bye = any(v is NOBODY for v in values)
        result = None
        recorded = results.get(spec.key)
        if all(isinstance(v, int) for v in values):
            if recorded is not None and recorded.players == set(players):
                result = recorded
            else:
                if recorded is not None:
                    ignored.append(spec.key)
                result = _forfeit(players, withdrawn)
        elif recorded is not None:
            ignored.append(spec.key)
        entries = tuple(_entry(src, p, done) for src, p in zip(spec.sources, players))
        slot = Slot(spec.key, spec.bracket, spec.round, spec.index, players, spec.length, bye, result,
                    sources=(str(spec.sources[0]), str(spec.sources[1])), known=known, entries=entries)
        done[spec.key] = slot
        slots.append(slot)
    return slots, ignored


def _entry(src: Source, player: int | None, done: Mapping[str, Slot]) -> int:
    """Which entry of ``player`` this side is: a re-entry's number follows its player down the bracket."""
    if isinstance(src, Reentrant):
        return src.entry
    earlier = done.get(getattr(src, "key", ""))
    if player is None or earlier is None or player not in earlier.players:
        return 1
    return earlier.entries[earlier.players.index(player)]


def _forfeit(players, withdrawn: Collection[int]) -> Result | None:
    a, b = players
    if b in withdrawn:
        return Result(a, b, forfeit=True)  # both withdrawn: the first listed is credited
    if a in withdrawn:
        return Result(b, a, forfeit=True)
    return None


def with_feeds(slots: Sequence[Slot], specs: Sequence[Spec]) -> list[Slot]:
    """Fill each slot's ``feeds`` (where its winner and loser go) by inverting the sources."""
    winner_to: dict[str, str] = {}
    loser_to: dict[str, str] = {}
    for spec in specs:
        for src in spec.sources:
            if isinstance(src, WinnerOf):
                winner_to.setdefault(src.key, spec.key)
            elif isinstance(src, (LoserOf, LoserIf)):
                loser_to.setdefault(src.key, spec.key)
            elif isinstance(src, ResetSide):
                winner_to.setdefault(src.key, spec.key)
                loser_to.setdefault(src.key, spec.key)
    return [replace(s, feeds=(winner_to.get(s.key), loser_to.get(s.key))) for s in slots]


def losers_in_order(slots: Sequence[Slot]) -> tuple[int, ...]:
    """Players who lost a match among ``slots``, by round then slot index."""
    ordered = sorted(slots, key=lambda s: (s.round, s.index))
    return tuple(s.loser for s in ordered if s.loser is not None)


def field_of(slots: Sequence[Slot]) -> tuple[int, ...]:
    seen: dict[int, None] = {}
    for s in sorted(slots, key=lambda s: (s.round, s.index)):
        for p in s.players:
            if p is not None:
                seen.setdefault(p, None)
    return tuple(seen)


def check_entrants(entrants: Sequence[int]) -> list[int]:
    players = list(entrants)
    if len(set(players)) != len(players):
        raise FormatError(Reason.ENTERED_TWICE)
    return players
