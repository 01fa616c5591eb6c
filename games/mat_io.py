"""Match files: a ``.mat`` record imported as a new match (every action judged by the engine), a match exported
as one, and the upload's bytes read as text."""

from __future__ import annotations

import re

from django.db import transaction

from eventlog import store
from games.engine import errors as engine_errors
from games.engine.matfile import read_mat, write_mat
from players import authority
from players.models import Player

from . import limits, registrations, streams
from .creation import checked_registration, open_stream
from .errors import BadCommand, Reason
from .streams import DiceSource, MatchRecord

_GAME_HEADER = re.compile(r"^\s*Game\s+\d+\s*$", re.MULTILINE)


def match_import_mat(
    *, actor, text: str, player0: Player, player1: Player, officiating_director_id: int | None = None,
    rating_ramp: str = "fibs", tournament_id: int | None = None, published: bool = True, read=None,
    played_elsewhere: bool = False,
) -> MatchRecord:
    """Create a match from a ``.mat`` file, every action judged by the engine; nothing is stored on error.

    ``officiating_director_id``, ``rating_ramp``, ``tournament_id`` and ``published`` are recorded as
    :func:`match_create` records them. ``read``: ``text`` already read by ``read_mat`` (a worker reads it first,
    telling its progress). A record imported by one of its players is not rated until the other player (or an official)
    confirms it (``confirm_import``); one imported by the official it names, or a federation official, is.
    ``played_elsewhere``: a match played online on another server (an online round's proof), which the fair-play
    review counts with the online matches, never with those at the board. The same record of moves is
    imported once: its fingerprint (the dice and plays, not the names) is kept in the registration, and a
    second import of it is refused while the first stands (not voided)."""
    if player0.pk == player1.pk:  # as match_create: a record of one player against themselves rates nothing true
        raise engine_errors.InvalidAction(Reason.TWO_DIFFERENT_PLAYERS)
    check_import_games(text)
    read = read if read is not None else read_mat(text)
    engine_events = read.events
    if len(engine_events) > limits.MAX_IMPORT_EVENTS:
        raise BadCommand(Reason.IMPORT_ACTIONS, most=limits.MAX_IMPORT_EVENTS, actions=len(engine_events))
    warnings = [w.to_dict() for w in read.warnings]
    fingerprint = record_fingerprint(engine_events)
    seat = next((i for i, p in enumerate((player0, player1)) if actor is not None and p.user_id == actor.pk), None)
    registration = checked_registration(published, officiating_director_id, rating_ramp, tournament_id)
    if played_elsewhere:
        registration["played_elsewhere"] = True
    vouched = actor is not None and authority.officiates_match(actor, officiating_director_id)
    with transaction.atomic():
        store.lock_log()  # no second import of the same record can slip in between the check and the append
        # a voided import (a file declined, a mistake undone) counted nothing: its record may be imported again
        earlier = registrations.imported_as(fingerprint).values_list("stream_id", flat=True).first()
        if earlier is not None:
            raise BadCommand(Reason.ALREADY_IMPORTED, match=earlier)
        record = open_stream(actor, player0, player1, registration, engine_events, import_warnings=warnings,
                              dice=DiceSource.BOARD, import_fingerprint=fingerprint, imported_by_seat=seat,
                              awaiting_confirmation=not vouched)

        def prime_export():  # the file its export will be: written now from what was read, not by a visitor
            from django.core.cache import cache

            try:
                cache.set(export_cache_key(record.stream_id, record.version),
                          write_mat(engine_events, headers={"Site": "Crawford"}), timeout=24 * 3600)
            except Exception:  # noqa: BLE001 - an optimisation only
                pass

        transaction.on_commit(prime_export)
        return record


def check_import_games(text: str) -> int:
    """The record's games, counted before reading it: a 10,000-game file is refused at once."""
    games = len(_GAME_HEADER.findall(text))
    if games > limits.MAX_IMPORT_GAMES:
        raise BadCommand(Reason.IMPORT_GAMES, most=limits.MAX_IMPORT_GAMES, games=games)
    return games


def record_fingerprint(engine_events) -> str:
    """SHA-256 of a record's moves: every event but the players' names, so renaming them changes nothing."""
    import hashlib
    import json

    facts = []
    for event in engine_events:
        kind, payload = streams.engine_payload(event)
        facts.append([kind, {k: v for k, v in payload.items() if k != "players"}])
    return hashlib.sha256(json.dumps(facts, sort_keys=True, separators=(",", ":")).encode()).hexdigest()


def match_export_mat(record: MatchRecord, rows, on_game=None) -> str:
    """The match's ``.mat`` file; ``on_game(done)`` is told after each game written."""
    events = [streams.engine_event(r.event_type, r.payload) for r in rows if r.event_type not in streams.PLATFORM_EVENTS]
    return write_mat(events, headers={"Site": "Crawford"}, on_game=on_game)


def export_cache_key(stream_id: str, version: int) -> str:
    """A version's .mat file never changes: the export is written once per version and served from the cache."""
    return f"export-mat:v1:{stream_id}:{version}"


MAX_MAT_BYTES = 2_000_000



def decode_mat_upload(raw: bytes) -> str:
    if len(raw) > MAX_MAT_BYTES:
        raise BadCommand(Reason.FILE_TOO_LARGE, mb=MAX_MAT_BYTES // 1_000_000)
    if b"\x00" in raw:
        raise BadCommand(Reason.BINARY_FILE)
    try:
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError:
        return raw.decode("cp1252", errors="replace")  # older Windows programs write their code page


def players_for_import(text: str, player0_id: int | None, player1_id: int | None) -> tuple[Player, Player]:
    """The given players, or the file's names matched to players (created when new)."""
    from games.engine.matfile import names_of, parse_mat

    if player0_id is not None and player1_id is not None:
        found = {p.pk: p for p in Player.objects.filter(pk__in=[player0_id, player1_id])}
        if player0_id not in found or player1_id not in found:
            raise BadCommand(Reason.UNKNOWN_PLAYER_ID)
        return found[player0_id], found[player1_id]
    headers, _, games = parse_mat(text)
    names = names_of(headers, games)  # the engine's reading: empty names become the header's or "Player 1"/"Player 2"
    chosen = []
    for name in names:
        player = Player.objects.filter(display_name=name).order_by("pk").first()
        chosen.append(player or Player.objects.create(display_name=name[:80]))
    return chosen[0], chosen[1]
