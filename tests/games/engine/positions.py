"""Building positions for rule tests, everything in the mover's numbering."""

from games.engine import Position


def position(mine: dict[int, int], theirs: dict[int, int]) -> Position:
    """``mine``/``theirs``: {mover's point: count}; 25 is each side's own bar.

    The rest of each side's fifteen checkers is borne off. ``theirs`` is given
    on the mover's numbering (what the mover sees), except 25 = their bar.
    """
    own = {p if p == 25 else 25 - p: n for p, n in theirs.items()}
    return Position.from_points(mine, own)


def results(plays) -> set[str]:
    return {str(p) for p in plays}
