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
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import NamedTuple

from .board import BAR, OFF, Position
from .errors import IllegalMove


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
        from .notation import format_move

        return format_move(self.steps)


def legal_moves(position: Position, dice: tuple[int, int] | list[int]) -> list[Play]:
    """Every legal play for ``dice``, one per distinct resulting position.

    The mover stays on roll in the returned positions (nothing is swapped).
    ``[]`` means the roll cannot be played and is forfeited.

    >>> len(legal_moves(Position.start(), (3, 1)))
    16
    """
    d1, d2 = dice
    if not (1 <= d1 <= 6 and 1 <= d2 <= 6):
        raise IllegalMove(f"dice must be 1 to 6, got {d1}-{d2}")
    b = list(position.mine)
    o = list(position.theirs)
    if d1 == d2:
        found = _doubles(b, o, d1)
    else:
        found = _two_dice(b, o, max(d1, d2), min(d1, d2))
    return [
        Play(steps, Position(tuple(key[:26]), tuple(key[26:]))) for key, steps in found.items()
    ]


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
            raise IllegalMove(
                f"the roll {dice[0]}-{dice[1]} can be played (e.g. {candidates[0]}); the turn cannot be passed"
            )
        return Play((), position)
    result = _effect(position, steps)
    for candidate in candidates:
        if candidate.position == result:
            return candidate
    raise IllegalMove(f"{_describe(steps)} is not legal: {_why_not(position, dice, steps, candidates)}")


def _effect(position: Position, steps) -> Position:
    """The position a written move leaves: every written landing point hits a blot there."""
    b = list(position.mine)
    o = list(position.theirs)
    for raw in sorted(steps, key=lambda st: (-st[0], -st[1])):
        s, t = raw[0], raw[1]
        if not 0 <= t < s <= 25:
            raise IllegalMove(f"{_describe([raw])} is not legal: checkers move from higher to lower points")
        if b[s] == 0:
            where = "on the bar" if s == BAR else f"on the {s} point"
            raise IllegalMove(f"{_describe([raw])} is not legal: you have no checker {where}")
        if t and o[25 - t] >= 2:
            raise IllegalMove(f"{_describe([raw])} is not legal: the {t} point is closed")
        # a "*" needs a blot there before the play ("8/4* 6/4" and "6/4 8/4*" are one play)
        if len(raw) > 2 and raw[2] and not (t and position.theirs[25 - t] == 1):
            raise IllegalMove(f"{_describe([raw])} is not legal: there is no blot to hit on the {t} point")
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
        text = _describe([raw])
        if not (0 <= t < s <= 25):
            raise IllegalMove(f"{text} is not legal: checkers move from higher to lower points")
        if b[s] == 0:
            where = "on the bar" if s == BAR else f"on the {s} point"
            raise IllegalMove(f"{text} is not legal: you have no checker {where}")
        if b[BAR] and s != BAR:
            raise IllegalMove(f"{text} is not legal: a checker on the bar must enter first")
        distance = s - t
        if distance in remaining:
            die = distance
        elif t == OFF and any(d > distance for d in remaining):
            die = min(d for d in remaining if d > distance)
            if any(b[p] for p in range(s + 1, 26)):
                raise IllegalMove(
                    f"{text} is not legal: a {die} bears off from a lower point only when no "
                    f"checker stands on a higher point (one is on the {_highest(b)} point)"
                )
        else:
            raise IllegalMove(
                f"{text} is not legal: no die of the roll {dice[0]}-{dice[1]} moves {distance} "
                f"pip{'s' if distance > 1 else ''}"
            )
        if t == OFF:
            if any(b[p] for p in range(7, 26)):
                raise IllegalMove(
                    f"{text} is not legal: bearing off needs all fifteen checkers in the home board "
                    f"(one is on the {_highest(b)} point)"
                )
        elif o[25 - t] >= 2:
            raise IllegalMove(f"{text} is not legal: the {t} point is closed")
        remaining.remove(die)
        hit = _move(b, o, s, t)
        done.append(Step(s, t, hit))
    return Play(tuple(done), Position(tuple(b), tuple(o)))


# -- the generator ----------------------------------------------------------
#
# The hot path: plain lists of ints mutated in place and undone, no objects per
# checker. A result is keyed by the bytes of both sides, which dedupes plays by
# resulting position and carries the position itself.


