"""Writes to match streams: load, fold, let the engine judge, append in one transaction."""

from __future__ import annotations

import dataclasses
import re
import threading
import uuid
from collections import OrderedDict

from django.db import DatabaseError, IntegrityError, transaction

from eventlog import live, store
from eventlog.models import Event
from eventlog.store import NewEvent
from eventlog.tasks import wake_projections_and_tell
from games.engine import commands as cmd
from games.engine import errors as engine_errors
from games.engine import events as engine_events
from games.engine.events import OpeningRollTied, RollSource
from games.engine.match import DOUBLED, OPENING, RESIGNED, MatchState, decide, evolve
from games.engine.matfile import read_mat, write_mat
from players import authority
from players.models import Player

from . import dice as dice_rolls
from . import limits, streams
from .commands import (
    COMMAND_TYPES,
    DIRECTOR_COMMANDS,
    TYPE_OF,
    ConfirmImport,
    CorrectResult,
    MatchCommand,
    RollDice,
    SetRated,
    VoidMatch,
)
from .errors import BadCommand, MatchNotFound, Reason
from .forbidden import Forbidden
from .models import DiceSeed
from .streams import DiceSource, Ending, MatchRecord


# -- reading a stream -------------------------------------------------------------


# Folded records of recently used streams. A stream only ever grows, so a record
# stays a valid prefix forever and a load folds just the events after it. A record
# is remembered only once the transaction that read it commits: a rolled-back
# append must never be remembered.
_SNAPSHOTS: OrderedDict[str, MatchRecord] = OrderedDict()
_SNAPSHOT_LIMIT = 1024
_snapshot_lock = threading.Lock()


def match_load(stream_id: str, *, version: int | None = None) -> MatchRecord:
    """The match folded from its stream: all of it, or its first ``version`` events."""
    if version is not None:
        rows = store.read_stream(stream_id, until=version)
        if not rows or rows[0].stream_type != streams.STREAM_TYPE:
            raise MatchNotFound(Reason.NO_MATCH, match=stream_id)
        return streams.fold(stream_id, rows)
    cached = _held(stream_id)
    if cached is None:
        cached = _shared_snapshot(stream_id)
    rows = store.read_stream_rows(stream_id, after=cached.version if cached else 0)
    if cached is None:
        if not rows or rows[0].stream_type != streams.STREAM_TYPE:
            raise MatchNotFound(Reason.NO_MATCH, match=stream_id)
    record = streams.fold(stream_id, rows, cached) if rows else cached
    _remember_on_commit(record, share=len(rows) >= _SHARE_AFTER)
    return record


# A long stream (an imported session of thousands of actions) takes seconds to fold: the record folded from it
# is also put in the shared cache, so each other web worker starts from it instead of folding it again. Like the
# local snapshots it is only ever a prefix of the stream, remembered once its transaction has committed.
_SHARE_AFTER = 500
_SHARED = "match-snapshot:v3:"  # v3: records count their game's server rolls (seed_game, seed_rolls)
_SHAREABLE_ID = re.compile(r"[0-9A-Za-z_-]{1,64}")  # a stream id as made here; anything else is no cache key


def _shared_snapshot(stream_id: str) -> MatchRecord | None:
    from django.core.cache import cache

    if not _SHAREABLE_ID.fullmatch(stream_id):
        return None  # an address nobody made (a client's typing): not worth, nor fit for, a cache lookup
    try:
        record = cache.get(_SHARED + stream_id)
    except Exception:  # noqa: BLE001 - the cache is an optimisation: without it, fold the stream
        return None
    return record if isinstance(record, MatchRecord) and record.stream_id == stream_id else None


def match_load_with(stream_id: str, rows) -> MatchRecord:
    """The match as of the last of ``rows`` or later, ``rows`` being its newest events in version order.

    For projections, which hold those events already: the snapshot (or nothing, for a batch that starts the
    stream) plus the rows it lacks, with no query when they follow on from it. A rebuild finds snapshots ahead
    of its batches: they are used as they are (the summary is the latest state, and the events after the batch
    come in the next ones)."""
    cached = _held(stream_id)
    known = cached.version if cached else 0  # a rebuild meets each stream first at its version 1
    if rows and known >= rows[-1].version:
        return cached
    newer = [row for row in rows if row.version > known]
    if newer and all(row.version == known + i for i, row in enumerate(newer, start=1)):
        record = streams.fold(stream_id, newer, cached)
        _remember_on_commit(record)
        return record
    return match_load(stream_id)


