"""Exceptions the engine raises when a command breaks a rule.

Every message is meant for a person at the board: it names the rule that was
broken, e.g. ``6/off is not legal: a checker stands on the 9 point``.
"""


class EngineError(Exception):
    """Base class: the command was refused and the state is unchanged."""


class IllegalMove(EngineError):
    """The checker play breaks a rule of movement."""


class NotYourTurn(EngineError):
    """The player acted out of turn."""


class CubeNotAvailable(EngineError):
    """Doubling is not allowed now (Crawford game, opponent owns the cube...)."""


class InvalidAction(EngineError):
    """The action does not fit the state of the game (e.g. move before rolling)."""


class MatchOver(EngineError):
    """The match is finished; nothing more can be played."""


class InvalidPosition(EngineError):
    """A position that cannot occur in backgammon (wrong checker count...)."""


class NotationError(EngineError):
    """Text that cannot be read as a move, ID or file."""
