"""Who a player id stands for: the decider of the players' stream, where merges of duplicate entries are recorded.

Pure Python (no Django), like ``games/engine``: ``decide(state, command) -> [events]`` judges a command,
``evolve(state, event) -> state`` applies a fact, and the state of the stream is the fold of its events.

Events name players by id and are never edited, so two entries of one person (a club's "Ann Smith" and a
federation's "A. Smith") stay two ids in the log. A merge is a fact of its own, ``PlayersMerged``: from then
on every reader counts the duplicates as the kept player (``Identities.of``). The identity map is flat:
merging a kept player into another one carries its earlier duplicates along, so one lookup gives the person.

Every merge is in one stream, ``players``: the rules ("a duplicate is not merged already", "nobody merges into
a merged entry") hold across all players, so the stream that decides them holds all the merges, and its
version is the expected version of the next merge. Merges are rare (a registrar's action), so one stream
is no bottleneck.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType

STREAM_ID = "players"
STREAM_TYPE = "players"
MERGED = "PlayersMerged"


class MergeRefused(ValueError):
    """A merge the rules refuse, with a stable ``code`` (``too_few_players``, ``already_merged``,
    ``kept_is_merged``, ``listed_twice``, ``no_reason``) and a reason a person can act on."""

    def __init__(self, code: str, reason: str):
        super().__init__(reason)
        self.code = code


@dataclass(frozen=True)
class MergePlayers:
    """Count ``duplicates`` as ``kept`` from now on. ``actor``: who asked (a user id), recorded with the fact."""

    kept: int
    duplicates: tuple[int, ...]
    reason: str
    actor: int | None = None


@dataclass(frozen=True)
class PlayersMerged:
    kept: int
    duplicates: tuple[int, ...]
    reason: str
    actor: int | None = None

    def payload(self) -> dict:
        return {"kept": self.kept, "duplicates": list(self.duplicates), "reason": self.reason, "actor": self.actor}

    @classmethod
    def from_payload(cls, payload: Mapping) -> PlayersMerged:
        return cls(int(payload["kept"]), tuple(int(d) for d in payload["duplicates"]), payload.get("reason", ""),
                   payload.get("actor"))


@dataclass(frozen=True)
class Identities:
    """The state of the players' stream: each merged entry's person (``merged_into``: duplicate -> kept)."""

    merged_into: Mapping[int, int] = field(default_factory=lambda: MappingProxyType({}))

    def of(self, player_id: int) -> int:
        """The person ``player_id`` stands for: the kept entry of a duplicate, else itself."""
        return self.merged_into.get(player_id, player_id)


def name_key(name: str) -> str:
    """What two names are compared by to tell whether they may be one person: case, accents and spacing aside
    ("Inès  Martin" and "ines martin" are one name), as people write a name they know by ear."""
    bare = "".join(c for c in unicodedata.normalize("NFKD", name) if not unicodedata.combining(c))
    return " ".join(bare.casefold().split())


def decide(state: Identities, command: MergePlayers) -> list[PlayersMerged]:
    """Merge at least one duplicate into a kept entry that is not itself merged; a duplicate merged already
    (into anyone) is refused, so a merge, once recorded, is never silently redone or redirected.

    A kept entry that has duplicates of its own may be merged into another one: its duplicates follow it."""
    duplicates = tuple(command.duplicates)
    if not duplicates:
        raise MergeRefused("too_few_players", "select at least two players to merge: the one to keep and a duplicate")
    listed = (command.kept, *duplicates)
    if len(set(listed)) != len(listed):
        raise MergeRefused("listed_twice", "each player may be named once: the one to keep, then its duplicates")
    if not command.reason.strip():
        raise MergeRefused("no_reason", "say why these entries are one person (the reason is kept with the merge)")
    if command.kept in state.merged_into:
        raise MergeRefused("kept_is_merged", f"player {command.kept} is merged into player "
                                             f"{state.merged_into[command.kept]} already: merge into that one")
    merged = [d for d in duplicates if d in state.merged_into]
    if merged:
        which = ", ".join(f"{d} (into {state.merged_into[d]})" for d in merged)
        raise MergeRefused("already_merged", f"already merged: player {which}")
    return [PlayersMerged(command.kept, duplicates, command.reason.strip(), command.actor)]


def evolve(state: Identities, event: PlayersMerged) -> Identities:
    gone = set(event.duplicates)
    merged = {d: (event.kept if k in gone else k) for d, k in state.merged_into.items()}
    merged.update(dict.fromkeys(event.duplicates, event.kept))
    return Identities(MappingProxyType(merged))


def fold(events: Iterable[PlayersMerged], state: Identities | None = None) -> Identities:
    state = state or Identities()
    for event in events:
        state = evolve(state, event)
    return state
