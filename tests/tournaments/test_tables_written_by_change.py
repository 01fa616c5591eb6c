"""An event's slots and standings are rewritten only where a new fact changes them, and the tables stay what a
rebuild from the log makes, shared places in the order they were derived in."""

import pytest
from django.core.management import call_command

from eventlog import projections
from players.models import Player
from tests.tournaments.test_running_events import report, settle, start
from tournaments.models import TournamentSlot, TournamentStanding

pytestmark = pytest.mark.django_db


def _ids(model, t, key):
    return {key(row): row.pk for row in model.objects.filter(tournament_id=t.pk)}


def _tables(t):
    """Every derived column of the event's rows, ids left out, in the order the pages read them."""
    slots = TournamentSlot.objects.filter(tournament_id=t.pk).order_by("bracket", "round", "index")
    standings = TournamentStanding.objects.filter(tournament_id=t.pk).order_by("flight", "rank", "position")
    return ([{f: v for f, v in row.__dict__.items() if f not in ("_state", "id")} for row in slots],
            [{f: v for f, v in row.__dict__.items() if f not in ("_state", "id")} for row in standings])


def test_a_result_rewrites_its_own_slot_and_leaves_the_others_rows_alone(make_user):
    director = make_user("dora", player=False)
    players = [Player.objects.create(display_name=f"Seed {i}").pk for i in range(1, 9)]
    t = start(director, players)
    data = settle(t)
    slots_before = _ids(TournamentSlot, t, lambda s: s.key)
    first = next(s for s in data["slots"] if s["round"] == 1 and all(s["players"]))

    report(t, director, data, first["key"], first["players"][0])
    projections.run_all()

    slots_after = _ids(TournamentSlot, t, lambda s: s.key)
    assert slots_after.keys() == slots_before.keys()
    rewritten = {key for key in slots_after if slots_after[key] != slots_before[key]}
    # the slot decided, and the next round's slot its winner now waits in: nothing else
    assert first["key"] in rewritten and len(rewritten) <= 2
    assert TournamentSlot.objects.get(tournament_id=t.pk, key=first["key"]).winner == first["players"][0]


def test_the_tables_written_by_change_are_those_a_rebuild_writes(make_user):
    director = make_user("dora", player=False)
    players = [Player.objects.create(display_name=f"Seed {i}").pk for i in range(1, 9)]
    t = start(director, players, fmt="swiss", rounds=3)
    data = settle(t)
    for _ in range(2):  # two rounds decided, a result at a time: most standings change, shared ranks appear
        for s in [s for s in data["slots"] if s["status"] == "ready" and all(s["players"])]:
            report(t, director, data, s["key"], min(s["players"]))
            projections.run_all()
        data = settle(t)
    written = _tables(t)

    call_command("rebuild_projections", stdout=open("/dev/null", "w"))

    assert _tables(t) == written


def test_a_standing_that_only_moves_keeps_its_row_and_gets_its_new_place(make_user):
    director = make_user("dora", player=False)
    players = [Player.objects.create(display_name=f"Seed {i}").pk for i in range(1, 9)]
    t = start(director, players, fmt="swiss", rounds=3)
    data = settle(t)
    for s in [s for s in data["slots"] if s["status"] == "ready" and all(s["players"])]:
        report(t, director, data, s["key"], min(s["players"]))
    projections.run_all()
    data = settle(t)

    def rows():
        return {r.player_id: r for r in TournamentStanding.objects.filter(tournament_id=t.pk, flight="")}

    before = rows()
    s = next(s for s in data["slots"] if s["status"] == "ready" and all(s["players"]))
    report(t, director, data, s["key"], max(s["players"]))  # the lower seed wins: others' places move
    projections.run_all()
    after = rows()

    def rest(row):
        return {f: v for f, v in row.__dict__.items() if f not in ("_state", "id", "rank", "position")}

    moved = [p for p in after if rest(after[p]) == rest(before[p])
             and (after[p].rank, after[p].position) != (before[p].rank, before[p].position)]
    assert moved, "the result moved nobody else's place: the test shows nothing"
    assert all(after[p].pk == before[p].pk for p in moved)
    assert all(after[p].pk != before[p].pk for p in s["players"])  # their results changed: their rows replaced
