"""Move text in GNU Backgammon's style.

Formatting follows gnubg: moves sorted by source point (highest first), the
moves of one checker joined into one path (``24/13``), an intermediate point
kept only where the checker hit (``13/7*/1``), repeated moves counted
(``8/5(2)``), ``bar`` and ``off`` spelled out.

Parsing accepts that and the variants other programs write: ``25``/``0`` for
bar/off as in ``.mat`` files, the moves of a path written separately
(``13/9 9/5``), ``*`` marks present or not, any order, extra spaces.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from .errors import NotationError, Reason
from .moves import Step

_TOKEN = re.compile(r"^(bar|off|\d{1,2})((?:/(?:bar|off|\d{1,2})\*?)+)(?:\((\d)\))?$", re.I)


def _point(text: str) -> int:
    text = text.lower()
    if text == "bar":
        return 25
    if text == "off":
        return 0
    value = int(text)
    if not 0 <= value <= 25:
        raise NotationError(Reason.NOT_A_POINT, text=text)
    return value


def parse_move(text: str) -> tuple[Step, ...]:
    """Read gnubg-style move text into steps ``(from, to, hit)``.

    A path ``13/7*/1`` becomes two steps, ``13/7`` (hit) and ``7/1``; a step may
    cover several dice (``24/13``). ``(2)`` repeats a move.

    >>> parse_move("bar/22 6/off")
    (Step(from_point=25, to_point=22, hit=False), Step(from_point=6, to_point=0, hit=False))
    """
    steps: list[Step] = []
    for token in text.replace(",", " ").split():
        match = _TOKEN.match(token)
        if not match:
            raise NotationError(Reason.UNREADABLE_MOVE, text=repr(token))
        start, rest, repeat = match.groups()
        points = [_point(start)]
        hits = [False]
        for part in rest.split("/")[1:]:
            points.append(_point(part.rstrip("*")))
            hits.append(part.endswith("*"))
        path = [Step(points[i], points[i + 1], hits[i + 1]) for i in range(len(points) - 1)]
        for step in path:
            if step.to_point >= step.from_point:
                raise NotationError(Reason.MOVE_UPWARDS, text=token)
        steps.extend(path)
        # "6/1*(4)": the first checker hits, the others land on the point
        steps.extend(Step(st.from_point, st.to_point, False) for st in path * (int(repeat or 1) - 1))
    return tuple(steps)


def format_move(steps: Iterable) -> str:
    """Write steps as gnubg does: ``24/18 13/11*``, ``13/7*/1``, ``8/5(2)``, ``bar/22``, ``6/off``.

    Each step is ``(from, to, hit)``; 25 is the bar and 0 is off. As in gnubg,
    a path keeps an intermediate point only where a blot stood, and a hit is
    marked once per point.
    """
    moves = sorted(((s[0], s[1]) for s in steps), reverse=True)
    blots = {s[1] for s in steps if len(s) > 2 and s[2]}
    paths = [[source, dest] for source, dest in moves]
    # join the moves of one checker, in gnubg's order (earlier path absorbs later)
    merged: list[list[int]] = []
    taken = [False] * len(paths)
    for i, path in enumerate(paths):
        if taken[i]:
            continue
        taken[i] = True
        for j in range(i + 1, len(paths)):
            if not taken[j] and paths[j][0] == path[-1]:
                if path[-1] in blots:
                    path.append(paths[j][1])
                else:
                    path[-1] = paths[j][1]
                taken[j] = True
        merged.append(path)
    grouped: list[list] = []
    for path in merged:
        for entry in grouped:
            if entry[0] == path:
                entry[1] += 1
                break
        else:
            grouped.append([path, 1])
    marked: set[int] = set()
    out = []
    for path, count in grouped:
        parts = [_name(path[0])]
        for point in path[1:-1]:
            parts.append(_name(point) + "*")
            marked.add(point)
        last = path[-1]
        if last in blots and last not in marked:
            parts.append(_name(last) + "*")
            marked.add(last)
        else:
            parts.append(_name(last))
        out.append("/".join(parts) + (f"({count})" if count > 1 else ""))
    return " ".join(out)


def format_mat_move(steps: Iterable) -> str:
    """Write steps as a ``.mat`` file does: one die a move, ``25`` bar, ``0`` off, ``*`` hits."""
    return " ".join(f"{s[0]}/{s[1]}{'*' if len(s) > 2 and s[2] else ''}" for s in steps)


def _name(point: int) -> str:
    return "bar" if point == 25 else "off" if point == 0 else str(point)