def _held(stream_id: str) -> MatchRecord | None:
    """This process's snapshot of the match, if it holds one."""
    with _snapshot_lock:
        return _SNAPSHOTS.get(stream_id)


def _remember_on_commit(record: MatchRecord, *, share: bool = False) -> None:
    def remember():
        with _snapshot_lock:
            known = _SNAPSHOTS.get(record.stream_id)
            if known is None or known.version < record.version:
                _SNAPSHOTS[record.stream_id] = record
            _SNAPSHOTS.move_to_end(record.stream_id)
            while len(_SNAPSHOTS) > _SNAPSHOT_LIMIT:
                _SNAPSHOTS.popitem(last=False)
        if share:
            from django.core.cache import cache

            try:
                cache.set(_SHARED + record.stream_id, record, timeout=24 * 3600)
            except Exception:  # noqa: BLE001 - an optimisation only
                pass

    transaction.on_commit(remember)


# -- who may act --------------------------------------------------------------------
# answered by players/authority.py from what the stream recorded: the match looks nothing up in its event


def is_official(user, record: MatchRecord) -> bool:
    """The director the match names as its official, or a federation official: may record for either player."""
    return authority.officiates_match(user, record.officiating_director_id)


def seat_of(user, record: MatchRecord) -> int | None:
    """0 or 1 if ``user`` is one of the match's players."""
    return authority.seat_in_match(user, record.player_ids)


def can_read(user, record: MatchRecord) -> bool:
    return record.published or is_official(user, record) or seat_of(user, record) is not None


# -- creating a match ----------------------------------------------------------------------


def match_create(
    *,
    actor,
    player0: Player,
    player1: Player,
    length: int,
    dice: str = DiceSource.SERVER,
    published: bool = True,
    officiating_director_id: int | None = None,
    rating_ramp: str = "fibs",
    tournament_id: int | None = None,
    crawford: bool = True,
    jacoby: bool = False,
    beavers: bool = False,
    raccoons: bool = False,
    automatic_doubles: int = 0,
    cube_limit: int = 0,
    rated: bool = True,
) -> MatchRecord:
    """Register a new match between two players: a match to ``length`` points (odd) or a money session (0).

    Whoever creates it says what the match needs to know of its surroundings, and the match records it as
    given: whether it is ``published`` (a match of a hidden event is hidden, and follows its event through
    :func:`match_set_published`), who officiates it (``officiating_director_id``, a user id: its event's
    director), the new-player ``rating_ramp`` it is rated with (``rated`` False: a friendly, kept out of the
    ratings until a director's ``set_rated``), and ``tournament_id``, a label for the event's
    lists that the match never looks up. ``cube_limit`` 0 means as high as the platform goes
    (:data:`games.limits.MAX_CUBE`), which is the limit the engine is given: a double past it is refused rather
    than stored where no ID can show it.

    ``dice`` is where every roll of the match comes from, fixed here by whoever creates it (the event's
    director, through the event's settings): ``server`` or ``board``. A player recording cannot switch."""
    if dice not in streams.DICE_SOURCES:
        raise BadCommand(Reason.DICE_SOURCE, choices=", ".join(streams.DICE_SOURCES))
    if player0.pk == player1.pk:
        raise engine_errors.InvalidAction(Reason.TWO_DIFFERENT_PLAYERS)
    _check_in_range("length", length, 0, limits.MAX_MATCH_LENGTH)
    _check_in_range("automatic_doubles", automatic_doubles, 0, limits.MAX_AUTOMATIC_DOUBLES)
    _check_in_range("cube_limit", cube_limit, 0, limits.MAX_CUBE)
    start = cmd.StartMatch(
        _distinct_names(player0, player1),
        length,
        crawford=crawford,
        jacoby=jacoby,
        beavers=beavers,
        raccoons=raccoons,
        automatic_doubles=automatic_doubles,
        cube_limit=cube_limit or limits.MAX_CUBE,
    )
    registration = _registration(published, officiating_director_id, rating_ramp, tournament_id)
    if rated is not True:  # said only of an unrated match: every other registration stays as it was
        registration["rated"] = False
    return _open_stream(actor, player0, player1, registration, decide(MatchState(), start), dice=DiceSource(dice))


