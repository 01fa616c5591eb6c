"""A player's finishing places in finished, published events: the "best results" of their records.

Read from the standings projection (``TournamentStanding``), so it is a function of the log like the standings.
A place in an event still being played is not a result yet: only events with a winner count. Merged players
(``players/identity.py``): a duplicate's places count as its kept player's.
"""

from __future__ import annotations

from django.db.models import Count

from players.selectors import player_identities

from .models import Tournament, TournamentStanding, TournamentState


def best_results(player_id: int) -> list[dict]:
    """Best first: the lower place, then the larger field, then the later event. One row per event and flight."""
    identities = player_identities()
    person = identities.of(player_id)
    ids = {person} | {d for d, k in identities.merged_into.items() if k == person}
    rows = list(TournamentStanding.objects.filter(player_id__in=ids))
    finished = {s.tournament_id for s in TournamentState.objects.filter(tournament_id__in={r.tournament_id for r in rows})
                if is_finished(s)}
    events = {t.pk: t for t in Tournament.objects.filter(pk__in=finished, published=True)}
    fields = {(f["tournament_id"], f["flight"]): f["n"] for f in
              TournamentStanding.objects.filter(tournament_id__in=events).values("tournament_id", "flight")
              .annotate(n=Count("id"))}
    out = [{"tournament_id": r.tournament_id, "event": events[r.tournament_id].name, "flight": r.flight,
            "place": r.rank, "shared": r.shared, "field": fields.get((r.tournament_id, r.flight), 0), "wins": r.wins,
            "losses": r.losses,
            "date": events[r.tournament_id].starts_on or events[r.tournament_id].created_at.date()}
           for r in rows if r.tournament_id in events]
    out.sort(key=lambda x: (x["place"], -x["field"], -x["tournament_id"]))
    return out


def is_finished(state: TournamentState | None) -> bool:
    """The event has its winner, or every flight has its champion (a flight still playing has ``None``)."""
    if state is None:
        return False
    return state.winner is not None or (bool(state.champions) and all(c is not None for c in state.champions.values()))
