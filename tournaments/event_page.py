"""The event page's part that is the same for every viewer, cached by what it shows.

The part (brackets, standings, entries) is the ``tournament_view`` projection's tables and the scores of the
event's matches at the board: its key is the version of the event's stream those tables were derived at and the
versions of those matches' summaries, so a move in another event's match, which moves the log, leaves it cached,
and a result changes it the moment its projection is written. The latest decisions (the history, read from the
stream's tail) are a fragment of their own, keyed by the stream's version: the command that appends a result
changes them at once, before the projections run.

The projection builds the part of the event it has just rewritten before its transaction commits (:func:`warm`):
the first readers at the new version find it built rather than wait for one of them to build it.
"""

from __future__ import annotations

import json
import logging

from django.conf import settings
from django.db import transaction
from django.db.models import Subquery, Sum, Value
from django.db.models.functions import Coalesce
from django.template.defaultfilters import floatformat
from django.template.loader import render_to_string
from django.utils import translation
from django.utils.safestring import mark_safe

from eventlog import cached_pages
from games.models import MatchSummary

from . import names, selectors
from .models import Tournament, TournamentSlot, TournamentState
from .stream import TEAM_FORMATS, Format

log = logging.getLogger(__name__)

# formats whose part reads the event's stream itself (their rungs, divisions, team matches), not only its tables
_READS_THE_STREAM = (Format.LADDER, Format.LEAGUE, *TEAM_FORMATS)


def shown(pk: int, stream_version: int) -> tuple:
    """What the part shows, as versions: the event's tables (the stream's version they were derived at) and each
    of its matches at the board (its summary's version); the stream's own version only for a format whose part
    reads the stream."""
    at_the_board = TournamentSlot.objects.filter(tournament_id=pk, status="ready", winner=None).exclude(match_id="")
    # which matches are at the board follows from the tables' version, and a match's version only grows: the sum of
    # their versions moves whenever one of them does
    live = (MatchSummary.objects.filter(pk__in=at_the_board.values("match_id")).order_by()
            .annotate(one=Value(1)).values("one").annotate(total=Coalesce(Sum("version"), 0)).values("total"))
    state = (TournamentState.objects.filter(tournament_id=pk).annotate(live=Coalesce(Subquery(live), 0))
             .values_list("version", "format", "live").first() or (0, None, 0))
    return pk, state[0], state[2], stream_version if state[1] in _READS_THE_STREAM else None


# shown() by the positions a page's ETag names (the event's stream version, how far the projections have read):
# the same positions, the same tables, so this process asks the database once per position, not once per reader
_SHOWN_AT: dict[tuple[int, int, int], tuple] = {}
_SHOWN_AT_MOST = 256


def shown_at(pk: int, stream_version: int, position: int) -> tuple:
    key = (pk, stream_version, position)
    found = _SHOWN_AT.get(key)
    if found is None:
        if len(_SHOWN_AT) >= _SHOWN_AT_MOST:
            _SHOWN_AT.clear()
        found = _SHOWN_AT[key] = shown(pk, stream_version)
    return found


def forget_shown() -> None:
    """Drop what :func:`shown_at` remembers (a database whose ids and positions are given again: SQLite's tests)."""
    _SHOWN_AT.clear()


def live_part(tournament: Tournament, page: int, stream_version: int, showing: tuple) -> tuple[dict, str]:
    """The part's ``page`` of standings at ``showing`` (:func:`shown`) and the latest decisions at the stream's
    version, each built once, both read in one round trip."""
    part, history = cached_pages.fragments(_part(tournament, page, showing),
                                           _history(tournament, stream_version, showing[1]))
    return part, mark_safe(history)  # noqa: S308 (our own render)


def _part(tournament: Tournament, page: int, showing: tuple) -> tuple:
    # named for what it holds: a part cached in another shape by an earlier release is never read as this one
    return "event-bytes", (*showing, page), lambda: event_part(tournament, page)


def _history(tournament: Tournament, stream_version: int, tables_version: int) -> tuple:
    """The latest decisions, rendered once for the stream's version (a knockout's round names, from its tables:
    their version too)."""
    def build() -> str:
        history, more = selectors.latest_history(tournament)
        return render_to_string("tournaments/history.html", {"t": tournament, "history": history,
                                                             "history_more": more})

    return "event-history", (tournament.pk, stream_version, tables_version), build