def _registration(published, officiating_director_id, rating_ramp, tournament_id) -> dict:
    """What the creator told the match of its surroundings, checked for its type only: the match trusts it."""
    for name, value in (("officiating_director_id", officiating_director_id), ("tournament_id", tournament_id)):
        if value is not None and (not isinstance(value, int) or isinstance(value, bool)):
            raise BadCommand(Reason.ID_OR_NONE, field=name)
    if not isinstance(rating_ramp, str) or not rating_ramp or len(rating_ramp) > 32:
        raise BadCommand(Reason.RATING_RAMP)
    return {"published": bool(published), "officiating_director_id": officiating_director_id,
            "rating_ramp": rating_ramp, "tournament_id": tournament_id}


def _check_in_range(name: str, value, low: int, high: int) -> None:
    if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
        raise BadCommand(Reason.WHOLE_NUMBER, field=name, low=low, high=high)


def _distinct_names(player0: Player, player1: Player) -> tuple[str, str]:
    """The players' names as the match shows them; two players of one name get their ids too (within MAX_NAME)."""
    names = (player0.display_name[: limits.MAX_NAME], player1.display_name[: limits.MAX_NAME])
    if names[0] != names[1]:
        return names
    tagged = []
    for player in (player0, player1):
        tag = f" ({player.pk})"
        tagged.append(player.display_name[: limits.MAX_NAME - len(tag)] + tag)
    return tagged[0], tagged[1]


def _open_stream(
    actor, player0: Player, player1: Player, registration: dict, engine_events, import_warnings=(), **registered,
) -> MatchRecord:
    """A new match stream: who plays (in the platform's terms) and what its creator said, then the engine's events.

    The whole stream is folded and checked against the platform's limits before it is appended:
    a match refused here leaves nothing in the log."""
    registration = {**registered, "player_ids": [player0.pk, player1.pk], **registration}
    if import_warnings:  # what the .mat reader read leniently (a dead cube doubled elsewhere...): kept with the match
        registration["import_warnings"] = list(import_warnings)
    stream_id = uuid.uuid4().hex
    events = [NewEvent(streams.REGISTERED, registration, streams.REGISTERED_SCHEMA)] + _new(engine_events)
    record = _fold_checked(stream_id, events, None)
    rows = _append(stream_id, 0, events, actor)
    record = dataclasses.replace(record, created_at=rows[0].recorded_at)
    _remember_on_commit(record, share=len(events) >= _SHARE_AFTER)  # a long import: every web worker starts here
    return record


def _fold_checked(stream_id: str, events: list[NewEvent], record: MatchRecord | None) -> MatchRecord:
    """The record these events, not yet appended, would make; NotRepresentable if a read model could not hold it."""
    base = record.version if record else 0
    pending = [streams.Pending(e.event_type, e.payload, base + i) for i, e in enumerate(events, start=1)]
    return streams.fold(stream_id, pending, record, check=limits.check_representable)


# -- commands ----------------------------------------------------------------------------


