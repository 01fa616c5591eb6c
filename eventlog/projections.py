"""Projections: read models derived from the log, each with a checkpoint.

A run locks the projection's checkpoint row, applies the events after it in
log order and saves the new position in the same transaction, so a duplicate
or retried task changes nothing and a killed one leaves no half-applied batch.
"""

from __future__ import annotations

from typing import NamedTuple

from django.db import transaction
from django.db.models import Max

from .models import Event, ProjectionCheckpoint

BATCH = 2000
_registry: dict[str, "Projection"] = {}


class LoggedEvent(NamedTuple):
    """An event as projections read it: plain values, no model instance to build."""

    global_position: int
    stream_id: str
    stream_type: str
    version: int
    event_type: str
    payload: dict
    recorded_at: object


_FIELDS = LoggedEvent._fields


class Projection:
    """Subclass with a ``name``, ``apply(events)`` and ``reset()`` (empty the read tables).

    ``event_types`` lists the only event types it reads (None: all); the others
    are skipped by the query, and the checkpoint still moves past them.
    """

    name: str = ""
    event_types: tuple[str, ...] | None = None

    def apply(self, events: list[Event]) -> None:
        raise NotImplementedError

    def reset(self) -> None:
        raise NotImplementedError


def register(projection: Projection) -> Projection:
    _registry[projection.name] = projection
    return projection


def registered() -> dict[str, Projection]:
    return dict(_registry)


def run(name: str) -> int:
    """Catch the projection up with the log; return how many events it applied."""
    projection = _registry[name]
    ProjectionCheckpoint.objects.get_or_create(name=name)
    applied = 0
    while True:
        with transaction.atomic():
            checkpoint = ProjectionCheckpoint.objects.select_for_update().get(name=name)
            # commit order is position order (appends hold the log's lock), so every event
            # up to the highest committed position is visible: none can appear below it later
            top = Event.objects.aggregate(top=Max("global_position"))["top"] or 0
            if top <= checkpoint.position:
                return applied
            query = Event.objects.filter(global_position__gt=checkpoint.position, global_position__lte=top)
            if projection.event_types is not None:
                query = query.filter(event_type__in=projection.event_types)
            batch = [LoggedEvent(*row) for row in query.order_by("global_position").values_list(*_FIELDS)[:BATCH]]
            if batch:
                projection.apply(batch)
            checkpoint.position = batch[-1].global_position if len(batch) == BATCH else top
            checkpoint.save(update_fields=["position", "updated_at"])
            applied += len(batch)


def run_all() -> dict[str, int]:
    return {name: run(name) for name in _registry}


def rebuild(name: str) -> int:
    """Empty the projection and replay the whole log into it."""
    with transaction.atomic():
        ProjectionCheckpoint.objects.select_for_update().filter(name=name).update(position=0)
        _registry[name].reset()
    return run(name)
