"""Public event pages: the club's events, one event's entries, bracket, pairings and standings."""

from django.shortcuts import get_object_or_404, render
from django.utils import timezone

from eventlog import live
from games import selectors as match_selectors
from games.engine.clock import PRESETS, SECOND
from players import authority

from . import names, rules_example, selectors, services
from .formats.standings import TIEBREAKS
from .models import Tournament
from .stream import Format


def home(request):
    today, events = selectors.home_events(timezone.localdate())
    recent = match_selectors.match_summaries()[:20]
    return render(request, "tournaments/home.html", {"today": today, "events": events, "recent": recent})


def event_page(request, pk: int):
    tournament = services.visible_or_404(request.user, pk)
    # where the projections were before the page is read: live.js catches up on a push past it that came while the
    # page loaded (before its stream was open), as the console does
    partial = bool(request.GET.get("partial"))
    position = None if partial else live.projected_position()
    data = selectors.with_live_scores(selectors.tournament_data(tournament))
    context = {"t": tournament, "data": data, "position": position, "brackets": selectors.bracket_columns(data),
               "may_run": authority.runs_event(request.user, tournament.director_id),
               "format_name": names.format_name(data["format"]),
               "tiebreaks": selectors.tiebreak_names(data), "standings": selectors.standings_by_flight(data),
               "stage": selectors.stage_view(data), "reentry": selectors.reentry_view(data), "history": selectors.tournament_history(tournament)}
    context.update(format_views(tournament, data))
    template = "tournaments/event_live.html" if partial else "tournaments/event.html"
    return render(request, template, context)


def rules_page(request):
    """How an event's table is made (score, byes, each tie-break), worked out on an example: anyone can check
    every table, as the rating formula and the season rules let them check those."""
    return render(request, "tournaments/rules.html", {"example": rules_example.worked_example(),
                                                      "tiebreaks": [selectors.tiebreak_view(n) for n in TIEBREAKS],
                                                      "clock_presets": clock_presets()})


def event_follow(request, pk: int):
    """Server-sent events for the event page: told each time the projections it shows have moved on."""
    services.visible_or_404(request.user, pk)
    return live.event_stream(request, live.PROJECTIONS, live.projected_position)


def format_views(tournament: Tournament, data: dict) -> dict:
    """A ladder shows its rungs, challenges and history instead of brackets; a league its division tables (with
    who goes up and down) and its rounds' deadlines instead of the plain tables."""
    if data["format"] == Format.LADDER:
        return {"ladder": selectors.ladder_data(tournament), "brackets": [], "standings": []}
    if data["format"] == Format.LEAGUE:
        return {"league": selectors.league_data(tournament), "standings": []}
    return {}


CLOCK_SOURCES = {
    "us": "USBGF, U.S. Backgammon Clock Rules (2013), 2.1",
    "us_overtime_1": "USBGF (2013), 2.1, with its optional overtime of 1 minute",
    "us_overtime_2": "USBGF (2013), 2.1, with its optional overtime of 2 minutes",
    "us_doubles": "USBGF (2013), 2.2",
    "uk": "UKBGF; WBGF",
    "aba": "ABA, Unified Tournament Clock Rules (2003), 2.1",
}


def clock_presets() -> list[dict]:
    """The engine's clock presets in seconds, with the rules they come from."""
    return [{"name": p.name, "per_point": p.per_point // SECOND, "per_scored": p.per_scored // SECOND,
             "delay": p.delay // SECOND, "overtime": p.overtime // SECOND, "source": CLOCK_SOURCES[p.name]}
            for p in PRESETS.values()]