def match_command(
    *, actor, stream_id: str, command: MatchCommand, expected_version: int, command_id: str | None = None,
    correlation_id: str | None = None,
) -> tuple[MatchRecord, list]:
    """Judge and record one typed command (:mod:`games.commands`); returns the new record and the events appended.

    ``expected_version`` is the version of the match the sender was looking at: a stale one is refused
    (ConcurrencyError). ``command_id`` (the client's Idempotency-Key) and ``correlation_id`` go into the events'
    metadata."""
    if type(command) not in TYPE_OF:
        raise BadCommand(Reason.UNKNOWN_COMMAND, command=type(command).__name__, types=", ".join(COMMAND_TYPES))
    if not isinstance(expected_version, int) or isinstance(expected_version, bool) or expected_version < 1:
        raise BadCommand(Reason.EXPECTED_VERSION)
    record, read = _record_for(stream_id, expected_version)
    try:
        return _judge_and_append(actor, record, command, expected_version, command_id, correlation_id)
    except (store.ConcurrencyError, store.ReceiptTaken, DatabaseError):
        raise
    except Exception:
        # judged on an unread snapshot: if the match has moved on since, that is the answer (409), not a refusal
        # of the command on a version the sender has left
        if not read and not transaction.get_connection().needs_rollback \
                and (actual := store.stream_version(stream_id)) != expected_version:
            raise store.ConcurrencyError(stream_id, expected_version, actual) from None
        raise


def _record_for(stream_id: str, expected_version: int) -> tuple[MatchRecord, bool]:
    """The match a command sent for ``expected_version`` is judged on, and whether the log was read for it.

    This process's snapshot at that version is taken as it is, unread: had another node appended since, the
    append's version check refuses the command (ConcurrencyError, 409), as the read would have, and a refusal is
    checked against the log before it is said (``match_command``). A tablet's next command usually comes to the
    process that answered its last one (a kept-alive connection): one round trip of its two spared."""
    cached = _held(stream_id)
    if cached is not None and cached.version == expected_version:
        return cached, False
    return match_load(stream_id), True


def _judge_and_append(actor, record: MatchRecord, command: MatchCommand, expected_version: int,
                      command_id: str | None, correlation_id: str | None) -> tuple[MatchRecord, list]:
    stream_id = record.stream_id
    seat = seat_of(actor, record)
    director_command = isinstance(command, DIRECTOR_COMMANDS)
    # a player acting in their own seat needs no official's powers: spare the lookups on the hot path
    official = (seat is None or director_command) and is_official(actor, record)
    if not official and seat is None:
        raise Forbidden(Reason.PLAYERS_SEND)
    if record.version != expected_version:
        raise store.ConcurrencyError(stream_id, expected_version, record.version)
    if record.voided is not None:
        raise engine_errors.MatchOver(record.over_because())
    if isinstance(command, ConfirmImport) or director_command:
        with transaction.atomic():  # the dice seed revealed commits or rolls back with the append
            if isinstance(command, ConfirmImport):
                new = _confirm_import(actor, record, seat, official)
            else:
                if not official:
                    raise Forbidden(Reason.OFFICIAL_CORRECTS)
                # marking it rated reveals no dice: the match may still be at the board
                new = (_rated_event(command, record) if isinstance(command, SetRated)
                       else _director_event(command, record) + _reveal_open_seed(stream_id))
            after = _fold_checked(stream_id, new, record)  # what the answer shows, checked before it is stored
            _append(stream_id, record.version, new, actor, command_id, correlation_id)
        _remember_on_commit(after)
        return after, new
    # The hot path: a roll, a play, a double, an answer. Everything that can refuse it is judged in memory first,
    # outside any transaction; what is left can only fail in the database. Its only write is then the append, one
    # statement (eventlog/store.py) that also keeps the view's idempotency receipt; a game's first server roll
    # (which stores the game's dice seed) and a game's end (which reveals it) write more, in one transaction.
    if record.correction is not None or record.closed is not None:
        raise engine_errors.MatchOver(record.over_because())
    player = _acting_player(command, record.state, seat, official)
    if isinstance(command, RollDice) and record.dice_source == DiceSource.SERVER:
        _check_dice_source(command, record)
        # what refuses a roll (whose turn, which phase) does not depend on its numbers: judged before a seed is drawn
        decide(record.state, cmd.Roll(player, (1, 2), RollSource.SERVER))
        seed = _stored_seed(stream_id, _seed_game(record.state))
        judged = None if seed is None else _roll(command, record, player, stream_id, seed=seed)
    else:
        judged = _decide(command, record, player, stream_id)
    if judged is not None and not any(isinstance(event, engine_events.GameWon) for event in judged):
        new = _new(judged)
        after = _fold_checked(stream_id, new, record)  # what the answer shows, checked before it is stored
        _append(stream_id, record.version, new, actor, command_id, correlation_id)
        _remember_on_commit(after)
        return after, new
    with transaction.atomic(savepoint=False):  # the dice seed's bookkeeping commits or rolls back with the append
        if judged is None:
            judged = _roll(command, record, player, stream_id)  # draws the game's seed and stores it
        new = []
        for event in judged:
            if isinstance(event, NewEvent):
                new.append(event)
                continue
            new.extend(_new([event]))
            if isinstance(event, engine_events.GameWon):
                new.extend(_reveal_open_seed(stream_id))
        after = _fold_checked(stream_id, new, record)
        _append(stream_id, record.version, new, actor, command_id, correlation_id)
    _remember_on_commit(after)
    return after, new


