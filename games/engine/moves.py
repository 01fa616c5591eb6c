"""Legal checker plays.

The rules enforced here (FFBG rules, GNU Backgammon where they are silent):

* A checker on the bar must enter before any other checker moves; die ``d``
  enters on the opponent's ``d`` point (the mover's ``25 - d``).
* A point held by two or more opposing checkers is closed, also as the
  intermediate landing point of a combined move (``13/7/1`` needs 7 open).
* Landing on a single opposing checker hits it: it goes to the bar.
* Both dice must be played when possible; if only one can be played, the
  higher one must be played when that is possible. Doubles are played four
  times, as many times as possible.
* Bearing off needs all fifteen checkers in the home board. A die larger than
  needed bears off from the highest occupied point only; moving inside the
  home board instead of bearing off is allowed.
* No legal play forfeits the roll: :func:`legal_moves` returns ``[]``.

Plays are deduplicated by resulting position, as gnubg counts them: the 3-1
opening has 16 legal plays and the 2-1 opening 15.

The generator (the "generator" section below) is tuned for speed; its
opening comment and docstrings say why each shortcut keeps these rules exact.
"""

from __future__ import annotations

import struct
from bisect import insort
from collections.abc import Iterable
from functools import lru_cache
from typing import NamedTuple

from .board import BAR, OFF, Position
from .errors import IllegalMove, Reason


class Step(NamedTuple):
    """One checker moved by one die: ``from_point`` -> ``to_point`` (25 bar, 0 off)."""

    from_point: int
    to_point: int
    hit: bool = False


class Play(NamedTuple):
    """A whole legal play: its steps and the position it leaves (mover's frame)."""

    steps: tuple[Step, ...]
    position: Position

    def __str__(self) -> str:
        return _text_of(self.steps)


@lru_cache(maxsize=8192)
def _text_of(steps: tuple[Step, ...]) -> str:
    # an answer after a roll spells every legal play (a score of them at the start of a game): the same plays come
    # back game after game, and spelling one costs ~20 µs
    from .notation import format_move

    return format_move(steps)


def legal_moves(position: Position, dice: tuple[int, int] | list[int]) -> list[Play]:
    """Every legal play for ``dice``, one per distinct resulting position.

    The mover stays on roll in the returned positions (nothing is swapped).
    ``[]`` means the roll cannot be played and is forfeited. Plays come in the
    order they are found (the higher die first, sources from the highest point
    down), each with the steps of the first way found to reach its position.

    >>> len(legal_moves(Position.start(), (3, 1)))
    16
    """
    d1, d2 = dice
    try:
        return list(_legal_moves(position, d1, d2))
    except TypeError:  # a position of lists, say: not hashable, found as it is
        return _generate(position, d1, d2)


# The plays of one roll are asked for three times: when it is rolled (has it a play?), in the answer that lists
# them, and when the play chosen is judged. The latest few, shared by every match of the process, spare two of
# the three; bench/engine.py clears the cache between its passes.
@lru_cache(maxsize=256)
def _legal_moves(position: Position, d1: int, d2: int) -> tuple[Play, ...]:
    return tuple(_generate(position, d1, d2))


def _generate(position: Position, d1: int, d2: int) -> list[Play]:
    if not (1 <= d1 <= 6 and 1 <= d2 <= 6):
        raise IllegalMove(Reason.DICE_OUT_OF_RANGE, d1=d1, d2=d2)
    mine, theirs = position
    ba = bytearray(mine)
    ba.extend(theirs)
    theirs = tuple(theirs)
    if d1 == d2:
        return _doubles(ba, d1, theirs)
    if d1 > d2:
        return _two_dice(ba, d1, d2, theirs)
    return _two_dice(ba, d2, d1, theirs)


def play(position: Position, dice: tuple[int, int] | list[int], move) -> Play:
    """Judge ``move`` (a :class:`Play`, steps or gnubg text) and return the legal play.

    A move is recognised by what it does, so ``24/13``, ``24/18/13`` and
    ``24/18 18/13`` are the same play. Raises :class:`IllegalMove` with the
    reason when the move is not one of the legal plays for ``dice``.
    """
    from .notation import parse_move

    if isinstance(move, Play):
        steps = move.steps
    elif isinstance(move, str):
        steps = parse_move(move)
    else:
        steps = tuple(move)
    candidates = legal_moves(position, dice)
    if not steps:
        if candidates:
            raise IllegalMove(Reason.MUST_PLAY, d1=dice[0], d2=dice[1], move=str(candidates[0]))
        return Play((), position)
    result = _effect(position, steps)
    for candidate in candidates:
        if candidate.position == result:
            return candidate
    written = " ".join(move.split()) if isinstance(move, str) else _describe(steps)
    raise IllegalMove(Reason.NOT_LEGAL, move=written, why=_why_not(position, dice, steps, candidates))


