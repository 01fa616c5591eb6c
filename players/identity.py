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
from enum import Enum
from types import MappingProxyType

from eventlog.refusals import Refusal, gettext_noop

STREAM_ID = "players"
STREAM_TYPE = "players"
MERGED = "PlayersMerged"


class Reason(Enum):
    """Exactly why a merge is refused: the member's name (in lower case) is its stable code, its value the English
    template."""

    TOO_FEW_PLAYERS = gettext_noop("select at least two players to merge: the one to keep and a duplicate")
    LISTED_TWICE = gettext_noop("each player may be named once: the one to keep, then its duplicates")
    NO_REASON = gettext_noop("say why these entries are one person (the reason is kept with the merge)")
    KEPT_IS_MERGED = gettext_noop("player %(kept)s is merged into player %(into)s already: merge into that one")
    ALREADY_MERGED = gettext_noop("already merged: player %(players)s")
    NOT_A_PLAYER = gettext_noop("players are named by their ids (whole numbers)")
    NO_SUCH_PLAYER = gettext_noop("no player %(players)s")
    # who may act on players (players/services.py)
    MAY_NOT_MERGE = gettext_noop("merging players needs the permission to change players")
    NOT_YOUR_LANGUAGE = gettext_noop("only the player chooses their language")


class MergeRefused(Refusal, ValueError):
    """A merge the rules refuse: ``MergeRefused(reason, **params)``, a refusal as data; its stable ``code``
    (``too_few_players``, ``already_merged``, ``kept_is_merged``, ``listed_twice``, ``no_reason``…) is the
    reason's name, its text the reason in English."""

    def __init__(self, reason: Reason, /, **params):
        super().__init__(reason, **params)
        self.code = reason.name.lower()


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
        raise MergeRefused(Reason.TOO_FEW_PLAYERS)
    listed = (command.kept, *duplicates)
    if len(set(listed)) != len(listed):
        raise MergeRefused(Reason.LISTED_TWICE)
    if not command.reason.strip():
        raise MergeRefused(Reason.NO_REASON)
    if command.kept in state.merged_into:
        raise MergeRefused(Reason.KEPT_IS_MERGED, kept=command.kept, into=state.merged_into[command.kept])
    merged = [d for d in duplicates if d in state.merged_into]
    if merged:
        which = ", ".join(f"{d} (into {state.merged_into[d]})" for d in merged)
        raise MergeRefused(Reason.ALREADY_MERGED, players=which)
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
