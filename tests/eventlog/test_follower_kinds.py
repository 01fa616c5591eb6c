"""Two kinds of follower, told apart by type: projections (read models, rebuilt from the log) and processes
(effects beyond their tables, never rebuilt). A rebuild asked of a process is refused, with nothing changed."""

from __future__ import annotations

from io import StringIO

import pytest
from django.core.management import CommandError, call_command
from django.test import Client

from eventlog import projections
from eventlog.models import ProjectionCheckpoint, ProjectionFailure

pytestmark = pytest.mark.django_db

PROCESSES = {"tournament_process", "match_notices"}  # facts appended to tournaments; mail sent
PROJECTIONS = {"players", "match_summary", "tournament_view", "money_ledger", "ratings", "analysis", "season_tables"}
AHEAD = 7  # a checkpoint set by hand past an empty log: a rebuild would bring it back to 0


def _positions() -> dict[str, int]:
    return dict(ProjectionCheckpoint.objects.values_list("name", "position"))


@pytest.fixture
def checkpoints_ahead():
    for name in PROJECTIONS | PROCESSES:
        ProjectionCheckpoint.objects.update_or_create(name=name, defaults={"position": AHEAD})
    ProjectionFailure.objects.create(projection="tournament_process", stream_id="tournament-1", global_position=3,
                                     event_type="PlayerEntered", error="KeyError: 'player'")


def test_every_registered_follower_is_declared_a_projection_or_a_process():
    followers = projections.registered()
    assert set(followers) == PROJECTIONS | PROCESSES
    for name, follower in followers.items():
        kind = projections.Process if name in PROCESSES else projections.Projection
        other = projections.Projection if name in PROCESSES else projections.Process
        assert isinstance(follower, kind) and not isinstance(follower, other), name
    assert projections.rebuildable() == sorted(PROJECTIONS)
    # a process has no tables to empty: nothing to call by mistake
    assert not [name for name in PROCESSES if hasattr(followers[name], "reset")]


def test_a_follower_of_neither_kind_is_not_registered(monkeypatch):
    monkeypatch.setattr(projections, "_registry", {})

    class Undeclared(projections.Follower):
        name = "undeclared"

        def apply(self, events) -> None:
            pass

    with pytest.raises(TypeError, match="neither a Projection .* nor a Process"):
        projections.register(Undeclared())
    assert projections.registered() == {}


@pytest.mark.parametrize("name", sorted(PROCESSES))
def test_rebuilding_a_process_is_refused_and_changes_nothing(checkpoints_ahead, name):
    before = _positions(), list(ProjectionFailure.objects.values_list("projection", "stream_id"))
    with pytest.raises(projections.NotRebuildable, match=f"{name} is a process, not a projection"):
        projections.rebuild(name)
    assert (_positions(), list(ProjectionFailure.objects.values_list("projection", "stream_id"))) == before


def test_the_command_refuses_a_process_by_name_before_rebuilding_anything(checkpoints_ahead):
    with pytest.raises(CommandError, match="match_notices is a process, not a projection.*never rebuilt"):
        call_command("rebuild_projections", "match_summary", "--only", "match_notices", stdout=StringIO())
    assert _positions() == {name: AHEAD for name in PROJECTIONS | PROCESSES}  # match_summary not rebuilt either


def test_the_command_alone_rebuilds_every_projection_and_leaves_the_processes_at_their_checkpoints(
        checkpoints_ahead):
    out = StringIO()
    call_command("rebuild_projections", stdout=out)
    assert _positions() == {**{name: 0 for name in PROJECTIONS}, **{name: AHEAD for name in PROCESSES}}
    for name in PROCESSES:
        assert f"{name}: a process, not rebuilt" in out.getvalue()
    assert ProjectionFailure.objects.filter(projection="tournament_process").exists()


def test_the_admins_rebuild_action_says_a_process_is_not_rebuilt(checkpoints_ahead, django_user_model):
    ProjectionFailure.objects.create(projection="match_summary", stream_id="broken-match", global_position=2,
                                     event_type="DiceRolled", error="KeyError: 'dice'")
    browser = Client()
    browser.force_login(django_user_model.objects.create_superuser("root", "root@example.org", "root-pass-1234"))
    chosen = list(ProjectionFailure.objects.values_list("pk", flat=True))
    page = browser.post("/admin/eventlog/projectionfailure/", {"action": "rebuild_projection",
                                                                "_selected_action": chosen}, follow=True)
    assert page.status_code == 200
    said = [str(m) for m in page.context["messages"]]
    assert any(m.startswith("tournament_process is a process, not a projection") for m in said), said
    assert any(m.startswith("match_summary: rebuilt from 0 events") for m in said), said
    assert _positions()["tournament_process"] == AHEAD and _positions()["match_summary"] == 0
    assert list(ProjectionFailure.objects.values_list("projection", flat=True)) == ["tournament_process"]


def test_health_lists_the_followers_of_both_kinds(api):
    body = api().get("/api/health/").json()
    assert set(body["projections"]) == PROJECTIONS | PROCESSES
