"""A long stream read one event at a time is shared again every ``share_every`` events, so a process that starts
cold (a restart, a new web worker) folds at most that many events past the shared state, never the whole stream."""

from __future__ import annotations

from dataclasses import dataclass

import pytest
from django.core.cache import cache

from eventlog.snapshots import Snapshots

pytestmark = pytest.mark.django_db  # a state is remembered as its transaction commits


@dataclass(frozen=True)
class State:
    version: int


@pytest.fixture
def snapshots():
    cache.clear()
    yield lambda: Snapshots("test-snapshot:", State, share_every=250)
    cache.clear()


@pytest.fixture
def commits(django_capture_on_commit_callbacks):
    return lambda: django_capture_on_commit_callbacks(execute=True)


def test_a_stream_read_an_event_at_a_time_is_shared_each_time_it_passes_a_multiple(snapshots, commits):
    process = snapshots()
    process.hold("s1", State(1))
    for version in range(2, 600):  # a command at a time, each remembered as the service does
        with commits():
            process.remember_on_commit("s1", State(version))
        shared = process.shared("s1")
        assert shared is not None if version >= 250 else shared is None
        if shared is not None:
            assert shared.version == version // 250 * 250  # the last multiple passed, no later
    restarted = snapshots()  # a new process: nothing held, the shared state is its start
    assert restarted.held("s1") is None and restarted.latest("s1") == State(500)


def test_a_state_that_jumps_past_a_multiple_is_shared_and_without_share_every_none_is(snapshots, commits):
    process = snapshots()
    process.hold("s2", State(240))
    with commits():
        process.remember_on_commit("s2", State(260))  # one command of many events
    assert process.shared("s2") == State(260)
    plain = Snapshots("test-snapshot-plain:", State)
    plain.hold("s3", State(1))
    for version in range(2, 600):
        with commits():
            plain.remember_on_commit("s3", State(version))
    assert plain.shared("s3") is None
    with commits():  # a projection's fold (a rebuild's) says never: it leaves the sharing to the commands
        process.remember_on_commit("s2", State(520), share=False)
    assert process.shared("s2") == State(260) and process.held("s2") == State(520)
