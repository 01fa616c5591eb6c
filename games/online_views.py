"""The online play page: challenge a member, answer the challenges made to you, open your online matches.

Plain forms calling the services of games/challenges.py; a refusal is said on the page in the reader's language
and nothing is recorded."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.shortcuts import redirect, render

from apikit.refusals import refusal_text
from games.engine.errors import Refusal
from players.models import Player

from . import challenges, online
from .errors import BadCommand, Reason
from .models import Challenge, MatchSummary


def _number(text: str | None) -> int | None:
    return int(text) if text and text.isascii() and text.isdigit() and len(text) < 12 else None


@login_required
def online_play(request):
    refused = None
    if request.method == "POST":
        action, form = request.POST.get("action"), request.POST
        try:
            if action == "challenge":
                opponent = Player.objects.filter(pk=_number(form.get("opponent"))).first()
                if opponent is None:
                    raise BadCommand(Reason.UNKNOWN_PLAYER_ID)
                challenges.challenge_issue(actor=request.user, opponent=opponent,
                                           length=_number(form.get("length")) or 0, clock=form.get("clock", ""),
                                           disconnect=form.get("disconnect", "standard"))
            elif action == "accept":
                record = challenges.challenge_accept(actor=request.user, challenge_id=_number(form.get("challenge")))
                return redirect("match-record", stream_id=record.stream_id)
            elif action == "decline":
                challenges.challenge_decline(actor=request.user, challenge_id=_number(form.get("challenge")))
        except Refusal as exc:
            refused = refusal_text(exc)
        else:
            return redirect("online-play")
    mine = challenges.challenges_of(request.user)
    summaries = MatchSummary.objects.in_bulk([c.stream_id for c in mine if c.stream_id])
    me = getattr(getattr(request.user, "player", None), "pk", None)
    return render(request, "games/online.html", {
        "refused": refused, "me": me,
        "received": [c for c in mine if c.status == Challenge.OPEN and c.opponent_id == me],
        "made": [c for c in mine if c.status == Challenge.OPEN and c.challenger_id == me],
        "matches": [(c, summaries.get(c.stream_id)) for c in mine if c.stream_id],
        "members": Player.objects.filter(user__isnull=False).exclude(pk=me).order_by("display_name")[:500],
        "clocks": challenges.CLOCKS, "disconnects": online.disconnect_presets(),
    }, status=400 if refused else 200)
