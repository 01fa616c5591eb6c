"""The platform's refusals of a match command (the engine's own are in :mod:`games.engine.errors`).

Each carries a stable ``code`` that API clients receive as ``"code"``: the
exception's name in snake_case, as it always was, so no client breaks.
"""

from __future__ import annotations

from enum import StrEnum


class PlatformErrorCode(StrEnum):
    """Why the platform (not the rules) refused: what a client can tell apart without reading the text."""

    BAD_COMMAND = "bad_command"
    NOT_FOUND = "not_found"
    NOT_REPRESENTABLE = "not_representable"


class BadCommand(ValueError):
    """A command the API cannot read (missing field, wrong type): HTTP 400."""

    code = PlatformErrorCode.BAD_COMMAND


class MatchNotFound(LookupError):
    """No match with that id (or none this user may see): HTTP 404."""

    code = PlatformErrorCode.NOT_FOUND
