"""A director's acts on a match: a correction, a void, rated or not; and the acts of the process that holds a
match for its event (voiding a pairing, naming the official, closing it with a result from elsewhere, showing or
hiding it)."""

from __future__ import annotations

from django.db import transaction

from eventlog.store import NewEvent

from . import limits, streams
from .appending import append_events
from .commands import CorrectResult, SetRated, VoidMatch
from .errors import BadCommand, Reason
from .loading import match_load
from .seeds import reveal_open_seed
from .streams import Ending, MatchRecord


def rated_event(command: SetRated, record: MatchRecord) -> list[NewEvent]:
    if not isinstance(command.rated, bool):
        raise BadCommand(Reason.RATED_FLAG)
    if command.rated and record.consultation:
        raise BadCommand(Reason.CONSULTATION_UNRATED)
    return [NewEvent(streams.RATED_SET, {"rated": command.rated})]


def director_event(command: CorrectResult | VoidMatch, record: MatchRecord) -> list[NewEvent]:
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
            events = [NewEvent(streams.VOIDED, {"reason": reason})] + reveal_open_seed(stream_id)
            append_events(stream_id, record.version, events, actor)


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
    append_events(stream_id, record.version,
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
        events = [NewEvent(streams.CLOSED, {"winner": seat, "score": by_seat, "how": Ending(how)})] + reveal_open_seed(stream_id)
        append_events(stream_id, record.version, events, actor)
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
    append_events(stream_id, record.version, [NewEvent(streams.VISIBILITY_CHANGED, {"published": published})], actor)
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
        append_events(stream_id, record.version, events + reveal_open_seed(stream_id), actor)
    return True