def _move(b: list[int], o: list[int], s: int, t: int) -> bool:
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


def _sources(b: list[int], o: list[int], d: int, top: int) -> list[int]:
    """Points (<= top) from which a checker can legally move ``d`` pips."""
    if b[BAR]:
        return [BAR] if o[d] < 2 else []
    found = []
    home = True
    for s in range(24, 6, -1):
        if b[s]:
            home = False
            if s <= top and o[25 - s + d] < 2:
                found.append(s)
    for s in range(min(6, top), 0, -1):
        if b[s]:
            t = s - d
            if t > 0:
                if o[25 - t] < 2:
                    found.append(s)
            elif home and (t == 0 or not any(b[s + 1 : 7])):
                found.append(s)
    return found


def _two_dice(b: list[int], o: list[int], hi: int, lo: int) -> dict[bytes, tuple[Step, ...]]:
    both: dict[bytes, tuple[Step, ...]] = {}
    only_hi: dict[bytes, tuple[Step, ...]] = {}
    only_lo: dict[bytes, tuple[Step, ...]] = {}
    for first, second, single in ((hi, lo, only_hi), (lo, hi, only_lo)):
        for s1 in _sources(b, o, first, 25):
            t1 = s1 - first if s1 > first else 0
            h1 = _move(b, o, s1, t1)
            step1 = Step(s1, t1, h1)
            seconds = _sources(b, o, second, 25)
            for s2 in seconds:
                t2 = s2 - second if s2 > second else 0
                h2 = _move(b, o, s2, t2)
                key = bytes(b) + bytes(o)
                if key not in both:
                    both[key] = (step1, Step(s2, t2, h2))
                _unmove(b, o, s2, t2, h2)
            if not seconds and not both:
                key = bytes(b) + bytes(o)
                if key not in single:
                    single[key] = (step1,)
            _unmove(b, o, s1, t1, h1)
    return both or only_hi or only_lo


def _doubles(b: list[int], o: list[int], d: int) -> dict[bytes, tuple[Step, ...]]:
    # Any legal order of four equal dice can be replayed with the source points
    # in non-increasing order, so only those orders are generated.
    by_count: list[dict[bytes, tuple[Step, ...]]] = [{}, {}, {}, {}, {}]
    steps: list[Step] = []
    best = 0

    def walk(n: int, top: int) -> None:
        nonlocal best
        sources = _sources(b, o, d, top)
        if not sources or n == 4:
            if n >= best:
                best = n
                key = bytes(b) + bytes(o)
                bucket = by_count[n]
                if key not in bucket:
                    bucket[key] = tuple(steps)
            return
        for s in sources:
            t = s - d if s > d else 0
            h = _move(b, o, s, t)
            steps.append(Step(s, t, h))
            walk(n + 1, s)
            steps.pop()
            _unmove(b, o, s, t, h)

    walk(0, 25)
    return by_count[best] if best else {}


def _highest(b: list[int]) -> int:
    return max(p for p in range(25, 0, -1) if b[p])


def _describe(steps) -> str:
    from .notation import format_move

    return format_move(steps) if steps else "no move"


def _why_not(position: Position, dice, steps, candidates: list[Play]) -> str:
    # judge die by die, in the order written, then in the natural order (highest
    # point first); a fault found both ways is the player's, not the order's
    ordered = sorted(steps, key=lambda st: (-st[0], -st[1]))
    faults = []
    for attempt in (steps, ordered):
        try:
            apply_steps(position, _by_die(position, attempt, dice), dice)
        except IllegalMove as broken:
            faults.append(str(broken).split(" is not legal: ", 1)[-1])
    if len(faults) == 2:
        return faults[0]
    if not candidates:
        return f"the roll {dice[0]}-{dice[1]} has no legal play; the turn passes"
    used = max(len(c.steps) for c in candidates)
    if len(steps) < used:
        if used == 4 or (used == 2 and dice[0] != dice[1]):
            return f"all of the roll must be played ({used} dice can be played)"
        return f"{used} dice can be played, so {used} must be"
    if used == 1 and dice[0] != dice[1]:
        return f"only one die can be played, and the higher ({max(dice)}) must be played when possible"
    return "it does not match any legal play for this roll"


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