# after a double (or a beaver), whoever answers it; the player doubled may resign instead
_ANSWERS = (cmd.Take, cmd.Drop, cmd.Beaver, cmd.Raccoon, cmd.Resign)


def _check_dice_source(command: RollDice, record: MatchRecord) -> None:
    """A roll comes from the source the match was created with: nobody picks their own dice in a server match."""
    if record.dice_source == DiceSource.SERVER and command.dice is not None:
        raise BadCommand(Reason.SERVER_DICE)
    if record.dice_source == DiceSource.BOARD and command.dice is None:
        raise BadCommand(Reason.BOARD_DICE)


def _confirm_import(actor, record: MatchRecord, seat: int | None, official: bool) -> list[NewEvent]:
    """The other player (or an official) vouches for an imported record: from now on it counts for the ratings.

    The event carries what the ratings need to rate it at this point of the log (players, length, result)."""
    if not record.awaiting_confirmation:
        raise BadCommand(Reason.NOT_AWAITING_CONFIRMATION)
    if not official and (seat is None or seat == record.imported_by):
        raise Forbidden(Reason.OTHER_CONFIRMS)
    return [NewEvent(streams.IMPORT_CONFIRMED, {
        "by_seat": None if official and seat is None else seat, "player_ids": list(record.player_ids),
        "length": record.state.length, "finished": record.finished, "winner": record.winner,
        "voided": record.voided is not None, "rating_ramp": record.rating_ramp, "published": record.published,
    })]


def _acting_player(command, state: MatchState, seat: int | None, official: bool) -> int | None:
    requested = command.player
    if requested is not None and (isinstance(requested, bool) or requested not in (0, 1)):
        raise BadCommand(Reason.PLAYER_SEAT)
    if isinstance(command, RollDice) and state.phase == OPENING:
        return None  # both players roll one die each
    if official and seat is None:
        return requested if requested is not None else _expected_actor(command, state)
    if requested is not None and requested != seat:
        raise Forbidden(Reason.ONLY_YOURSELF)
    return seat


def _expected_actor(command, state: MatchState) -> int:
    """Whom a recorder at the table acts for when the command does not say."""
    if state.phase == DOUBLED and isinstance(command, _ANSWERS):
        return state.answerer  # after a beaver the doubler answers; the player doubled may resign instead
    if isinstance(command, (cmd.Take, cmd.Drop, cmd.Beaver, cmd.AcceptResignation, cmd.DeclineResignation)):
        if state.phase == DOUBLED:
            return state.answerer
        if state.phase == RESIGNED:
            return 1 - state.resignation[0]
        return 1 - state.turn
    return state.turn


def _decide(command, record: MatchRecord, player: int | None, stream_id: str) -> list:
    if isinstance(command, RollDice):
        _check_dice_source(command, record)
        return _roll(command, record, player, stream_id)
    if isinstance(command, cmd.Move):
        move = command.move
        if isinstance(move, str) and len(move) > limits.MAX_MOVE_TEXT:
            raise BadCommand(Reason.MOVE_TOO_LONG, n=limits.MAX_MOVE_TEXT)
        if not isinstance(move, str):
            raise BadCommand(Reason.MOVE_NOTATION)
    return decide(record.state, dataclasses.replace(command, player=player))


