"""The ``match_summary`` projection: one MatchSummary row per match stream, one GameSummary row per game.

A batch costs what its events cost: each touched stream's summary comes from
its committed snapshot plus the new events (``match_load_with``: no query when they follow on), and the game rows
are the engine's own record of each game the batch touched (:attr:`MatchState.games`: its score before, its
Crawford flags, its result), never a second reading of the rule.
"""

from __future__ import annotations

from django.utils import timezone

from eventlog.projections import Projection
from games.engine.match import OVER, GameRecord
from games.engine.state_ids import position_id_of
from games.limits import gnubg_match_id

from . import streams
from .loading import match_load_with
from .models import GameSummary, MatchSummary

_GAME_EVENTS = ("GameStarted", "GameWon")
_SUMMARY_FIELDS = [f.name for f in MatchSummary._meta.concrete_fields if not f.primary_key]
_GAME_FIELDS = ["score0_before", "score1_before", "crawford", "post_crawford", "finished", "winner", "points", "kind",
                "reason"]


class MatchSummaryProjection(Projection):
    name = "match_summary"
    digested = (MatchSummary, GameSummary)
    by_stream = True  # a match's summary and games are its own stream's
    # 20,000 events a batch: with dozens of matches interleaved in the log, each touched match's summary is
    # computed and written once per batch, however many of its events the batch holds
    batch_factor = 10
    shares_payloads = True  # it reads payloads (the fold, the game numbers), never changes one

    def apply(self, events) -> None:
        by_stream: dict[str, list] = {}
        for e in events:
            if e.stream_type == streams.STREAM_TYPE:
                by_stream.setdefault(e.stream_id, []).append(e)
        # equal payloads are one object in a batch (shares_payloads): each engine event made once, while
        # ``events`` holds them
        built: dict = {}
        records = {s: match_load_with(s, rows, built) for s, rows in by_stream.items()}
        # one statement for the lot: the checkpoint's lock makes this run the only writer
        MatchSummary.objects.bulk_create(
            [MatchSummary(stream_id=s, **summary_fields(record)) for s, record in records.items()],
            update_conflicts=True, unique_fields=["stream_id"], update_fields=_SUMMARY_FIELDS,
        )
        # rolls and moves leave the game rows as they are
        GameSummary.objects.bulk_create(
            [row for s, rows in by_stream.items() for row in _game_rows(s, rows, records[s].state)],
            update_conflicts=True, unique_fields=["stream_id", "game"], update_fields=_GAME_FIELDS,
        )

    def reset(self) -> None:
        MatchSummary.objects.all().delete()
        GameSummary.objects.all().delete()


def _game_rows(stream_id: str, rows, state) -> list[GameSummary]:
    """The rows of the games these events begin or end, as they stand after the last of them.

    ``state`` is the match's state after ``rows``, or later (a rebuild may find the snapshot of a later version):
    a game's score before it and its Crawford flags are fixed when it begins, and its result is known here only
    if it was won in these events, so a game begun here but won later is written as unfinished."""
    won = {e.payload["game"] for e in rows if e.event_type == "GameWon"}
    touched = sorted({e.payload["game"] for e in rows if e.event_type in _GAME_EVENTS})
    out = []
    for number in touched:
        game = state.game_record(number)
        if game is None:
            continue
        if number not in won:
            game = GameRecord(game.game, game.score_before, game.crawford, game.post_crawford)
        out.append(_game_row(stream_id, game))
    return out


def _game_row(stream_id: str, g: GameRecord) -> GameSummary:
    return GameSummary(
        stream_id=stream_id, game=g.game, score0_before=g.score_before[0], score1_before=g.score_before[1],
        crawford=g.crawford, post_crawford=g.post_crawford, finished=g.finished, winner=g.winner,
        points=g.points, kind=g.kind, reason=g.reason,
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
        "phase": str(record.phase),  # the enum's value, as stored
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
