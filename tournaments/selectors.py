"""Reads of a tournament from its read model."""

from __future__ import annotations

from players.models import Player

from eventlog import store

from . import derive, stream
from .models import Tournament, TournamentSlot, TournamentStanding, TournamentState


def tournament_facts(tournament: Tournament) -> stream.Facts:
    """The fold of the event's own stream: everything it knows, its matches' results included."""
    return stream.fold(store.read_stream(stream.stream_id_of(tournament.pk)))


def tournament_view(tournament: Tournament) -> tuple[stream.Facts, derive.View]:
    facts = tournament_facts(tournament)
    return facts, derive.derive(facts)


def tournament_data(tournament: Tournament) -> dict:
    state = TournamentState.objects.filter(tournament_id=tournament.pk).first()
    slots = list(TournamentSlot.objects.filter(tournament_id=tournament.pk).order_by("bracket", "round", "index"))
    rows = sorted(TournamentStanding.objects.filter(tournament_id=tournament.pk),
                  key=lambda r: (FLIGHT_ORDER.get(r.flight, len(FLIGHT_ORDER)), r.rank))
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
             "score": [s.winner_points, s.loser_points], "forfeit": s.forfeit,
             "table": s.table}
            for s in slots
        ],
        "standings": [
            {"rank": r.rank, "player_id": r.player_id, "name": names.get(r.player_id, ""), "played": r.played,
             "wins": r.wins, "losses": r.losses, "points_for": r.points_for, "points_against": r.points_against,
             "score": r.score, "tiebreaks": r.tiebreaks, "flight": r.flight, "forfeits": r.forfeits,
             "withdrawn": r.withdrawn}
            for r in rows
        ],
    }


FLIGHT_ORDER = {"": 0, "main": 1, "consolation": 2, "last_chance": 3}


def standings_by_flight(data: dict) -> list[dict]:
    """The tables as the page shows them: one per flight, the event's own (with its winner first) first."""
    out: dict[str, dict] = {}
    for row in data["standings"]:
        flight = row["flight"]
        table = out.setdefault(flight, {"key": flight, "name": BRACKET_NAMES.get(flight, "") if flight else "",
                                        "rows": []})
        champion = data["winner"] if flight in ("", "main") else data["champions"].get(flight)
        table["rows"].append({**row, "champion": champion is not None and row["player_id"] == champion})
    return list(out.values())


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


def tournament_history(tournament: Tournament) -> list[dict]:
    """What the director and the players decided, in order, with the reasons given: results on paper,
    forfeits, withdrawals, corrections, voids and kept matches (the facts themselves, read from the log)."""
    rows = store.read_stream(stream.stream_id_of(tournament.pk))
    for r in rows:  # old names read as today's (the tournament's correction was once "ResultCorrected")
        r.event_type, r.payload = stream.upcast(r.event_type, r.schema_version, r.payload)
    ids = {p for r in rows for p in (r.payload.get("winner"), r.payload.get("loser"), r.payload.get("player_id")) if p}
    names = dict(Player.objects.filter(pk__in=ids).values_list("pk", "display_name"))

    def result(p: dict) -> str:
        return f"{names.get(p['winner'], '?')} beat {names.get(p['loser'], '?')} {p['winner_points']}–{p['loser_points']}"

    from .names import slot_name  # round names for people (``main:r1:m1`` is the program's)

    out = []
    for r in rows:
        p, kind = r.payload, r.event_type
        if kind == "ResultReported":
            by = "by both players" if p.get("reported_by") == "players" else "by the director"
            line = {"text": f"{slot_name(p['slot'])}: result reported {by}: {result(p)}"}
        elif kind == "SlotResultCorrected":
            line = {"text": f"{slot_name(p['slot'])}: result corrected: {result(p)}", "reason": p.get("reason", "")}
        elif kind == "MatchForfeited":
            line = {"text": f"{slot_name(p['slot'])}: {names.get(p['loser'], '?')} forfeited to {names.get(p['winner'], '?')} "
                            "(score unknown)", "reason": p.get("reason", "")}
        elif kind == "PlayerWithdrew":
            line = {"text": f"{names.get(p['player_id'], '?')} withdrew", "reason": p.get("reason", "")}
        elif kind == "MatchKept":
            line = {"text": f"{slot_name(p['slot'])}: the director kept the match played before a correction"}
        elif kind == "SlotMatchVoided":
            line = {"text": f"{slot_name(p['slot'])}: match voided", "reason": p.get("reason", "")}
        else:
            continue
        out.append({"at": r.recorded_at, "reason": "", **line})
    return out


def published_event_ids(ids: set[int]) -> set[int]:
    """Which of these events are public: what the ratings ask (``settings.PUBLISHED_EVENTS_PROVIDER``) to hide the
    results of hidden events, without importing tournaments."""
    return set(Tournament.objects.filter(pk__in=ids, published=True).values_list("pk", flat=True))
