"""The ``players`` projection: each player's ``merged_into``, a read model of the log's ``PlayersMerged`` events.

Only this projection writes the column (the admin shows it read-only), so the players' merged view is a
function of the log like every other read model, and a rebuild gives it again. Readers that must judge a
merge (the merge command itself, the ratings) fold the players' stream instead (``players.selectors``):
a projection may lag the log, the log does not.
"""

from __future__ import annotations

from eventlog.projections import Projection

from . import identity
from .models import Player


class PlayerIdentityProjection(Projection):
    name = "players"
    digested = ((Player, ("id", "merged_into_id")),)  # the merges: the rest of a player is no projection's
    event_types = (identity.MERGED,)

    def apply(self, events) -> None:
        for event in events:
            if event.stream_id != identity.STREAM_ID:
                continue
            merged = identity.PlayersMerged.from_payload(event.payload)
            if not Player.objects.filter(pk=merged.kept).exists():
                continue  # the kept entry was deleted since: nothing to point its duplicates at
            # the map stays flat, as the decider's: a kept entry merged on carries its duplicates along
            Player.objects.filter(merged_into__in=merged.duplicates).update(merged_into=merged.kept)
            Player.objects.filter(pk__in=merged.duplicates).update(merged_into=merged.kept)

    def reset(self) -> None:
        Player.objects.exclude(merged_into=None).update(merged_into=None)
