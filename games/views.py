"""Public match pages: the move-by-move viewer and the recording screen at the table."""

from django.contrib.auth.decorators import login_required
from django.http import Http404
from django.shortcuts import redirect, render

from eventlog import live, store

from . import online, selectors, viewer
from .errors import MatchNotFound, Reason
from .loading import match_load
from .rights import can_read, is_official, seat_of
from .engine.clock import PRESETS
from .engine.match import Phase
from .forbidden import Forbidden


def _record_or_404(request, stream_id: str):
    try:
        record = match_load(stream_id)
    except MatchNotFound:
        raise Http404("no such match") from None
    if not can_read(request.user, record):
        raise Http404("no such match")
    return record


def _may_record(user, record) -> bool:
    return is_official(user, record) or seat_of(user, record) is not None


def match_page(request, stream_id: str):
    record = _record_or_404(request, stream_id)
    played = viewer.games_begun(stream_id)
    game, at = request.GET.get("game", ""), request.GET.get("at", "")
    game = min(int(game), played) if game.isascii() and game.isdigit() and 0 < len(game) < 7 and int(game) else played
    start = None
    if at.isascii() and at.isdigit() and 0 < len(at) < 10:  # ?at=<version>: the game holding that event, there
        start = int(at)
        game = viewer.game_of_version(stream_id, start)
    return render(request, "games/match.html", {
        "m": selectors.match_state_data(record),
        "decided": viewer.decided_off_the_board(record),
        "frames": viewer.game_frames(stream_id, game),  # one game at a time: a long session's page stays small
        "game": game, "played": played, "start_version": start, "previous_game": game - 1 if game > 1 else None,
        "next_game": game + 1 if game < played else None,
        "games": [{**g, "how": viewer.game_how(g["kind"], g["reason"])}
                  for g in selectors.game_summaries(stream_id, around=game)],
        "can_record": _may_record(request.user, record),
    })


@login_required
def match_record(request, stream_id: str):
    record = _record_or_404(request, stream_id)
    seat = seat_of(request.user, record)
    if record.online is not None and seat is None:  # played by its players from home: others watch it live
        return redirect("match-live", stream_id)
    if not _may_record(request.user, record):
        raise Forbidden(Reason.RECORDERS_ONLY)
    return render(request, "games/record.html", {"m": selectors.match_state_data(record), "seat": seat,
                                                 "online": record.online is not None,
                                                 "phases": {phase.name: phase.value for phase in Phase},
                                                 "clock_presets": list(PRESETS)})


def match_live(request, stream_id: str):
    """The live board of a match in play, for a big screen or a stream's overlay: follows the match as it is
    recorded (board, dice, score, cube, pip counts)."""
    record = _record_or_404(request, stream_id)
    return render(request, "games/live.html", {"m": selectors.match_state_data(record),
                                               "overlay": request.GET.get("overlay") == "1"})


def match_follow(request, stream_id: str):
    """Server-sent events: the match's version, at once and after each append (eventlog/live.py); with
    ``?topic=presence``, an online match's players coming and going (games/online.py)."""
    _record_or_404(request, stream_id)
    if request.GET.get("topic") == "presence":
        return live.event_stream(request, online.presence_topic(stream_id), lambda: online.presence_version(stream_id))
    return live.event_stream(request, live.stream_topic(stream_id), lambda: store.stream_version(stream_id))
