"""A member's page: their rating (ratings) beside their results event by event (tournaments).

It joins two apps that do not know each other, so it lives here, at the composition root, rather than in either."""

from django.shortcuts import get_object_or_404, render

from players.models import Player
from ratings import selectors as ratings
from tournaments.models import Tournament, TournamentStanding


def player_page(request, pk: int):
    """A member's rating, its history as a chart, and their results event by event."""
    player = get_object_or_404(Player, pk=pk)
    history = ratings.rating_history(player.pk, viewer=request.user)
    events = {t.pk: t for t in Tournament.objects.filter(published=True)}
    for h in history:  # a row names its event (if published) rather than a match id
        h["event"] = events.get(h["tournament_id"])
        h["link"] = h["match_id"] if h["tournament_id"] is None or h["event"] else None  # a hidden event's: none
    results = [
        {"event": events[r.tournament_id], "rank": r.rank, "wins": r.wins, "losses": r.losses}
        for r in TournamentStanding.objects.filter(player_id=player.pk).order_by("-tournament_id")
        if r.tournament_id in events
    ]
    return render(request, "tournaments/player.html", {
        "player": player, "rating": ratings.player_rating(player.pk), "history": history,
        "chart": _chart([h["rating_after"] for h in history]), "results": results,
    })


def _chart(values: list[float], width: int = 600, height: int = 160) -> dict | None:
    """An SVG polyline of a rating history, drawn on the server: no chart library to fetch."""
    if not values:
        return None
    series = [1500.0] + values
    low, high = min(series), max(series)
    span = (high - low) or 1.0
    step = width / max(1, len(series) - 1)
    points = " ".join(f"{i * step:.1f},{height - (v - low) / span * (height - 10) - 5:.1f}" for i, v in enumerate(series))
    return {"points": points, "width": width, "height": height, "low": round(low, 1), "high": round(high, 1)}