def _roll(command: RollDice, record: MatchRecord, player: int | None, stream_id: str, seed: str | None = None) -> list:
    """The roll's events; for server dice from ``seed`` (the game's, stored already), or else from a seed drawn
    and stored now, with its commitment first among the events."""
    state = record.state
    dice = command.dice
    if dice is not None:
        if not (isinstance(dice, (list, tuple)) and len(dice) == 2
                and all(isinstance(d, int) and not isinstance(d, bool) and 1 <= d <= 6 for d in dice)):
            raise BadCommand(Reason.DICE_FIELD)
        return decide(state, cmd.Roll(player, tuple(dice), RollSource.PHYSICAL))
    # server dice: drawn from the game's secret seed, whose hash is published before its first roll; the roll's
    # index is the count of the game's server rolls in the log (the record's), so two tablets racing draw the
    # same dice and the append's expected version turns one away
    game = _seed_game(state)
    out = []
    if seed is None:
        seed, out = _new_seed(stream_id, game)
    used = record.seed_rolls if record.seed_game == game and not out else 0
    while True:
        new = decide(state, cmd.Roll(player, dice_rolls.roll(seed, used), RollSource.SERVER))
        used += 1
        out.extend(new)
        if not (new and isinstance(new[0], OpeningRollTied)):  # an opening tie is rolled again
            return out
        for event in new:
            state = evolve(state, event)


def _seed_game(state: MatchState) -> int:
    """The game a roll now belongs to: the next one at an opening roll."""
    return state.game + 1 if state.phase == OPENING else state.game


# The seeds of games under way, by (stream, game): a seed never changes once committed, so a roll reads it once
# per process; one is remembered only after the transaction that stored it has committed.
_SEEDS: OrderedDict[tuple[str, int], str] = OrderedDict()
_SEED_LIMIT = 2048
_seeds_lock = threading.Lock()


def _stored_seed(stream_id: str, game: int) -> str | None:
    key = (stream_id, game)
    with _seeds_lock:
        seed = _SEEDS.get(key)
    if seed is None:
        seed = DiceSeed.objects.filter(stream_id=stream_id, game=game).values_list("seed", flat=True).first()
        if seed is not None:
            _remember_seed(key, seed)
    return seed


def _new_seed(stream_id: str, game: int) -> tuple[str, list]:
    """A seed drawn and stored for the game's first server roll, and its commitment to append with the roll."""
    try:
        with transaction.atomic():
            seed = DiceSeed.objects.create(stream_id=stream_id, game=game, seed=dice_rolls.new_seed()).seed
    except IntegrityError:  # another command of this match got there first: this one is stale
        raise store.ConcurrencyError(stream_id, -1, store.stream_version(stream_id)) from None
    transaction.on_commit(lambda: _remember_seed((stream_id, game), seed))
    return seed, [NewEvent(streams.SEED_COMMITTED, {"game": game, "commitment": dice_rolls.commitment(seed)})]


def _remember_seed(key: tuple[str, int], seed: str) -> None:
    with _seeds_lock:
        _SEEDS[key] = seed
        _SEEDS.move_to_end(key)
        while len(_SEEDS) > _SEED_LIMIT:
            _SEEDS.popitem(last=False)


def _reveal_open_seed(stream_id: str) -> list[NewEvent]:
    """Publish the seed of a game that has ended (or of a match voided mid-game)."""
    out = []
    for seed in DiceSeed.objects.select_for_update().filter(stream_id=stream_id, revealed=False):
        seed.revealed = True
        seed.save(update_fields=["revealed"])
        out.append(NewEvent(streams.SEED_REVEALED, {"game": seed.game, "seed": seed.seed}))
    return out


def _rated_event(command: SetRated, record: MatchRecord) -> list[NewEvent]:
    if not isinstance(command.rated, bool):
        raise BadCommand(Reason.RATED_FLAG)
    return [NewEvent(streams.RATED_SET, {"rated": command.rated})]


