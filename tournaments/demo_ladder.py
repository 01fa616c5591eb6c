"""The demo's ladder and league (``manage.py load_demo`` calls :func:`load`): what a newcomer sees at once.

Run through the same services as the API and the console: a challenge ladder of the demo club's members
with challenges played, one refused and one still open (its match waiting at the board), and a league of
two divisions a round into its season. The matches are played by the demo's self-play, as the club
night's are, so each is analysed like them.
"""

from __future__ import annotations

from django.db import transaction

from eventlog import projections

from . import services
from .selectors import tournament_data


def load(*, director, club, players, play) -> None:
    """``play(match_id)``: the demo's self-play of a match to its end (its moves judged by the engine)."""
    ladder = _event(director, club, players, "Club ladder", "ladder",
                    {"reach": 3, "challenge_days": 14, "lengths": {"rounds": {"default": 3}}})
    p = [player.pk for player in players]
    for challenger, defender, outcome in ((7, 5, "played"), (3, 1, "played"), (6, 4, "declined"), (2, 0, None)):
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
        if outcome:
            number = max(services.tournament_facts(ladder).challenges)
            play(services.tournament_facts(ladder).matches[f"ladder:c{number}"]["match_id"])
            _advance(ladder)
    # a league of two divisions, its first round played (one-point matches: the demo loads quickly)
    league = _event(director, club, players, "Winter league", "league",
                    {"division_size": 4, "round_days": 7, "promote": 1, "relegate": 1,
                     "lengths": {"rounds": {"default": 1}}})
    for slot in tournament_data(league)["slots"]:
        if slot["round"] == 1 and slot["status"] == "ready":
            play(slot["match_id"])
    _advance(league)


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
