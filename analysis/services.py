"""Writes of the analysis: queue a match, run gnubg on it, store what it says — once per match and depth.

``analysis_run`` may be called twice for the same row (a redelivered task, the sweep, a duplicate wake-up):
the first run takes a lease on the row, a second one that finds the lease alive goes away, and the results
are written under the row's lock only while it is not ``done``. A worker killed mid-analysis leaves the
row ``running`` with a lease that expires; the sweep then queues it again.
"""

from __future__ import annotations

import logging
from datetime import timedelta

from django.conf import settings
from django.db import IntegrityError, transaction
from django.utils import timezone

from eventlog import store
from games import streams
from games.engine import events as engine_events
from games.engine.match import MOVE, OVER, ROLL, evolve, may_double, MatchState
from games.engine.moves import legal_moves
from games.loading import match_load
from games.mat_io import match_export_mat

from . import background, gnubg
from .models import Decision, MatchAnalysis, PlayerFigures

log = logging.getLogger(__name__)
MAX_ATTEMPTS = 3
GNUBG_MAX_LENGTH = 64  # gnubg's MAXSCORE: it refuses a .mat match to more points
LEASE_MARGIN = 5  # seconds beyond gnubg's timeout: past it the run is dead (a killed worker takes gnubg with it)
CHECKER_EVENTS = ("CheckersMoved", "CannotMove")


def depths() -> list[int]:
    """The depths every match is analysed at, the quick one first: it is shown at once, and replaced by the
    deeper one (``ANALYSIS_PLIES``, the figures the pages aggregate) when that is done."""
    return sorted({settings.ANALYSIS_QUICK_PLIES, settings.ANALYSIS_PLIES})


def analysis_queue(*, stream_id: str, plies: int | None = None, player_ids=(None, None), tournament_id=None,
                   ended_at=None, online: bool = False) -> MatchAnalysis:
    """The match's analysis row at this depth (by default at each of :func:`depths`, the deepest returned),
    created ``queued`` if it is new, queued again if it analysed an unfinished match that has moved on since; the
    task is sent on commit."""
    row = None
    for depth in depths() if plies is None else [plies]:
        row, created = MatchAnalysis.objects.get_or_create(
            stream_id=stream_id, plies=depth,
            defaults={"player0_id": player_ids[0], "player1_id": player_ids[1], "tournament_id": tournament_id,
                      "ended_at": ended_at, "online": online},
        )
        if created:
            transaction.on_commit(lambda pk=row.pk: send(pk))
        elif not row.match_finished and row.status in (MatchAnalysis.DONE, MatchAnalysis.FAILED):
            moved_on = match_load(stream_id).version
            if row.version is None or moved_on > row.version:
                analyses_again(MatchAnalysis.objects.filter(pk=row.pk), ended_at=ended_at)
                row.refresh_from_db()
    return row


def analyses_queue(matches: list[dict]) -> None:
    """:func:`analysis_queue` for many matches at once (the projection's batch: a rebuild queues every finished
    match): one read of the rows that exist, one insert of the others, their tasks sent on commit. ``matches``
    holds :func:`analysis_queue`'s keyword arguments (without ``plies``); a match named twice is queued once."""
    wanted: dict[str, dict] = {}
    for match in matches:
        wanted.setdefault(match["stream_id"], match)
    existing = MatchAnalysis.objects.filter(stream_id__in=list(wanted), plies__in=depths())
    # an analysis of the match before it ended (asked for while it was played, or an import that stopped there)
    # is done again on the whole match
    stale = existing.filter(match_finished=False, status__in=(MatchAnalysis.DONE, MatchAnalysis.FAILED))
    for stream_id in set(stale.values_list("stream_id", flat=True)):
        analyses_again(stale.filter(stream_id=stream_id), ended_at=wanted[stream_id]["ended_at"])
    # a row asked for before the match ended has no end yet: the log's, as a rebuild would write it
    for stream_id in set(existing.filter(ended_at__isnull=True).values_list("stream_id", flat=True)):
        if wanted[stream_id]["ended_at"] is not None:
            existing.filter(stream_id=stream_id, ended_at__isnull=True).update(ended_at=wanted[stream_id]["ended_at"])
    have = set(existing.values_list("stream_id", "plies"))
    # the quick depth first: all its rows are sent before any deeper one, so every match is shown soon
    new = [MatchAnalysis(stream_id=s, plies=plies, player0_id=m["player_ids"][0], player1_id=m["player_ids"][1],
                         tournament_id=m["tournament_id"], ended_at=m["ended_at"], online=m.get("online", False))
           for plies in depths() for s, m in wanted.items() if (s, plies) not in have]
    if not new:
        return
    try:
        with transaction.atomic():
            created = MatchAnalysis.objects.bulk_create(new)
    except IntegrityError:  # another writer queued one of them meanwhile: one at a time, as get_or_create does
        for match in wanted.values():
            analysis_queue(**match)
        return
    pks = [row.pk for row in created]
    transaction.on_commit(lambda: [send(pk) for pk in pks])


