"""Public event pages: the club's events, one event's entries, bracket, pairings and standings."""

from django.http import Http404, HttpResponse
from django.shortcuts import render
from django.utils.safestring import mark_safe
from django.utils.translation import gettext as _
from django.utils import timezone

from eventlog import cached_pages, live
from games import selectors as match_selectors
from games.engine.clock import PRESETS, SECOND
from players import authority

from . import event_page as parts, rules_example, selectors, services
from .formats.standings import TIEBREAKS
from .models import Tournament


def home(request):
    today, events = selectors.home_events(timezone.localdate())
    recent = match_selectors.match_summaries()[:20]
    return render(request, "tournaments/home.html", {"today": today, "events": events, "recent": recent})


def event_page(request, pk: int):
    # where the projections were before the page is read: live.js catches up on a push past it that came while the
    # page loaded (before its stream was open), as the console does; with the stream's own version it names what
    # the page shows, so it keys the page's ETag and its cached part
    tournament, stream_version, position = services.visible_as_shown(request.user, pk)
    partial = bool(request.GET.get("partial"))
    page = request.GET.get("standings", "1")
    if not (page.isascii() and page.isdigit() and int(page) >= 1):
        raise Http404(_("There is no such page."))
    shown = (pk, stream_version, position)
    render = lambda: _event_response(request, tournament, partial, shown, int(page))  # noqa: E731
    if partial:  # the shared parts joined, already cached as they are: not kept a second time as a page
        return cached_pages.conditional(request, cached_pages.page_etag(request, *shown), render)
    query = {"standings": str(int(page)) if "standings" in request.GET else None}
    return cached_pages.page(request, shown, render, query=query)


def _event_response(request, tournament: Tournament, partial: bool, shown: tuple, page: int):
    pk, stream_version, position = shown
    part, history = parts.live_part(tournament, page, stream_version, parts.shown_at(pk, stream_version, position))
    shared = [part["body"], history.encode()]
    if partial:
        return HttpResponse(shared)
    viewer = getattr(getattr(request.user, "player", None), "pk", None) if request.user.is_authenticated else None
    response = render(request, "tournaments/event.html", {
        "t": tournament, "position": shown[2], "live_html": mark_safe(_LIVE_PART),
        "format_name": part["format_name"], "finished": part["finished"], "standings_page": page,
        "me": part["pages_of"].get(viewer), "viewer": viewer,
        "may_run": authority.runs_event(request.user, tournament.director_id)})
    # the viewer's page around the shared part, which goes in as the bytes it is cached as
    before, after = response.content.split(_LIVE_PART.encode(), 1)
    response.content = [before, *shared, after]
    return response


_LIVE_PART = "<!--crawford:live-part-->"


def event_history(request, pk: int):
    """Every decision of an event, oldest last: the event page shows the latest few."""
    tournament, version, _position = services.visible_as_shown(request.user, pk)
    return cached_pages.page(request, (pk, version), lambda: render(request, "tournaments/event_history.html", {
        "t": tournament, "history": selectors.tournament_history(tournament)}))


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
