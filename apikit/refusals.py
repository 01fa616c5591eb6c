"""A refusal in the reader's language, for the pages of every app: the refusals' catalogue lives above the apps
(``settings.REFUSAL_TEXT`` names it), so an app's view says a refusal without importing the composition root."""

from __future__ import annotations

from functools import lru_cache

from django.conf import settings
from django.utils.module_loading import import_string


def refusal_text(refused: Exception) -> str:
    """``refused`` said in the active language: by its reason and parameters, else by its stable code."""
    return _said(settings.REFUSAL_TEXT)(refused) if settings.REFUSAL_TEXT else str(refused)


@lru_cache(maxsize=4)
def _said(path: str):
    return import_string(path)
