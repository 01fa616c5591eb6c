"""Public event pages: the club's events, one event's entries, bracket, pairings and standings."""

import json

from django.http import Http404, HttpResponse
from django.shortcuts import render
from django.template.loader import render_to_string
from django.utils.safestring import mark_safe
from django.utils.translation import gettext as _
from django.utils import timezone

from eventlog import cached_pages, live, store
from games import selectors as match_selectors
from games.engine.clock import PRESETS, SECOND
from players import authority

from . import names, rules_example, selectors, services, stream
from .formats.standings import TIEBREAKS
from .models import Tournament
from .stream import TEAM_FORMATS, Format


def home(request):
    today, events = selectors.home_events(timezone.localdate())
    recent = match_selectors.match_summaries()[:20]
    return render(request, "tournaments/home.html", {"today": today, "events": events, "recent": recent})


def event_page(request, pk: int):
    tournament = services.visible_or_404(request.user, pk)
    # where the projections were before the page is read: live.js catches up on a push past it that came while the
    # page loaded (before its stream was open), as the console does; with the stream's own version it names what
    # the page shows, so it keys the page's ETag and its cached part
    partial = bool(request.GET.get("partial"))
    page = request.GET.get("standings", "1")
    if not (page.isascii() and page.isdigit() and int(page) >= 1):
        raise Http404(_("There is no such page."))
    shown = (pk, store.stream_version(stream.stream_id_of(pk)), live.projected_position())
    etag = cached_pages.page_etag(request, *shown)
    return cached_pages.conditional(request, etag,
                                    lambda: _event_response(request, tournament, partial, shown, int(page)))


def _event_response(request, tournament: Tournament, partial: bool, shown: tuple, page: int):
    part = cached_pages.fragment("event", (*shown, page), lambda: event_part(tournament, page))
    if partial:
        return HttpResponse(part["html"])
    viewer = getattr(getattr(request.user, "player", None), "pk", None) if request.user.is_authenticated else None
    return render(request, "tournaments/event.html", {
        "t": tournament, "position": shown[2], "live_html": mark_safe(part["html"]),  # noqa: S308 (our own render)
        "format_name": part["format_name"], "finished": part["finished"], "standings_page": page,
        "me": part["pages_of"].get(viewer), "viewer": viewer,
        "may_run": authority.runs_event(request.user, tournament.director_id)})


def event_part(tournament: Tournament, page: int = 1) -> dict:
    """What the event page shows that is the same for every viewer: read and rendered once per log position.
    A big event's tables are shown a page of rows at a time (``page``); each player's page is kept to send a
    viewer to their own row."""
    data = selectors.with_live_scores(selectors.tournament_data(tournament))
    standings, pages_of = selectors.standings_page(selectors.standings_by_flight(data), page)
    context = {"t": tournament, "data": data, "brackets": rendered_rounds(selectors.bracket_columns(data)),
               "tiebreaks": selectors.tiebreak_names(data), "standings": standings, "standings_page": page,
               "stage": selectors.stage_view(data), "reentry": selectors.reentry_view(data),
               "entries_html": entries_html(data)}
    context["history"], context["history_more"] = selectors.latest_history(tournament)
    context.update(format_views(tournament, data))
    return {"html": render_to_string("tournaments/event_live.html", context), "pages_of": pages_of,
            "format_name": names.format_name(data["format"]), "finished": bool(data["winner"])}


def event_history(request, pk: int):
    """Every decision of an event, oldest last: the event page shows the latest few."""
    tournament = services.visible_or_404(request.user, pk)
    version = store.stream_version(stream.stream_id_of(pk))
    etag = cached_pages.page_etag(request, pk, version)
    return cached_pages.conditional(request, etag, lambda: render(request, "tournaments/event_history.html", {
        "t": tournament, "history": selectors.tournament_history(tournament)}))


def entries_html(data: dict) -> str:
    """The list of entries, rendered once for what it shows: a result elsewhere on the page does not render a big
    event's thousand entries again."""
    checked_in, withdrawn = set(data["checked_in"]), set(data["withdrawn"])
    entries = [{**e, "checked_in": e["player_id"] in checked_in, "withdrawn": e["player_id"] in withdrawn}
               for e in data["entries"]]
    shown = json.dumps(entries, sort_keys=True)
    return mark_safe(cached_pages.fragment(  # noqa: S308 (our own render)
        "entries", (shown,), lambda: render_to_string("tournaments/entries.html", {"entries": entries})))


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


def rendered_rounds(brackets: list[dict]) -> list[dict]:
    """Each round of each bracket rendered once for what it shows: a result re-renders its own round, not the
    other rounds of a big event."""
    for b in brackets:
        b["rounds"] = [mark_safe(_round_html(r, str(label), b["joined"]))  # noqa: S308 (our own render)
                       for r, label in zip(b["rounds"], b["round_names"], strict=True)]
    return brackets


def _round_html(slots: list[dict], label: str, joined: bool) -> str:
    shown = json.dumps([slots, label, joined], sort_keys=True, default=str)
    return cached_pages.fragment("round", (shown,), lambda: render_to_string(
        "tournaments/bracket_round.html", {"round": slots, "label": label, "joined": joined}))


def format_views(tournament: Tournament, data: dict) -> dict:
    """A ladder shows its rungs, challenges and history instead of brackets; a league its division tables (with
    who goes up and down) and its rounds' deadlines instead of the plain tables; a team event its teams, team
    matches and table of teams."""
    if data["format"] == Format.LADDER:
        return {"ladder": selectors.ladder_data(tournament), "brackets": [], "standings": []}
    if data["format"] == Format.LEAGUE:
        return {"league": selectors.league_data(tournament), "standings": []}
    if data["format"] in TEAM_FORMATS:  # the table of teams first; each player's boards below it
        return {"teams": selectors.teams_data(tournament)}
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