def why_not_analysable(record) -> str | None:
    """Why GNU Backgammon cannot analyse this match, in words a player understands; None when it can. Said
    before anything is queued or exported: what gnubg can never do is not tried again and again."""
    if record.voided is not None:
        return "a voided match is not analysed"
    if not record.state.game:
        return "nothing has been played yet: GNU Backgammon analyses a match once its first game has begun"
    length = record.state.options.length if record.state.options else 0
    if length > GNUBG_MAX_LENGTH:
        return f"GNU Backgammon analyses matches of up to {GNUBG_MAX_LENGTH} points; this one is to {length}"
    return None


def anything_played(stream_id: str) -> bool:
    """Whether the match has a game begun, something for gnubg to analyse."""
    return bool(match_load(stream_id).state.game)


def send(pk: int) -> None:
    from .tasks import analyse_match

    if background.active() and background.leaves(
            MatchAnalysis.objects.filter(pk=pk).values_list("plies", flat=True).first() or 0):
        background.queued_one()  # the embedded default: a deeper depth is the serving process's thread's
        return
    try:
        analyse_match.apply_async((pk,), retry=False)
    except Exception as broker_down:  # noqa: BLE001 - the sweep sends it again
        log.warning("analysis %s not queued (%s); the sweep will", pk, broker_down)


def analysis_run(*, pk: int) -> str:
    """Analyse the row's match unless it is done or being done; return the row's status afterwards."""
    timeout = settings.ANALYSIS_TIMEOUT_SECONDS
    with transaction.atomic():
        row = MatchAnalysis.objects.select_for_update().filter(pk=pk).first()
        if row is None:  # the match was voided, or the projection rebuilt, meanwhile
            return "gone"
        now = timezone.now()
        if row.status in (MatchAnalysis.DONE, MatchAnalysis.FAILED):
            return row.status
        if row.status == MatchAnalysis.RUNNING and row.lease_until and row.lease_until > now:
            return "busy"
        row.status, row.lease_until, row.attempts = MatchAnalysis.RUNNING, now + timedelta(seconds=timeout + LEASE_MARGIN), row.attempts + 1
        row.save(update_fields=["status", "lease_until", "attempts"])
    record = match_load(row.stream_id)
    refused = why_not_analysable(record)
    if refused is not None:  # before the export: a dead letter at once, not three tries of what cannot work
        return _failed(pk, refused, final=True)
    try:
        rows = store.read_stream(row.stream_id, until=record.version)  # the record as loaded: a live match moves on
        per_game = decisions_per_game(rows)
        # the total is announced before gnubg starts (autocommit: the pages see it while it runs)
        MatchAnalysis.objects.filter(pk=pk, status=MatchAnalysis.RUNNING).update(
            decisions_total=sum(per_game), decisions_done=0, games_done=0, games=len(per_game))
        result = gnubg.analyse_mat(match_export_mat(record, rows), plies=row.plies,
                                   gnubg=settings.GNUBG, timeout=timeout, on_progress=_progress(pk, per_game))
    except gnubg.GnubgFailed as failed:
        return _failed(pk, str(failed))
    except Exception as crashed:  # noqa: BLE001 - counted as an attempt: an unexpected error must not loop forever
        log.exception("analysis %s crashed", pk)
        return _failed(pk, f"{type(crashed).__name__}: {crashed}")
    return _store(pk, result, _checker_versions(rows), record)