def _effect(position: Position, steps) -> Position:
    """The position a written move leaves: every written landing point hits a blot there."""
    b = list(position.mine)
    o = list(position.theirs)
    for raw in sorted(steps, key=lambda st: (-st[0], -st[1])):
        s, t = raw[0], raw[1]
        if not 0 <= t < s <= 25:
            raise _not_legal([raw], Reason.HIGHER_TO_LOWER)
        if b[s] == 0:
            raise _not_legal([raw], Reason.NO_CHECKER_ON_BAR if s == BAR else Reason.NO_CHECKER_ON_POINT, point=s)
        if t and o[25 - t] >= 2:
            raise _not_legal([raw], Reason.POINT_CLOSED, point=t)
        # a "*" needs a blot there before the play ("8/4* 6/4" and "6/4 8/4*" are one play)
        if len(raw) > 2 and raw[2] and not (t and position.theirs[25 - t] == 1):
            raise _not_legal([raw], Reason.NO_BLOT_TO_HIT, point=t)
        _move(b, o, s, t)
    return Position(tuple(b), tuple(o))


def apply_steps(position: Position, steps: Iterable, dice) -> Play:
    """Move checkers step by step, checking each step's own legality and the dice.

    This does not apply the rules about using the maximum of the dice; use
    :func:`play` for the full judgement.
    """
    b = list(position.mine)
    o = list(position.theirs)
    remaining = list(dice) if dice[0] != dice[1] else [dice[0]] * 4
    done = []
    for raw in steps:
        s, t = raw[0], raw[1]
        if not (0 <= t < s <= 25):
            raise _not_legal([raw], Reason.HIGHER_TO_LOWER)
        if b[s] == 0:
            raise _not_legal([raw], Reason.NO_CHECKER_ON_BAR if s == BAR else Reason.NO_CHECKER_ON_POINT, point=s)
        if b[BAR] and s != BAR:
            raise _not_legal([raw], Reason.BAR_FIRST)
        distance = s - t
        if distance in remaining:
            die = distance
        elif t == OFF and any(d > distance for d in remaining):
            die = min(d for d in remaining if d > distance)
            if any(b[p] for p in range(s + 1, 26)):
                raise _not_legal([raw], Reason.BEAR_OFF_FROM_HIGHEST, die=die, point=_highest(b))
        else:
            raise _not_legal([raw], Reason.NO_DIE_MOVES_PIPS if distance > 1 else Reason.NO_DIE_MOVES_ONE_PIP,
                             d1=dice[0], d2=dice[1], pips=distance)
        if t == OFF:
            if any(b[p] for p in range(7, 26)):
                raise _not_legal([raw], Reason.HOME_BOARD_FIRST, point=_highest(b))
        elif o[25 - t] >= 2:
            raise _not_legal([raw], Reason.POINT_CLOSED, point=t)
        remaining.remove(die)
        hit = _move(b, o, s, t)
        done.append(Step(s, t, hit))
    return Play(tuple(done), Position(tuple(b), tuple(o)))


# -- the generator ----------------------------------------------------------
#
# The hot path. The whole board is one 52-byte bytearray ``ba``, mutated in
# place and undone:
#
#   ba[0..25]   the mover's side (index = point: 0 off, 25 bar),
#   ba[26..51]  the opponent's side in its own numbering, so the opponent's
#               checkers on the mover's point t are ba[51 - t] and the
#               opponent's bar is ba[51].
#
# ``bytes(ba)`` is both a play's dedupe key and the position it leaves.
#
# What makes it fast, and why each shortcut is exact:
#
# * Closed points never change during a turn: only the mover moves, and a hit
#   turns a blot (open) into an empty point (open). Whether die d can take the
#   checker on s to s - d is fixed for the turn (``ba[51 - s + d] < 2``), so
#   sources are found once and then only updated where a move changed a count.
# * Bearing off needs all fifteen checkers home, and one die brings at most one
#   checker home. With k checkers outside the home board (bar included), a
#   bear-off needs k dice first: never with k >= 2 for two dice, k >= 4 for a
#   double. Those turns (most of them) take a "field" path with no bear-off
#   check at all; the others take the general one, :func:`_sources`.
# * Orders of the dice that are provably the same play are not generated twice,
#   and where plays provably cannot repeat a position nothing is deduplicated
#   (the docstrings below give each argument).
# * A result is built once per distinct position from prebuilt steps
#   (``_STEPS``), its sides unpacked from the board bytes (``_side``), with
#   ``tuple.__new__`` instead of the NamedTuple constructors; the opponent's
#   tuple is shared when nothing was hit.
#
# Plays come in the order of the plain generator this replaced (the higher die
# first, sources from the highest point down), each with the same steps: the
# first way found to its position.


