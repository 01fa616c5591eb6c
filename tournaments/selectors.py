"""Reads of a tournament from its read model."""

from __future__ import annotations

from players.models import Player

from .models import Tournament, TournamentSlot, TournamentStanding, TournamentState


def tournament_data(tournament: Tournament) -> dict:
    state = TournamentState.objects.filter(tournament_id=tournament.pk).first()
    slots = list(TournamentSlot.objects.filter(tournament_id=tournament.pk).order_by("bracket", "round", "index"))
    rows = list(TournamentStanding.objects.filter(tournament_id=tournament.pk).order_by("rank"))
    ids = {p for s in slots for p in (s.player_a, s.player_b) if p} | {r.player_id for r in rows}
    ids |= set(state.entries if state else [])
    names = dict(Player.objects.filter(pk__in=ids).values_list("pk", "display_name"))
    return {
        "id": tournament.pk,
        "name": tournament.name,
        "club": tournament.club_id,
        "director": tournament.director_id,
        "format": state.format if state else None,
        "version": state.version if state else 0,
        "entries": [{"player_id": p, "name": names.get(p, "")} for p in (state.entries if state else [])],
        "checked_in": state.checked_in if state else [],
        "withdrawn": state.withdrawn if state else [],
        "drawn": bool(state and state.drawn),
        "winner": state.winner if state else None,
        "champions": state.champions if state else {},
        "flagged": state.flagged if state else [],
        "slots": [
            {"key": s.key, "bracket": s.bracket, "round": s.round, "index": s.index,
             "players": [s.player_a, s.player_b], "names": [names.get(s.player_a), names.get(s.player_b)],
             "status": s.status, "length": s.length, "match_id": s.match_id or None, "winner": s.winner,
             "score": [s.winner_points, s.loser_points], "forfeit": s.forfeit}
            for s in slots
        ],
        "standings": [
            {"rank": r.rank, "player_id": r.player_id, "name": names.get(r.player_id, ""), "played": r.played,
             "wins": r.wins, "losses": r.losses, "points_for": r.points_for, "points_against": r.points_against,
             "score": r.score, "tiebreaks": r.tiebreaks}
            for r in rows
        ],
    }


BRACKET_NAMES = {
    "main": "Main", "consolation": "Consolation", "last_chance": "Last Chance", "winners": "Winners",
    "losers": "Losers", "grand_final": "Grand final", "swiss": "Rounds", "rr": "Rounds",
}


def bracket_columns(data: dict) -> list[dict]:
    """Slots grouped bracket by bracket, round by round, as the page draws them."""
    out: dict[str, dict] = {}
    for s in data["slots"]:
        bracket = out.setdefault(s["bracket"], {"name": BRACKET_NAMES.get(s["bracket"], s["bracket"]), "rounds": {}})
        bracket["rounds"].setdefault(s["round"], []).append(s)
    return [{"key": k, "name": v["name"], "rounds": [v["rounds"][r] for r in sorted(v["rounds"])]} for k, v in out.items()]


TIEBREAK_LABELS = {"buchholz": "Buchholz", "median_buchholz": "Median Buchholz",
                   "sonneborn_berger": "Sonneborn-Berger", "points_diff": "Points difference"}


def tiebreak_names(data: dict) -> list[str]:
    names = list(data["standings"][0]["tiebreaks"]) if data["standings"] else []
    return [TIEBREAK_LABELS.get(n, n) for n in names]
