"""An event's facts start from a snapshot and fold only the events after it (tournaments/folding.py): the same
facts as a fold of the whole stream, one read of the log, and a snapshot of another stream under the same id
never used."""

import pytest
from django.db import transaction
from django.db import connection
from django.test.utils import CaptureQueriesContext

from eventlog import store
from players.models import Player
from tournaments import folding, services, stream
from tournaments.selectors import tournament_facts


def whole(t) -> stream.Facts:
    return stream.fold(store.read_stream(stream.stream_id_of(t.pk)))


def swiss(director, n=8):
    t = services.tournament_create(actor=director, name="Swiss night", format="swiss", settings={"rounds": 3})
    for i in range(n):
        p = Player.objects.create(display_name=f"S{i}").pk
        services.tournament_command(actor=director, tournament=t, command={"type": "enter", "player": p})
        services.tournament_command(actor=director, tournament=t, command={"type": "check_in", "player": p})
    return t


@pytest.mark.django_db(transaction=True)
def test_facts_folded_on_from_a_snapshot_are_the_whole_streams(make_user):
    director = make_user("dora", official=True)
    t = swiss(director)
    sid = stream.stream_id_of(t.pk)
    folding.SNAPSHOTS.forget()
    assert tournament_facts(t) == whole(t)  # committed: the snapshot is kept
    held = folding.SNAPSHOTS.held(sid)
    assert held is not None and held.version == whole(t).version
    services.tournament_command(actor=director, tournament=t, command={"type": "draw", "method": "rating"})
    with CaptureQueriesContext(connection) as reads:
        facts = tournament_facts(t)
    assert facts == whole(t) and facts.drawn and facts.version > held.version
    log_reads = [q["sql"] for q in reads.captured_queries if "eventlog_event" in q["sql"]]
    assert len(log_reads) == 1  # the events after the snapshot (and its last one, to know it is this stream's)
    facts.entered.append(999_999)  # what a reader does with its facts is its own
    assert 999_999 not in tournament_facts(t).entered


@pytest.mark.django_db(transaction=True)
def test_a_snapshot_of_another_stream_under_the_same_id_is_not_used(make_user):
    director = make_user("dora", official=True)
    t = swiss(director, n=4)
    sid = stream.stream_id_of(t.pk)
    stranger = stream.Facts(version=2, config={"format": "ladder"})
    folding.SNAPSHOTS.forget(sid)
    folding.SNAPSHOTS.hold(sid, folding.Folded(2, -1, stranger))  # as after the log was emptied and refilled
    assert tournament_facts(t) == whole(t) and tournament_facts(t).format == "swiss"


@pytest.mark.django_db
def test_a_snapshot_is_kept_for_every_reader_only_once_its_transaction_commits(make_user):
    """Until then only its own transaction starts from it (it alone sees what it appended); a rollback, of a
    savepoint here, takes it away with what it read."""
    director = make_user("dora", official=True)
    t = swiss(director, n=2)
    sid = stream.stream_id_of(t.pk)
    folding.SNAPSHOTS.forget()
    with transaction.atomic():
        assert tournament_facts(t) == whole(t)
        assert folding.SNAPSHOTS.held(sid) is not None  # the transaction's next read starts from it
        transaction.set_rollback(True)
    assert folding.SNAPSHOTS.held(sid) is None
    assert tournament_facts(t) == whole(t)
    assert folding.SNAPSHOTS.held(sid) is not None
    with folding.SNAPSHOTS._lock:
        assert sid not in folding.SNAPSHOTS._held  # the test's transaction never commits: no other reader has it