def _step_table() -> list[list[tuple[Step, Step]]]:
    """``_STEPS[d][s]``: the step moving a checker ``d`` pips from ``s``, (quiet, hitting)."""
    return [
        [(Step(s, max(s - d, 0), False), Step(s, max(s - d, 0), True)) for s in range(26)]
        for d in range(7)
    ]


_STEPS = _step_table()
_new = tuple.__new__
_side = struct.Struct("26B").unpack_from  # board bytes -> a side's 26-tuple (offset 0 mover, 26 opponent)


def _move(b: list[int], o: list[int], s: int, t: int) -> bool:
    """Move one checker ``s`` -> ``t`` on list sides, hitting a blot on ``t``; return the hit.

    For :func:`_effect`, :func:`apply_steps` and other modules; the generator
    inlines the same on its bytearray.
    """
    b[s] -= 1
    b[t] += 1
    if t and o[25 - t] == 1:
        o[25 - t] = 0
        o[BAR] += 1
        return True
    return False


def _unmove(b: list[int], o: list[int], s: int, t: int, hit: bool) -> None:
    b[s] += 1
    b[t] -= 1
    if hit:
        o[25 - t] = 1
        o[BAR] -= 1


def _plays(found: dict[bytes, tuple[Step, ...]], theirs: tuple[int, ...]) -> list[Play]:
    """Plays from ``{board bytes: steps}``; ``theirs`` is the opponent's side before the play."""
    bar = theirs[BAR]
    return [
        _new(Play, (steps, _new(Position, (_side(key), theirs if key[51] == bar else _side(key, 26)))))
        for key, steps in found.items()
    ]


def _sources(ba: bytearray, d: int, top: int = 25) -> list[int]:
    """Points <= ``top``, highest first, from which a checker can move ``d`` pips now.

    The general case: the bar first, bearing off when all checkers are home.
    """
    if ba[BAR]:
        return [BAR] if ba[26 + d] < 2 else []  # enters on the mover's 25 - d
    if ba.count(0, 7, 25) < 18:
        return [s for s in range(min(top, 24), d, -1) if ba[s] and ba[51 - s + d] < 2]
    # all home: bearing off
    found = [s for s in range(min(top, 6), d, -1) if ba[s] and ba[51 - s + d] < 2]
    if ba[d]:
        if d <= top:
            found.append(d)
    else:
        # a larger die bears off from the highest occupied point only
        h = 6
        while h and not ba[h]:
            h -= 1
        if 0 < h < d and h <= top:
            found.append(h)
    return found


def _two_dice(ba: bytearray, hi: int, lo: int, theirs: tuple[int, ...]) -> list[Play]:
    if ba[BAR] or sum(ba[7:25]) < 2:
        return _plays(_two_dice_general(ba, hi, lo), theirs)
    return _two_dice_field(ba, hi, lo, theirs)


