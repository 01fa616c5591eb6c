"""Exceptions the engine raises when a command breaks a rule.

Every message is meant for a person at the board: it names the rule that was
broken, e.g. ``6/off is not legal: a checker stands on the 9 point``.

Every exception also carries a stable :class:`ErrorCode` (``exc.code``), so a
program can tell "not your turn" from "cube dead" without reading the text.
The codes are the exceptions' names in snake_case, as API clients have always
received them:

>>> NotYourTurn("it is Ann's turn").code
<ErrorCode.NOT_YOUR_TURN: 'not_your_turn'>
>>> CubeNotAvailable.code == "cube_not_available"
True
"""

from enum import StrEnum


class ErrorCode(StrEnum):
    """Why the engine refused a command; one value per exception class below."""

    ENGINE_ERROR = "engine_error"
    ILLEGAL_MOVE = "illegal_move"
    NOT_YOUR_TURN = "not_your_turn"
    CUBE_NOT_AVAILABLE = "cube_not_available"
    INVALID_ACTION = "invalid_action"
    MATCH_OVER = "match_over"
    INVALID_POSITION = "invalid_position"
    NOTATION_ERROR = "notation_error"
    INVALID_MAT_FILE = "invalid_mat_file"


class EngineError(Exception):
    """Base class: the command was refused and the state is unchanged."""

    code: ErrorCode = ErrorCode.ENGINE_ERROR


class IllegalMove(EngineError):
    """The checker play breaks a rule of movement."""

    code = ErrorCode.ILLEGAL_MOVE


class NotYourTurn(EngineError):
    """The player acted out of turn."""

    code = ErrorCode.NOT_YOUR_TURN


class CubeNotAvailable(EngineError):
    """Doubling is not allowed now (Crawford game, opponent owns the cube...)."""

    code = ErrorCode.CUBE_NOT_AVAILABLE


class InvalidAction(EngineError):
    """The action does not fit the state of the game (e.g. move before rolling)."""

    code = ErrorCode.INVALID_ACTION


class MatchOver(EngineError):
    """The match is finished; nothing more can be played."""

    code = ErrorCode.MATCH_OVER


class InvalidPosition(EngineError):
    """A position that cannot occur in backgammon (wrong checker count...)."""

    code = ErrorCode.INVALID_POSITION


class NotationError(EngineError):
    """Text that cannot be read as a move, ID or file."""

    code = ErrorCode.NOTATION_ERROR
