"""The ``analysis`` projection: notices finished and voided matches and keeps one analysis row per match.

The projection itself only creates (or drops) rows: the analysis, seconds of gnubg, runs on the ``analysis``
queue after the batch commits. A match is analysed once it is won at the board or imported whole
(``MatchWon``); one that stopped before its end is analysed up to there: an import that ends mid-game (at its
registration), a match its event closed (a paper result, a forfeit). A director's correction changes the result,
not the plays, so the analysis stays; a voided match counts for nothing, so its analysis goes. A rebuild empties the tables and queues every match again:
gnubg is deterministic at a given depth, so the same setting gives the same numbers.
"""

from __future__ import annotations

from eventlog.projections import Projection
from games import streams

from . import services
from .models import MatchAnalysis


class AnalysisProjection(Projection):
    name = "analysis"
    # which matches are to be analysed, as the log says; the analyses' progress and results are gnubg's (the worker's)
    digested = ((MatchAnalysis, ("stream_id", "plies", "player0_id", "player1_id", "tournament_id", "ended_at",
                                 "online")),)
    event_types = ("MatchRegistered", "MatchWon", streams.CLOSED, streams.VOIDED)

    def apply(self, events) -> None:
        registered, won = {}, {}
        for e in events:
            if e.stream_type != streams.STREAM_TYPE:
                continue
            if e.event_type == "MatchRegistered":
                registered[e.stream_id] = e.payload
            # an import is whole when it is registered (its plays come with it), even one that stops mid-game; a
            # match its event closed (a paper result, a forfeit) stopped where it stands: both are analysed up to
            # there. A finished import is queued once, as won (its MatchWon follows in the same append).
            stopped = (e.event_type == "MatchRegistered" and bool(e.payload.get("import_fingerprint"))) or (
                e.event_type == streams.CLOSED and services.anything_played(e.stream_id))
            if e.event_type == "MatchWon" or stopped:
                reg = registered.get(e.stream_id) or _registration(e.stream_id)
                match = {"stream_id": e.stream_id, "player_ids": tuple(reg.get("player_ids") or (None, None)),
                         "tournament_id": reg.get("tournament_id"), "ended_at": e.recorded_at,
                         # played online, here or on another server: the fair-play panel's split
                         "online": reg.get("online") is not None or bool(reg.get("played_elsewhere"))}
                if e.event_type == "MatchWon":
                    won[e.stream_id] = match
                else:
                    won.setdefault(e.stream_id, match)
            elif e.event_type == streams.VOIDED:
                services.analyses_queue(list(won.values()))  # in log order: what came before the void, then dropped
                won = {}
                services.analysis_drop(stream_id=e.stream_id)
        services.analyses_queue(list(won.values()))  # together: a rebuild queues every finished match

    def reset(self) -> None:
        services.analyses_delete(MatchAnalysis.objects.all())


def _registration(stream_id: str) -> dict:
    from eventlog.models import Event

    row = Event.objects.filter(stream_id=stream_id, event_type="MatchRegistered").values_list("payload", flat=True).first()
    return row or {}