def _two_dice_general(ba: bytearray, hi: int, lo: int) -> dict[bytes, tuple[Step, ...]]:
    """Two different dice, any position: the higher die first, then the lower first.

    The lower-first pass skips a second (higher) move from a point that was a
    higher-die source at the start: "lo from a, then hi from b" then leaves the
    same position as "hi from b, then lo from a", which the first pass has
    already generated. That order is legal too: b still holds the checker
    that moves (b != a, or a held two), landing points do not change, the bar
    held a checker only if a == b == bar, and a bear-off by the lower die stays
    legal (all home stays all home; nothing was above a, so b <= a).
    """
    both: dict[bytes, tuple[Step, ...]] = {}
    only_hi: dict[bytes, tuple[Step, ...]] = {}
    only_lo: dict[bytes, tuple[Step, ...]] = {}
    hi_first = _sources(ba, hi)
    for first, second, firsts, skip, single in (
        (hi, lo, hi_first, (), only_hi),
        (lo, hi, _sources(ba, lo), hi_first, only_lo),
    ):
        steps1 = _STEPS[first]
        steps2 = _STEPS[second]
        for s1 in firsts:
            t1 = s1 - first if s1 > first else 0
            ba[s1] -= 1
            ba[t1] += 1
            h1 = t1 > 0 and ba[51 - t1] == 1
            if h1:
                ba[51 - t1] = 0
                ba[51] += 1
            step1 = steps1[s1][h1]
            seconds = _sources(ba, second)
            for s2 in seconds:
                if s2 in skip:
                    continue
                t2 = s2 - second if s2 > second else 0
                ba[s2] -= 1
                ba[t2] += 1
                if t2 and ba[51 - t2] == 1:
                    ba[51 - t2] = 0
                    ba[51] += 1
                    key = bytes(ba)
                    ba[51 - t2] = 1
                    ba[51] -= 1
                    if key not in both:
                        both[key] = (step1, steps2[s2][1])
                else:
                    key = bytes(ba)
                    if key not in both:
                        both[key] = (step1, steps2[s2][0])
                ba[s2] += 1
                ba[t2] -= 1
            if not seconds and not both:
                key = bytes(ba)
                if key not in single:
                    single[key] = (step1,)
            if h1:
                ba[51 - t1] = 1
                ba[51] -= 1
            ba[s1] += 1
            ba[t1] -= 1
    return both or only_hi or only_lo


def _two_dice_field(ba: bytearray, hi: int, lo: int, theirs: tuple[int, ...]) -> list[Play]:
    """Two different dice, no checker on the bar, two or more outside home (no bear-off).

    A source of die d is then an occupied point s > d whose s - d is open.

    The lower-first pass generates only what :func:`_two_dice_general` would
    not skip: a higher-die move from a point that was no source at the start.
    Here the only such point is the one the lower die just landed on, when it
    was empty: the same checker moving on.

    Only plays moving one checker twice (x -> x-hi-lo) need a dedupe. Plays
    moving two checkers never leave the same mover's side as another play:
    a -> a-hi and b -> b-lo change the counts of a, b, a-hi and b-lo, and for
    two such plays to agree they would have to swap a and b, with a - hi =
    a - lo. The one-checker plays are the higher die's checker moving on
    (s2 = t1), a lower die moved from the point the higher one was left for
    (t2 = s1), and the lower-first ones.
    """
    plays: list[Play] = []
    one_checker: set[bytes] = set()  # board bytes of the one-checker plays so far
    steps_hi = _STEPS[hi]
    steps_lo = _STEPS[lo]
    occupied = [s for s in range(24, lo, -1) if ba[s]]
    hi_first = [s for s in occupied if s > hi and ba[51 - s + hi] < 2]
    lo_up = [s for s in reversed(occupied) if ba[51 - s + lo] < 2]  # ascending, for insort
    only_hi: dict[bytes, tuple[Step, ...]] = {}
    for s1 in hi_first:
        t1 = s1 - hi
        ba[s1] -= 1
        ba[t1] += 1
        h1 = ba[51 - t1] == 1
        if h1:
            ba[51 - t1] = 0
            ba[51] += 1
            opp = _side(ba, 26)
        else:
            opp = theirs
        step1 = steps_hi[s1][h1]
        # the lower die's sources now: those at the start, less s1 if this
        # was its last checker, plus t1 if this checker is the first there
        seconds = lo_up
        if not ba[s1] and ba[51 - s1 + lo] < 2:
            seconds = lo_up.copy()
            seconds.remove(s1)
        if ba[t1] == 1 and t1 > lo and ba[51 - t1 + lo] < 2:
            seconds = seconds.copy() if seconds is lo_up else seconds
            insort(seconds, t1)
        for s2 in reversed(seconds):
            t2 = s2 - lo
            ba[s2] -= 1
            ba[t2] += 1
            h2 = ba[51 - t2] == 1
            if h2:
                ba[51 - t2] = 0
                ba[51] += 1
            if s2 != t1 and t2 != s1:
                plays.append(_new(Play, ((step1, steps_lo[s2][h2]), _new(Position, (_side(ba), _side(ba, 26) if h2 else opp)))))
            else:
                key = bytes(ba)
                if key not in one_checker:
                    one_checker.add(key)
                    plays.append(_new(Play, ((step1, steps_lo[s2][h2]), _new(Position, (_side(ba), _side(ba, 26) if h2 else opp)))))
            if h2:
                ba[51 - t2] = 1
                ba[51] -= 1
            ba[s2] += 1
            ba[t2] -= 1
        if not seconds and not plays:
            only_hi[bytes(ba)] = (step1,)
        if h1:
            ba[51 - t1] = 1
            ba[51] -= 1
        ba[s1] += 1
        ba[t1] -= 1

    only_lo: dict[bytes, tuple[Step, ...]] = {}
    for s1 in reversed(lo_up):
        t1 = s1 - lo
        onward = not ba[t1] and t1 > hi and ba[51 - t1 + hi] < 2
        if not onward and (plays or hi_first):
            continue  # nothing new, and a lone lower die is not the play
        ba[s1] -= 1
        ba[t1] += 1
        h1 = ba[51 - t1] == 1
        if h1:
            ba[51 - t1] = 0
            ba[51] += 1
        step1 = steps_lo[s1][h1]
        if onward:
            t2 = t1 - hi
            ba[t1] -= 1
            ba[t2] += 1
            h2 = ba[51 - t2] == 1
            if h2:
                ba[51 - t2] = 0
                ba[51] += 1
            key = bytes(ba)
            if key not in one_checker:
                one_checker.add(key)
                opp = _side(ba, 26) if h1 or h2 else theirs
                plays.append(_new(Play, ((step1, steps_hi[t1][h2]), _new(Position, (_side(ba), opp)))))
            if h2:
                ba[51 - t2] = 1
                ba[51] -= 1
            ba[t1] += 1
            ba[t2] -= 1
        else:
            only_lo[bytes(ba)] = (step1,)
        if h1:
            ba[51 - t1] = 1
            ba[51] -= 1
        ba[s1] += 1
        ba[t1] -= 1
    return plays or _plays(only_hi or only_lo, theirs)


