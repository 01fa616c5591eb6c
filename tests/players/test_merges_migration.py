"""Existing databases: merges made before they were events (the ``merged_into`` column) enter the log once."""

import importlib
from types import SimpleNamespace

import pytest
from django.apps import apps as current_apps
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from eventlog import projections
from eventlog.models import Event
from players.models import Player
from players.selectors import player_identities

BEFORE = [("players", "0004_officials_group")]
migration = importlib.import_module("players.migrations.0005_merges_in_the_log")


def migrate(targets=None):
    """To ``targets``; with none, forward to every app's latest migration (the schema the other tests expect,
    whatever migrations came after 0005)."""
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    targets = targets or executor.loader.graph.leaf_nodes()
    executor.migrate(targets)
    return executor.loader.project_state(targets).apps


@pytest.mark.django_db(transaction=True)
def test_existing_merges_are_appended_to_the_log_once(postgres):
    old = migrate(BEFORE)
    try:
        OldPlayer = old.get_model("players", "Player")
        ann, ann2, ann3, bob, bob2, cy = (OldPlayer.objects.create(display_name=n).pk
                                          for n in ("Ann", "Ann 2", "Ann 3", "Bob", "Bob 2", "Cy"))
        OldPlayer.objects.filter(pk__in=[ann2, ann3]).update(merged_into=ann)
        OldPlayer.objects.filter(pk=bob2).update(merged_into=bob)
        Event.objects.create(global_position=1, stream_id="m-1", stream_type="match", version=1,
                             event_type="MatchRegistered", payload={"player_ids": [ann2, cy]})
    finally:
        migrate()
    events = list(Event.objects.filter(stream_id="players").order_by("version"))
    assert [(e.global_position, e.version, e.event_type) for e in events] == [
        (2, 1, "PlayersMerged"), (3, 2, "PlayersMerged")]  # after everything that was there: the log only grows
    assert [(e.payload["kept"], e.payload["duplicates"]) for e in events] == [(ann, [ann2, ann3]), (bob, [bob2])]
    assert dict(player_identities().merged_into) == {ann2: ann, ann3: ann, bob2: bob}
    # once: run again (a second database, a rerun by hand), it finds them recorded and appends nothing
    migration.record_merges(current_apps, SimpleNamespace(connection=connection))
    assert Event.objects.count() == 3
    # and the merged view, rebuilt from the log, is the column as it was
    projections.rebuild("players")
    assert dict(Player.objects.exclude(merged_into=None).values_list("pk", "merged_into")) == {
        ann2: ann, ann3: ann, bob2: bob}


@pytest.mark.django_db
def test_a_merge_the_column_holds_but_the_log_does_not_is_appended(postgres):
    from players.services import player_merge
    from tests.players.people import registrar

    a, b, c, d = (Player.objects.create(display_name=n).pk for n in "abcd")
    player_merge(actor=registrar(), kept_id=a, duplicate_ids=[b], reason="log")
    Player.objects.filter(pk__in=[b, d]).update(merged_into=a)  # b: in the log already; d: only in the column
    migration.record_merges(current_apps, SimpleNamespace(connection=connection))
    merges = list(Event.objects.filter(stream_id="players").order_by("version").values_list("version", "payload"))
    assert [(v, p["kept"], p["duplicates"]) for v, p in merges] == [(1, a, [b]), (2, a, [d])]
    assert c not in player_identities().merged_into
