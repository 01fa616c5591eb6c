"""The generic upcaster registry: old rows read as today's, chained, and found by the runner's filters."""

from __future__ import annotations

import pytest

from eventlog import store, upcasting
from eventlog.models import Event


@pytest.fixture
def registry(monkeypatch):
    monkeypatch.setattr(upcasting, "_registry", {})
    return upcasting


def test_an_old_row_reads_as_todays_through_every_upcaster_in_turn(registry):
    registry.register(stream_type="s", event_type="Old", schema_version=1, becomes="Mid")(
        lambda p: registry.Upcast("Mid", {**p, "mid": True}, 2))
    registry.register(stream_type="s", event_type="Mid", schema_version=2, becomes="New")(
        lambda p: registry.Upcast("New", {**p, "new": True}, 3))
    assert registry.upcast("s", "Old", 1, {"x": 1}) == ("New", {"x": 1, "mid": True, "new": True}, 3)
    assert registry.upcast("other", "Old", 1, {"x": 1}) == ("Old", {"x": 1}, 1)  # another stream's type of that name
    assert registry.upcast("s", "New", 3, {}) == ("New", {}, 3)
    assert registry.stored_types({"New", "Else"}) == {"New", "Else", "Mid", "Old"}


def test_one_key_has_one_upcaster(registry):
    registry.register(stream_type="s", event_type="Old", schema_version=1, becomes="New")(lambda p: None)
    with pytest.raises(ValueError):
        registry.register(stream_type="s", event_type="Old", schema_version=1, becomes="New")(lambda p: p)


def test_the_tournaments_correction_is_registered():
    assert upcasting.upcast("tournament", "ResultCorrected", 1, {"slot": "x"}).event_type == "SlotResultCorrected"
    assert upcasting.upcast("match", "ResultCorrected", 1, {"winner": 0}).event_type == "ResultCorrected"


@pytest.mark.django_db
def test_every_read_of_a_stream_meets_todays_shapes_declared_on_the_types():
    """Old rows of a match stream (a schema-1 registration, a schema-1 beaver) read as today's wherever the stream is
    read: the ORM's read, the command path's prepared read and the projections' batches, the rows never edited."""
    from eventlog import projections

    old = [store.NewEvent("MatchRegistered", {"player_ids": [1, 2], "tournament_id": None}, 1),
           store.NewEvent("Beavered", {"player": 1, "cube": 4}, 1)]
    store.append(stream_id="m-old", stream_type="match", expected_version=0, events=old)
    for rows in (store.read_stream("m-old"), store.read_stream_rows("m-old")):
        registered, beavered = rows
        assert (registered.schema_version, registered.payload["officiating_director_id"],
                registered.payload["rating_ramp"]) == (2, None, "fibs")
        assert (beavered.schema_version, beavered.payload["taken"]) == (2, True)
    batch = projections._batch(projections.Projection(), 0, 10**9, 100)
    assert [(e.event_type, e.schema_version) for e in batch if e.stream_id == "m-old"] == [
        ("MatchRegistered", 2), ("Beavered", 2)]
    assert sorted(Event.objects.filter(stream_id="m-old").values_list("schema_version", flat=True)) == [1, 1]


def test_reading_many_rows_reads_each_as_read_does(registry):
    from eventlog.projections import LoggedEvent

    registry.register(stream_type="s", event_type="Old", schema_version=1, becomes="New")(
        lambda p: registry.Upcast("New", {**p, "new": True}, 2))
    rows = [LoggedEvent(1, "a", "s", 1, "Old", {"x": 1}, None, 1), LoggedEvent(2, "a", "s", 2, "New", {}, None, 2),
            LoggedEvent(3, "b", "t", 1, "Old", {"y": 1}, None, 1)]
    read = registry.read_each(rows)
    assert read == [registry.read(r) for r in rows]
    assert (read[0].event_type, read[0].payload, read[0].schema_version) == ("New", {"x": 1, "new": True}, 2)
    assert read[1] is rows[1] and read[2] is rows[2]  # no upcaster: the row itself
