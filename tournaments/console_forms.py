"""What every form of the console shares: its refusal, and how it reads a number a director typed."""

from __future__ import annotations

from django.utils.translation import gettext as _


class FormRefused(ValueError):
    """A form that does not say a whole command (nothing is assumed: no winner, no score, no table)."""


def whole_number(text: str, what: str) -> int:
    """The whole number ``text`` says, 0 or more; refused in the director's words, naming ``what``."""
    try:
        value = int(text.strip())
    except ValueError:
        raise FormRefused(_("%(what)s must be a whole number: nothing was recorded.") % {"what": what}) from None
    if value < 0:
        raise FormRefused(_("%(what)s cannot be negative: nothing was recorded.") % {"what": what})
    return value
