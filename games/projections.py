"""The ``match_summary`` projection: one MatchSummary row per match stream, one GameSummary row per game.

A batch costs what its events cost: each touched stream's summary comes from
its committed snapshot plus the new events (``match_load_with``: no query when they follow on), and the game rows
from resuming the Crawford-flags reading where the last batch left it
(:class:`GameFlagsCarry`), never from re-reading a whole stream.
"""

from __future__ import annotations

import operator
from functools import reduce

from django.db.models import Q
from django.utils import timezone

from eventlog.projections import Projection
from games.engine.match import OVER
from games.engine.state_ids import position_id_of
from games.limits import gnubg_match_id

from . import streams
from .crawford import Carry, GameFlags, read_flags
from .models import GameFlagsCarry, GameSummary, MatchSummary
from .services import match_load_with

_GAME_EVENTS = ("MatchStarted", "GameStarted", "GameWon")
_SUMMARY_FIELDS = [f.name for f in MatchSummary._meta.concrete_fields if not f.primary_key]
_GAME_FIELDS = ["score0_before", "score1_before", "crawford", "post_crawford", "finished", "winner", "points", "kind",
                "reason"]


class MatchSummaryProjection(Projection):
    name = "match_summary"

    def apply(self, events) -> None:
        by_stream: dict[str, list] = {}
        for e in events:
            if e.stream_type == streams.STREAM_TYPE:
                by_stream.setdefault(e.stream_id, []).append(e)
        # one statement for the lot: the checkpoint's lock makes this run the only writer
        MatchSummary.objects.bulk_create(
            [MatchSummary(stream_id=s, **summary_fields(match_load_with(s, rows))) for s, rows in by_stream.items()],
            update_conflicts=True, unique_fields=["stream_id"], update_fields=_SUMMARY_FIELDS,
        )
        # rolls and moves leave the game rows as they are
        _read_games({s: [e for e in rows if e.event_type in _GAME_EVENTS] for s, rows in by_stream.items()})

    def reset(self) -> None:
        MatchSummary.objects.all().delete()
        GameSummary.objects.all().delete()
        GameFlagsCarry.objects.all().delete()


def _read_games(game_events: dict[str, list]) -> None:
    """Resume each stream's Crawford-flags reading with its new game events; save what they changed."""
    game_events = {s: rows for s, rows in game_events.items() if rows}
    if not game_events:
        return
    carries = {c.stream_id: c for c in GameFlagsCarry.objects.filter(stream_id__in=game_events)}
    known = _known_games(game_events)
    new_carries, new_games = [], []
    for s, rows in game_events.items():
        c = carries.get(s)
        start = Carry(c.length, c.crawford_rule, c.crawford_played, (c.score0, c.score1)) if c else Carry()
        carry, touched = read_flags(rows, start, known.get(s))
        new_carries.append(GameFlagsCarry(stream_id=s, length=carry.length, crawford_rule=carry.rule,
                                          crawford_played=carry.crawford_played, score0=carry.score[0],
                                          score1=carry.score[1]))
        new_games += [_game_row(s, g) for g in touched.values()]
    GameFlagsCarry.objects.bulk_create(
        new_carries, update_conflicts=True, unique_fields=["stream_id"],
        update_fields=["length", "crawford_rule", "crawford_played", "score0", "score1"],
    )
    GameSummary.objects.bulk_create(
        new_games, update_conflicts=True, unique_fields=["stream_id", "game"], update_fields=_GAME_FIELDS,
    )


def _known_games(game_events: dict[str, list]) -> dict[str, dict[int, GameFlags]]:
    """The rows already read of the games these events name: a game won now may have started earlier."""
    named = [Q(stream_id=s, game__in=numbers) for s, rows in game_events.items()
             if (numbers := {e.payload["game"] for e in rows if "game" in e.payload})]
    known: dict[str, dict[int, GameFlags]] = {}
    if named:
        for row in GameSummary.objects.filter(reduce(operator.or_, named)):
            known.setdefault(row.stream_id, {})[row.game] = _flags(row)
    return known


def _flags(row: GameSummary) -> GameFlags:
    return GameFlags(row.game, (row.score0_before, row.score1_before), row.crawford, row.post_crawford, row.finished,
                     row.winner, row.points, row.kind, row.reason)


def _game_row(stream_id: str, g: GameFlags) -> GameSummary:
    return GameSummary(
        stream_id=stream_id, game=g.game, score0_before=g.score_before[0], score1_before=g.score_before[1],
        crawford=g.crawford, post_crawford=g.post_crawford, finished=g.finished, winner=g.winner,
        points=g.points, kind=g.kind, reason=g.reason,
    )


def _phase(record: streams.MatchRecord) -> str:
    """Where the match stands; a match ended off the board says how (the pages show its result, not "game 0")."""
    if record.voided is not None:
        return "voided"
    if record.correction is not None:
        return "corrected"
    if record.closed is not None:
        return record.closed.how  # "paper" or "forfeit"
    return record.state.phase


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
        "phase": _phase(record),
        "dice": list(s.dice) if s.dice else None,
        "position_id": position_id_of(s),
        "match_id": gnubg_match_id(s) or "",  # blank: gnubg cannot write this one
        "pips0": pips[0],
        "pips1": pips[1],
        "finished": record.finished or s.phase == OVER,
        "winner": record.winner,
        "voided": record.voided is not None,
        "published": record.published,
        "version": record.version,
        "created_at": record.created_at or timezone.now(),
    }
