"""GNU Backgammon's Position ID and Match ID.

Both are bit strings written in base64 (``A-Z a-z 0-9 + /``, no ``=``
padding). Bit ``k`` of a string is bit ``k % 8`` (least significant first)
of byte ``k // 8``; multi-bit fields are stored least significant bit first.

**Position ID** (14 characters, 80 bits): for the opponent, then for the
player on roll, each side in its own numbering, points 1..24 then the bar:
one ``1`` per checker on the point, then a ``0``. Zero padding to 80 bits.
Borne-off checkers are not stored (15 minus the rest). The start position is
``4HPwATDgc/ABMA``. (gnubg's manual says "player on roll first", but its code,
``oldPositionKey`` in positionid.c, and every ID it prints, put the opponent
first; this module follows the program.)

**Match ID** (12 characters, 72 bits), as written by gnubg's matchid.c:

====== ==== ===================================================================
bits   size field
====== ==== ===================================================================
0-3    4    log2 of the cube value
4-5    2    cube owner: 0 = player 0, 1 = player 1, 3 = centred
6      1    dice owner: the player on roll (or who did roll)
7      1    Crawford game
8-10   3    game state: 0 no game, 1 playing, 2 over, 3 resigned, 4 dropped
11     1    turn: the player who must act now (the taker after a double...)
12     1    a double is offered
13-14  2    resignation offered: 0 none, 1 single, 2 gammon, 3 backgammon
15-17  3    first die (gnubg writes the higher die first; 0 = not rolled)
18-20  3    second die
21-35  15   match length (0 = money game)
36-50  15   score of player 0
51-65  15   score of player 1
66     1    Jacoby rule *off* (not in the manual's table; gnubg sets it in
            every match, where the Jacoby rule never applies)
====== ==== ===================================================================
"""

from __future__ import annotations

import base64
import binascii
import re
from dataclasses import dataclass
from enum import IntEnum

from .board import BAR, CHECKERS, OFF, Position
from .errors import InvalidPosition, NotationError, Reason

_BASE64 = re.compile(r"[A-Za-z0-9+/]*")


def _from_base64(text: str, length: int, what: str) -> bytes:
    """Decode ``length`` base64 characters; the unused low bits of the last one must be 0."""
    if not isinstance(text, str) or len(text) != length or not _BASE64.fullmatch(text):
        raise NotationError(Reason.BASE64_LENGTH, what=what, length=length, text=repr(text))
    padded = text + "=" * (-length % 4)
    try:
        data = base64.b64decode(padded, validate=True)
    except binascii.Error as exc:  # pragma: no cover - the regex already guards this
        raise NotationError(Reason.NOT_BASE64, text=repr(text), error=str(exc)) from exc
    # b64decode silently drops the bits of the last character that do not fill
    # a byte; a genuine ID leaves them 0, so anything else is a typo.
    if base64.b64encode(data).decode().rstrip("=") != text:
        raise NotationError(Reason.STRAY_BITS, text=repr(text), what=what)
    return data


def _to_base64(data: bytes) -> str:
    return base64.b64encode(data).decode().rstrip("=")


def _bits_to_int(data: bytes) -> int:
    # Little-endian both ways: bit k of the ID is bit k of this integer.
    return int.from_bytes(data, "little")


# -- Position ID -------------------------------------------------------------


def position_id(position: Position) -> str:
    """The 14-character gnubg Position ID of ``position`` (player on roll = ``mine``)."""
    position.validated()
    bits = 0
    n = 0  # bits written so far
    for side in (position.theirs, position.mine):
        for slot in range(1, 26):  # points 1..24, then the bar (25)
            count = side[slot]
            bits |= ((1 << count) - 1) << n
            n += count + 1
    return _to_base64(bits.to_bytes(10, "little"))


def position_from_id(text: str) -> Position:
    """Read a gnubg Position ID; raise :class:`NotationError` if it is malformed."""
    bits = _bits_to_int(_from_base64(text, 14, "Position ID"))
    sides: list[list[int]] = [[0] * 26, [0] * 26]  # theirs, mine
    side, slot = 0, 1
    # At most 15 ones a side leave at least 50 zeros in 80 bits, so once the
    # checker counts are checked every one of the 50 slots is reached.
    for k in range(80):
        if side == 2:  # all 50 slots read: the rest is padding
            if bits >> k:
                raise NotationError(Reason.PAST_LAST_POINT, text=repr(text))
            break
        if bits >> k & 1:
            sides[side][slot] += 1
            if sum(sides[side]) > CHECKERS:
                raise NotationError(Reason.OPPONENT_TOO_MANY if side == 0 else Reason.ROLLER_TOO_MANY, text=repr(text),
                                    checkers=CHECKERS)
        else:
            slot += 1
            if slot == 26:
                side, slot = side + 1, 1
    theirs, mine = sides
    mine[OFF] = CHECKERS - sum(mine)
    theirs[OFF] = CHECKERS - sum(theirs)
    position = Position(tuple(mine), tuple(theirs))
    try:
        position.validated()
    except InvalidPosition as exc:
        raise NotationError(Reason.POSITION_ID, text=repr(text), why=exc) from exc
    # gnubg's CheckPosition also refuses this one: nobody could have moved last.
    if mine[BAR] and theirs[BAR] and all(mine[p] >= 2 and theirs[p] >= 2 for p in range(1, 7)):
        raise NotationError(Reason.POSITION_ID, text=repr(text), why=NotationError(Reason.BOTH_ON_BAR))
    return position


# -- Match ID ----------------------------------------------------------------


class GameState(IntEnum):
    """gnubg's ``gamestate`` (3 bits of the Match ID)."""

    NONE = 0  # no game started
    PLAYING = 1
    OVER = 2
    RESIGNED = 3
    DROPPED = 4  # ended by a dropped double


