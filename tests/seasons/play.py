"""Events of a season run to their end through the tournament services (results on paper, the process
manager pairing and creating what follows), and the season table recomputed straight from what the events
publish (their standings and slots, kept by the tournaments' own projection), with the pure scoring rules."""

from __future__ import annotations

import random
from datetime import date

from seasons import decider, scoring
from seasons.models import Season
from seasons.selectors import season_data
from tournaments import services
from tournaments.selectors import tournament_data, tournament_facts

FLIGHTS = ("", "main")


def new_event(director, name: str, fmt: str, players: list[int], **settings):
    t = services.tournament_create(actor=director, name=name, format=fmt, settings=settings)
    for p in players:
        services.tournament_command(actor=director, tournament=t, command={"type": "enter", "player": p})
    services.tournament_command(actor=director, tournament=t, command={"type": "draw", "method": "manual",
                                                                       "seeds": players})
    return t


def play_on_paper(director, t, settle, rnd: random.Random) -> dict:
    """Report every ready slot on paper (a random winner) until the event has its winner."""
    from tests.waiting import wait_for

    def ready_of(data) -> list:
        return [s for s in data["slots"] if s["status"] == "ready" and None not in s["players"]]

    def moved_on():  # a next round is paired by the worker's own task, which may come after the settle
        data = settle()
        return data if data["winner"] is not None or ready_of(data) else None

    data = settle()
    for _ in range(200):
        if data["winner"] is None and not ready_of(data):
            data = wait_for(moved_on, what=f"{t.name}: something to play or a winner")
        if data["winner"] is not None:
            return data
        ready = ready_of(data)
        for s in ready:
            winner = rnd.choice(s["players"])
            services.tournament_command(actor=director, tournament=t, command={
                "type": "report_result", "slot": s["key"], "winner": winner, "score": [s["length"], rnd.randint(0, s["length"] - 1)]})
        data = settle()
    raise AssertionError(f"{t.name} did not finish")


def recomputed(season: Season) -> list[dict]:
    """The season's table computed straight: its stream folded, each event's published standings and slots,
    the pure rules. Rows as ``season_data`` gives them (without names)."""
    from eventlog import store

    state = decider.fold((e.event_type, e.payload) for e in store.read_stream(decider.stream_id_of(season.pk)))
    events = []
    from tournaments.models import Tournament

    for pk, on in state.events.items():
        tournament = Tournament.objects.get(pk=pk)
        data, facts = tournament_data(tournament), tournament_facts(tournament)  # rated or not: the stream's facts
        if data["winner"] is None or not facts.event_rated or not facts.published:
            continue
        rows = [r for r in data["standings"] if r["flight"] in FLIGHTS]
        wins: dict[int, list] = {}
        for s in data["slots"]:
            if s["winner"] is not None:
                wins.setdefault(s["winner"], []).append(
                    scoring.Win(s["bracket"], s["round"], s["forfeit"], facts.slot_rated(s["key"])))
        events.append(scoring.EventResult(pk, on, len(rows), tuple(
            scoring.Finish(r["player_id"], r["rank"], tuple(wins.get(r["player_id"], []))) for r in rows)))
    return [{"rank": r.rank, "player_id": r.player, "total": r.total,
             "scores": [{"tournament_id": s.event, "points": s.points, "rule_version": s.version, "counted": s.counted}
                        for s in sorted(r.scores, key=lambda s: (state.events[s.event], s.event))]}
            for r in scoring.table(events, state.versions)]


def projected(season: Season) -> list[dict]:
    return [{k: v for k, v in row.items() if k not in ("name", "events")} for row in season_data(season)["table"]]


USBGF = {"kind": "placement", "table": [
    {"min_field": 4, "points": [3, 2, 1]},
    {"min_field": 8, "points": [6, 4, 2, 2, 1, 1, 1, 1]},
    {"min_field": 16, "points": [12, 8, 5, 5, 2, 2, 2, 2]},
]}
RULE_V1 = {"components": [USBGF, {"kind": "match_wins", "per_win": 1, "brackets": {"consolation": 0.5}},
                          {"kind": "attendance", "points": 1}], "best": 2}
RULE_V2 = {"components": [USBGF, {"kind": "match_wins", "per_win": 2, "brackets": {"consolation": 0.5},
                                  "rounds": {"4": 2}}], "best": 2}
START = date(2026, 1, 1)


def riverside_season(director) -> Season:
    """The demo's season (seasons/demo.py) for a club "Riverside" of eight members that ``director`` directs."""
    from players.models import Club, Player
    from seasons import demo

    club = Club.objects.create(name="Riverside")
    club.directors.add(director)
    players = [Player.objects.create(display_name=n, club=club) for n in
               ("Ada", "Bruno", "Chloé", "Dimitri", "Eva", "Farid", "Greta", "Hugo")]
    demo.load(director=director, club=club, players=players, rnd=random.Random(3))
    return Season.objects.get()


def riverside_season_once(django_db_blocker):
    """A module fixture's body: :func:`riverside_season` played once (seconds of results on paper, its tasks run in
    the process), its director "dora", in a transaction the module rolls back (tests.conftest.built_once)."""
    from django.contrib.auth import get_user_model

    from deploy.celery import app
    from tests.conftest import built_once

    def build():
        was, app.conf.task_always_eager = app.conf.task_always_eager, True
        try:
            return riverside_season(get_user_model().objects.create_user("dora", password="pw-dora"))
        finally:
            app.conf.task_always_eager = was

    yield from built_once(django_db_blocker, build)
