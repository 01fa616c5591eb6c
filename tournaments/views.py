"""Public event pages: the club's events, one event's entries, bracket, pairings and standings."""

from django.shortcuts import get_object_or_404, render

from games import selectors as match_selectors
from players import authority

from . import selectors, services
from .models import Tournament


def home(request):
    events = Tournament.objects.filter(published=True).select_related("club").order_by("-created_at")[:20]
    recent = match_selectors.match_summaries()[:20]
    return render(request, "tournaments/home.html", {"events": events, "recent": recent})


def event_page(request, pk: int):
    tournament = services.visible_or_404(request.user, pk)
    data = selectors.tournament_data(tournament)
    context = {"t": tournament, "data": data, "brackets": selectors.bracket_columns(data),
               "may_run": authority.runs_event(request.user, tournament.director_id),
               "format_name": (data["format"] or "").replace("_", " ").capitalize(),
               "tiebreaks": selectors.tiebreak_names(data), "standings": selectors.standings_by_flight(data), "history": selectors.tournament_history(tournament)}
    template = "tournaments/event_live.html" if request.GET.get("partial") else "tournaments/event.html"
    return render(request, template, context)


def player_page(request, pk: int):
    """A member's rating, its history as a chart, and their results event by event."""
    from players.models import Player
    from ratings import selectors as ratings

    from .models import TournamentStanding

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
