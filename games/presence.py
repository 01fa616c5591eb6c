"""The readings of an online match's presence: when the server last saw each seat's page, and whether it said it was
leaving. The freshest reading is kept in the shared cache (Redis); the database's row (``games.models.Presence``)
follows it at most a third of the grace behind.

A page beats every few seconds, and most beats change nothing that matters: a player here is still here. Each beat
sets its seat's reading in the shared cache; it is written to the database too when the database's is a third of
the grace old or more, when the page says it is leaving or coming back, or when the cache does not know what the
database holds (a first beat, a flushed cache). A page that beats is thus never more than a third of the grace plus
one heartbeat behind in the database: should the cache be flushed, the database's reading alone still finds it
here. Every judgement takes the freshest of the two readings, so with the cache whole it judges on every beat as
if each had been written; with it flushed, a player away could lose at most a third of the grace of their clock,
a player here nothing.

Without a shared cache (no REDIS_URL: the embedded default, one process) every beat is written to the database.
"""

from __future__ import annotations

import logging
from typing import NamedTuple

from django.conf import settings
from django.core.cache import cache
from django.db import connection

from eventlog import prepared

from .models import Presence

log = logging.getLogger(__name__)

# a reading is kept in the cache as long as the longest disconnect clock could still ask for it
KEPT_SECONDS = 8 * 24 * 3600


class Reading(NamedTuple):
    seen_at: int  # the server's reading (milliseconds since 1970) of the page's last beat
    left: bool  # the page said it was closing: away from that reading on


def _shared() -> bool:
    """The cache is shared by every process of the site (Redis), so a reading kept there is every process's."""
    return bool(settings.REDIS_URL)


def cache_key(stream_id: str, seat: int) -> str:
    return f"presence:{stream_id}:{seat}"


def beat(stream_id: str, seat: int, at: int, left: bool, write_every: int) -> tuple[Reading | None, dict]:
    """Seat ``seat`` seen at ``at`` (``left``: its page is closing); its reading reaches the database when the
    database's is ``write_every`` milliseconds old or more. Returns the seat's freshest reading before this beat
    (None: never seen) and both seats' freshest readings now (a seat never seen: absent). Its own statement: what
    it writes to the database is committed when the cache is told it is (the API's beat runs in autocommit)."""
    if not _shared():
        found = _database(stream_id)
        before = found.get(seat)
        _write(stream_id, seat, at, left)
        return before, {**found, seat: Reading(at, left)}
    keys = [cache_key(stream_id, s) for s in (0, 1)]
    try:
        known = cache.get_many(keys)
    except Exception as down:  # noqa: BLE001 - the database holds every reading then
        log.warning("presence readings not read from the cache: %s", down)
        known = None
    cached = {s: known[keys[s]] for s in (0, 1) if known and keys[s] in known}  # seat: (seen_at, left, written)
    found = {s: Reading(value[0], value[1]) for s, value in cached.items()}
    if len(found) < 2:  # never seen, or not in the cache: the database says
        found = {**_database(stream_id), **found}
    before = found.get(seat)
    mine = cached.get(seat)
    written = mine[2] if mine else None  # the reading the database holds, as far as the cache knows
    if written is None or mine[1] != left or not 0 <= at - written < write_every:
        _write(stream_id, seat, at, left)
        written = at
    if known is not None:
        _keep(keys[seat], (at, left, written), stream_id, seat)
    return before, {**found, seat: Reading(at, left)}


def _keep(key: str, value: tuple, stream_id: str, seat: int) -> None:
    try:
        cache.set(key, value, timeout=KEPT_SECONDS)
    except Exception as down:  # noqa: BLE001 - not kept: the database must hold it then
        log.warning("presence reading not kept in the cache: %s", down)
        if value[2] != value[0]:
            _write(stream_id, seat, value[0], value[1])


def readings(stream_id: str) -> dict[int, Reading]:
    """Each seat's freshest reading, from the cache and the database both (a seat never seen: absent)."""
    found = _database(stream_id)
    if _shared():
        try:
            cached = cache.get_many([cache_key(stream_id, s) for s in (0, 1)])
        except Exception as down:  # noqa: BLE001 - the database's readings then
            log.warning("presence readings not read from the cache: %s", down)
            cached = {}
        for seat in (0, 1):
            value = cached.get(cache_key(stream_id, seat))
            if value is not None and (seat not in found or value[0] > found[seat].seen_at):
                found[seat] = Reading(value[0], value[1])
    return found


def _database(stream_id: str) -> dict[int, Reading]:
    return {seat: Reading(seen, left) for seat, seen, left in
            Presence.objects.filter(stream_id=stream_id).values_list("seat", "seen_at", "left")}


def _write(stream_id: str, seat: int, at: int, left: bool) -> None:
    quote = connection.ops.quote_name
    table, left_column = quote(Presence._meta.db_table), quote("left")
    with prepared.cursor(connection) as cursor:
        cursor.execute(f"INSERT INTO {table} (stream_id, seat, seen_at, {left_column}) VALUES (%s, %s, %s, %s) "
                       f"ON CONFLICT (stream_id, seat) DO UPDATE SET seen_at = EXCLUDED.seen_at, "
                       f"{left_column} = EXCLUDED.{left_column}", [stream_id, seat, at, left])
