"""Single elimination with optional Consolation and Last Chance flights.

``derive(entrants, results, config)`` rebuilds the whole structure from the
entry list (seed order, best first) and the recorded results, keyed by slot.

Main (``main:rR:mI``)
    Draw size: the next power of two. Seeds are placed in the standard
    recursive order (1 v 16, 8 v 9, 4 v 13, 5 v 12, 2 v 15, ...): the two
    halves hold seeds 1 and 2, so they can meet only in the final. When the
    field is short, the byes go to the top seeds (seed s meets seed
    size+1-s, absent when that exceeds the field); a bye advances without a
    result. Round r has size/2^r slots; the winners of slots 2i-1 and 2i
    meet in slot i of the next round.

Consolation (``consolation:rR:mI``), when ``config.consolation`` is set
    Fed by Main losers. Round 1 pairs the losers of Main round-1 slots
    2i-1 and 2i (byes where a Main slot was a bye).

    - ``consolation_feeds = 1``: only first-match losers enter. A player
      whose Main round 1 was a bye and who loses in Main round 2 has lost
      their first match: they take the empty place their bye left in
      Consolation round 1 (they never met the other player of that slot).
      (Not when Main round 2 is the final: the Main runner-up does not drop.)
    - ``consolation_feeds = 2`` (progressive): Main round-2 losers, bye
      holders included, enter Consolation round 2, where they meet the
      Consolation round-1 winners; the losers of Main slot j meet the winner
      of Consolation slot (k+1-j) of k, the far half of the draw, so nobody
      meets the player they just lost to or that player's victim. Larger
      values carry on the same way (an internal round, then Main round-3
      losers drop in, ...), at most up to the round before the Main final.
    Further rounds are a plain knockout of the survivors.

Last Chance (``last_chance:rR:mI``), when ``config.last_chance`` is set
    A fresh draw of those eliminated from both Main and Consolation (the
    losers of Consolation matches, withdrawn players left out), made once
    every Consolation slot is settled; until then the bracket has no slots
    and is listed in ``Bracket.awaiting_draw``. Seed order: the players of
    ``config.last_chance_order`` first, in that order (the director's draw),
    then the rest by default order: the Consolation round they lost in,
    latest first (they went further), ties by Main seed. Standard placement
    with byes to the top seeds, as in Main. Held with two entrants or more.

Re-entry (buy-back), when ``config.reentry`` is set
    The places of the Main's first round that no first entrant takes (the
    byes) are kept open for re-entries: 17 entrants in a 32-draw keep 15 of
    them, 14 in a 16-draw keep two; a field that fills its draw keeps none. A player eliminated from the Main in round
    ``reentry.until_round`` or before may buy back ``reentry.times`` times:
    each re-entry takes the next open place and plays on from round 1
    (``Slot.entries`` marks it: 2 for a second entry, all along its path). A
    bye holder facing an open place waits for it; every other match is played
    as soon as its two players are known. The places fill a section of the
    draw at a time, the section of the round-``until_round`` match with the
    lowest-seeded best bye holder first (``reentry_places``), so that match
    can be played while re-entry is open and its loser re-enter; with
    ``until_round`` 1 this is the place facing the lowest-seeded bye holder
    first (the top seeds are the likeliest to keep a bye). When re-entry
    closes (``reentry.closed``) the places still open become byes.
    Re-entry and a Consolation both take the Main's early losers: a player
    would be due in two brackets at once, so the two are not combined.

Every bracket has its own ``Lengths`` (per round, a final length, a default).
Withdrawn players forfeit every match without a recorded result (see
``knockout``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace

from .core import SETTLED, Bracket, FormatError, Lengths, Reason, Result
from .knockout import (
    NOBODY,
    Empty,
    Entrant,
    OpenPlace,
    Reentrant,
    LoserIf,
    LoserOf,
    WinnerOf,
    check_entrants,
    drop_in,
    field_of,
    key,
    knockout,
    losers_in_order,
    resolve,
    seeded_round,
    with_feeds,
)

MAIN, CONSOLATION, LAST_CHANCE = "main", "consolation", "last_chance"


@dataclass(frozen=True)
class Reentry:
    """Re-entry into the Main: until which round's losers, how many times; the re-entries made, in order (player, the place's slot key), and whether re-entry has closed."""

    until_round: int = 1
    times: int = 1
    entries: tuple[tuple[int, str], ...] = ()
    closed: bool = False

    def __post_init__(self):
        if self.until_round < 1 or self.times < 1:
            raise FormatError(Reason.REENTRY_COUNTS)


@dataclass(frozen=True)
class Config:
    """``consolation`` / ``last_chance``: that flight's lengths, None for no such flight."""

    lengths: Lengths = field(default_factory=Lengths)
    withdrawn: frozenset[int] = frozenset()
    consolation: Lengths | None = None
    consolation_feeds: int = 1
    last_chance: Lengths | None = None
    last_chance_order: tuple[int, ...] | None = None
    reentry: Reentry | None = None

    def __post_init__(self):
        if self.reentry is not None and self.consolation is not None:
            raise FormatError(Reason.REENTRY_OR_CONSOLATION)
        if self.last_chance is not None and self.consolation is None:
            raise FormatError(Reason.LAST_CHANCE)
        if self.consolation_feeds < 1:
            raise FormatError(Reason.CONSOLATION_FEEDS)


