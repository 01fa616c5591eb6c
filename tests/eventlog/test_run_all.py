"""``run_all`` after a command: a follower that reads none of the new events is moved to the head without a run
of its own; one that reads them applies them; one far behind, or reading every type, runs as before."""

from __future__ import annotations

import uuid

import pytest

from eventlog import projections, store, upcasting
from eventlog.models import ProjectionCheckpoint

pytestmark = pytest.mark.django_db


class Recording(projections.Projection):
    def __init__(self, name: str, event_types: tuple[str, ...] | None):
        self.name, self.event_types, self.applied = name, event_types, []

    def apply(self, events) -> None:
        self.applied += [e.event_type for e in events]

    def reset(self) -> None:
        self.applied = []


@pytest.fixture
def followers(monkeypatch):
    """Three followers of their own, alone in the registry: moves, results, and everything."""
    made = {name: Recording(name, types) for name, types in
            (("moves", ("Moved",)), ("results", ("Won",)), ("everything", None))}
    monkeypatch.setattr(projections, "_registry", dict(made))
    runs = []
    real_run = projections.run
    monkeypatch.setattr(projections, "run", lambda name: runs.append(name) or real_run(name))
    return made, runs


def append(stream: str, *types: str) -> int:
    version = store.stream_version(stream)
    rows = store.append(stream_id=stream, stream_type="test", expected_version=version,
                        events=[store.NewEvent(t, {"n": version + i}) for i, t in enumerate(types)])
    return rows[-1].global_position


def positions() -> dict[str, int]:
    return dict(ProjectionCheckpoint.objects.filter(name__in=("moves", "results", "everything"))
                .values_list("name", "position"))


def test_a_follower_reading_none_of_the_new_events_is_moved_to_the_head_without_a_run(followers):
    made, runs = followers
    stream = f"test-{uuid.uuid4().hex}"
    append(stream, "Moved", "Won")
    projections.run_all()  # every follower's first run: each has a checkpoint now
    runs.clear()
    head = append(stream, "Moved", "Moved")
    applied = projections.run_all()
    assert runs == ["moves", "everything"]  # "results" reads no move
    assert positions() == {"moves": head, "results": head, "everything": head}
    assert applied == {"moves": 2, "results": 0, "everything": 2}
    assert made["results"].applied == ["Won"] and made["moves"].applied == ["Moved", "Moved", "Moved"]

    runs.clear()
    head = append(stream, "Won")
    projections.run_all()
    assert runs == ["results", "everything"] and made["results"].applied == ["Won", "Won"]
    assert set(positions().values()) == {head}


def test_a_follower_far_behind_runs_as_before(followers, monkeypatch):
    made, runs = followers
    stream = f"test-{uuid.uuid4().hex}"
    append(stream, "Won")
    projections.run_all()
    runs.clear()
    monkeypatch.setattr(projections, "IDLE_LOOK", 2)  # further behind than this: the stretch is not looked at
    head = append(stream, "Moved", "Moved", "Moved")
    projections.run_all()
    assert runs == ["moves", "results", "everything"] and set(positions().values()) == {head}
    assert made["results"].applied == ["Won"]


def test_an_old_name_that_reads_as_a_followed_type_is_read(followers, monkeypatch):
    """A stored type an upcaster renames to a type the follower reads is that type to it: it is run."""
    made, runs = followers
    monkeypatch.setattr(upcasting, "_registry", dict(upcasting._registry))
    upcasting.register(stream_type="test", event_type="Victory", schema_version=1, becomes="Won")(
        lambda payload: upcasting.Upcast("Won", payload, 2))
    stream = f"test-{uuid.uuid4().hex}"
    append(stream, "Moved")
    projections.run_all()
    runs.clear()
    append(stream, "Victory")
    projections.run_all()
    assert "results" in runs and made["results"].applied == ["Won"]


def test_a_checkpoint_is_never_moved_back(followers):
    stream = f"test-{uuid.uuid4().hex}"
    head = append(stream, "Moved", "Moved")
    projections.run_all()
    projections._advance({"moves", "results"}, head - 1)  # a look that read an older head than a run since
    assert positions() == {"moves": head, "results": head, "everything": head}


class Echo(projections.Process):
    """A process that answers each result with a fact of its own stream, as the process manager does."""

    name, event_types = "echo", ("Won",)

    def __init__(self, stream: str):
        self.stream = stream

    def apply(self, events) -> None:
        for _ in events:
            append(self.stream, "Noted")


def test_the_facts_a_process_appends_are_read_by_the_followers_after_it_in_the_same_run(monkeypatch):
    """``notes`` has nothing to read when the run starts (a result only): it still reads the fact the process
    appends, before run_all returns."""
    notes = Recording("notes", ("Noted",))
    monkeypatch.setattr(projections, "_registry", {"echo": Echo(f"test-{uuid.uuid4().hex}"), "notes": notes})
    stream = f"test-{uuid.uuid4().hex}"
    append(stream, "Moved")
    projections.run_all()
    append(stream, "Won")
    assert projections.run_all() == {"echo": 1, "notes": 1} and notes.applied == ["Noted"]
