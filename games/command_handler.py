"""Handling a match command: load, fold, let the engine judge, append in one transaction.

The hot path (a roll, a play, a double, an answer) is judged in memory on this process's snapshot and written in
one statement; a director's command, or the confirmation of an import, is handled in a transaction of its own."""

from __future__ import annotations

import dataclasses

from django.db import DatabaseError, transaction

from eventlog import store
from eventlog.store import NewEvent
from games.engine import commands as cmd
from games.engine import events as engine_events
from games.engine.events import OpeningRollTied, RollSource
from games.engine.match import DOUBLED, OPENING, RESIGNED, MatchState, check_roll, decide, evolve
from games.engine.match_clock import presser_of

from . import clocks
from . import dice as dice_rolls
from . import limits, online, streams
from .appending import append_events, fold_checked, new_events
from .clocks import clock_events
from .commands import (CLOCK_COMMANDS, COMMAND_TYPES, DIRECTOR_COMMANDS, ONLINE_CLAIMS, TYPE_OF, ClaimNoShow,
                       ConfirmImport, MatchCommand, PressClock, RollDice, SetRated)
from .director import director_event, rated_event
from .errors import BadCommand, Reason
from .forbidden import Forbidden
from .loading import held, match_load, remember_on_commit
from .rights import is_official, seat_of
from .seeds import draw_seed, reveal_open_seed, stored_seed
from .streams import DiceSource, MatchRecord


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
    cached = held(stream_id)
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
        raise record.why_over()
    online_claim = isinstance(command, ONLINE_CLAIMS)
    if not director_command and not online_claim:
        online.check_own_seat(record, seat)
    if isinstance(command, ConfirmImport) or director_command or online_claim:
        with transaction.atomic():  # the dice seed revealed commits or rolls back with the append
            if isinstance(command, ConfirmImport):
                new = _confirm_import(actor, record, seat, official)
            elif online_claim:
                new = online.forfeit_events(record, seat, command.absent, isinstance(command, ClaimNoShow)) \
                    + reveal_open_seed(stream_id)
            else:
                if not official:
                    raise Forbidden(Reason.OFFICIAL_CORRECTS)
                # marking it rated or the clock's calls reveal no dice: the match may still be at the board
                if isinstance(command, SetRated):
                    new = rated_event(command, record)
                elif isinstance(command, CLOCK_COMMANDS):
                    new = _stored(clock_events(command, record, None), stream_id)
                else:
                    new = director_event(command, record) + reveal_open_seed(stream_id)
            after = fold_checked(stream_id, new, record)  # what the answer shows, checked before it is stored
            append_events(stream_id, record.version, new, actor, command_id, correlation_id)
        remember_on_commit(after)
        return after, new
    # The hot path: a roll, a play, a double, an answer. Everything that can refuse it is judged in memory first,
    # outside any transaction; what is left can only fail in the database. Its only write is then the append, one
    # statement (eventlog/store.py) that also keeps the view's idempotency receipt; a game's first server roll
    # (which stores the game's dice seed) and a game's end (which reveals it) write more, in one transaction.
    if record.correction is not None or record.closed is not None:
        raise record.why_over()
    player = _acting_player(command, record.state, seat, official)
    if isinstance(command, RollDice) and record.dice_source == DiceSource.SERVER:
        _check_dice_source(command, record)
        # what refuses a roll (whose turn, which phase) does not depend on its numbers: judged before a seed is drawn
        check_roll(record.state, player)
        seed = stored_seed(stream_id, _seed_game(record.state))
        judged = None if seed is None else _roll(command, record, player, stream_id, seed=seed)
    else:
        judged = _decide(command, record, player, stream_id)
    if judged is not None and not isinstance(command, CLOCK_COMMANDS):
        judged = online.with_presses(record, judged, clocks.now())
    if judged is not None and not any(isinstance(event, engine_events.GameWon) for event in judged):
        new = new_events(judged)
        after = fold_checked(stream_id, new, record)  # what the answer shows, checked before it is stored
        append_events(stream_id, record.version, new, actor, command_id, correlation_id)
        remember_on_commit(after)
        return after, new
    with transaction.atomic(savepoint=False):  # the dice seed's bookkeeping commits or rolls back with the append
        if judged is None:
            judged = _roll(command, record, player, stream_id)  # draws the game's seed and stores it
            judged = online.with_presses(record, judged, clocks.now())
        new = []
        for event in judged:
            if isinstance(event, NewEvent):
                new.append(event)
                continue
            new.extend(new_events([event]))
            if isinstance(event, engine_events.GameWon):
                new.extend(reveal_open_seed(stream_id))
        after = fold_checked(stream_id, new, record)
        append_events(stream_id, record.version, new, actor, command_id, correlation_id)
    remember_on_commit(after)
    return after, new


# after a double (or a beaver), whoever answers it; the player doubled may resign instead
_ANSWERS = (cmd.Take, cmd.Drop, cmd.Beaver, cmd.Raccoon, cmd.Resign)


def _stored(judged: list, stream_id: str) -> list[NewEvent]:
    """Judged events as appended: the engine's turned into stored events, a game's end with its seed revealed."""
    new: list[NewEvent] = []
    for event in judged:
        new.extend([event] if isinstance(event, NewEvent) else new_events([event]))
        if isinstance(event, engine_events.GameWon):
            new.extend(reveal_open_seed(stream_id))
    return new


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
    if isinstance(command, PressClock) and (presser := presser_of(state)) is not None:
        return presser
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
    if isinstance(command, CLOCK_COMMANDS):
        return clock_events(command, record, player)
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
        seed, out = draw_seed(stream_id, game)
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
