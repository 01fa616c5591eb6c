"""Places in an elimination flight (a Main, a Consolation, a Last Chance, a double elimination): by the round
reached, and players knocked out in the same round share the place.

The champion is 1st, then players rank by how far they went: the stage of the last match they played. Two
players out at the same stage share the place, as the federations' draws list them: in an eight-player knockout
the final's loser is 2nd, the semi-finals' losers are both 3rd ("3=", and nobody is 4th) and the
quarter-finals' losers are all 5th ("5=", places 5 to 8). Nothing in a knockout tells two such players apart:
their seeds were the draw's, not the result, and a bye holder knocked out in round 2 went as far as the player
who won a round-1 match to get there. While the flight is played, a player still in ranks ahead of those
knocked out at the stage they reached; a withdrawn player ranks after every player who went as far and played
it out (they were still in when the withdrawn one left), sharing only with others who withdrew there.

``stage`` says how far a slot stands: its round in a single-elimination flight; for a double elimination
``double_elimination.stage``, where the losers' bracket rounds count (a player is out when they lose there).
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable

from .core import Slot


def by_round(slot: Slot) -> int:
    return slot.round


def place_keys(slots: Iterable[Slot], champion: int | None, *, stage: Callable[[Slot], int] = by_round,
               withdrawn: Collection[int] = ()) -> dict[int, tuple]:
    """Per player of ``slots``, what their place is decided by: equal keys share a place, a lower key is better."""
    slots = list(slots)
    reached: dict[int, int] = {}
    for s in slots:
        for p in s.players:
            if p is not None:
                reached[p] = max(reached.get(p, 0), stage(s))
    keys = {}
    for p, furthest in reached.items():
        # still in at the stage they reached: a match there to play (or waiting for its opponent), or won
        alive = any(p in s.players and stage(s) == furthest and (s.result is None or s.result.winner == p)
                    for s in slots)
        keys[p] = (p != champion, -furthest, p in withdrawn, not alive)
    return keys


def shared_places(keys: list) -> list[int]:
    """The places of a table already in order (``keys`` best first): equal keys share the better place, and the
    places they cover are skipped (1, 2, 3, 3, 5, 5, 5, 5)."""
    out: list[int] = []
    for i, key in enumerate(keys):
        out.append(out[-1] if i and key == keys[i - 1] else i + 1)
    return out
