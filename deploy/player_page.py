"""A member's page: their rating (ratings) beside their results event by event (tournaments).

It joins two apps that do not know each other, so it lives here, at the composition root, rather than in either."""

from django.shortcuts import get_object_or_404, render

from players.models import Player
from ratings import records
from ratings import selectors as ratings
from tournaments import placings
from tournaments.console_money import amount_text
from tournaments.models import Tournament, TournamentStanding, TournamentState
from tournaments.selectors import bracket_name, bye_rule, place_label, winnings_of

from . import rating_chart


def player_page(request, pk: int):
    """A member's rating, its history as a chart, their records, and their results event by event."""
    player = get_object_or_404(Player, pk=pk)
    history = ratings.rating_history(player.pk, viewer=request.user)
    events = {t.pk: t for t in Tournament.objects.filter(published=True)}
    for h in history:  # a row names its event (if published) rather than a match id
        h["event"] = events.get(h["tournament_id"])
        h["link"] = h["match_id"] if h["tournament_id"] is None or h["event"] else None  # a hidden event's: none
    rows = [r for r in TournamentStanding.objects.filter(player_id=player.pk).order_by("-tournament_id")
            if r.tournament_id in events]
    states = {s.tournament_id: s
              for s in TournamentState.objects.filter(tournament_id__in={r.tournament_id for r in rows})}
    results = [  # a place is a result only once the event is over: until then it is the standing so far, marked so
        {"event": events[r.tournament_id], "rank": r.rank, "place": place_label(r.rank, r.shared),
         "finished": placings.is_finished(states.get(r.tournament_id)), "played": r.played, "wins": r.wins,
         "losses": r.losses, "byes": r.byes,
         "bye_is_win": bye_rule(getattr(states.get(r.tournament_id), "format", None), r.flight) == "win"}
        for r in rows
    ]
    played = records.player_results(player.pk, viewer=request.user)
    opponents = records.opponents(player.pk, results=played)
    person = records.person_of(player.pk)  # a merged duplicate's records are its kept player's
    return render(request, "tournaments/player.html", {
        "player": player, "rating": ratings.player_rating(player.pk), "history": history,
        "chart": rating_chart.chart(history), "results": results,
        "records": records.player_records(player.pk, results=played),
        "opponents": opponents[:OPPONENTS_SHOWN], "more_opponents": max(0, len(opponents) - OPPONENTS_SHOWN),
        "person": Player.objects.filter(pk=person).first() if person != player.pk else None,
        "best": [{**b, "place_label": place_label(b["place"], b["shared"]), "flight_name": bracket_name(b["flight"])}
                 for b in placings.best_results(player.pk)[:BEST_SHOWN]],
        "winnings": [{**w, "amount": amount_text(w["share"], w["currency"])} for w in winnings_of(player.pk)],
    })


OPPONENTS_SHOWN = 10  # the page shows the most frequent; the API pages through them all
BEST_SHOWN = 5


def head_to_head_page(request, pk: int, other: int):
    """Two players' matches against each other, from the first one's side."""
    player, opponent = get_object_or_404(Player, pk=pk), get_object_or_404(Player, pk=other)
    h2h = records.head_to_head(player.pk, opponent.pk, viewer=request.user)
    events = {t.pk: t for t in Tournament.objects.filter(published=True)}
    for m in h2h["results"]:
        m["event"] = events.get(m["tournament_id"])
        m["won"] = m["winner_id"] == h2h["player_id"]
    known = {p.pk: p for p in Player.objects.filter(pk__in=[h2h["player_id"], h2h["opponent_id"]])}
    return render(request, "tournaments/head_to_head.html", {
        "player": known.get(h2h["player_id"], player), "opponent": known.get(h2h["opponent_id"], opponent), "h2h": h2h,
    })