def _doubles(ba: bytearray, d: int, theirs: tuple[int, ...]) -> list[Play]:
    """Four equal dice, as many as can be played.

    Any legal order of the four moves can be replayed with the source points in
    non-increasing order (moving a higher checker first never hurts a lower
    one: landing points do not change, and a checker must be on a higher point
    to block a bear-off or keep the board from being all home), so only those
    orders are generated.
    """
    path: list[Step] = []
    n = 0
    if ba[BAR]:
        # entering is forced, and every entering checker takes the same point
        if ba[26 + d] >= 2:
            return []
        step = _STEPS[d][BAR]
        t = 25 - d
        while ba[BAR] and n < 4:
            ba[BAR] -= 1
            ba[t] += 1
            hit = ba[51 - t] == 1
            if hit:
                ba[51 - t] = 0
                ba[51] += 1
            path.append(step[hit])
            n += 1
        if n == 4:
            return _plays({bytes(ba): tuple(path)}, theirs)
    if sum(ba[7:25]) >= 4 - n:
        return _plays(_doubles_field(ba, d, path, n), theirs)
    return _plays(_doubles_general(ba, d, path, n), theirs)


def _doubles_field(ba: bytearray, d: int, path: list[Step], n0: int) -> dict[bytes, tuple[Step, ...]]:
    """The rest of a double (``n0`` dice played) with no bear-off possible and the bar empty.

    Every move is s -> s - d, so a play's result depends only on the multiset
    of its sources, and a multiset has one non-increasing order: the plays of
    four dice are distinct positions and are stored without a check. (Were two
    multisets f, g to leave the same counts, f - g would repeat every d points,
    and so be 0, as it is above the 24 point.)
    """
    by_count: list[dict[bytes, tuple[Step, ...]]] = [{}, {}, {}, {}, {}]
    full = by_count[4]
    steps = _STEPS[d]
    movers = [s for s in range(24, d, -1) if ba[51 - s + d] < 2]  # open landing, for the whole turn
    end = len(movers)
    best = n0

    def walk(n: int, start: int) -> None:
        # movers[start:] are the points not above the last source
        nonlocal best
        moved = False
        for i in range(start, end):
            s = movers[i]
            if ba[s]:
                moved = True
                t = s - d
                ba[s] -= 1
                ba[t] += 1
                if ba[51 - t] == 1:
                    ba[51 - t] = 0
                    ba[51] += 1
                    path.append(steps[s][1])
                    if n == 3:
                        full[bytes(ba)] = tuple(path)
                    else:
                        walk(n + 1, i)
                    ba[51 - t] = 1
                    ba[51] -= 1
                else:
                    path.append(steps[s][0])
                    if n == 3:
                        full[bytes(ba)] = tuple(path)
                    else:
                        walk(n + 1, i)
                path.pop()
                ba[s] += 1
                ba[t] -= 1
        if not moved and n >= best:
            best = n
            by_count[n][bytes(ba)] = tuple(path)

    walk(n0, 0)
    if full:
        return full
    return by_count[best] if best else {}


