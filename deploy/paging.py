"""Moved to apikit.paging: the apps import it from there (deploy is the composition root, imported by no app).

Kept while games/api/views.py and tournaments/api.py still say ``from deploy import paging``; the "layers"
import contract fails until they import ``apikit.paging``, and then this module goes.
"""

from apikit.paging import (  # noqa: F401
    PAGE_PARAMETERS, AnonymousThrottle, UserThrottle, limit_of, next_link, number_of, page,
)
