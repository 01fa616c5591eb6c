"""The ``analysis`` projection: notices finished and voided matches and keeps one analysis row per match.

The projection itself only creates (or drops) rows: the analysis, seconds of gnubg, runs on the ``analysis``
queue after the batch commits. A match is analysed once it is won at the board or imported whole
(``MatchWon``); a director's correction changes the result, not the plays, so the analysis stays; a voided
match counts for nothing, so its analysis goes. A rebuild empties the tables and queues every match again:
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
    digested = ((MatchAnalysis, ("stream_id", "plies", "player0_id", "player1_id", "tournament_id", "ended_at")),)
    event_types = ("MatchRegistered", "MatchWon", streams.VOIDED)

    def apply(self, events) -> None:
        registered, won = {}, []
        for e in events:
            if e.stream_type != streams.STREAM_TYPE:
                continue
            if e.event_type == "MatchRegistered":
                registered[e.stream_id] = e.payload
            elif e.event_type == "MatchWon":
                reg = registered.get(e.stream_id) or _registration(e.stream_id)
                won.append({"stream_id": e.stream_id, "player_ids": tuple(reg.get("player_ids") or (None, None)),
                            "tournament_id": reg.get("tournament_id"), "ended_at": e.recorded_at})
            elif e.event_type == streams.VOIDED:
                services.analyses_queue(won)  # in log order: what was won before the void is queued, then dropped
                won = []
                services.analysis_drop(stream_id=e.stream_id)
        services.analyses_queue(won)  # together: a rebuild queues every finished match

    def reset(self) -> None:
        services.analyses_delete(MatchAnalysis.objects.all())


def _registration(stream_id: str) -> dict:
    from eventlog.models import Event

    row = Event.objects.filter(stream_id=stream_id, event_type="MatchRegistered").values_list("payload", flat=True).first()
    return row or {}
