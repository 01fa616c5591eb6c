"""The log as a file and as a chain: export, import into an empty log, every projection rebuilt the same; a file
edited, cut or reordered refused at the position where it stops checking out; a row edited in the database behind
the application's back found by verify_log."""

import json
import random

import pytest
from django.core.management import CommandError, call_command
from django.db import connection

from eventlog import chain, portable, projections, store, verification
from eventlog.models import Event, ProjectionCheckpoint, ProjectionFailure
from eventlog.portable import ImportRefused, Problem
from eventlog.store import NewEvent
from players.models import Player
from tests.ratings.season import quick_match
from tests.ratings.test_merged_players import merge

pytestmark = pytest.mark.usefixtures("postgres")


def some_log() -> None:
    """Rated matches between players, one of them merged into another: three projections with rows."""
    rnd = random.Random(37)
    people = [Player.objects.create(display_name=f"P{i}").pk for i in range(5)]
    for _ in range(6):
        p0, p1 = rnd.sample(people, 2)
        quick_match(p0, p1, rnd.choice([1, 3]), rnd.randint(0, 1), rnd)
    merge(people[0], people[1])
    for _ in range(3):
        p0, p1 = rnd.sample(people, 2)
        quick_match(p0, p1, 1, rnd.randint(0, 1), rnd)
    projections.run_all()


def small_log(n: int = 6) -> None:
    for i in range(n):
        stream = f"s-{i % 2}"
        store.append(stream_id=stream, stream_type="test", expected_version=store.stream_version(stream),
                     events=[NewEvent("Happened", {"i": i, "x": 0.5 + i, "text": "é\n"})], metadata={"actor": i})


def empty_log() -> None:
    """The log and every read model emptied, as on a new server (the accounts and players stay: they are no
    part of the log)."""
    with connection.cursor() as cursor:
        cursor.execute("SET session_replication_role = replica")  # the append-only trigger off, for the test only
        cursor.execute("DELETE FROM eventlog_event")
        cursor.execute("SET session_replication_role = origin")
    for name in projections.rebuildable():
        projections.registered()[name].reset()
    ProjectionCheckpoint.objects.all().delete()
    ProjectionFailure.objects.all().delete()


def exported(tmp_path) -> list[str]:
    path = tmp_path / "log.jsonl"
    call_command("export_log", str(path))
    return path.read_text(encoding="utf-8").splitlines(keepends=True)


def test_an_export_imported_into_an_empty_log_rebuilds_every_projection_the_same(tmp_path):
    some_log()
    before = projections.digests()
    head = verification.head()
    assert Event.objects.count() > 50 and head[1] != chain.GENESIS
    lines = exported(tmp_path)
    manifest = json.loads(lines[-1])["manifest"]
    assert (manifest["events"], manifest["last_position"], manifest["head_hash"]) == (
        Event.objects.count(), head[0], head[1])

    empty_log()
    assert projections.digests() != before  # the tables are empty now
    call_command("import_log", str(tmp_path / "log.jsonl"))
    assert verification.head() == head
    call_command("rebuild_projections")
    assert projections.digests() == before
    call_command("verify_log")  # the chain and every match re-judged by the engine


def _edit_payload(lines):
    event = json.loads(lines[2])
    event["payload"]["i"] = 99
    lines[2] = json.dumps(event) + "\n"
    return 3


def _remove(lines):
    del lines[3]
    return 5  # the line after the removed one: position 5 where 4 was due


def _swap(lines):
    lines[1], lines[2] = lines[2], lines[1]
    return 3  # position 3 where 2 was due


def _edit_manifest_digest(lines):
    manifest = json.loads(lines[-1])
    manifest["manifest"]["digest"] = "0" * 64
    lines[-1] = json.dumps(manifest) + "\n"
    return 6


@pytest.mark.parametrize("tamper, problem", [(_edit_payload, Problem.HASH), (_remove, Problem.ORDER),
                                             (_swap, Problem.ORDER), (_edit_manifest_digest, Problem.DIGEST)])
