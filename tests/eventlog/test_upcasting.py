"""The generic upcaster registry: old rows read as today's, chained, and found by the runner's filters."""

from __future__ import annotations

import pytest

from eventlog import upcasting


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
