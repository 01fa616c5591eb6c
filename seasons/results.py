"""What a tournament gave each player, as a season reads it: read from the tournament's own stream alone
(its slots' results, the director's corrections included), so a corrected result changes the season too."""

from __future__ import annotations

from datetime import date

from eventlog import store
from tournaments import derive, stream

from . import scoring

MAIN_FLIGHTS = ("", "main")  # the event's own table: a single table, or a knock-out's main flight


def finishes_of(tournament_id: int) -> tuple[bool, bool, bool, int, list[dict]]:
    """(finished, rated, published, field size, [{"player", "place", "wins": [[bracket, round, forfeit, rated],
    ...]}]).

    Places are the event's main table's (the champion first; consolation and last chance are side events,
    whose matches still count as wins in their own brackets). An event counts for a season once it has its
    winner, and only while it is rated (an unrated event's matches stay out of the season tables) and published
    (a hidden event counts nowhere public: its stream's last ``VisibilitySet``); an unrated slot's win is not
    counted."""
    facts = stream.fold(store.read_stream(stream.stream_id_of(tournament_id)))
    view = derive.derive(facts)
    rows = next((view.flights[f] for f in MAIN_FLIGHTS if f in view.flights), [])
    if view.winner is None or not rows:
        return False, facts.event_rated, facts.published, 0, []
    wins: dict[int, list] = {}
    for slot in view.slots:
        result = slot.result
        if result is not None and result.winner is not None:
            wins.setdefault(result.winner, []).append([slot.bracket, slot.round, bool(result.forfeit),
                                                       facts.slot_rated(slot.key)])
    finishes = [{"player": r.player, "place": r.rank, "wins": wins.get(r.player, [])} for r in rows]
    return True, facts.event_rated, facts.published, len(rows), finishes


def event_result(tournament_id: int, on: date, field_size: int, finishes: list[dict]) -> scoring.EventResult:
    return scoring.EventResult(tournament_id, on, field_size, tuple(
        scoring.Finish(f["player"], f["place"], tuple(scoring.Win(*win) for win in f["wins"]))
        for f in finishes))