def derive(entrants: Sequence[int], results: Mapping[str, Result], config: Config = Config()) -> Bracket:
    """The Main bracket and its flights, derived from the entries and the results so far.

    A re-entry stands while its player's entry before it has lost: a correction that puts them back in the
    draw on that entry leaves the re-entry without ground, and its place is open again (or a bye once re-entry
    has closed); the slot's match, if any, is flagged like any other a correction made wrong."""
    while True:
        bracket = _derive(entrants, results, config)
        dropped = _unfounded(bracket, config.reentry)
        if dropped is None:
            return bracket
        kept = tuple(e for i, e in enumerate(config.reentry.entries) if i != dropped)
        config = replace(config, reentry=replace(config.reentry, entries=kept))


def _unfounded(bracket: Bracket, reentry: Reentry | None) -> int | None:
    """The index of the first re-entry whose player's previous entry has not lost in the Main."""
    if reentry is None:
        return None
    made: dict[int, int] = {}
    for i, (player, _) in enumerate(reentry.entries):
        made[player] = made.get(player, 0) + 1
        previous = made[player]  # the entry before this one (1 for a first re-entry)
        if not any(s.bracket == MAIN and s.loser == player and s.entries[s.players.index(player)] == previous
                   for s in bracket.slots):
            return i
    return None


def _derive(entrants: Sequence[int], results: Mapping[str, Result], config: Config) -> Bracket:
    players = check_entrants(entrants)
    withdrawn = frozenset(config.withdrawn)
    if not players:
        return Bracket((), None, {MAIN: None}, {MAIN: ()}, {MAIN: ()}, ignored=tuple(sorted(results)))
    first = seeded_round(players)
    if config.reentry is not None:
        first = _with_reentries(first, config.reentry)
    size = 2 * len(first)
    main_rounds = size.bit_length() - 1
    specs = knockout(MAIN, first, config.lengths)
    champions = {MAIN: WinnerOf(specs[-1].key)}

    if config.consolation is not None and main_rounds >= 2:
        feeds = max(1, min(config.consolation_feeds, main_rounds - 1))
        first_losers = [_first_match_loser(i, sides, main_rounds, feeds) for i, sides in enumerate(first, 1)]
        cons, champion = drop_in(CONSOLATION, MAIN, size, feeds, config.consolation, first_losers)
        specs += cons
        champions[CONSOLATION] = champion

    done: dict = {}
    slots, ignored = resolve(specs, results, withdrawn, done)
    awaiting = []
    if config.last_chance is not None and CONSOLATION in champions:
        cons_slots = [s for s in slots if s.bracket == CONSOLATION]
        if all(s.status in SETTLED for s in cons_slots):
            order = _last_chance_order(cons_slots, players, withdrawn, config.last_chance_order)
            if len(order) >= 2:
                lc = knockout(LAST_CHANCE, seeded_round(order), config.last_chance)
                specs += lc
                more, more_ignored = resolve(lc, results, withdrawn, done)
                slots += more
                ignored += more_ignored
                champions[LAST_CHANCE] = WinnerOf(lc[-1].key)
        else:
            awaiting.append(LAST_CHANCE)
        champions.setdefault(LAST_CHANCE, Empty())

    slots = with_feeds(slots, specs)
    names = list(champions)
    winners = {name: _player(src.value(done)) for name, src in champions.items()}
    known = {s.key for s in slots}
    ignored += sorted(k for k in results if k not in known)
    return Bracket(
        slots=tuple(slots),
        winner=winners[MAIN],
        champions=winners,
        eliminated={n: losers_in_order([s for s in slots if s.bracket == n]) for n in names},
        fields={n: field_of([s for s in slots if s.bracket == n]) for n in names},
        awaiting_draw=tuple(awaiting),
        ignored=tuple(ignored),
    )


