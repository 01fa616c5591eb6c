"""A member challenges another to a match online; the member challenged accepts (an online match is created for
them, games/online.py) or declines, and the challenger may withdraw it while it is open."""

from __future__ import annotations

from django.db import transaction
from django.db.models import Q

from players import authority
from players.models import Player

from . import online
from .clocks import CUSTOM, PRESET_NAMES
from .creation import match_create
from .errors import BadCommand, MatchNotFound, Reason
from .forbidden import Forbidden
from .models import Challenge
from .streams import DiceSource, MatchRecord

MAX_CHALLENGE_LENGTH = 25  # a match online is played in a sitting
CLOCKS = tuple(p for p in PRESET_NAMES if p != CUSTOM)  # a federation's preset, or none


def _own_player(user) -> int:
    player = authority.player_id_of(user) if user and user.is_authenticated else None
    if player is None:
        raise Forbidden(Reason.LOG_IN_TO_CHALLENGE)
    return player


def challenge_issue(*, actor, opponent: Player, length: int, clock: str = "", disconnect: str = "standard") -> Challenge:
    """``actor``'s player challenges ``opponent`` (a member with an account) to a match of ``length`` points, with
    a clock preset (empty: none) and a disconnect clock preset (``games.online.disconnect_presets``)."""
    challenger = _own_player(actor)
    if opponent.pk == challenger:
        raise BadCommand(Reason.TWO_DIFFERENT_PLAYERS)
    if opponent.user_id is None:
        raise BadCommand(Reason.CHALLENGE_MEMBER, name=opponent.display_name)
    if not isinstance(length, int) or isinstance(length, bool) or not 1 <= length <= MAX_CHALLENGE_LENGTH \
            or length % 2 == 0:
        raise BadCommand(Reason.WHOLE_NUMBER, field="length", low=1, high=MAX_CHALLENGE_LENGTH)
    if clock not in ("", *CLOCKS):
        raise BadCommand(Reason.CLOCK_PRESET_OR_NONE, choices=", ".join(CLOCKS))
    if disconnect not in online.disconnect_presets():
        raise BadCommand(Reason.DISCONNECT_PRESET, choices=", ".join(online.disconnect_presets()))
    return Challenge.objects.create(challenger_id=challenger, opponent=opponent, length=length, clock=clock,
                                    disconnect=disconnect)


def _open_challenge(actor, challenge_id: int) -> tuple[Challenge, int]:
    player = _own_player(actor)
    challenge = Challenge.objects.select_for_update().filter(pk=challenge_id).first()
    if challenge is None or player not in (challenge.challenger_id, challenge.opponent_id):
        raise MatchNotFound(Reason.NO_CHALLENGE, challenge=challenge_id)
    if challenge.status != Challenge.OPEN:
        raise BadCommand(Reason.CHALLENGE_ANSWERED, status=challenge.status)
    return challenge, player


def challenge_accept(*, actor, challenge_id: int) -> MatchRecord:
    """The member challenged accepts: the online match is created (the challenger in the first seat), with the
    server's dice, the clock chosen, and the disconnect clock's length also the time either has to come."""
    with transaction.atomic():
        challenge, player = _open_challenge(actor, challenge_id)
        if player != challenge.opponent_id:
            raise Forbidden(Reason.CHALLENGED_ACCEPTS)
        seconds = online.disconnect_presets()[challenge.disconnect]
        record = match_create(
            actor=actor, player0=challenge.challenger, player1=challenge.opponent, length=challenge.length,
            dice=DiceSource.SERVER, clock={"use": "required", "preset": challenge.clock} if challenge.clock else None,
            online_rule={"disconnect": seconds, "late": seconds, "challenge": challenge.pk},
        )
        challenge.status, challenge.stream_id = Challenge.ACCEPTED, record.stream_id
        challenge.save(update_fields=["status", "stream_id"])
    return record


def challenge_decline(*, actor, challenge_id: int) -> Challenge:
    """The member challenged declines it, or the challenger withdraws it, while it is open."""
    with transaction.atomic():
        challenge, player = _open_challenge(actor, challenge_id)
        challenge.status = Challenge.DECLINED if player == challenge.opponent_id else Challenge.WITHDRAWN
        challenge.save(update_fields=["status"])
    return challenge


def challenges_of(user, limit: int = 50) -> list[Challenge]:
    """A member's challenges, made and received, newest first."""
    player = authority.player_id_of(user) if user and user.is_authenticated else None
    if player is None:
        return []
    return list(Challenge.objects.filter(Q(challenger_id=player) | Q(opponent_id=player))
                .select_related("challenger", "opponent")[:limit])

