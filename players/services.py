"""Writes to players: merging a duplicate entry of the same person."""

from __future__ import annotations

from django.db import transaction

from .models import Player


def player_merge(*, players: list[Player]) -> Player:
    """Merge duplicates into the first (oldest) player.

    Events name players by id and are never edited: the duplicates are marked
    ``merged_into`` the kept player, and reads and projections count them as
    that player from then on (the ratings are recomputed from the log).
    """
    if len(players) < 2:
        raise ValueError("select at least two players to merge")
    kept, duplicates = players[0], players[1:]
    with transaction.atomic():
        for dup in duplicates:
            if kept.user_id is None and dup.user_id is not None:
                kept.user_id, dup.user_id = dup.user_id, None
            kept.club_id = kept.club_id or dup.club_id
            kept.country = kept.country or dup.country
            dup.merged_into = kept
            dup.save(update_fields=["user", "merged_into"])
        kept.save(update_fields=["user", "club", "country"])
        Player.objects.filter(merged_into__in=duplicates).update(merged_into=kept)
    from django.apps import apps

    if apps.is_installed("ratings"):  # ratings read players; merging changes whose results are whose
        from eventlog import projections

        transaction.on_commit(lambda: projections.rebuild("ratings"))
    return kept
