"""Who may run events and officiate matches: one rule for the API, the services, the admin and the pages.

``is_staff`` only opens the admin's door; by itself it gives no power over any event or match, so a
club can make its directors staff without handing each of them every other club's events. Power comes
from one of:

- directing the event: its director runs it and officiates its matches;
- the ``players.officiate`` permission (the "Officials" group; superusers hold every permission):
  the federation's officials, who run every event and officiate every match;
- being named, by whoever created the match, as its officiating director (recorded in the match's stream:
  this module answers from that record, never by looking up the event the match belongs to);
- for creating events under a club's name (and so with its rating rule): being one of its directors;
  without a club's name, a member creates a (limited) casual event only where the site allows it.
"""

from __future__ import annotations

from django.conf import settings

OFFICIATE = "players.officiate"
OFFICIALS_GROUP = "Officials"


def _signed_in(user) -> bool:
    return bool(user is not None and user.is_authenticated and user.is_active)


# What the API's token authentication or a session's backend learnt of its user in the query that read it
# (players/authentication.py), kept on the user object it made, which lives as long as the request. Other users
# (one just signed in, a service's caller) are asked as before: the permission through Django (which keeps it on the
# object), the player by a query, since a caller may link a player to a user object it holds between two calls.
_PLAYER = "_crawford_player_id"
_OFFICIATES = "_crawford_officiates"
_UNKNOWN = object()


def remember(user, *, player_id: int | None, officiates: bool) -> None:
    """Keep on ``user`` (an active user just read with these facts) which player they are and whether they
    hold the officials' permission. Only the ModelBackend (Django's, as ``players.authentication`` reads its
    users) grants permissions here (the other backend, axes, only counts failed logins), so its rule is the
    whole answer: a superuser, or the permission held directly or through a group."""
    setattr(user, _PLAYER, player_id)
    setattr(user, _OFFICIATES, bool(officiates))


def officiates_everything(user) -> bool:
    """A federation official: runs every event, officiates every match (casual ones included)."""
    if not _signed_in(user):
        return False
    known = getattr(user, _OFFICIATES, None)
    return user.has_perm(OFFICIATE) if known is None else known


def runs_event(user, director_id: int | None) -> bool:
    """The event's director or an official."""
    directs = director_id is not None and director_id == user.pk
    return _signed_in(user) and (directs or officiates_everything(user))


def officiates_match(user, officiating_director_id: int | None) -> bool:
    """May ``user`` record for either player of a match and correct or void it? The director its stream names
    (``officiating_director_id``, a user id) and the officials; a match that names none, the officials only."""
    return runs_event(user, officiating_director_id)


def seat_in_match(user, player_ids) -> int | None:
    """0 or 1 if ``user`` plays in the match whose stream names these players (player ids, by seat); else None."""
    if not _signed_in(user):
        return None
    player = player_id_of(user)
    if player is None:
        return None
    return next((seat for seat, pid in enumerate(player_ids) if pid == player), None)


def player_id_of(user) -> int | None:
    """The id of the player whose account ``user`` is (None: none)."""
    player = getattr(user, _PLAYER, _UNKNOWN)
    if player is _UNKNOWN:
        from players.models import Player  # the models load after this module: looked up when asked

        player = Player.objects.filter(user=user).values_list("pk", flat=True).first()
    return player


def may_create_event(user, club=None) -> bool:
    """Under a club's name: its directors and officials. Without one: officials, and members only when the site
    allows casual events (``CASUAL_EVENTS``; such an event is limited, see :func:`casual_event`)."""
    if not _signed_in(user):
        return False
    if officiates_everything(user):
        return True
    if club is None:
        return settings.CASUAL_EVENTS
    return club.directors.filter(pk=user.pk).exists()


def casual_event(user, club=None) -> bool:
    """An event a member creates for themselves (no club's name, not an official): it gets the casual limits."""
    return club is None and not officiates_everything(user)


def reviews_fair_play(user, player_id: int) -> bool:
    """Who reads a player's fair-play review: the officials, and the director of an event the player entered (as
    :func:`runs_event` says who runs it), never another director's players. Which events a player entered is the
    events' to say (``settings.EVENT_ENTRANTS_PROVIDER``, named by the composition root)."""
    if not _signed_in(user):
        return False
    if officiates_everything(user):
        return True
    from django.utils.module_loading import import_string

    return bool(import_string(settings.EVENT_ENTRANTS_PROVIDER)(user.pk, player_id))


MERGE_PLAYERS = "players.change_player"


def may_merge_players(user) -> bool:
    """Who may say two entries are one person: whoever may change players (the admin's merge action asks the same)."""
    return _signed_in(user) and user.has_perm(MERGE_PLAYERS)
