"""A logged-in player's match: the "your match" banner on every page, and their result in two taps.

The banner names the table, the opponent and the round of the match a player has to play now. From it, "Report
my result" opens one page of buttons, one per final score ("I won 3–1", "I lost 1–3"): the second tap sends the
tournament's ``confirm_result`` command (the API's own), which is the player's half of the result; the opponent's
matching half records it (``tournaments/decider.py``), and a director corrects anything else.
"""

from __future__ import annotations

from django.db.models import Q

from games.loading import match_load
from players.models import Player

from . import names, selectors, services
from .models import Tournament, TournamentSlot


def player_of(user) -> Player | None:
    if not getattr(user, "is_authenticated", False):
        return None
    return Player.objects.filter(user_id=user.pk).first()


def current_match(player: Player) -> dict | None:
    """The match the player has to play now (created, not decided), newest first; None when there is none."""
    slot = (TournamentSlot.objects.filter(Q(player_a=player.pk) | Q(player_b=player.pk), status="ready",
                                          winner__isnull=True).exclude(match_id="").order_by("-id").first())
    if slot is None:
        return None
    tournament = Tournament.objects.filter(pk=slot.tournament_id).first()
    if tournament is None:
        return None
    opponent_id = slot.player_b if slot.player_a == player.pk else slot.player_a
    opponent = Player.objects.filter(pk=opponent_id).values_list("display_name", flat=True).first() or ""
    return {"tournament": tournament, "slot": slot.key, "name": names.slot_name(slot.key), "table": slot.table,
            "opponent_id": opponent_id, "opponent": opponent, "length": slot.length, "match_id": slot.match_id,
            # played online: the player plays it from here, and its result comes from the match itself
            "online": match_load(slot.match_id).online is not None}


def score_choices(match: dict, me: int) -> list[dict]:
    """Every usual final score, as the player would say it: they won by the length to 0…length-1, or lost."""
    n = match["length"]
    won = [{"winner": me, "score": (n, k), "mine": True} for k in range(n)]
    lost = [{"winner": match["opponent_id"], "score": (n, k), "mine": False} for k in range(n)]
    return won + lost


def opponent_said(tournament: Tournament, slot: str, me: int) -> dict | None:
    """The opponent's half of the result, when they reported it first (for the player to confirm in one tap)."""
    said = selectors.tournament_facts(tournament).confirmations.get(slot, {})
    theirs = next((c for p, c in said.items() if p != me), None)
    if theirs is None:
        return None
    return {"winner": theirs.winner, "score": (theirs.winner_points, theirs.loser_points), "mine": theirs.winner == me}


def report_my_result(*, user, tournament: Tournament, slot: str, winner: int, score: tuple[int, int]) -> None:
    """The player's half of the result: the tournament's ``confirm_result`` command, as the API sends it."""
    services.tournament_command(actor=user, tournament=tournament, command={
        "type": "confirm_result", "slot": slot, "winner": winner, "score": list(score)})