def _doubles_general(ba: bytearray, d: int, path: list[Step], n0: int) -> dict[bytes, tuple[Step, ...]]:
    """The rest of a double when bearing off may happen (two bear-offs can tie)."""
    by_count: list[dict[bytes, tuple[Step, ...]]] = [{}, {}, {}, {}, {}]
    steps = _STEPS[d]
    best = n0

    def walk(n: int, top: int) -> None:
        nonlocal best
        sources = _sources(ba, d, top) if n < 4 else ()
        if not sources:
            if n >= best:
                best = n
                key = bytes(ba)
                bucket = by_count[n]
                if key not in bucket:
                    bucket[key] = tuple(path)
            return
        for s in sources:
            t = s - d if s > d else 0
            ba[s] -= 1
            ba[t] += 1
            hit = t > 0 and ba[51 - t] == 1
            if hit:
                ba[51 - t] = 0
                ba[51] += 1
            path.append(steps[s][hit])
            walk(n + 1, s)
            path.pop()
            if hit:
                ba[51 - t] = 1
                ba[51] -= 1
            ba[s] += 1
            ba[t] -= 1

    walk(n0, 25)
    return by_count[best] if best else {}


def _highest(b: list[int]) -> int:
    return max(p for p in range(25, 0, -1) if b[p])


def _describe(steps) -> str:
    from .notation import format_move

    return format_move(steps) if steps else "no move"


def _not_legal(steps, reason: Reason, **params) -> IllegalMove:
    """The play written ``steps`` refused for a fault of one of its checkers (nested as the reason why)."""
    return IllegalMove(Reason.NOT_LEGAL, move=_describe(steps), why=IllegalMove(reason, **params))


def _why_not(position: Position, dice, steps, candidates: list[Play]) -> IllegalMove:
    # judge die by die, in the order written, then in the natural order (highest
    # point first); a fault found both ways is the player's, not the order's
    ordered = sorted(steps, key=lambda st: (-st[0], -st[1]))
    faults = []
    for attempt in (steps, ordered):
        try:
            apply_steps(position, _by_die(position, attempt, dice), dice)
        except IllegalMove as broken:
            faults.append(broken.params.get("why", broken))
    if len(faults) == 2:
        return faults[0]
    if not candidates:
        return IllegalMove(Reason.NO_LEGAL_PLAY, d1=dice[0], d2=dice[1])
    used = max(len(c.steps) for c in candidates)
    if len(steps) < used:
        if used == 4 or (used == 2 and dice[0] != dice[1]):
            return IllegalMove(Reason.WHOLE_ROLL, dice=used)
        return IllegalMove(Reason.AS_MANY_DICE, dice=used)
    if used == 1 and dice[0] != dice[1]:
        return IllegalMove(Reason.HIGHER_DIE, die=max(dice))
    return IllegalMove(Reason.NO_SUCH_PLAY)


def _by_die(position: Position, steps, dice) -> list[tuple[int, int]]:
    """Split written moves covering several dice (``24/13`` with 6-5) into single dice."""
    out = []
    pool = list(dice) if dice[0] != dice[1] else [dice[0]] * 4
    for raw in steps:
        s, t = raw[0], raw[1]
        distance = s - t
        if distance in pool or t == OFF or len(pool) < 2:
            out.append((s, t))
            if distance in pool:
                pool.remove(distance)
            continue
        d = pool[0]
        if dice[0] == dice[1] and distance % d == 0 and distance // d <= len(pool):
            out.extend((s - k * d, s - (k + 1) * d) for k in range(distance // d))
            del pool[: distance // d]
        elif dice[0] != dice[1] and distance == sum(pool):
            # the order whose landing point is open, as a player would move
            hi, lo = max(pool), min(pool)
            first = hi if position.theirs[25 - (s - hi)] < 2 else lo
            out += [(s, s - first), (s - first, t)]
            pool.clear()
        else:
            out.append((s, t))
    return out
