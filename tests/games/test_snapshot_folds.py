"""``match_load_with``: a projection's batch folded onto the snapshot, without a query when it follows on."""

import pytest

from eventlog import store
from eventlog.projections import LoggedEvent
from eventlog.store import NewEvent
from games import loading, streams
from games.errors import MatchNotFound
from games.loading import match_load, match_load_with
from games.projections import summary_fields
from tests.games.test_match_summary_batches import mat, new, registered

pytestmark = pytest.mark.django_db

STREAM = "match-snapshot-folds"


@pytest.fixture
def match():
    events = [registered(0)] + new(mat("match_007_3pt.mat"))
    for i, event in enumerate(events):
        store.append(stream_id=STREAM, stream_type=streams.STREAM_TYPE, expected_version=i, events=[event])
    rows = [LoggedEvent(e.global_position, e.stream_id, e.stream_type, e.version, e.event_type, e.payload,
                        e.recorded_at) for e in store.read_stream(STREAM)]
    yield rows
    loading.SNAPSHOTS.forget(STREAM)


def _remember(record) -> None:
    loading.SNAPSHOTS.forget(STREAM)
    loading.SNAPSHOTS.hold(STREAM, record)


def test_a_batch_that_follows_the_snapshot_is_folded_onto_it_without_a_query(match, django_assert_num_queries):
    _remember(match_load(STREAM, version=len(match) - 5))
    with django_assert_num_queries(0):
        record = match_load_with(STREAM, match[-5:])
    assert record.version == len(match)
    assert summary_fields(record) == summary_fields(match_load(STREAM, version=len(match)))


def test_a_snapshot_ahead_of_the_batch_is_used_as_it_is(match, django_assert_num_queries):
    _remember(match_load(STREAM, version=len(match)))
    with django_assert_num_queries(0):
        assert match_load_with(STREAM, match[:10]).version == len(match)


@pytest.mark.parametrize("snapshot", [None, "gap"])
def test_the_stream_is_read_when_no_snapshot_leads_up_to_the_batch(match, snapshot):
    if snapshot == "gap":  # the batch starts after events the snapshot has not seen
        _remember(match_load(STREAM, version=len(match) - 8))
    else:
        loading.SNAPSHOTS.forget(STREAM)
    record = match_load_with(STREAM, match[-3:])
    assert record.version == len(match)
    assert summary_fields(record) == summary_fields(match_load(STREAM, version=len(match)))


def test_a_stream_that_is_no_match_is_not_found(db):
    store.append(stream_id="other", stream_type="test", expected_version=0, events=[NewEvent("Noted", {})])
    with pytest.raises(MatchNotFound):
        match_load_with("other", [])


def test_a_batch_that_starts_the_stream_needs_no_snapshot_and_no_query(match, django_assert_num_queries):
    """What a rebuild meets: each stream first in a batch that holds its version 1."""
    loading.SNAPSHOTS.forget(STREAM)
    with django_assert_num_queries(0):
        record = match_load_with(STREAM, match[:12])
    assert record.version == 12
    assert summary_fields(record) == summary_fields(match_load(STREAM, version=12))
