"""The ``tournament_view`` projection: brackets, pairings, standings and flags of every event.

A function of each tournament's own stream: its matches' results reach it as facts of that stream
(``tournaments/process.py`` appends them). It starts nothing: the process manager decides what to do next.
"""

from __future__ import annotations

from django.db import InterfaceError, OperationalError, connection

from eventlog.projections import Projection, StreamFailed
from tournaments.formats.knockout import OpenPlace

from . import decider, event_page, events, folding, stages, stream
from .models import Tournament, TournamentSlot, TournamentStanding, TournamentState

OPEN_PLACE = str(OpenPlace())


class TournamentViewProjection(Projection):
    name = "tournament_view"
    digested = (TournamentState, TournamentSlot, TournamentStanding)
    event_types = tuple(events.EVENTS)  # the tournament stream's own events (old names upcast by the runner)

    def apply(self, batch) -> None:
        touched = dict.fromkeys(stream.tournament_pk_of(e.stream_id) for e in batch
                                if e.stream_type == stream.STREAM_TYPE)
        for pk in touched:
            tournament = Tournament.objects.filter(pk=pk).first()
            if tournament is None:
                continue
            try:
                version = refresh(tournament)
            except (OperationalError, InterfaceError):
                raise  # the database, not the stream: the run stops and is retried
            except Exception as failure:  # noqa: BLE001 - the runner sets the event's stream aside, not another
                raise StreamFailed(stream.stream_id_of(pk)) from failure
            # its page built from the tables just written, before they are committed: no reader waits for it
            event_page.warm(tournament, version)

    def reset(self) -> None:
        for model in (TournamentState, TournamentSlot, TournamentStanding):
            model.objects.all().delete()


def refresh(tournament: Tournament) -> int:
    """Rewrite one event's rows; return the version of its stream they were derived at."""
    facts, view = folding.read_only(tournament.pk)  # as the process manager derived it just before, mostly
    pk = tournament.pk
    needs = decider.needs_advance(facts, view)
    TournamentState.objects.update_or_create(tournament_id=pk, defaults={
        "format": facts.format, "version": facts.version, "entries": facts.entered,
        "checked_in": sorted(facts.checked_in), "withdrawn": sorted(facts.withdrawn), "drawn": facts.drawn,
        "winner": view.winner, "champions": view.champions, "flagged": view.flagged,
        "awaiting_draw": list(view.awaiting_draw), "needs_advance": needs,
        "stages": stages.stages_of(facts), "reentry": stages.reentry_of(facts, view),
        "tiebreaks": list(facts.config.get("tiebreaks", ())),
    })
    _write_changed(TournamentSlot, pk, ("key",), [
        dict(key=s.key, bracket=s.bracket, round=s.round, index=s.index, player_a=s.players[0],
             player_b=s.players[1], status=s.status, length=s.length,
             match_id=(facts.matches.get(s.key) or {}).get("match_id", ""),
             winner=s.result.winner if s.result else None,
             winner_points=s.result.winner_points if s.result else 0,
             loser_points=s.result.loser_points if s.result else 0, forfeit=bool(s.result and s.result.forfeit),
             table=facts.tables.get(s.key),
             entry_a=s.entries[0], entry_b=s.entries[1], open_place=s.sources[1] == OPEN_PLACE)
        for s in view.slots
    ])
    forfeits: dict[tuple[str, int], int] = {}
    for s in view.slots:
        if s.result is not None and s.result.forfeit:
            for flight in {"", s.bracket}:
                forfeits[flight, s.result.loser] = forfeits.get((flight, s.result.loser), 0) + 1
    # a result moves the rank and place of everyone between a player's old row and new one (hundreds in a big
    # Swiss) and changes little else: those rows have just their two numbers set
    _write_changed(TournamentStanding, pk, ("flight", "player_id"), [
        dict(player_id=r.player, rank=r.rank, played=r.played, wins=r.wins, losses=r.losses,
             byes=r.byes, points_for=r.points_for, points_against=r.points_against, score=r.score,
             tiebreaks=r.tiebreaks, flight=flight, forfeits=forfeits.get((flight, r.player), 0),
             withdrawn=r.player in facts.withdrawn, shared=r.shared, position=position)
        for flight, rows in view.flights.items() for position, r in enumerate(rows)
    ], moved=("rank", "position"))
    return facts.version


def _write_changed(model, tournament_id: int, key: tuple[str, ...], wanted: list[dict],
                   moved: tuple[str, ...] = ()) -> None:
    """Make the event's rows of ``model`` the ``wanted`` ones (each its fields' values, ``key`` naming a row),
    writing only the rows that differ: a result changes a few of a big event's thousand slots and standings, and
    writing them all again was most of what a result cost the projection. A row that differs only in ``moved``
    (integer fields) has those set, all such rows in one statement; another changed row is replaced (its id is
    nobody's reference: every id was new at each result before)."""
    fields = list(wanted[0]) if wanted else []
    stored = {tuple(row[k] for k in key): row
              for row in model.objects.filter(tournament_id=tournament_id).values("id", *fields)}
    stale, fresh, shifted = [], [], []
    for values in wanted:
        row = stored.pop(tuple(values[k] for k in key), None)
        differ = [f for f in fields if row is None or row[f] != values[f]]
        if not differ:
            continue
        if moved and row is not None and set(differ) <= set(moved):
            shifted.append([row["id"], *(values[f] for f in moved)])
            continue
        if row is not None:
            stale.append(row["id"])
        fresh.append(model(tournament_id=tournament_id, **values))
    stale.extend(row["id"] for row in stored.values())
    if shifted:
        _set_moved(model, moved, shifted)
    if stale:
        model.objects.filter(id__in=stale).delete()
    model.objects.bulk_create(fresh)


def _set_moved(model, moved: tuple[str, ...], rows: list[list[int]]) -> None:
    """``UPDATE ... FROM`` a table of (id, *moved) values: on PostgreSQL one statement of arrays, on SQLite
    statements of ``VALUES``."""
    table, pk = model._meta.db_table, model._meta.pk.column
    columns = [model._meta.get_field(f).column for f in moved]
    names = ", ".join(f"v{i}" for i in range(len(columns)))
    sets = ", ".join(f"{column} = moved.v{i}" for i, column in enumerate(columns))
    if connection.vendor == "postgresql":
        # a column of values as one array each, not one placeholder per value: psycopg parses a statement too long
        # for its cache again at each call, and a result moves hundreds of a big event's rows
        arrays = ", ".join(["%s::bigint[]"] * (len(columns) + 1))
        with connection.cursor() as cursor:
            cursor.execute(
                f"UPDATE {table} SET {sets} FROM unnest({arrays}) AS moved(row_id, {names}) "
                f"WHERE {table}.{pk} = moved.row_id", [list(column) for column in zip(*rows, strict=True)])
        return
    placeholders = "(" + ", ".join(["%s"] * (len(columns) + 1)) + ")"
    for start in range(0, len(rows), _MOVED_PER_STATEMENT):
        batch = rows[start:start + _MOVED_PER_STATEMENT]
        with connection.cursor() as cursor:
            cursor.execute(
                f"WITH moved(row_id, {names}) AS (VALUES {', '.join([placeholders] * len(batch))}) "
                f"UPDATE {table} SET {sets} FROM moved WHERE {table}.{pk} = moved.row_id",
                [value for row in batch for value in row])


_MOVED_PER_STATEMENT = 300  # SQLite takes at most 999 parameters a statement before 3.32
