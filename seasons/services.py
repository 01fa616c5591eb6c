"""The director's commands to a season: open it, add and remove events, set the scoring rule from a date.

Each loads the season's stream, lets the decider (``seasons/decider.py``) judge the command and appends its
events at the version it read (a concurrent writer gets ``ConcurrencyError``, HTTP 409). Who may: as for
events, a club's directors (under its name) and the officials; the season's director runs it after.
"""

from __future__ import annotations

from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.utils import timezone

from eventlog import store
from eventlog.store import NewEvent
from eventlog.tasks import wake_projections
from players import authority
from players.models import Player
from tournaments.models import Tournament

from . import decider, results
from .decider import Reason, SeasonError, SeasonRefusal
from .models import Season


def season_state(season: Season) -> decider.SeasonState:
    rows = store.read_stream(decider.stream_id_of(season.pk))
    return decider.fold((e.event_type, e.payload) for e in rows)


def may_run(user, season: Season) -> bool:
    """The season's director, an official, or a director of the season's club."""
    if authority.runs_event(user, season.director_id):
        return True
    return bool(season.club_id and getattr(user, "is_authenticated", False)
                and season.club.directors.filter(pk=user.pk).exists())


def _append(season: Season, expected: int, decided, actor) -> int:
    store.append(stream_id=decider.stream_id_of(season.pk), stream_type=decider.STREAM_TYPE,
                 expected_version=expected, events=[NewEvent(t, p) for t, p in decided],
                 metadata={"actor": getattr(actor, "pk", None)}, on_commit=wake_projections)
    return expected + len(decided)


def season_open(*, actor, name: str, kind: str = "season", club=None, rule: dict | None = None,
                effective_from=None) -> Season:
    """A new season (or series), with its first rule when one is given."""
    if not authority.may_create_event(actor, club):
        raise PermissionDenied("only officials, and a club's directors under its name, may open a season")
    max_name = Season._meta.get_field("name").max_length
    if not isinstance(name, str) or not name.strip() or len(name) > max_name:
        raise SeasonError(SeasonRefusal.BAD_SEASON_COMMAND, Reason.SEASON_NAME, most=max_name)
    if kind not in decider.KINDS:
        raise SeasonError(SeasonRefusal.BAD_SEASON_COMMAND, Reason.KIND, kinds=", ".join(decider.KINDS))
    state = decider.SeasonState()
    decided = [(decider.OPENED, {"name": name, "kind": kind, "club_id": getattr(club, "pk", None)})]
    if rule is not None:
        decided += decider.decide_rule(state, rule, effective_from)
    with transaction.atomic():
        season = Season.objects.create(name=name, kind=kind, club=club, director=actor)
        _append(season, 0, decided, actor)
    return season


def _checked(actor, season: Season, expected_version: int | None) -> decider.SeasonState:
    if not may_run(actor, season):
        raise PermissionDenied("only the season's director, its club's directors or an official may do this")
    state = season_state(season)
    if expected_version is not None and expected_version != state.version:
        raise store.ConcurrencyError(decider.stream_id_of(season.pk), expected_version, state.version)
    return state


def season_add_event(*, actor, season: Season, tournament: Tournament, on=None,
                     expected_version: int | None = None) -> int:
    """The event counts in the season from now on, on ``on`` (default: its start date, else today)."""
    state = _checked(actor, season, expected_version)
    if not (authority.runs_event(actor, tournament.director_id)
            or (tournament.club_id and tournament.club_id == season.club_id)):
        raise PermissionDenied("a season takes its club's events, or events its director runs")
    day = on or tournament.starts_on or timezone.localdate()
    return _append(season, state.version, decider.decide_add(state, tournament.pk, day), actor)


def season_remove_event(*, actor, season: Season, tournament_id: int, expected_version: int | None = None) -> int:
    state = _checked(actor, season, expected_version)
    return _append(season, state.version, decider.decide_remove(state, tournament_id), actor)


def season_set_rule(*, actor, season: Season, rule, effective_from, expected_version: int | None = None) -> int:
    """Version n+1 of the rule, from a date: the events dated on or after it are scored again."""
    state = _checked(actor, season, expected_version)
    return _append(season, state.version, decider.decide_rule(state, rule, effective_from), actor)


def season_add_chouette(*, actor, season: Season, chouette: str, players: dict, on=None,
                        expected_version: int | None = None) -> int:
    """The club counts a chouette night in the season (it opts in, night by night): its sheet's net points go to
    the players named for its names, scored by the rule's ``chouette`` and ``attendance`` components, on ``on``
    (default: today)."""
    state = _checked(actor, season, expected_version)
    try:
        sheet = results.chouette_sheet(chouette) if isinstance(chouette, str) else None
    except Exception:  # noqa: BLE001 - the provider's "no such chouette", whatever the app says it with
        sheet = None
    if sheet is None:
        raise SeasonError(SeasonRefusal.BAD_SEASON_COMMAND, Reason.NO_SUCH_CHOUETTE)
    ids = set(players.values()) if isinstance(players, dict) else set()
    if not ids or Player.objects.filter(pk__in=[i for i in ids if isinstance(i, int)]).count() != len(ids):
        raise SeasonError(SeasonRefusal.BAD_SEASON_COMMAND, Reason.CHOUETTE_PLAYERS)
    names = [name for name, _ in sheet.totals]
    decided = decider.decide_add_chouette(state, chouette, on or timezone.localdate(), players, names)
    return _append(season, state.version, decided, actor)


def season_remove_chouette(*, actor, season: Season, chouette: str, expected_version: int | None = None) -> int:
    state = _checked(actor, season, expected_version)
    return _append(season, state.version, decider.decide_remove_chouette(state, chouette), actor)
