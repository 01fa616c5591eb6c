"""The demo's ladder and league (``manage.py load_demo`` calls :func:`load`): what a newcomer sees at once.

Run through the same services as the API and the run page: a challenge ladder of the demo club's members
with challenges won, defended, refused and one still open (its match waiting at the board), and a league
of two divisions a round into its season. Results are given on paper, as a club's director records them.
"""

from __future__ import annotations

from django.db import transaction

from eventlog import projections

from . import services
from .selectors import tournament_data


def load(*, director, club, players) -> None:
    ladder = _event(director, club, players, "Club ladder", "ladder",
                    {"reach": 3, "challenge_days": 14, "lengths": {"rounds": {"default": 5}}})
    p = [player.pk for player in players]
    for challenger, defender, outcome in ((7, 5, "challenger"), (3, 1, "defender"), (6, 4, "declined"),
                                          (2, 0, None)):
        if outcome == "declined":  # declined at once, in the same transaction: no match is created for it
            with transaction.atomic():
                _send(director, ladder, type="issue_challenge", challenger=p[challenger], defender=p[defender],
                      settle=False)
                number = max(services.tournament_facts(ladder).challenges)
                _send(director, ladder, type="decline_challenge", number=number, reason="away this fortnight",
                      settle=False)
            _advance(ladder)
            continue
        _send(director, ladder, type="issue_challenge", challenger=p[challenger], defender=p[defender])
        number = max(services.tournament_facts(ladder).challenges)
        if outcome:
            winner = p[challenger] if outcome == "challenger" else p[defender]
            _send(director, ladder, type="report_result", slot=f"ladder:c{number}", winner=winner, score=[5, 2])
    league = _event(director, club, players, "Winter league", "league",
                    {"division_size": 4, "round_days": 7, "promote": 1, "relegate": 1,
                     "lengths": {"rounds": {"default": 7}}})
    for slot in tournament_data(league)["slots"]:
        if slot["round"] == 1 and slot["status"] == "ready":
            _send(director, league, type="report_result", slot=slot["key"], winner=slot["players"][0], score=[7, 4])


def _event(director, club, players, name: str, fmt: str, settings: dict):
    event = services.tournament_create(actor=director, name=name, format=fmt, club=club, settings=settings)
    services.tournament_publish(actor=director, tournament=event, published=True)
    for player in players:
        _send(director, event, type="enter", player=player.pk, settle=False)
    _send(director, event, type="draw", method="manual", seeds=[player.pk for player in players])
    return event


def _send(director, event, settle: bool = True, **command) -> None:
    services.tournament_command(actor=director, tournament=event, command=command)
    if settle:
        _advance(event)


def _advance(event) -> None:
    """The process manager's part: the matches of what became playable."""
    projections.run_all()
    services.tournament_advance(event)
    projections.run_all()