def _first_match_loser(i: int, sides, main_rounds: int, feeds: int):
    """Who Main round-1 slot ``i`` sends to Consolation round 1."""
    a, b = sides
    if feeds == 1 and main_rounds >= 3 and isinstance(a, Entrant) and isinstance(b, Empty):
        return LoserIf(key(MAIN, 2, (i + 1) // 2), a.player)  # the bye holder's first match
    return LoserOf(key(MAIN, 1, i))


def _last_chance_order(cons_slots, players, withdrawn, chosen) -> list[int]:
    lost_in = {s.loser: s.round for s in cons_slots if s.loser is not None and s.loser not in withdrawn}
    seed = {p: i for i, p in enumerate(players)}
    chosen = list(chosen or ())
    place = {p: i for i, p in enumerate(chosen)}
    return sorted(lost_in, key=lambda p: (place.get(p, len(chosen)), -lost_in[p], seed[p]))


def _player(value) -> int | None:
    return None if value is None or value is NOBODY else value


def reentry_places(field_size: int, until_round: int = 1) -> list[str]:
    """The first-round places kept open for re-entries, in the order re-entries take them.

    A place blocks only the bye holder facing it, so a match of round ``until_round`` is played once every
    place of its section of the draw (the 2^(until_round-1) first-round slots that feed it) is taken; only then
    can it have a loser who re-enters. The places therefore fill a section at a time: the section whose best bye
    holder is the lowest-seeded first (so the top seeds are the likeliest to keep a bye), and within it the
    place facing the lowest-seeded bye holder first. With ``until_round`` 1 a section is one place: the place
    facing the lowest-seeded bye holder first. 17 in a 32-draw, ``until_round`` 2: the places facing seeds 9
    and 8 (their round-2 match can then be played), then 10 and 7, … then 15 and 2, then 1."""
    first = seeded_round(list(range(1, field_size + 1)))
    width = min(2 ** (max(until_round, 1) - 1), len(first))  # first-round slots feeding one round-R match
    open_ = [(i // width, a.seed, key(MAIN, 1, i + 1)) for i, (a, b) in enumerate(first)
             if isinstance(a, Entrant) and isinstance(b, Empty)]
    best: dict[int, int] = {}
    for section, seed, _ in open_:
        best[section] = min(best.get(section, seed), seed)
    return [k for section, seed, k in sorted(open_, key=lambda o: (-best[o[0]], -o[1]))]


def _with_reentries(first, reentry: Reentry):
    taken = dict((place, player) for player, place in reentry.entries)
    made: dict[int, int] = {}
    entry_of = {}
    for player, place in reentry.entries:  # a player's n-th re-entry is their entry n + 1
        made[player] = made.get(player, 0) + 1
        entry_of[place] = made[player] + 1
    out = []
    for i, (a, b) in enumerate(first, 1):
        place = key(MAIN, 1, i)
        if isinstance(a, Entrant) and isinstance(b, Empty):  # a bye's place (a slot empty on both sides stays so)
            if place in taken:
                b = Reentrant(taken[place], entry_of[place])
            elif not reentry.closed:
                b = OpenPlace()
        out.append((a, b))
    return out


def eliminated_in(bracket: Bracket, player: int) -> int | None:
    """The Main round in which ``player``'s latest entry lost; None while they are still in (or were never in)."""
    slots = [s for s in bracket.slots if s.bracket == MAIN and player in s.players]
    if not slots:
        return None
    latest = max(max(s.entries[s.players.index(player)] for s in slots), 1)
    lost = [s.round for s in slots if s.loser == player and s.entries[s.players.index(player)] == latest]
    return lost[0] if lost else None