def _progress(pk: int, per_game: list[int]):
    def report(done: int, games: int) -> None:  # autocommit: the pages see it while gnubg runs
        MatchAnalysis.objects.filter(pk=pk, status=MatchAnalysis.RUNNING).update(
            games_done=done, games=games, decisions_done=sum(per_game[:done]))

    return report


def _failed(pk: int, error: str, *, final: bool = False) -> str:
    """Record a failed run: queued again while attempts remain, else ``failed`` (the dead letter: never sent
    again by the sweep; /api/health/ counts it). ``final``: no attempt can succeed."""
    with transaction.atomic():
        row = MatchAnalysis.objects.select_for_update().filter(pk=pk).first()
        if row is None or row.status == MatchAnalysis.DONE:
            return row.status if row else "gone"
        row.error = error[:4000]
        # tried again by the sweep while attempts remain; then it waits for a rebuild or a request
        row.status = MatchAnalysis.FAILED if final or row.attempts >= MAX_ATTEMPTS else MatchAnalysis.QUEUED
        row.lease_until = None
        row.save(update_fields=["error", "status", "lease_until"])
    log.warning("analysis of %s failed: %s", row.stream_id, error)
    return row.status


def _store(pk: int, result: gnubg.Result, versions: dict, record) -> str:
    player_ids = record.player_ids
    with transaction.atomic():
        row = MatchAnalysis.objects.select_for_update().filter(pk=pk).first()
        if row is None or row.status == MatchAnalysis.DONE:  # another run finished first: its result stands
            return row.status if row else "gone"
        Decision.objects.bulk_create([
            Decision(analysis=row, version=versions.get((d["game"], d["kind"], d["turn"])), **{
                k: d[k] for k in ("game", "turn", "player", "kind", "dice", "played", "best", "equity_played",
                                  "equity_best", "loss", "verdict")})
            for d in result.decisions
        ])
        PlayerFigures.objects.bulk_create([
            # the seat's whole name: gnubg holds 31 bytes of it
            PlayerFigures(analysis=row, side=side, player_id=player_ids[side], **dict(f, name=record.state.players[side]))
            for side, f in enumerate(result.figures)
        ])
        row.status, row.lease_until, row.error = MatchAnalysis.DONE, None, ""
        row.seconds, row.finished_at = result.seconds, timezone.now()
        row.decisions_done = len(result.decisions)
        row.version, row.match_finished = record.version, record.state.phase == OVER
        row.save(update_fields=["status", "lease_until", "error", "seconds", "finished_at", "decisions_done",
                                "version", "match_finished"])
    return MatchAnalysis.DONE


def decisions_per_game(rows) -> list[int]:
    """How many decisions the analysis of each game will store, in the order of the games, counted from the
    match's own events before gnubg runs (the progress's total): the same definition as the rows gnubg_script
    writes — each checker play (a dance included) with more than one legal play; before each play that could
    have been a double, the "no double"; each double; and each take or drop answering it. The cube is
    available as gnubg's ``GetDPEq`` says (centred or the roller's, not the Crawford game, not dead), which is
    the engine's ``may_double``; a money game has no cube decisions in the analysis (the script skips them).
    """
    counts, state, no_double = [], MatchState(), False
    for r in rows:
        if r.event_type in streams.PLATFORM_EVENTS:
            continue
        event = streams.engine_event(r.event_type, r.payload)
        if isinstance(event, engine_events.GameStarted):
            counts.append(0)
        elif isinstance(event, (engine_events.CheckersMoved, engine_events.CannotMove)) and state.phase == MOVE:
            # gnubg shows a "no double" on the play that followed the roll (the roller could have doubled)
            counts[-1] += no_double + (len(legal_moves(state.position, state.dice)) > 1)
            no_double = False
        elif isinstance(event, engine_events.DiceRolled):
            no_double = bool(state.length) and state.phase == ROLL and may_double(state, state.turn)
        elif isinstance(event, engine_events.DoubleOffered) and state.length:
            counts[-1] += 1
        elif isinstance(event, (engine_events.DoubleTaken, engine_events.DoubleDropped)) and state.length:
            counts[-1] += 1
        state = evolve(state, event)
    return counts


