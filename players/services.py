"""Writes to players: merging duplicate entries of one person; the language a player is written to in.

A merge is a command on the players' stream (``players/identity.py`` decides it): it appends one
``PlayersMerged`` event, and everything that counts a player's results (the ratings, the players' merged view)
reads that event from the log. Nothing here reaches into a read model: the projections follow the log.
"""

from __future__ import annotations

from collections.abc import Sequence

from django.core.exceptions import PermissionDenied
from django.db import transaction

from eventlog import store
from eventlog.refusals import Refusal
from eventlog.store import NewEvent
from eventlog.tasks import wake_projections

from . import authority, identity
from .languages import language_code
from .identity import MergeRefused, Reason
from .models import Player
from .selectors import players_stream

__all__ = ["MergeRefused", "PlayersForbidden", "player_merge", "player_set_language"]


class PlayersForbidden(Refusal, PermissionDenied):
    """Not this actor's to do (HTTP 403 ``permission_denied``): a refusal as data, its reason a ``Reason``'s."""


def player_merge(
    *, actor, kept_id: int, duplicate_ids: Sequence[int], reason: str, expected_version: int | None = None
) -> Player:
    """Count ``duplicate_ids`` as ``kept_id`` from now on: append ``PlayersMerged`` to the players' stream.

    ``expected_version``: the version of the players' stream the caller looked at (a stale one gets
    :class:`~eventlog.store.ConcurrencyError`); without it the merge is judged on the stream as it stands
    when appended (the log's lock is held from the read to the append, so no other merge slips in between).
    Refusals (:class:`MergeRefused`, :class:`PlayersForbidden`) append nothing and change nothing.

    The kept entry takes over what only a duplicate has (its user account, club, country): those are the
    person's details, not results, and no projection reads them.
    """
    if not authority.may_merge_players(actor):
        raise PlayersForbidden(Reason.MAY_NOT_MERGE)
    ids = (kept_id, *duplicate_ids)
    if any(not isinstance(p, int) or isinstance(p, bool) for p in ids):
        raise MergeRefused(Reason.NOT_A_PLAYER)
    command = identity.MergePlayers(kept=kept_id, duplicates=tuple(duplicate_ids), reason=reason or "",
                                    actor=actor.pk)
    with transaction.atomic():
        store.lock_log()
        state, version = players_stream()
        if expected_version is not None and expected_version != version:
            raise store.ConcurrencyError(identity.STREAM_ID, expected_version, version)
        found = Player.objects.select_for_update().in_bulk(ids)
        missing = [p for p in ids if p not in found]
        if missing:
            raise MergeRefused(Reason.NO_SUCH_PLAYER, players=", ".join(map(str, missing)))
        events = identity.decide(state, command)
        _carry_over(found[kept_id], [found[d] for d in command.duplicates])
        store.append(
            stream_id=identity.STREAM_ID, stream_type=identity.STREAM_TYPE, expected_version=version,
            events=[NewEvent(identity.MERGED, e.payload()) for e in events], metadata={"actor": actor.pk},
            on_commit=wake_projections,
        )
    return found[kept_id]


def _carry_over(kept: Player, duplicates: list[Player]) -> None:
    for dup in duplicates:
        if kept.user_id is None and dup.user_id is not None:
            kept.user_id, dup.user_id = dup.user_id, None
            dup.save(update_fields=["user"])  # first: the account is one-to-one
        kept.club_id = kept.club_id or dup.club_id
        kept.country = kept.country or dup.country
        kept.language = kept.language or dup.language
    kept.save(update_fields=["user", "club", "country", "language"])


def player_set_language(*, actor, player: Player, language: str) -> Player:
    """Record the language ``player`` is written to in; only the player themself chooses it here (a director sets
    it for a new member through the club's list). ``language`` is a site's code or an empty string (the site's)."""
    if not (actor is not None and actor.is_authenticated and player.user_id == actor.pk):
        raise PlayersForbidden(Reason.NOT_YOUR_LANGUAGE)
    code = language_code(language) if language else ""
    if code is None:
        raise ValueError(f"the site does not speak {language[:20]!r}")
    if player.language != code:
        player.language = code
        player.save(update_fields=["language"])
    return player
