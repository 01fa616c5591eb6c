"""The fair-play review of a player, for officials and the directors of the player's events: their figures online
beside those at the board and the field's, and the flag for a person to review, with its limits
(analysis.selectors.fair_play)."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.shortcuts import get_object_or_404, render

from games.errors import Reason
from games.forbidden import Forbidden
from players import authority
from players.models import Player

from . import selectors


@login_required
def fair_play_page(request, pk: int):
    player = get_object_or_404(Player, pk=pk)
    if not authority.reviews_fair_play(request.user, player.pk):
        raise Forbidden(Reason.FAIR_PLAY_REVIEWERS)
    review = selectors.fair_play(player.pk)
    rows = [(label, review[key]) for key, label in (("online", "online"), ("board", "board"))]
    return render(request, "analysis/fair_play.html", {"player": player, "review": review, "rows": rows})