class Resignation(IntEnum):
    """The resignation on offer (2 bits of the Match ID)."""

    NONE = 0
    SINGLE = 1
    GAMMON = 2
    BACKGAMMON = 3


@dataclass(frozen=True)
class MatchIdInfo:
    """Every field of a gnubg Match ID. Players are gnubg's 0 and 1.

    ``cube_owner`` is 0, 1 or ``None`` (centred). ``dice`` is ``(0, 0)`` before
    the roll. ``player_on_roll`` owns the dice; ``turn`` is who must act now
    (differs while a double or resignation awaits an answer). ``jacoby`` is
    False by default because gnubg writes it so for every match.
    """

    cube_value: int = 1
    cube_owner: int | None = None
    player_on_roll: int = 0
    crawford: bool = False
    game_state: GameState = GameState.PLAYING
    turn: int = 0
    double_offered: bool = False
    resignation: Resignation = Resignation.NONE
    dice: tuple[int, int] = (0, 0)
    match_length: int = 0
    score: tuple[int, int] = (0, 0)
    jacoby: bool = False


# (name, first bit, size) of the plain integer fields, in bit order
_LAYOUT = (
    ("cube_log2", 0, 4),
    ("cube_owner", 4, 2),
    ("player_on_roll", 6, 1),
    ("crawford", 7, 1),
    ("game_state", 8, 3),
    ("turn", 11, 1),
    ("double_offered", 12, 1),
    ("resignation", 13, 2),
    ("die1", 15, 3),
    ("die2", 18, 3),
    ("match_length", 21, 15),
    ("score0", 36, 15),
    ("score1", 51, 15),
    ("no_jacoby", 66, 1),
)
_CENTRED = 3  # cube owner bits for a centred cube


def _check(info: MatchIdInfo) -> None:
    """Raise :class:`NotationError` unless gnubg could write and read ``info``."""
    cube = info.cube_value
    if cube < 1 or cube & (cube - 1) or cube > 1 << 15:
        raise NotationError(Reason.CUBE_VALUE, cube=cube)
    if info.cube_owner not in (0, 1, None):
        raise NotationError(Reason.CUBE_OWNER, owner=repr(info.cube_owner))
    for name in ("player_on_roll", "turn"):
        if getattr(info, name) not in (0, 1):
            raise NotationError(Reason.PLAYER_FIELD, field=name, value=repr(getattr(info, name)))
    d1, d2 = info.dice
    if not (d1 == d2 == 0 or (1 <= d1 <= 6 and 1 <= d2 <= 6)):
        raise NotationError(Reason.ID_DICE, dice=info.dice)
    if not 0 <= info.match_length < 1 << 15:
        raise NotationError(Reason.LENGTH_BITS, length=info.match_length)
    for score in info.score:
        # gnubg's MatchFromKey refuses a score above the match length
        if score < 0 or (info.match_length and score > info.match_length) or score >= 1 << 15:
            raise NotationError(Reason.SCORE_FIT, score=info.score, length=info.match_length)
    if info.crawford and not info.match_length:
        raise NotationError(Reason.MONEY_CRAWFORD)


def match_id(info: MatchIdInfo) -> str:
    """The 12-character gnubg Match ID of ``info`` (dice written higher first, as gnubg does)."""
    _check(info)
    high, low = sorted(info.dice, reverse=True)
    values = {
        "cube_log2": info.cube_value.bit_length() - 1,
        "cube_owner": _CENTRED if info.cube_owner is None else info.cube_owner,
        "player_on_roll": info.player_on_roll,
        "crawford": int(info.crawford),
        "game_state": int(info.game_state),
        "turn": info.turn,
        "double_offered": int(info.double_offered),
        "resignation": int(info.resignation),
        "die1": high,
        "die2": low,
        "match_length": info.match_length,
        "score0": info.score[0],
        "score1": info.score[1],
        "no_jacoby": int(not info.jacoby),
    }
    bits = 0
    for name, start, _size in _LAYOUT:
        bits |= values[name] << start
    return _to_base64(bits.to_bytes(9, "little"))


def match_from_id(text: str) -> MatchIdInfo:
    """Read a gnubg Match ID; raise :class:`NotationError` if it is malformed."""
    bits = _bits_to_int(_from_base64(text, 12, "Match ID"))
    if bits >> 67:
        raise NotationError(Reason.PAST_BIT_66, text=repr(text))
    v = {name: bits >> start & ((1 << size) - 1) for name, start, size in _LAYOUT}
    if v["cube_owner"] == 2:
        raise NotationError(Reason.MATCH_ID, text=repr(text), why=NotationError(Reason.OWNER_BITS))
    if v["game_state"] > GameState.DROPPED:
        raise NotationError(Reason.MATCH_ID, text=repr(text), why=NotationError(Reason.GAME_STATE, state=v["game_state"]))
    info = MatchIdInfo(
        cube_value=1 << v["cube_log2"],
        cube_owner=None if v["cube_owner"] == _CENTRED else v["cube_owner"],
        player_on_roll=v["player_on_roll"],
        crawford=bool(v["crawford"]),
        game_state=GameState(v["game_state"]),
        turn=v["turn"],
        double_offered=bool(v["double_offered"]),
        resignation=Resignation(v["resignation"]),
        dice=(v["die1"], v["die2"]),
        match_length=v["match_length"],
        score=(v["score0"], v["score1"]),
        jacoby=not v["no_jacoby"],
    )
    try:
        _check(info)
    except NotationError as exc:
        raise NotationError(Reason.MATCH_ID, text=repr(text), why=exc) from exc
    return info
