"""What an event gave each player, published (``published.tournaments.EventFinishes``) for whoever scores events
(the seasons): read from the event's own stream alone (its slots' results, the director's corrections
included), so a corrected result changes them too."""

from __future__ import annotations

from published.tournaments import EventFinishes, Finish, Win

from . import folding

MAIN_FLIGHTS = ("", "main")  # the event's own table: a single table, or a knock-out's main flight


def event_finishes(tournament_id: int) -> EventFinishes:
    """Places are the event's main table's (the champion first; consolation and last chance are side events,
    whose matches still count as wins in their own brackets). An event is finished once it has its winner; an
    unrated slot's win says so (``rated``); a team event once its table of teams is final."""
    facts, view = folding.read_only(tournament_id)  # the derive the event's own followers share
    rows = next((view.flights[f] for f in MAIN_FLIGHTS if f in view.flights), [])
    # a team event is won by a team (its table of teams), once every board is settled: its players' places are
    # their own boards' table
    won = view.winner is not None or (view.teams is not None and view.teams.winner is not None)
    if not won or not rows:
        return EventFinishes(False, facts.event_rated, facts.published)
    wins: dict[int, list[Win]] = {}
    for slot in view.slots:
        result = slot.result
        if result is not None and result.winner is not None:
            wins.setdefault(result.winner, []).append(Win(slot.bracket, slot.round, bool(result.forfeit),
                                                          facts.slot_rated(slot.key)))
    return EventFinishes(True, facts.event_rated, facts.published,
                         tuple(Finish(r.player, r.rank, tuple(wins.get(r.player, ()))) for r in rows))
