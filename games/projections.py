"""The ``match_summary`` projection: one MatchSummary row per match stream."""

from __future__ import annotations

from django.utils import timezone

from eventlog import store
from eventlog.projections import Projection
from games.engine.match import OVER
from games.engine.state_ids import match_id_of, position_id_of

from . import streams
from .crawford import game_flags
from .models import GameSummary, MatchSummary
from .services import match_load


_GAME_EVENTS = ("MatchStarted", "GameStarted", "GameWon")


class MatchSummaryProjection(Projection):
    name = "match_summary"

    def apply(self, events) -> None:
        touched = dict.fromkeys(e.stream_id for e in events if e.stream_type == streams.STREAM_TYPE)
        new_games = {e.stream_id for e in events if e.event_type in _GAME_EVENTS}
        for stream_id in touched:
            # the whole stream's fold (from a committed snapshot): the row a rebuild would give
            record = match_load(stream_id)
            MatchSummary.objects.update_or_create(stream_id=stream_id, defaults=summary_fields(record))
            if stream_id in new_games:  # rolls and moves leave the per-game rows as they are
                _save_games(stream_id, game_flags(store.read_stream(stream_id)))

    def reset(self) -> None:
        MatchSummary.objects.all().delete()
        GameSummary.objects.all().delete()


def _save_games(stream_id: str, games) -> None:
    GameSummary.objects.filter(stream_id=stream_id).delete()
    GameSummary.objects.bulk_create(
        GameSummary(
            stream_id=stream_id, game=g.game, score0_before=g.score_before[0], score1_before=g.score_before[1],
            crawford=g.crawford, post_crawford=g.post_crawford, finished=g.finished, winner=g.winner,
            points=g.points, kind=g.kind, reason=g.reason,
        )
        for g in games
    )


def summary_fields(record: streams.MatchRecord) -> dict:
    s = record.state
    pips = s.pip_counts()
    score = record.score
    return {
        "tournament_id": record.tournament_id,
        "player0_id": record.player_ids[0],
        "player1_id": record.player_ids[1],
        "player0_name": s.players[0],
        "player1_name": s.players[1],
        "length": s.length,
        "score0": score[0],
        "score1": score[1],
        "game_number": s.game,
        "crawford": s.crawford,
        "crawford_games": list(s.crawford_games),
        "cube_value": s.cube,
        "cube_owner": s.cube_owner,
        "turn": s.turn,
        "phase": "voided" if record.voided is not None else s.phase,
        "dice": list(s.dice) if s.dice else None,
        "position_id": position_id_of(s),
        "match_id": match_id_of(s),
        "pips0": pips[0],
        "pips1": pips[1],
        "finished": record.finished or s.phase == OVER,
        "winner": record.winner,
        "voided": record.voided is not None,
        "published": record.published,
        "version": record.version,
        "created_at": record.created_at or timezone.now(),
    }
