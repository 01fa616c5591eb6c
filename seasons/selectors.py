"""Reads of seasons from their read models (kept by the ``season_tables`` projection)."""

from __future__ import annotations

from analysis.selectors import events_averages
from players.selectors import display_names
from tournaments.models import Tournament

from .models import Season, SeasonChouette, SeasonEvent, SeasonRule, SeasonScore, SeasonStanding, SeasonState


def season_rows():
    return Season.objects.values("id", "name", "kind", "club_id").order_by("-created_at", "pk")


def season_data(season: Season, *, with_hidden: bool = False) -> dict:
    """The season, its rule versions, its events and its table. A hidden event gives no points and is not named:
    it is listed (``published`` false) only ``with_hidden``, for those who run the season."""
    pk = season.pk
    state = SeasonState.objects.filter(season_id=pk).first()
    members = sorted(SeasonEvent.objects.filter(season_id=pk), key=lambda m: (m.on, m.tournament_id))
    if not with_hidden:
        members = [m for m in members if m.published]
    names = dict(Tournament.objects.filter(pk__in=[m.tournament_id for m in members]).values_list("pk", "name"))
    standings = list(SeasonStanding.objects.filter(season_id=pk).order_by("rank", "player_id"))
    players = display_names(s.player_id for s in standings)
    nights = sorted(SeasonChouette.objects.filter(season_id=pk), key=lambda n: (n.on, n.chouette_id))
    scores: dict[int, dict[int | str, SeasonScore]] = {}
    for score in SeasonScore.objects.filter(season_id=pk):
        scores.setdefault(score.player_id, {})[score.chouette_id or score.tournament_id] = score
    return {
        "id": pk, "name": season.name, "kind": season.kind, "club": season.club_id,
        "version": state.version if state else 0,
        "rules": [{"version": r.version, "effective_from": r.effective_from, "rule": r.rule}
                  for r in SeasonRule.objects.filter(season_id=pk).order_by("version")],
        "events": [{"tournament_id": m.tournament_id, "name": names.get(m.tournament_id, ""), "on": m.on,
                    "finished": m.finished, "rated": m.rated, "published": m.published, "field_size": m.field_size,
                    "rule_version": m.rule_version}
                   for m in members],
        "chouettes": [{"chouette_id": n.chouette_id, "on": n.on, "players": n.players, "games": n.games,
                       "rule_version": n.rule_version} for n in nights],
        "table": [
            {"rank": s.rank, "player_id": s.player_id, "name": players.get(s.player_id, ""), "total": s.total,
             "events": s.events,
             "scores": [{"tournament_id": m.tournament_id, "points": sc.points, "rule_version": sc.rule_version,
                         "counted": sc.counted}
                        for m in members if (sc := scores.get(s.player_id, {}).get(m.tournament_id))]
             + [{"tournament_id": None, "chouette_id": n.chouette_id, "points": sc.points,
                 "rule_version": sc.rule_version, "counted": sc.counted}
                for n in nights if (sc := scores.get(s.player_id, {}).get(n.chouette_id))]}
            for s in standings
        ],
    }


def table_grid(data: dict) -> list[dict]:
    """The page's table: one cell per published event of the season, in the events' order, then one per chouette
    night the club counts (None: did not play it)."""
    order = [e["tournament_id"] for e in data["events"] if e["published"]]
    order += [n["chouette_id"] for n in data.get("chouettes", ())]  # the chouette nights' columns after the events'
    grid = []
    for row in data["table"]:
        by_event = {s.get("chouette_id") or s["tournament_id"]: s for s in row["scores"]}
        grid.append({**row, "cells": [by_event.get(t) for t in order]})
    return grid


def analysis_figures(data: dict) -> list[dict]:
    """Each player's analysis figures over the analysed matches of the season's published events, pooled as the
    event page pools them (the total error over the total decisions), best first. A hidden event counts nowhere
    public, so its matches are left out here too, even for those who see it named."""
    return events_averages(e["tournament_id"] for e in data["events"] if e["published"])