def _director_event(command: CorrectResult | VoidMatch, record: MatchRecord) -> list[NewEvent]:
    reason = command.reason
    if not isinstance(reason, str) or not reason.strip():
        raise BadCommand(Reason.REASON_REQUIRED)
    if len(reason) > limits.MAX_REASON:
        raise BadCommand(Reason.REASON_TOO_LONG, n=limits.MAX_REASON)
    if isinstance(command, VoidMatch):
        return [NewEvent(streams.VOIDED, {"reason": reason})]
    winner, score = command.winner, command.score
    if isinstance(winner, bool) or winner not in (0, 1):
        raise BadCommand(Reason.WINNER_SEAT)
    if not (isinstance(score, (list, tuple)) and len(score) == 2
            and all(isinstance(s, int) and not isinstance(s, bool) and s >= 0 for s in score)):
        raise BadCommand(Reason.SCORE_FIELD)
    length = record.state.length
    if length and (score[winner] < length or score[1 - winner] >= length):
        raise BadCommand(Reason.WINNER_POINTS, length=length)
    if max(score) > limits.max_final_score(length):
        raise BadCommand(Reason.FINAL_SCORE, most=limits.max_final_score(length))
    return [NewEvent(streams.RESULT_CORRECTED, {"winner": winner, "score": list(score), "reason": reason})]


def match_void(*, stream_id: str, reason: str, actor=None) -> None:
    """Void a match for a process manager (a tournament replacing a pairing nobody has started)."""
    record = match_load(stream_id)
    if record.voided is None:
        with transaction.atomic():
            events = [NewEvent(streams.VOIDED, {"reason": reason})] + _reveal_open_seed(stream_id)
            _append(stream_id, record.version, events, actor)


def match_assign_official(*, stream_id: str, officiating_director_id: int | None, actor=None) -> bool:
    """Name who officiates a match (a user id; None: the federation's officials only), for whoever holds it.

    For a match whose registration did not name its official (one registered before registrations did), or
    whose event changed hands. True if it changed."""
    if officiating_director_id is not None and (
        not isinstance(officiating_director_id, int) or isinstance(officiating_director_id, bool)
    ):
        raise BadCommand(Reason.OFFICIATING_ID)
    record = match_load(stream_id)
    if record.officiating_director_id == officiating_director_id:
        return False
    _append(stream_id, record.version,
            [NewEvent(streams.OFFICIAL_ASSIGNED, {"officiating_director_id": officiating_director_id})], actor)
    return True


def match_close(*, stream_id: str, winner_player: int, score: tuple[int, int] | None, how: str, actor=None) -> bool:
    """End a match whose event took its result from elsewhere (a paper result, a forfeit), for the process that did.

    ``winner_player`` is the winner's player id; ``score`` the winner's and loser's points (None for a forfeit).
    Nothing more is played in it: one slot, one result. A match already over (finished at the board, voided,
    corrected, closed) is left as it is; returns whether it was closed."""
    if how not in streams.CLOSINGS:
        raise BadCommand(Reason.HOW, choices=", ".join(streams.CLOSINGS))
    record = match_load(stream_id)
    if record.finished or winner_player not in record.player_ids:
        return False
    seat, by_seat = _seated(record, winner_player, score)
    with transaction.atomic():
        events = [NewEvent(streams.CLOSED, {"winner": seat, "score": by_seat, "how": Ending(how)})] + _reveal_open_seed(stream_id)
        _append(stream_id, record.version, events, actor)
    return True


def _seated(record: MatchRecord, winner_player: int, score) -> tuple[int, list[int] | None]:
    """The winner's seat, and a (winner's, loser's) score as the match keeps it: by seat."""
    seat = record.player_ids.index(winner_player)
    if score is None:
        return seat, None
    by_seat = [0, 0]
    by_seat[seat], by_seat[1 - seat] = score
    return seat, by_seat


def match_set_published(*, stream_id: str, published: bool, actor=None) -> bool:
    """Show or hide a match, for whoever holds it (its event being published or hidden). True if it changed."""
    record = match_load(stream_id)
    if record.published == published:
        return False
    _append(stream_id, record.version, [NewEvent(streams.VISIBILITY_CHANGED, {"published": published})], actor)
    return True


