"""The log under 32 concurrent writers, on real PostgreSQL: each writer a thread with its own connection, through
``eventlog.store.append``, while projection runners and readers follow the global position.

What it proves: positions are gap-free and every reader sees them in order, never one skipped and never a later
one before an earlier (commit order is position order); a stale expected version is refused and writes nothing,
while a writer alone on its stream is never refused; a projection run by several runners at once applies every
event exactly once (the checkpoint is locked and saved in the batch's transaction).
"""

import random
import threading

import pytest
from django.db import connection, connections

from eventlog import projections, store
from eventlog.models import Event
from eventlog.projections import Projection
from eventlog.store import ConcurrencyError, NewEvent

WRITERS = 32
OWN_STREAMS = 3  # per writer, each written by that writer alone
OWN_APPENDS = 12  # per writer
HOT_STREAMS = 4  # every writer appends to these too, with the version it read
HOT_ATTEMPTS = 6  # per writer
RUNNERS = 3
READERS = 3
COUNTED = "test_concurrent_counted"


class CountingProjection(Projection):
    """Counts, in its own table and in the batch's transaction, how many times each event was applied."""

    name = "test_concurrent_counting"

    def apply(self, events) -> None:
        with connection.cursor() as cursor:
            cursor.execute(
                f"INSERT INTO {COUNTED} (global_position, applied) SELECT p, 1 FROM unnest(%s::bigint[]) AS p"
                f" ON CONFLICT (global_position) DO UPDATE SET applied = {COUNTED}.applied + 1",
                [[e.global_position for e in events]],
            )

    def reset(self) -> None:
        with connection.cursor() as cursor:
            cursor.execute(f"DELETE FROM {COUNTED}")


@pytest.fixture
def counting(postgres, transactional_db, monkeypatch):
    with connection.cursor() as cursor:
        cursor.execute(f"CREATE TABLE IF NOT EXISTS {COUNTED} (global_position bigint PRIMARY KEY, applied int)")
        cursor.execute(f"DELETE FROM {COUNTED}")
    monkeypatch.setattr(projections, "BATCH", 7)  # many small batches: many checkpoints taken in turn
    projection = projections.register(CountingProjection())
    yield projection
    projections._registry.pop(projection.name, None)
    with connection.cursor() as cursor:
        cursor.execute(f"DROP TABLE IF EXISTS {COUNTED}")


def test_32_writers_readers_and_runners_agree_on_one_gap_free_order(counting):
    start = threading.Barrier(WRITERS + RUNNERS + READERS)
    writers_done = threading.Event()
    lock = threading.Lock()
    accepted: dict[str, tuple[str, int]] = {}  # token -> (stream, version)
    refused: list[tuple[str, str, int, int]] = []  # (token, stream, expected, actual)
    failures: list[str] = []
    seen_by_reader: list[list[int]] = [[] for _ in range(READERS)]
    runs = [0] * RUNNERS

    def thread(body):
        def run(*args):
            try:
                start.wait(timeout=600)
                body(*args)
            except BaseException as error:  # noqa: BLE001 - reported by the main thread
                with lock:
                    failures.append(f"{body.__name__}{args}: {type(error).__name__}: {error}")
            finally:
                connections.close_all()
        return run

    def write(n: int):
        rnd = random.Random(n)
        own = {f"own-{n}-{s}": 0 for s in range(OWN_STREAMS)}
        plan = ["own"] * OWN_APPENDS + ["hot"] * HOT_ATTEMPTS
        rnd.shuffle(plan)
        for i, kind in enumerate(plan):
            token = f"{n}.{i}"
            if kind == "own":
                stream = rnd.choice(sorted(own))
                expected = own[stream]
            else:
                stream = f"hot-{rnd.randrange(HOT_STREAMS)}"
                expected = store.stream_version(stream)
            count = rnd.randint(1, 3)
            try:
                rows = store.append(stream_id=stream, stream_type="test", expected_version=expected,
                                    events=[NewEvent("Happened", {"token": token, "k": k}) for k in range(count)],
                                    metadata={"writer": n})
            except ConcurrencyError as stale:
                with lock:
                    refused.append((token, stream, expected, stale.actual))
                continue
            assert [r.version for r in rows] == list(range(expected + 1, expected + count + 1))
            if kind == "own":
                own[stream] += count
            with lock:
                accepted[token] = (stream, expected)

    def run_projection(i: int):
        while True:
            finished = writers_done.is_set()  # read before the run: a run that starts after it sees everything
            projections.run(counting.name)
            runs[i] += 1
            if finished:
                return

    def read(i: int):
        last, seen = 0, seen_by_reader[i]
        while True:
            finished = writers_done.is_set()
            batch = [e.global_position for e in store.read_all(after=last, limit=50)]
            seen.extend(batch)
            if batch:
                last = batch[-1]
            elif finished:
                return

    threads = [threading.Thread(target=thread(write), args=(n,)) for n in range(WRITERS)]
    followers = ([threading.Thread(target=thread(run_projection), args=(i,)) for i in range(RUNNERS)]
                 + [threading.Thread(target=thread(read), args=(i,)) for i in range(READERS)])
    for t in threads + followers:
        t.start()
    for t in threads:  # the bound only says "hung"; a busy machine takes minutes where a quiet one takes seconds
        t.join(timeout=900)
    writers_done.set()
    for t in followers:
        t.join(timeout=900)
    assert not any(t.is_alive() for t in threads + followers), "a thread hung"
    assert not failures, failures

    rows = list(Event.objects.order_by("global_position").values_list("global_position", "stream_id", "version",
                                                                      "payload"))
    positions = [r[0] for r in rows]
    # the global order has no gap, and every reader saw exactly it, in order (none skipped, none twice)
    assert positions == list(range(1, len(rows) + 1))
    for seen in seen_by_reader:
        assert seen == positions
    # every stream's versions count up from 1 with no gap; a writer alone on its stream was never refused
    versions: dict[str, list[int]] = {}
    for _, stream, version, _ in rows:
        versions.setdefault(stream, []).append(version)
    assert all(v == list(range(1, len(v) + 1)) for v in versions.values())
    assert not [r for r in refused if not r[1].startswith("hot-")], "a writer alone on its stream was refused"
    # a refusal was stale (the stream had moved on) and wrote nothing; every accepted append is there once
    assert refused, "no two writers met on a hot stream: the test did not test the expected versions"
    assert all(actual > expected for _, _, expected, actual in refused)
    tokens = {}
    for position, stream, version, payload in rows:
        tokens.setdefault(payload["token"], []).append((stream, version))
    assert not {token for token, *_ in refused} & set(tokens)
    assert set(tokens) == set(accepted)
    for token, (stream, expected) in accepted.items():
        assert [v for s, v in tokens[token]] == list(range(expected + 1, expected + 1 + len(tokens[token])))
        assert {s for s, v in tokens[token]} == {stream}
    # the projection, run by several runners at once, applied each event exactly once
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT global_position, applied FROM {COUNTED} ORDER BY global_position")
        counted = cursor.fetchall()
    assert [p for p, _ in counted] == positions, "an event was skipped by the projection"
    assert {applied for _, applied in counted} == {1}, "an event was applied twice"
    assert sum(runs) >= RUNNERS
