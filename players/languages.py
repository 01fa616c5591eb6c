"""A player's preferred language: the one the site writes to them in (the e-mail telling them where to play),
the site's own (``settings.LANGUAGE_CODE``) when they never said.

It is set by the language switch when they are logged in, by a column of the club's member list in the director's
console, and through the API (``/api/players/me/``); the site's login brings it back on any device (players/views.py).
"""

from __future__ import annotations

from django.conf import settings
from django.utils.translation import get_language_info

from .models import Player


def language_code(text: str) -> str | None:
    """The site's code for a language as a person or a spreadsheet writes it ("fr", "FR", "fr-FR", "Français",
    "french"), or None when the site does not speak it."""
    wanted = (text or "").strip().casefold().replace("_", "-")
    if not wanted:
        return None
    for code, name in settings.LANGUAGES:
        info = get_language_info(code)
        names = {code.casefold(), name.casefold(), info["name"].casefold(), info["name_local"].casefold()}
        if wanted in names or wanted.split("-")[0] == code.casefold():
            return code
    return None


def preferred_language(player: Player) -> str:
    """What to write to ``player`` in: their choice, else the site's language."""
    return language_code(player.language) or settings.LANGUAGE_CODE
