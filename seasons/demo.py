"""The demo's season (``manage.py load_demo`` calls :func:`load`, named in ``settings.DEMO_EXTRAS``): four past
club nights of different formats, reported on paper through the tournament services, counted in a season whose
rule changed from a date, and the club's current night (still at the board) counted too."""

from __future__ import annotations

import random
from datetime import date

from eventlog import projections
from eventlog.tasks import one_wake_up
from tournaments import services as events
from tournaments.models import Tournament
from tournaments.selectors import tournament_data

from . import services

NIGHTS = [  # (name, date, format, settings)
    ("September open", date(2026, 9, 3), "single_elimination",
     {"consolation": True, "lengths": {"main": {"default": 5}, "consolation": {"default": 3}}}),
    ("Swiss evening", date(2026, 9, 17), "swiss", {"rounds": 3, "lengths": {"rounds": {"default": 5}}}),
    ("Round robin six", date(2026, 10, 1), "round_robin", {"lengths": {"rounds": {"default": 3}}}),
    ("Double trouble", date(2026, 10, 15), "double_elimination", {}),
]
# master points by place and field size, a consolation win worth half a main one, a point for coming; best 3
RULE_V1 = {"components": [
    {"kind": "placement", "table": [{"min_field": 4, "points": [4, 2, 1]}, {"min_field": 8, "points": [8, 5, 3, 3]}]},
    {"kind": "match_wins", "per_win": 1, "brackets": {"consolation": 0.5}},
    {"kind": "attendance", "points": 1},
], "best": 3}
# from October: match wins count double
RULE_V2 = {"components": RULE_V1["components"][:1] + [
    {"kind": "match_wins", "per_win": 2, "brackets": {"consolation": 0.5}},
    {"kind": "attendance", "points": 1},
], "best": 3}


def load(*, director, club, players, event=None, rnd: random.Random | None = None, **_) -> str:
    """Play the past nights on paper, open the season, count them (and ``event``, the club night in progress)."""
    with one_wake_up():  # each night is settled here (run_all, then the process manager's advance), not per command
        return _load(director, club, players, event, rnd or random.Random(15))


def _load(director, club, players, event, rnd: random.Random) -> str:
    ids = [p.pk for p in players]
    nights = []
    for name, day, fmt, settings in NIGHTS:
        field = ids if fmt != "round_robin" else rnd.sample(ids, 6)
        night = events.tournament_create(actor=director, name=name, format=fmt, club=club, settings=settings)
        Tournament.objects.filter(pk=night.pk).update(starts_on=day)
        for p in field:
            events.tournament_command(actor=director, tournament=night, command={"type": "enter", "player": p})
        events.tournament_command(actor=director, tournament=night, command={"type": "draw", "method": "manual",
                                                                             "seeds": rnd.sample(field, len(field))})
        _on_paper(director, night, rnd)
        nights.append((night, day))
    season = services.season_open(actor=director, name="Club season 2026", club=club, rule=RULE_V1,
                                  effective_from=date(2026, 9, 1))
    services.season_set_rule(actor=director, season=season, rule=RULE_V2, effective_from=date(2026, 10, 1))
    for night, day in nights:
        services.season_add_event(actor=director, season=season, tournament=night, on=day)
    if event is not None:
        services.season_add_event(actor=director, season=season, tournament=event, on=date(2026, 11, 26))
    projections.run_all()
    return f"season '{season.name}' of {len(nights) + (event is not None)} events at /seasons/{season.pk}/"


def _on_paper(director, night, rnd: random.Random) -> None:
    """Every ready slot reported on paper (a random winner) until the night has its winner."""
    for _ in range(100):
        projections.run_all()
        if events.tournament_advance(night):
            continue
        data = tournament_data(night)
        if data["winner"] is not None:
            return
        for s in data["slots"]:
            if s["status"] == "ready" and None not in s["players"]:
                events.tournament_command(actor=director, tournament=night, command={
                    "type": "report_result", "slot": s["key"], "winner": rnd.choice(s["players"]),
                    "score": [s["length"], rnd.randrange(s["length"])]})
    raise RuntimeError(f"the demo night {night.name} did not finish")