def warm(tournament: Tournament, stream_version: int) -> None:
    """Build the first page of the part (and the history) in the site's language, from the tables this transaction
    has just written: called by the projection before it commits, so no reader waits for them. A part not built
    here (a cache that cannot be reached) is built by its first reader, as any other."""
    try:
        # in a savepoint of its own: a query of its that fails leaves the projection's transaction as it was
        with transaction.atomic(), translation.override(settings.LANGUAGE_CODE):
            live_part(tournament, 1, stream_version, shown(tournament.pk, stream_version))
    except Exception:  # noqa: BLE001 - a page not warmed is built when asked; the projection must go on
        log.warning("the event page of %s was not built ahead of its readers", tournament.pk, exc_info=True)


def event_part(tournament: Tournament, page: int = 1) -> dict:
    """What the event page shows that is the same for every viewer: read and rendered once per :func:`shown`.
    A big event's tables are shown a page of rows at a time (``page``); each player's page is kept to send a
    viewer to their own row."""
    data = selectors.with_live_scores(selectors.tournament_data(tournament))
    standings, pages_of = selectors.standings_page(selectors.standings_by_flight(data), page)
    _tiebreak_cells(standings)
    context = {"t": tournament, "data": data, "brackets": rendered_rounds(selectors.bracket_columns(data)),
               "tiebreaks": selectors.tiebreak_names(data), "standings": standings, "standings_page": page,
               "stage": selectors.stage_view(data), "reentry": selectors.reentry_view(data),
               "entries_html": entries_html(data)}
    context.update(format_views(tournament, data))
    # kept as the bytes every reader is sent: encoding a big event's part again for each of them cost more than a
    # tenth of its page
    return {"body": render_to_string("tournaments/event_live.html", context).encode(), "pages_of": pages_of,
            "format_name": names.format_name(data["format"]), "finished": bool(data["winner"])}


def _tiebreak_cells(tables: list[dict]) -> None:
    """Each row's tie-break values as its cells print them (``floatformat:"-1"``, in the page's language), each
    distinct value formatted once: a page's hundreds of cells share a few values, and formatting them one by one
    cost a quarter of rendering the table."""
    shown: dict[tuple[type, object], str] = {}
    for table in tables:
        for row in table["rows"]:
            row["tiebreak_cells"] = cells = []
            for value in row["tiebreaks"].values():
                key = (type(value), value)
                if key not in shown:
                    shown[key] = floatformat(value, "-1")
                cells.append(shown[key])


def entries_html(data: dict) -> str:
    """The list of entries, rendered once for what it shows: a result elsewhere on the page does not render a big
    event's thousand entries again."""
    checked_in, withdrawn = set(data["checked_in"]), set(data["withdrawn"])
    entries = [{**e, "checked_in": e["player_id"] in checked_in, "withdrawn": e["player_id"] in withdrawn}
               for e in data["entries"]]
    shown_entries = json.dumps(entries, sort_keys=True)
    return mark_safe(cached_pages.fragment(  # noqa: S308 (our own render)
        "entries", (shown_entries,), lambda: render_to_string("tournaments/entries.html", {"entries": entries})))


def rendered_rounds(brackets: list[dict]) -> list[dict]:
    """Each round of each bracket rendered once for what it shows: a result re-renders its own round, not the
    other rounds of a big event."""
    for b in brackets:
        b["rounds"] = [mark_safe(_round_html(r, str(label), b["joined"]))  # noqa: S308 (our own render)
                       for r, label in zip(b["rounds"], b["round_names"], strict=True)]
    return brackets


# a round's matches rendered this many at a time, each run a fragment of its own: a result in a big Swiss round
# renders its own run of matches again, not the round's five hundred (even: a knockout's pairs stay whole)
ROUND_CHUNK = 50


def _round_html(slots: list[dict], label: str, joined: bool) -> str:
    runs = [slots[i:i + ROUND_CHUNK] for i in range(0, len(slots), ROUND_CHUNK)]
    shown_runs = [json.dumps([run, joined], sort_keys=True, default=str) for run in runs]
    # the round is its label and its runs: what each run shows is written once, for its key and the round's
    return cached_pages.fragment("round", (label, joined, *shown_runs), lambda: render_to_string(
        "tournaments/bracket_round.html", {"chunks": _slot_runs(runs, shown_runs, joined), "label": label}))


def _slot_runs(runs: list[list[dict]], shown_runs: list[str], joined: bool) -> list[str]:
    html = cached_pages.fragments(*[
        ("round-slots", (shown,),
         lambda run=run: render_to_string("tournaments/bracket_slots.html", {"round": run, "joined": joined}))
        for run, shown in zip(runs, shown_runs, strict=True)])
    return [mark_safe(h) for h in html]  # noqa: S308 (our own render)


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
