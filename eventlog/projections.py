"""Projections: read models derived from the log, each with a checkpoint.

A run locks the projection's checkpoint row, applies the events after it in
log order and saves the new position in the same transaction, so a duplicate
or retried task changes nothing and a killed one leaves no half-applied batch.
"""

from __future__ import annotations

from django.db import transaction

from .models import Event, ProjectionCheckpoint

BATCH = 2000
_registry: dict[str, "Projection"] = {}


class Projection:
    """Subclass with a ``name``, ``apply(events)`` and ``reset()`` (empty the read tables)."""

    name: str = ""

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
            batch = list(Event.objects.filter(global_position__gt=checkpoint.position).order_by("global_position")[:BATCH])
            if not batch:
                return applied
            projection.apply(batch)
            checkpoint.position = batch[-1].global_position
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