def test_an_edited_cut_or_reordered_export_is_refused_at_its_first_bad_position_and_nothing_is_written(
        tmp_path, tamper, problem):
    small_log()
    lines = exported(tmp_path)
    position = tamper(lines)
    empty_log()
    with pytest.raises(ImportRefused) as refused:
        portable.import_(lines)
    assert (refused.value.problem, refused.value.position) == (problem, position)
    assert Event.objects.count() == 0
    (tmp_path / "bad.jsonl").write_text("".join(lines), encoding="utf-8")
    with pytest.raises(CommandError, match=f"{problem.name} at position {position}:"):
        call_command("import_log", str(tmp_path / "bad.jsonl"))
    assert Event.objects.count() == 0


def test_an_import_refuses_a_log_that_is_not_empty(tmp_path):
    small_log()
    lines = exported(tmp_path)
    with pytest.raises(ImportRefused) as refused:
        portable.import_(lines)
    assert refused.value.problem == Problem.NOT_EMPTY and Event.objects.count() == 6


def test_a_file_cut_before_its_manifest_is_refused(tmp_path):
    small_log()
    lines = exported(tmp_path)[:-1]
    empty_log()
    with pytest.raises(ImportRefused) as refused:
        portable.import_(lines)
    assert (refused.value.problem, refused.value.position) == (Problem.NO_MANIFEST, 6)
    assert Event.objects.count() == 0


def test_each_append_chains_to_the_one_before_as_the_application_recomputes_it():
    small_log(4)
    store.append(stream_id="s-9", stream_type="test", expected_version=0,
                 events=[NewEvent("A", {"n": 1e20, "m": -1.5e16, "k": 2 ** 70}),
                         NewEvent("B", {"n": [1, 2.25, 1e-7, 2.0, "1e+5"], 3: "an int key", "t": "é\u2028"})],
                 metadata={})
    rows = list(verification.rows())
    previous = chain.GENESIS
    for row in rows:
        assert row.chain == chain.of_row(row, previous)
        previous = row.chain
    assert verification.walk().ok and verification.head() == (6, previous)


def test_a_row_updated_with_the_trigger_disabled_is_found_and_named():
    small_log()
    assert verification.walk().ok
    with connection.cursor() as cursor:
        cursor.execute("ALTER TABLE eventlog_event DISABLE TRIGGER eventlog_event_no_update_delete")
        cursor.execute("""UPDATE eventlog_event SET payload = '{"i": 3, "x": 4.5, "text": "forged"}' """
                       "WHERE global_position = 4")
        cursor.execute("ALTER TABLE eventlog_event ENABLE TRIGGER eventlog_event_no_update_delete")
    report = verification.walk()
    assert [(p.position, p.reason) for p in report.problems] == [(4, "edited")]
    with pytest.raises(CommandError, match="first at position 4"):
        call_command("verify_log", "--chain-only")


def forge(event: Event, **changes) -> None:
    """The row's payload changed with the trigger off, and every hash from the first event recomputed: the chain
    whole again, as a forger who rewrites it would leave it."""
    with connection.cursor() as cursor:
        cursor.execute("SET session_replication_role = replica")
        cursor.execute("UPDATE eventlog_event SET payload = %s WHERE global_position = %s",
                       [json.dumps(dict(event.payload, **changes)), event.global_position])
        previous = chain.GENESIS
        for row in verification.rows():
            previous = chain.of_row(row, previous)
            cursor.execute("UPDATE eventlog_event SET chain = %s WHERE global_position = %s",
                           [previous, row.global_position])
        cursor.execute("SET session_replication_role = origin")


def test_a_match_rewritten_with_its_hashes_recomputed_is_refused_by_the_engine():
    """A forger who rewrites every hash after an edit keeps the chain whole, but not the game's rules (and not the
    head hash that was shown before)."""
    some_log()
    moved = Event.objects.filter(event_type="GameStarted").order_by("global_position").first()
    head_before = verification.head()
    forge(moved, dice=[3, 3])  # a double: no opening roll gives one
    assert verification.walk().ok and verification.head() != head_before
    report = verification.judge_streams()
    assert [(p.position, p.stream_id, p.reason) for p in report.problems] == [
        (moved.global_position, moved.stream_id, "judged")]


def test_the_health_page_shows_the_head_hash(api):
    assert api().get("/api/health/").json()["log_head_hash"] == chain.GENESIS
    small_log(2)
    assert api().get("/api/health/").json()["log_head_hash"] == verification.head()[1] != chain.GENESIS
