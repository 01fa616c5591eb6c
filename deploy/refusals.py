"""The refusals' catalogue: every reason any layer gives, said in the reader's language at the edge.

A refusal is data: a stable ``code`` (what API clients tell apart), a ``reason`` (a member of one of the layers'
reason enums below: exactly which rule) and its ``params`` (names, points, dice; a nested reason is itself a
refusal). Each layer is pure Python and writes its reasons in English (``str(exc)``); a reason's value is its
English template, marked for the translators' catalogue where the layer declares it. Here a refusal is said in the
active language: its template translated, its parameters filled in (a nested refusal said the same way).
The code never changes with the language: programs read it, people read the text.
"""

from __future__ import annotations

from enum import Enum

from django.utils.translation import gettext

from eventlog.refusals import Reason as LogReason
from games.engine.errors import Reason as EngineReason
from players.identity import Reason as MergeReason
from seasons.decider import Reason as SeasonReason
from seasons.scoring import Reason as RuleReason
from tournaments.formats.core import Reason as FormatReason
from tournaments.refusals import Reason as TournamentReason

from .refusal_messages import translated

# every layer's reasons: the catalogue is their union, one English template per reason
REASONS: tuple[type[Enum], ...] = (LogReason, MergeReason, EngineReason, FormatReason, TournamentReason,
                                    SeasonReason, RuleReason)


def catalogue() -> dict[Enum, str]:
    """Every reason of every layer, with its English template."""
    return {reason: reason.value for enum in REASONS for reason in enum}


def said(refusal: Exception, code: str | None = None) -> str:
    """``refusal`` (coded ``code``, else as the API codes it) in the active language."""
    if is_data(refusal) and _said_whole(refusal):
        return _written(refusal)
    if code is None:
        from .api_errors import code_of_refusal  # the API's table of codes, which says refusals with this

        code = code_of_refusal(refusal)
    return translated(code, str(refusal) or code)


def is_data(refusal) -> bool:
    """A refusal that carries its reason and parameters (not only a text)."""
    return isinstance(getattr(refusal, "reason", None), REASONS)


def _said_whole(refusal) -> bool:
    """Every nested refusal is data too (a text only would leave English inside the reader's sentence)."""
    return all(_said_whole(value) if is_data(value) else not isinstance(value, Exception)
               for value in refusal.params.values())


def _written(refusal) -> str:
    params = {name: _written(value) if is_data(value) else value for name, value in refusal.params.items()}
    return gettext(refusal.reason.value) % params