_KIND_OF_EVENT = {"CheckersMoved": "move", "CannotMove": "move", "DoubleOffered": "double",
                  "DoubleTaken": "take", "DoubleDropped": "drop"}


def _checker_versions(rows) -> dict[tuple[int, str, int], int]:
    """(game, kind, n-th of that kind in the game) -> the version of its event, as gnubg counts them: the
    checker plays (dances included) and each kind of cube action apart. A "no double" is shown on the play
    that followed it (the player rolled instead)."""
    versions, game, seen = {}, 0, {}
    for r in rows:
        if r.event_type == "GameStarted":
            game, seen = r.payload["game"], {}
        kind = _KIND_OF_EVENT.get(r.event_type)
        if kind:
            n = seen[kind] = seen.get(kind, -1) + 1
            versions[(game, kind, n)] = r.version
            if kind == "move":
                versions[(game, "no double", n)] = r.version
    return versions


def analysis_drop(*, stream_id: str) -> None:
    """A voided match did not count: its analysis leaves the pages and the averages with it."""
    analyses_delete(MatchAnalysis.objects.filter(stream_id=stream_id))


def analyses_delete(rows) -> None:
    """Delete analyses a worker may be storing right now: lock them first (``_store`` locks its row before it
    writes), so a run that finishes meanwhile finds its row gone instead of adding rows under a deleted one."""
    with transaction.atomic():
        pks = list(rows.select_for_update().values_list("pk", flat=True))
        Decision.objects.filter(analysis_id__in=pks).delete()
        PlayerFigures.objects.filter(analysis_id__in=pks).delete()
        MatchAnalysis.objects.filter(pk__in=pks).delete()


def analyses_again(rows, ended_at=None) -> None:
    """Queue these analyses again from nothing (the match has moved on since), locked as :func:`analyses_delete`
    locks them; their tasks are sent on commit."""
    with transaction.atomic():
        pks = list(rows.select_for_update().values_list("pk", flat=True))
        Decision.objects.filter(analysis_id__in=pks).delete()
        PlayerFigures.objects.filter(analysis_id__in=pks).delete()
        fresh = {"status": MatchAnalysis.QUEUED, "lease_until": None, "attempts": 0, "error": "", "games_done": 0,
                 "games": 0, "decisions_done": 0, "decisions_total": 0, "seconds": None, "finished_at": None,
                 "version": None, "match_finished": True, "queued_at": timezone.now()}
        if ended_at is not None:
            fresh["ended_at"] = ended_at
        MatchAnalysis.objects.filter(pk__in=pks).update(**fresh)
        transaction.on_commit(lambda: [send(pk) for pk in pks])


def analyses_sweep() -> int:
    """Send again what a lost message or a killed worker left: queued a while ago, or a lease run out."""
    now = timezone.now()
    stale = now - timedelta(seconds=settings.ANALYSIS_TIMEOUT_SECONDS + LEASE_MARGIN)
    pks = list(MatchAnalysis.objects.filter(status=MatchAnalysis.QUEUED, queued_at__lt=stale)
               .values_list("pk", flat=True)[:500])
    # a run that died every time (a worker killed by its time limit or the kernel) never reached _failed
    for pk in (MatchAnalysis.objects.filter(status=MatchAnalysis.RUNNING, lease_until__lt=now,
                                            attempts__gte=MAX_ATTEMPTS).values_list("pk", flat=True)[:500]):
        _failed(pk, f"stopped before finishing {MAX_ATTEMPTS} times (the worker's time limit or a crash); "
                    "not tried again", final=True)
    pks += list(MatchAnalysis.objects.filter(status=MatchAnalysis.RUNNING, lease_until__lt=now)
                .values_list("pk", flat=True)[:500])
    MatchAnalysis.objects.filter(pk__in=pks, status=MatchAnalysis.QUEUED).update(queued_at=now)
    for pk in pks:
        send(pk)
    return len(pks)