def match_set_result(*, stream_id: str, winner_player: int, score: tuple[int, int], reason: str, actor=None) -> bool:
    """Record an event's correction of its slot in the slot's match, so the match's pages show the corrected
    result (a process around the match calls this, as with :func:`match_void`). A voided match, or one between
    other players than the correction names, is left as it is; returns whether the correction was recorded."""
    record = match_load(stream_id)
    if record.voided is not None or winner_player not in record.player_ids:
        return False
    seat, by_seat = _seated(record, winner_player, score)
    if record.correction is not None and (record.correction.winner, list(record.correction.score)) == (seat, by_seat):
        return False
    with transaction.atomic():
        events = [NewEvent(streams.RESULT_CORRECTED, {"winner": seat, "score": by_seat, "reason": reason})]
        _append(stream_id, record.version, events + _reveal_open_seed(stream_id), actor)
    return True


# -- files -----------------------------------------------------------------------------


_GAME_HEADER = re.compile(r"^\s*Game\s+\d+\s*$", re.MULTILINE)


def match_import_mat(
    *, actor, text: str, player0: Player, player1: Player, officiating_director_id: int | None = None,
    rating_ramp: str = "fibs", tournament_id: int | None = None, published: bool = True, read=None,
) -> MatchRecord:
    """Create a match from a ``.mat`` file, every action judged by the engine; nothing is stored on error.

    ``officiating_director_id``, ``rating_ramp``, ``tournament_id`` and ``published`` are recorded as
    :func:`match_create` records them. ``read``: ``text`` already read by ``read_mat`` (a worker reads it first,
    telling its progress). A record imported by one of its players is not rated until the other player (or an official)
    confirms it (``confirm_import``); one imported by the official it names, or a federation official, is. The same record of moves is
    imported once: its fingerprint (the dice and plays, not the names) is kept in the registration, and a
    second import of it is refused."""
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
    registration = _registration(published, officiating_director_id, rating_ramp, tournament_id)
    vouched = actor is not None and authority.officiates_match(actor, officiating_director_id)
    with transaction.atomic():
        store.lock_log()  # no second import of the same record can slip in between the check and the append
        earlier = (Event.objects.filter(stream_type=streams.STREAM_TYPE, event_type=streams.REGISTERED,
                                        payload__import_fingerprint=fingerprint)
                  .values_list("stream_id", flat=True).first())
        if earlier is not None:
            raise BadCommand(Reason.ALREADY_IMPORTED, match=earlier)
        record = _open_stream(actor, player0, player1, registration, engine_events, import_warnings=warnings,
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


# -- appending ------------------------------------------------------------------------------


def _new(engine_events_list) -> list[NewEvent]:
    return [
        NewEvent(*streams.engine_payload(e), engine_events.SCHEMA_VERSION[type(e).__name__])
        for e in engine_events_list
    ]


def _append(stream_id: str, expected: int, events: list[NewEvent], actor, command_id=None, correlation_id=None):
    # command_id: the client's Idempotency-Key; correlation_id ties together what one request caused
    metadata = {
        "actor": getattr(actor, "pk", None),
        "command_id": command_id,
        "correlation_id": correlation_id or uuid.uuid4().hex,
    }
    return store.append(  # all or nothing; a stale version is raised after its block
        stream_id=stream_id,
        stream_type=streams.STREAM_TYPE,
        expected_version=expected,
        events=events,
        metadata=metadata,
        on_commit=lambda: _told(stream_id, expected + len(events)),
    )


def _told(stream_id: str, version: int) -> None:
    # after the commit: the projections are woken, and the pages following the match (eventlog/live.py) fetch it
    wake_projections_and_tell(live.stream_topic(stream_id), version)


# -- who may create, and imports ----------------------------------------------------------

MAX_MAT_BYTES = 2_000_000


def check_may_create(user, players: tuple[Player, Player]) -> None:
    """A casual match (outside any event: an event creates its own): one of the two players or an official."""
    if not user or not user.is_authenticated:
        raise Forbidden(Reason.LOG_IN_TO_CREATE)
    if authority.officiates_everything(user) or any(p.user_id == user.pk for p in players):
        return
    raise Forbidden(Reason.BETWEEN_YOURSELF)


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
