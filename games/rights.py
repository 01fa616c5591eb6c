"""Who may read a match, act in it, or create one.

Answered by players/authority.py from what the stream recorded: the match looks nothing up in its event."""

from __future__ import annotations

from players import authority
from players.models import Player

from .errors import Reason
from .forbidden import Forbidden
from .streams import MatchRecord


def is_official(user, record: MatchRecord) -> bool:
    """The director the match names as its official, or a federation official: may record for either player."""
    return authority.officiates_match(user, record.officiating_director_id)


def seat_of(user, record: MatchRecord) -> int | None:
    """0 or 1 if ``user`` is one of the match's players (in a consultation match, either player of a side)."""
    seat = authority.seat_in_match(user, record.player_ids)
    if seat is None and record.partner_ids is not None:
        seat = authority.seat_in_match(user, record.partner_ids)
    return seat


def can_read(user, record: MatchRecord) -> bool:
    return record.published or is_official(user, record) or seat_of(user, record) is not None


def check_may_create(user, players: tuple[Player, ...]) -> None:
    """A casual match (outside any event: an event creates its own): one of its players or an official."""
    if not user or not user.is_authenticated:
        raise Forbidden(Reason.LOG_IN_TO_CREATE)
    if authority.officiates_everything(user) or any(p.user_id == user.pk for p in players):
        return
    raise Forbidden(Reason.BETWEEN_YOURSELF)
