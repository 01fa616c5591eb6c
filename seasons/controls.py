"""The season's director's controls on its page, and "Open a season" on /seasons/: the forms read, each sent
through ``seasons/services.py`` (the API's rule of who may, the same refusals); what the forms offer."""

from __future__ import annotations

import json

from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext as _

from players import authority
from players.models import Club
from tournaments.models import Tournament

from . import services
from .decider import KINDS, Reason, SeasonError, SeasonRefusal
from .models import Season

MAX_RULE_CHARS = 20_000


def candidate_events(user, season: Season, data: dict):
    """Events the season may take (its club's, or without a club those the user directs), not in it yet."""
    inside = [e["tournament_id"] for e in data["events"]]
    where = Q(club_id=season.club_id) if season.club_id else Q(director=user)
    return Tournament.objects.filter(where).exclude(pk__in=inside).order_by("-starts_on", "-pk")[:200]


def current_rule_text(data: dict) -> str:
    return json.dumps(data["rules"][-1]["rule"], indent=2) if data["rules"] else ""


def clubs_directed(user):
    """The clubs under whose name the user may open a season (all of them for an official)."""
    if not getattr(user, "is_authenticated", False):
        return Club.objects.none()
    return Club.objects.all() if authority.officiates_everything(user) else Club.objects.filter(directors=user)


def _id(text: str, unchosen: Reason) -> int:
    try:
        return int(text)
    except (TypeError, ValueError):
        raise SeasonError(SeasonRefusal.BAD_SEASON_COMMAND, unchosen) from None


def season_action(*, actor, season: Season, post) -> str:
    """One of the page's forms, sent through the services; returns what was done. Refusals: ``SeasonError``
    (shown, nothing changed), ``PermissionDenied`` (403)."""
    action = post.get("action", "")
    if action == "add_event":
        tournament = Tournament.objects.filter(pk=_id(post.get("tournament"), Reason.CHOOSE_EVENT)).first()
        if tournament is None:
            raise SeasonError(SeasonRefusal.BAD_SEASON_COMMAND, Reason.NO_SUCH_EVENT)
        services.season_add_event(actor=actor, season=season, tournament=tournament, on=post.get("on") or None)
        return _("%(name)s is in the season.") % {"name": tournament.name}
    if action == "remove_event":
        services.season_remove_event(actor=actor, season=season, tournament_id=_id(post.get("tournament"), Reason.CHOOSE_EVENT))
        return _("The event is out of the season.")
    if action == "set_rule":
        text = post.get("rule", "")
        if len(text) > MAX_RULE_CHARS:
            raise SeasonError(SeasonRefusal.BAD_RULE, Reason.RULE_TOO_LONG, n=MAX_RULE_CHARS)
        try:
            rule = json.loads(text)
        except ValueError as bad:
            raise SeasonError(SeasonRefusal.BAD_RULE, Reason.RULE_NOT_JSON, why=str(bad)) from None
        services.season_set_rule(actor=actor, season=season, rule=rule,
                                 effective_from=post.get("effective_from") or timezone.localdate())
        return _("A new version of the rule is set.")
    raise SeasonError(SeasonRefusal.BAD_SEASON_COMMAND, Reason.UNKNOWN_ACTION)


def open_from_form(*, actor, post) -> Season:
    """A season (or series) under a club's name, for its directors and officials."""
    club = Club.objects.filter(pk=_id(post.get("club"), Reason.CHOOSE_CLUB)).first()
    if club is None:
        raise SeasonError(SeasonRefusal.BAD_SEASON_COMMAND, Reason.NO_SUCH_CLUB)
    kind = post.get("kind") if post.get("kind") in KINDS else "season"
    return services.season_open(actor=actor, name=post.get("name", "").strip(), kind=kind, club=club)
