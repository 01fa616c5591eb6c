"""The event log's refusals as data: a reason (whose value is the English template) and its parameters.

The apps above say them in the reader's language from the refusals' catalogue (deploy/refusals.py), as they say
their own; ``str(exc)`` is the English. ``players`` builds its refusals on :class:`Refusal` too.
"""

from __future__ import annotations

from enum import Enum


def gettext_noop(message: str) -> str:
    """``message`` as it is: the call marks it for the translators' catalogue (gettext's tools extract it)."""
    return message


class Reason(Enum):
    """Exactly why the log refuses: the member's name says it, its value is the English template."""

    MATCH_CHANGED_SENT = gettext_noop("the match has changed: you sent version %(sent)s but it is at version "
                                      "%(now)s; reload and try again")
    MATCH_CHANGED = gettext_noop("the match has changed: it is at version %(now)s; reload and try again")
    EVENT_CHANGED_SENT = gettext_noop("the event has changed: you sent version %(sent)s but it is at version "
                                      "%(now)s; reload and try again")
    EVENT_CHANGED = gettext_noop("the event has changed: it is at version %(now)s; reload and try again")
    NUL_CHARACTER = gettext_noop("%(where)s contains a NUL character (\\u0000), which cannot be stored")
    KEY_TOO_LONG = gettext_noop("an Idempotency-Key is at most %(most)s printable characters")
    KEY_IN_USE = gettext_noop("the Idempotency-Key %(key)s is in use by another command right now")
    KEY_USED = gettext_noop("the Idempotency-Key %(key)s was already used for a different command")


class Refusal(Exception):
    """``Refusal(reason, **params)``: its text the reason's template filled in (English). A text instead of a
    reason is kept as it is (``reason`` is then None)."""

    def __init__(self, reason: Enum | str, /, **params):
        self.reason = reason if isinstance(reason, Enum) else None
        self.params = params
        super().__init__(reason.value % params if isinstance(reason, Enum) else reason)
