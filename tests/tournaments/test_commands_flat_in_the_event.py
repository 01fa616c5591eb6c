"""A command judged on a big event costs what it costs on a small one: a result's judgement derives the slots
without ranking every player (derive's ``tables=False``), and the process manager starts each event's facts
from its snapshot instead of folding the whole stream once a batch."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from eventlog import store
from players.models import Player
from tournaments import derive, folding, process, services, stream
from tournaments.selectors import tournament_facts


def swiss_with_results(director, n=8):
    t = services.tournament_create(actor=director, name="Swiss night", format="swiss",
                                   settings={"rounds": 3, "auto_pair": False})
    field = [Player.objects.create(display_name=f"S{i}").pk for i in range(n)]
    for p in field:
        services.tournament_command(actor=director, tournament=t, command={"type": "enter", "player": p})
    services.tournament_command(actor=director, tournament=t, command={"type": "draw", "method": "manual",
                                                                        "seeds": field})
    view = derive.derive(tournament_facts(t))
    for s in [s for s in view.slots if s.status == "ready"][:2]:
        services.tournament_command(actor=director, tournament=t, command={
            "type": "report_result", "slot": s.key, "winner": s.players[0], "score": [s.length, 0]})
    return t


@pytest.mark.django_db(transaction=True)
def test_the_slots_without_the_table_are_the_whole_views_slots(make_user):
    t = swiss_with_results(make_user("dora", official=True))
    facts = tournament_facts(t)
    whole, slots = derive.derive(facts), derive.derive(facts, tables=False)
    assert whole.standings and not slots.standings
    assert slots.slots == whole.slots
    assert (slots.flagged, slots.to_create, slots.to_close) == (whole.flagged, whole.to_create, whole.to_close)
    assert [s.key for s in whole.slots if s.result] and all(
        a.result == b.result for a, b in zip(slots.slots, whole.slots))


@pytest.mark.django_db(transaction=True)
def test_the_process_manager_reads_an_events_stream_from_its_snapshot(make_user):
    t = swiss_with_results(make_user("dora", official=True))
    sid = stream.stream_id_of(t.pk)
    folding.SNAPSHOTS.forget()
    tournament_facts(t)  # committed: the snapshot is held
    held = folding.SNAPSHOTS.held(sid)
    assert held is not None and held.version > 1
    with CaptureQueriesContext(connection) as reads:
        facts = process._Run(frozenset()).state(t.pk)
    assert facts == stream.fold(store.read_stream(sid))
    log_reads = [q["sql"] for q in reads.captured_queries if "eventlog_event" in q["sql"]]
    assert len(log_reads) == 1 and f'"version" > {held.version - 1}' in log_reads[0]
