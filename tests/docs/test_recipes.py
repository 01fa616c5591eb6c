"""The recipes of docs/architecture.md, followed to the letter on small examples: if the machinery they describe
changes shape, these fail and the recipe is rewritten with it."""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import ClassVar

import pytest

from eventlog import projections, store, upcasting
from eventlog.models import Event
from eventlog.projections import Projection
from eventlog.store import NewEvent

pytestmark = pytest.mark.django_db

STREAM_TYPE = "recipe"
ROOT = Path(__file__).resolve().parents[2]


class GoalsScored(Projection):
    """The recipe's projection: goals per stream. Its read model is a dict rather than a table, so that the test
    needs no migration of its own; everything else is as the recipe says."""

    name = "recipe_goals"
    event_types = ("GoalScored",)

    def __init__(self):
        self.table: dict[str, int] = {}
        self.seen: list[int] = []

    def apply(self, events) -> None:
        for event in events:
            self.seen.append(event.global_position)
            self.table[event.stream_id] = self.table.get(event.stream_id, 0) + event.payload["goals"]

    def reset(self) -> None:
        self.table.clear()


@pytest.fixture
def registry(monkeypatch):
    """The recipe registers into the runner's registry; the test's projection leaves it as it was."""
    monkeypatch.setattr(projections, "_registry", {})
    monkeypatch.setattr(upcasting, "_registry", dict(upcasting._registry))
    return projections


def _score(stream_id: str, expected: int, *goals: int, event_type: str = "GoalScored", schema: int = 1):
    store.append(stream_id=stream_id, stream_type=STREAM_TYPE, expected_version=expected,
                 events=[NewEvent(event_type, {"goals": g}, schema) for g in goals])


def test_a_projection_made_by_the_recipe_folds_and_rebuilds(registry):
    goals = registry.register(GoalsScored())
    _score("recipe-a", 0, 1, 2)
    _score("recipe-b", 0, 3)
    store.append(stream_id="recipe-a", stream_type=STREAM_TYPE, expected_version=2,
                 events=[NewEvent("Whistled", {})])  # not one of its event_types: skipped, the checkpoint moves past

    assert projections.run(goals.name) >= 3
    assert goals.table == {"recipe-a": 3, "recipe-b": 3}

    _score("recipe-b", 1, 4)
    seen = len(goals.seen)
    projections.run(goals.name)
    assert goals.table == {"recipe-a": 3, "recipe-b": 7}
    assert len(goals.seen) == seen + 1  # only the event after its checkpoint
    assert projections.run(goals.name) == 0  # a duplicate or retried run changes nothing
    assert goals.table == {"recipe-a": 3, "recipe-b": 7}

    folded = dict(goals.table)
    projections.rebuild(goals.name)
    assert goals.table == folded  # a rebuild from position 0 gives the same table


def test_an_event_of_an_old_shape_reaches_projections_in_todays(registry):
    """The event recipe's step 4: ``GoalScored`` was once stored as ``Goal`` with ``{"count": n}`` (schema 1); its
    schema 2 is ``GoalScored`` with ``{"goals": n}``. The old rows stay as stored and read as today's."""

    @upcasting.register(stream_type=STREAM_TYPE, event_type="Goal", schema_version=1, becomes="GoalScored")
    def goal_v1(payload):
        return upcasting.Upcast("GoalScored", {"goals": payload["count"]}, 2)

    goals = registry.register(GoalsScored())
    store.append(stream_id="recipe-old", stream_type=STREAM_TYPE, expected_version=0,
                 events=[NewEvent("Goal", {"count": 5}, 1)])
    _score("recipe-old", 1, 2, schema=2)

    projections.run(goals.name)
    assert goals.table == {"recipe-old": 7}
    read = [(e.event_type, e.schema_version, e.payload) for e in store.read_stream("recipe-old")]
    assert read == [("GoalScored", 2, {"goals": 5}), ("GoalScored", 2, {"goals": 2})]  # every read: today's shape
    stored = list(Event.objects.filter(stream_id="recipe-old").order_by("version")
                  .values_list("event_type", "schema_version", "payload"))
    assert stored == [("Goal", 1, {"count": 5}), ("GoalScored", 2, {"goals": 2})]  # the log itself is untouched


def test_every_command_and_format_is_in_the_api_guide():
    """The command recipe's step 4 and the format recipe: a client reading docs/api.md learns every command type of
    a match and of an event, and every format an event may take."""
    from games.commands import COMMAND_TYPES as MATCH_COMMANDS
    from tournaments.commands import COMMAND_TYPES as EVENT_COMMANDS
    from tournaments.stream import FORMATS

    guide = (ROOT / "docs" / "api.md").read_text()
    missing = [name for name in (*MATCH_COMMANDS, *EVENT_COMMANDS, *FORMATS) if not re.search(rf"\b{name}\b", guide)]
    assert not missing, f"docs/api.md does not name {missing}"


def test_a_tournament_command_made_by_the_recipe_is_read_served_and_judged():
    """The command recipe, followed for a command the platform does not have: one declaration gives the dict
    reader, the API's body and the decider's dispatch, and who may send it is the decider's one rule. (Declared
    here, after ``tournaments.commands.COMMANDS`` was made at import: it does not join the API's commands.)"""
    from tournaments import events as ev
    from tournaments.commands import MAX_TABLE, Actor, TournamentCommand, arg, pgettext
    from tournaments.decider import decide
    from tournaments.refusals import BadCommand, NotPermitted, Reason
    from tournaments.serializers import serializer_of
    from tournaments.stream import Facts

    @dataclass(frozen=True)
    class CloseTable(TournamentCommand):
        """Take a table out of service for the rest of the evening."""

        type: ClassVar[str] = "close_table"
        label: ClassVar[str] = pgettext("done", "table out of service")
        table: int = arg("whole", low=1, high=MAX_TABLE, refusal=Reason.TABLE_NUMBER, help="the table's number")

        def decide(self, state) -> list:
            return [ev.TableService(table=self.table, in_service=False)]

    assert CloseTable.from_dict({"type": "close_table", "table": 3}) == CloseTable(table=3)
    with pytest.raises(BadCommand) as refused:
        CloseTable.from_dict({"type": "close_table", "table": 0})
    assert refused.value.reason is Reason.TABLE_NUMBER

    body = serializer_of(CloseTable)
    assert body(data={"type": "close_table", "table": 3}).is_valid()
    assert not body(data={"type": "close_table", "table": MAX_TABLE + 1}).is_valid()
    assert "rest of the evening" in body.__doc__  # its description in the OpenAPI document

    director = CloseTable(table=3, by=Actor(official=True))
    assert decide(Facts(), director) == [ev.TableService(table=3, in_service=False)]
    with pytest.raises(NotPermitted):
        decide(Facts(), CloseTable(table=3, by=Actor(official=False, player=7)))
