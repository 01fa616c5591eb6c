"""What the platform can hold of a match: each limit once, with where it comes from.

The rules engine has no limits of its own (a money cube may grow without end); the platform
stores every match in read models with fixed-width columns and shows it as gnubg IDs, so a
command is refused (HTTP 400, before anything is appended) when what it leaves behind would
not fit them. The API's schema states these numbers (``games/api/serializers.py``).
"""

from __future__ import annotations

from games.engine.errors import InvalidAction
from games.engine.match import MatchState
from games.errors import PlatformErrorCode, Reason

# gnubg's Match ID keeps the match length in 15 bits (bits 21-35)
MAX_MATCH_LENGTH = 2**15 - 1
# ... and the cube as the log2 of its value in 4 bits (bits 0-3): 2**15 at most. A match created
# here gets this as its cube limit unless a lower one is chosen: the engine then refuses a double
# (or skips an automatic double) that would pass it, so the cube always fits.
MAX_CUBE = 2**15
MAX_AUTOMATIC_DOUBLES = MAX_CUBE.bit_length() - 1  # 15: more could never happen under MAX_CUBE
# the read models' score columns are PostgreSQL integers (MatchSummary.score0, GameSummary.points…)
MAX_SCORE = 2**31 - 1
# the read model's name columns (MatchSummary.player0_name) and Player.display_name
MAX_NAME = 80
# a play in gnubg notation: "bar/22* 22/16* 16/10* 10/4*" is 27 characters; a refusal quotes it
MAX_MOVE_TEXT = 64
# a director's reason (a correction, a void, a withdrawal): words, not documents
MAX_REASON = 500
# one imported .mat match (checked before it is read, then after): every page of it (the viewer, a game at a
# time; the stream, a page at a time; the .mat export) must stay cheap to serve, and the import itself quick
MAX_IMPORT_GAMES = 200
MAX_IMPORT_EVENTS = 25_000
# the highest score a match to ``length`` can end with: one point short, then a backgammon at the cube's limit
MAX_GAME_POINTS = 3 * MAX_CUBE


class NotRepresentable(InvalidAction):
    """A match the platform cannot store or show (a name too long for the read model, a cube past its limit)."""

    code = PlatformErrorCode.NOT_REPRESENTABLE


def max_final_score(length: int) -> int:
    """The most points a player can end a match to ``length`` with (a money session: what the read model holds)."""
    return min(MAX_SCORE, length - 1 + MAX_GAME_POINTS) if length else MAX_SCORE


def check_start(length: int, names) -> None:
    """What a match's start must fit in: its length and its players' names (a .mat record's head is checked
    with it before the record is read)."""
    if length > MAX_MATCH_LENGTH:
        raise NotRepresentable(Reason.MATCH_TOO_LONG, most=MAX_MATCH_LENGTH)
    for name in names:
        if len(name) > MAX_NAME:
            raise NotRepresentable(Reason.NAME_TOO_LONG, most=MAX_NAME, length=len(name))


def check_representable(state: MatchState) -> None:
    """Raise :class:`NotRepresentable` unless the read models and the gnubg IDs can hold ``state``.

    Cheap (a few comparisons): the services call it on every state a command passes through,
    before appending."""
    check_start(state.length, state.players)
    if state.cube > MAX_CUBE:
        raise NotRepresentable(Reason.CUBE_TOO_HIGH, most=MAX_CUBE, cube=state.cube)
    if max(state.score) > MAX_SCORE:
        raise NotRepresentable(Reason.SCORE_TOO_HIGH, most=MAX_SCORE)


def gnubg_match_id(state: MatchState) -> str | None:
    """The gnubg Match ID, or None where gnubg cannot write one (a money session's score past 15 bits)."""
    from games.engine.errors import NotationError
    from games.engine.state_ids import match_id_of

    try:
        return match_id_of(state)
    except NotationError:
        return None


def xgid(state: MatchState) -> str | None:
    """The XGID, or None where XG's fields cannot hold the state."""
    from games.engine.errors import NotationError
    from games.engine.state_ids import xgid_of

    try:
        return xgid_of(state)
    except NotationError:
        return None
