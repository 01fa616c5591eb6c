"""eXtreme Gammon's XGID.

``XGID=-b----E-C---eE---c-e----B-:0:0:1:52:0:0:3:0:10`` is ten fields
separated by colons (the ``XGID=`` prefix is optional when reading):

1. The board, 26 characters, always drawn for the *bottom* player, whose
   checkers are upper case (``A`` = 1 ... ``O`` = 15); the top player's are
   lower case, ``-`` is empty. Character 0 is the top player's bar, 1..24 are
   the points 1..24 as the bottom player numbers them (the bottom player moves
   24 -> 1; the top player's own point ``q`` is character ``25 - q``), and
   character 25 is the bottom player's bar. The board does not depend on
   whose turn it is.
2. log2 of the cube value.
3. Cube position: 1 = the bottom player owns it, -1 = the top player, 0 = centred.
4. Turn: 1 = the bottom player is to act, -1 = the top player.
5. ``00`` = not rolled yet, two digits 1-6 = the roll, ``D`` = the player
   whose turn it is has doubled, ``B`` = ... and was beavered, ``R`` = ... and
   raccooned. (gnubg 1.07 reads ``00``, dice and ``D`` only.)
6. Score of the bottom player. 7. Score of the top player.
8. In a match: 1 = this is the Crawford game. In money play: 1 = Jacoby
   rule, + 2 = beavers allowed.
9. Match length, 0 = money play.
10. log2 of the maximum cube (money play; gnubg reads 0 as "cubeless").

This follows gnubg's reader (``SetXGID`` in set.c and ``PositionFromXG`` in
positionid.c), which agrees with the published descriptions of the format.
In :class:`XgidInfo` the board becomes a :class:`Position` seen by the player
whose turn it is, like every position of this engine; the other fields keep
XG's bottom/top meaning.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from enum import Enum

from .board import BAR, CHECKERS, OFF, Position
from .errors import InvalidPosition, NotationError, Reason

BOTTOM = 1  # the player with upper-case checkers, drawn at the bottom
TOP = -1


class CubeAction(str, Enum):
    """What field 5 says instead of dice while a cube decision is pending."""

    NONE = ""
    DOUBLE = "D"
    BEAVER = "B"
    RACCOON = "R"


@dataclass(frozen=True)
class XgidInfo:
    """Every field of an XGID.

    ``position`` is seen from the player whose turn it is (``turn``: 1 =
    bottom player, -1 = top player); with a cube action pending, that is the
    player who doubled. ``cube_position`` (1 / 0 / -1) and the scores keep
    XG's bottom/top meaning. ``cube_value`` and ``max_cube`` are the values,
    not their logarithms. ``crawford`` belongs to match play, ``jacoby`` and
    ``beaver`` to money play (``match_length == 0``).
    """

    position: Position
    turn: int = BOTTOM
    dice: tuple[int, int] = (0, 0)
    cube_action: CubeAction = CubeAction.NONE
    cube_value: int = 1
    cube_position: int = 0
    score_bottom: int = 0
    score_top: int = 0
    crawford: bool = False
    jacoby: bool = False
    beaver: bool = False
    match_length: int = 0
    max_cube: int = 1024


_INT = re.compile(r"-?\d+")
_DICE = re.compile(r"00|[1-6][1-6]|[DBR]")


def _log2(value: int, what: Reason) -> int:
    if value < 1 or value & (value - 1):
        raise NotationError(what, value=value)
    return value.bit_length() - 1


def _check(info: XgidInfo) -> None:
    """Raise :class:`NotationError` unless ``info`` makes a valid XGID."""
    if info.turn not in (BOTTOM, TOP):
        raise NotationError(Reason.XGID_TURN, turn=repr(info.turn))
    if info.cube_position not in (-1, 0, 1):
        raise NotationError(Reason.XGID_CUBE_POSITION, position=repr(info.cube_position))
    d1, d2 = info.dice
    if not (d1 == d2 == 0 or (1 <= d1 <= 6 and 1 <= d2 <= 6)):
        raise NotationError(Reason.ID_DICE, dice=info.dice)
    if info.cube_action is not CubeAction.NONE and info.dice != (0, 0):
        raise NotationError(Reason.DICE_DURING_CUBE)
    _log2(info.cube_value, Reason.CUBE_POWER)
    _log2(info.max_cube, Reason.MAX_CUBE_POWER)
    if info.match_length < 0 or info.score_bottom < 0 or info.score_top < 0:
        raise NotationError(Reason.NEGATIVE_SCORES)
    if info.match_length:
        if max(info.score_bottom, info.score_top) >= info.match_length:
            raise NotationError(Reason.SCORE_BELOW_LENGTH, bottom=info.score_bottom, top=info.score_top,
                                length=info.match_length)
        if info.jacoby or info.beaver:
            raise NotationError(Reason.MONEY_RULES)
    elif info.crawford:
        raise NotationError(Reason.MONEY_CRAWFORD)


def xgid(info: XgidInfo) -> str:
    """The XGID of ``info``, with its ``XGID=`` prefix."""
    _check(info)
    position = info.position.validated()
    # XG draws the board for the bottom player: turn the position round if
    # the top player is the one on roll.
    bottom, top = position if info.turn == BOTTOM else position.swap()
    cells = ["-"] * 26
    cells[0] = "-" if not top[BAR] else chr(ord("a") + top[BAR] - 1)
    cells[25] = "-" if not bottom[BAR] else chr(ord("A") + bottom[BAR] - 1)
    for p in range(1, 25):
        if bottom[p]:
            cells[p] = chr(ord("A") + bottom[p] - 1)
        elif top[25 - p]:
            cells[p] = chr(ord("a") + top[25 - p] - 1)
    if info.cube_action is not CubeAction.NONE:
        dice = info.cube_action.value
    else:
        dice = f"{info.dice[0]}{info.dice[1]}"
    rules = int(info.crawford) if info.match_length else int(info.jacoby) + 2 * int(info.beaver)
    fields = [
        "".join(cells),
        _log2(info.cube_value, Reason.CUBE_POWER),
        info.cube_position,
        info.turn,
        dice,
        info.score_bottom,
        info.score_top,
        rules,
        info.match_length,
        _log2(info.max_cube, Reason.MAX_CUBE_POWER),
    ]
    return "XGID=" + ":".join(str(f) for f in fields)


def _count(char: str) -> int:
    return ord(char.lower()) - ord("a") + 1


def parse_xgid(text: str) -> XgidInfo:
    """Read an XGID (with or without ``XGID=``); raise :class:`NotationError` if malformed."""
    body = text.strip()
    if body[:5].upper() == "XGID=":
        body = body[5:]
    fields = body.split(":")
    if len(fields) != 10:
        raise NotationError(Reason.XGID_FIELDS, text=repr(text), count=len(fields))
    board, *numbers = fields
    dice_text = numbers.pop(3)
    if not all(_INT.fullmatch(f) for f in numbers):
        raise NotationError(Reason.XGID, text=repr(text), why=NotationError(Reason.WHOLE_FIELDS))
    cube_log2, cube_position, turn, score_bottom, score_top, rules, match_length, max_log2 = map(int, numbers)

    if not re.fullmatch(r"[-a-o][-A-Oa-o]{24}[-A-O]", board):
        raise NotationError(Reason.XGID, text=repr(text), why=NotationError(Reason.XGID_BOARD))
    bottom = [0] * 26
    top = [0] * 26
    top[BAR] = 0 if board[0] == "-" else _count(board[0])
    bottom[BAR] = 0 if board[25] == "-" else _count(board[25])
    for p in range(1, 25):
        char = board[p]
        if char.isupper():
            bottom[p] = _count(char)
        elif char.islower():
            top[25 - p] = _count(char)
    for too_many, side in ((Reason.BOTTOM_TOO_MANY, bottom), (Reason.TOP_TOO_MANY, top)):
        if sum(side) > CHECKERS:
            raise NotationError(Reason.XGID, text=repr(text), why=NotationError(too_many, checkers=CHECKERS))
        side[OFF] = CHECKERS - sum(side)

    if not _DICE.fullmatch(dice_text):
        raise NotationError(Reason.XGID, text=repr(text), why=NotationError(Reason.XGID_DICE, dice=repr(dice_text)))
    if dice_text.isdigit():
        dice, action = (int(dice_text[0]), int(dice_text[1])), CubeAction.NONE
    else:
        dice, action = (0, 0), CubeAction(dice_text)
    if not 0 <= cube_log2 <= 15 or not 0 <= max_log2 <= 15:
        raise NotationError(Reason.XGID, text=repr(text), why=NotationError(Reason.CUBE_FIELDS))
    if match_length > 0 and rules not in (0, 1) or match_length == 0 and rules not in (0, 1, 2, 3):
        raise NotationError(Reason.XGID, text=repr(text), why=NotationError(Reason.RULES_FIELD, rules=rules))

    info = XgidInfo(
        position=Position(tuple(bottom), tuple(top)),
        turn=turn,
        dice=dice,
        cube_action=action,
        cube_value=1 << cube_log2,
        cube_position=cube_position,
        score_bottom=score_bottom,
        score_top=score_top,
        crawford=bool(match_length and rules),
        jacoby=bool(not match_length and rules & 1),
        beaver=bool(not match_length and rules & 2),
        match_length=match_length,
        max_cube=1 << max_log2,
    )
    try:
        _check(info)
        info.position.validated()
    except (NotationError, InvalidPosition) as exc:
        raise NotationError(Reason.XGID, text=repr(text), why=exc) from exc
    if turn == TOP:  # the engine sees the board from the player on roll
        info = replace(info, position=info.position.swap())
    return info
