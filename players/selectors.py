"""Reads of the players: who each player id stands for, from the log alone; and their names as the site shows them."""

from __future__ import annotations

from django.db import connection
from django.db.models.expressions import RawSQL

from eventlog.models import Event

from . import identity
from .models import Player


def player_identities(*, before_position: int | None = None) -> identity.Identities:
    """The identity map as the log says it: every merge recorded before ``before_position`` (a projection reads
    the merges up to where it stands), or every merge recorded so far."""
    return players_stream(before_position=before_position)[0]


def players_stream(*, before_position: int | None = None) -> tuple[identity.Identities, int]:
    """The fold of the players' stream and the version it was read at (the expected version of the next merge)."""
    rows = Event.objects.filter(stream_id=identity.STREAM_ID)
    if before_position is not None:
        rows = rows.filter(global_position__lt=before_position)
    state, version = identity.Identities(), 0
    for version, event_type, payload in rows.order_by("version").values_list("version", "event_type", "payload"):
        if event_type == identity.MERGED:
            state = identity.evolve(state, identity.PlayersMerged.from_payload(payload))
    return state, version


def display_names(ids) -> dict[int, str]:
    """The site's name of each of these players (by id; an id with no player is left out)."""
    ids = [int(i) for i in ids]
    if connection.vendor == "postgresql":
        # the ids as one array, not one placeholder each: psycopg parses a statement too long for its cache again at
        # every call, and a big event's page and projection name its thousand players at every result
        wanted = RawSQL("SELECT unnest(%s::bigint[])", (ids,))
        return dict(Player.objects.filter(pk__in=wanted).values_list("pk", "display_name"))
    return dict(Player.objects.filter(pk__in=ids).values_list("pk", "display_name"))


def club_namesakes(*, club_id: int | None, keys) -> dict[str, list[Player]]:
    """The people of a club (``club_id`` None: the players of no club) who go by each of these names, by
    ``identity.name_key``: a merged duplicate counts as the player it was merged into (the log's merges)."""
    wanted = set(keys)
    if not wanted:
        return {}
    identities = player_identities()
    found: dict[str, set[int]] = {}
    for pk, name in Player.objects.filter(club_id=club_id).values_list("pk", "display_name"):
        key = identity.name_key(name)
        if key in wanted:
            found.setdefault(key, set()).add(identities.of(pk))
    people = Player.objects.in_bulk({pk for ids in found.values() for pk in ids})
    return {key: sorted((people[pk] for pk in ids if pk in people), key=lambda p: p.pk) for key, ids in found.items()}


def club_names(club_id: int | None) -> set[str]:
    """Every name a member of the club goes by (``identity.name_key``): a new member's must differ from them."""
    return {identity.name_key(n) for n in Player.objects.filter(club_id=club_id).values_list("display_name", flat=True)}
