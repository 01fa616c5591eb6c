"""The ``tournament_view`` projection: brackets, pairings, standings and flags of every event."""

from __future__ import annotations

from django.db import InterfaceError, OperationalError, transaction

from eventlog.projections import Projection, StreamFailed

from . import stream
from .models import Tournament, TournamentMatchIndex, TournamentSlot, TournamentStanding, TournamentState


class TournamentViewProjection(Projection):
    name = "tournament_view"
    # the tournament stream's own events, and the few match events that change a bracket
    event_types = (
        "TournamentConfigured", "PlayerEntered", "PlayerCheckedIn", "PlayerWithdrew", "DrawMade", "RoundPaired",
        "PairingForbidden", "MatchCreated", "ResultReported", "ResultConfirmed", "ResultCorrected", "MatchForfeited",
        "MatchKept", "MatchRegistered", "GameStarted", "MatchWon", "MatchVoided", "MatchClosed",
    )

    def apply(self, events) -> None:
        touched: dict[int, None] = {}
        for e in events:
            if e.stream_type == stream.STREAM_TYPE:
                touched[int(e.stream_id.rsplit("-", 1)[1])] = None
            elif e.stream_type == "match":
                if e.event_type == "MatchRegistered" and e.payload.get("tournament_id"):
                    TournamentMatchIndex.objects.get_or_create(
                        match_id=e.stream_id, defaults={"tournament_id": e.payload["tournament_id"]}
                    )
                linked = TournamentMatchIndex.objects.filter(match_id=e.stream_id).values_list("tournament_id", flat=True)
                touched.update(dict.fromkeys(linked))
        for pk in touched:
            stream_id = stream.stream_id_of(pk)
            if stream_id in self.quarantined:
                continue  # its own stream cannot be folded: its matches' events wait with it
            tournament = Tournament.objects.filter(pk=pk).first()
            if tournament is not None:
                try:
                    needs_advance = refresh(tournament)
                except (OperationalError, InterfaceError):
                    raise  # the database, not the stream: the run stops and is retried
                except Exception as failure:  # noqa: BLE001 - the runner sets the event's stream aside, not this one
                    raise StreamFailed(stream_id) from failure
                if needs_advance:
                    from .tasks import request_advance

                    transaction.on_commit(lambda pk=pk: request_advance(pk))

    def reset(self) -> None:
        for model in (TournamentState, TournamentSlot, TournamentStanding, TournamentMatchIndex):
            model.objects.all().delete()


def refresh(tournament: Tournament) -> bool:
    """Rewrite one event's rows; True when the process manager has something to do."""
    from .services import tournament_view

    facts, view = tournament_view(tournament)
    pk = tournament.pk
    TournamentState.objects.update_or_create(tournament_id=pk, defaults={
        "format": facts.format, "version": facts.version, "entries": facts.entered,
        "checked_in": sorted(facts.checked_in), "withdrawn": sorted(facts.withdrawn), "drawn": facts.drawn,
        "winner": view.winner, "champions": view.champions, "flagged": view.flagged,
        "awaiting_draw": list(view.awaiting_draw),
    })
    TournamentSlot.objects.filter(tournament_id=pk).delete()
    TournamentSlot.objects.bulk_create(
        TournamentSlot(
            tournament_id=pk, key=s.key, bracket=s.bracket, round=s.round, index=s.index, player_a=s.players[0],
            player_b=s.players[1], status=s.status, length=s.length,
            match_id=(facts.matches.get(s.key) or {}).get("match_id", ""),
            winner=s.result.winner if s.result else None,
            winner_points=s.result.winner_points if s.result else 0,
            loser_points=s.result.loser_points if s.result else 0, forfeit=bool(s.result and s.result.forfeit),
        )
        for s in view.slots
    )
    TournamentStanding.objects.filter(tournament_id=pk).delete()
    forfeits: dict[tuple[str, int], int] = {}
    for s in view.slots:
        if s.result is not None and s.result.forfeit:
            for flight in {"", s.bracket}:
                forfeits[flight, s.result.loser] = forfeits.get((flight, s.result.loser), 0) + 1
    TournamentStanding.objects.bulk_create(
        TournamentStanding(
            tournament_id=pk, player_id=r.player, rank=r.rank, played=r.played, wins=r.wins, losses=r.losses,
            points_for=r.points_for, points_against=r.points_against, score=r.score, tiebreaks=r.tiebreaks,
            flight=flight, forfeits=forfeits.get((flight, r.player), 0), withdrawn=r.player in facts.withdrawn,
        )
        for flight, rows in view.flights.items() for r in rows
    )
    needs = _needs_advance(facts, view)
    TournamentState.objects.filter(tournament_id=pk).update(needs_advance=needs)
    return needs


def _needs_advance(facts, view) -> bool:
    pending_swiss = facts.format == "swiss" and facts.config.get("auto_pair", True) and view.slots and (
        len(facts.rounds) < facts.config.get("rounds", 0) and all(s.status in ("done", "bye") for s in view.slots)
    )
    return bool(view.to_create or view.to_close or [f for f in view.flagged if not f["started"]] or pending_swiss
                or (facts.format == "swiss" and facts.corrected_at > (facts.round_paired_at or [0])[-1]))
