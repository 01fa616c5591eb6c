"""The ``season_tables`` projection: every season's table, a function of the log.

It reads the seasons' streams (events added and removed, rule versions) and follows the tournaments' streams
(the published language's names, ``published/tournaments.py``): an event that changes re-derives what it gave
each player (its published finishes, ``seasons/results.py``) and every season that counts it is scored again
(``seasons/scoring.py``), so a correction of any result re-derives every table that depends on it. Like the
tournaments' view, it reads a stream as it stands (the projection runs after the appends it reads), so a live
run and a rebuild agree.
"""

from __future__ import annotations

from django.db import InterfaceError, OperationalError

from eventlog import store
from eventlog.projections import Projection, StreamFailed
from published import chouettes as chouette_events
from published import tournaments as tournament_events

from . import decider, results, scoring
from .models import EventFinishes, SeasonChouette, SeasonEvent, SeasonRule, SeasonScore, SeasonStanding, SeasonState

TOURNAMENT = tournament_events.STREAM_TYPE


class SeasonTablesProjection(Projection):
    name = "season_tables"
    digested = (SeasonState, SeasonEvent, SeasonChouette, SeasonRule, EventFinishes, SeasonScore, SeasonStanding)
    # any change of an event may change its finishes; a chouette night's sheet changes with each game it counts
    event_types = decider.EVENT_TYPES + tournament_events.EVENT_TYPES + chouette_events.SHEET_CHANGED_BY

    def apply(self, batch) -> None:
        seasons = dict.fromkeys(decider.season_pk_of(e.stream_id) for e in batch if e.stream_type == decider.STREAM_TYPE)
        for pk in seasons:
            _refresh_season(pk)
        counted = set(SeasonEvent.objects.values_list("tournament_id", flat=True).distinct())
        touched = {tournament_events.tournament_pk_of(e.stream_id) for e in batch if e.stream_type == TOURNAMENT}
        known = set(EventFinishes.objects.values_list("tournament_id", flat=True))
        changed = (touched & counted) | (counted - known)
        for pk in sorted(changed):
            try:
                finished, rated, published, size, finishes = results.finishes_of(pk)
            except (OperationalError, InterfaceError):
                raise
            except Exception as failure:  # noqa: BLE001 - the event's stream is at fault: set it aside
                raise StreamFailed(tournament_events.stream_id_of(pk)) from failure
            EventFinishes.objects.update_or_create(tournament_id=pk, defaults={
                "finished": finished, "rated": rated, "published": published, "field_size": size,
                "finishes": finishes})
        EventFinishes.objects.exclude(tournament_id__in=counted).delete()  # no season counts it any more
        if changed:
            seasons.update(dict.fromkeys(SeasonEvent.objects.filter(tournament_id__in=changed)
                                         .values_list("season_id", flat=True)))
        nights = {e.stream_id for e in batch if e.stream_type == chouette_events.STREAM_TYPE}
        if nights:
            seasons.update(dict.fromkeys(SeasonChouette.objects.filter(chouette_id__in=nights)
                                         .values_list("season_id", flat=True)))
        for pk in seasons:
            _score(pk)

    def reset(self) -> None:
        for model in (SeasonState, SeasonEvent, SeasonChouette, SeasonRule, EventFinishes, SeasonScore,
                      SeasonStanding):
            model.objects.all().delete()


def _refresh_season(pk: int) -> None:
    """The season's events and rule versions, from its stream."""
    state = decider.fold((e.event_type, e.payload) for e in store.read_stream(decider.stream_id_of(pk)))
    SeasonState.objects.update_or_create(season_id=pk, defaults={"version": state.version})
    kept = SeasonEvent.objects.filter(season_id=pk)
    kept.exclude(tournament_id__in=list(state.events)).delete()
    for tournament_id, on in state.events.items():
        SeasonEvent.objects.update_or_create(season_id=pk, tournament_id=tournament_id, defaults={"on": on})
    SeasonChouette.objects.filter(season_id=pk).exclude(chouette_id__in=list(state.chouettes)).delete()
    for chouette_id, night in state.chouettes.items():
        SeasonChouette.objects.update_or_create(season_id=pk, chouette_id=chouette_id,
                                                defaults={"on": night["on"], "players": night["players"]})
    SeasonRule.objects.filter(season_id=pk).delete()
    SeasonRule.objects.bulk_create(SeasonRule(season_id=pk, version=v.version, effective_from=v.effective_from,
                                              rule=v.rule) for v in state.versions)


def _score(pk: int) -> None:
    """The season's table from its events' finishes and its rule versions."""
    members = list(SeasonEvent.objects.filter(season_id=pk))
    finishes = {f.tournament_id: f for f in EventFinishes.objects.filter(tournament_id__in=[m.tournament_id for m in members])}
    versions = [scoring.Version(r.version, r.effective_from, r.rule) for r in SeasonRule.objects.filter(season_id=pk)]
    events = []
    for member in members:
        done = finishes.get(member.tournament_id)
        finished, rated = bool(done and done.finished), bool(done is None or done.rated)
        published = bool(done is None or done.published)
        counts = finished and rated and published  # a hidden event counts nowhere public until it is published
        version = scoring.version_on(versions, member.on) if counts else None
        member.finished, member.rated, member.field_size = finished, rated, done.field_size if finished else 0
        member.published = published
        member.rule_version = version.version if version else None
        if counts:
            events.append(results.event_result(member.tournament_id, member.on, done.field_size, done.finishes))
    SeasonEvent.objects.bulk_update(members, ["finished", "rated", "published", "field_size", "rule_version"])
    nights = list(SeasonChouette.objects.filter(season_id=pk))
    for night in nights:  # the club counts its sheet as it stands: each game on it, as it is recorded
        try:
            sheet = results.chouette_sheet(night.chouette_id)
        except (OperationalError, InterfaceError):
            raise
        except Exception as failure:  # noqa: BLE001 - the chouette's stream is at fault: set it aside
            raise StreamFailed(night.chouette_id) from failure
        version = scoring.version_on(versions, night.on)
        night.games, night.rule_version = sheet.games, version.version if version else None
        if sheet.games:
            events.append(results.chouette_result(sheet, night.on, night.players))
    SeasonChouette.objects.bulk_update(nights, ["games", "rule_version"])
    rows = scoring.table(events, versions)
    SeasonScore.objects.filter(season_id=pk).delete()
    SeasonStanding.objects.filter(season_id=pk).delete()
    SeasonScore.objects.bulk_create(
        SeasonScore(season_id=pk, tournament_id=None if isinstance(s.event, str) else s.event,
                    chouette_id=s.event if isinstance(s.event, str) else "", player_id=row.player, points=s.points,
                    rule_version=s.version, counted=s.counted)
        for row in rows for s in row.scores)
    SeasonStanding.objects.bulk_create(
        SeasonStanding(season_id=pk, player_id=row.player, rank=row.rank, total=row.total, events=len(row.scores))
        for row in rows)
