"""Crawford's backgammon rules engine: pure Python, no Django.

The face is small, in the manner of python-chess::

    >>> from games.engine import Position, legal_moves, play
    >>> start = Position.start()
    >>> len(legal_moves(start, (3, 1)))
    16
    >>> str(play(start, (3, 1), "8/5 6/5"))
    '8/5 6/5'
"""

from .board import Position, may_bear_off, pip_count
from .errors import (
    CubeNotAvailable,
    EngineError,
    ErrorCode,
    IllegalMove,
    InvalidAction,
    InvalidPosition,
    MatchOver,
    NotationError,
    NotYourTurn,
    Reason,
)
from .events import Outcome
from .match import is_crawford_game, may_double
from .moves import Play, Step, legal_moves, play
from .notation import format_move, parse_move

__all__ = [
    "CubeNotAvailable",
    "EngineError",
    "ErrorCode",
    "IllegalMove",
    "InvalidAction",
    "InvalidPosition",
    "MatchOver",
    "NotationError",
    "NotYourTurn",
    "Outcome",
    "Reason",
    "Play",
    "Position",
    "Step",
    "format_move",
    "is_crawford_game",
    "legal_moves",
    "may_bear_off",
    "may_double",
    "parse_move",
    "pip_count",
    "play",
]
