"""Who may run events and officiate matches: one rule for the API, the services, the admin and the pages.

``is_staff`` only opens the admin's door; by itself it gives no power over any event or match, so a
club can make its directors staff without handing each of them every other club's events. Power comes
from one of:

- directing the event: its director runs it and officiates its matches;
- the ``players.officiate`` permission (the "Officials" group; superusers hold every permission):
  the federation's officials, who run every event and officiate every match;
- for creating events under a club's name (and so with its rating rule): being one of its directors.
"""

from __future__ import annotations

OFFICIATE = "players.officiate"
OFFICIALS_GROUP = "Officials"


def _signed_in(user) -> bool:
    return bool(user is not None and user.is_authenticated and user.is_active)


def officiates_everything(user) -> bool:
    """A federation official: runs every event, officiates every match (casual ones included)."""
    return _signed_in(user) and user.has_perm(OFFICIATE)


def runs_event(user, director_id: int | None) -> bool:
    """The event's director or an official."""
    directs = director_id is not None and director_id == user.pk
    return _signed_in(user) and (directs or officiates_everything(user))


def may_create_event(user, club=None) -> bool:
    """Anyone signed in may run an event of their own; under a club's name only its directors and officials."""
    if not _signed_in(user):
        return False
    if club is None:
        return True
    return officiates_everything(user) or club.directors.filter(pk=user.pk).exists()
