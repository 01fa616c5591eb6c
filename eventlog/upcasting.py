"""Upcasters: stored events of an older shape read as today's, the stored rows never edited.

An event type is never changed in place: a renamed type (or a changed payload) gets a new
``schema_version``, and every reader of the log sees old rows through :func:`upcast`, keyed by
(stream type, event type, schema version). An upcaster may lead to another registered one, so a row
two versions old is read through both. The projection runner upcasts every row before a projection
sees it, so a projection names only today's types.

This module imports no app: the apps register their own upcasters when they are loaded.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import NamedTuple


class Upcast(NamedTuple):
    event_type: str
    payload: dict
    schema_version: int


Upcaster = Callable[[dict], Upcast]
_registry: dict[tuple[str, str, int], tuple[Upcaster, str]] = {}


def register(*, stream_type: str, event_type: str, schema_version: int, becomes: str) -> Callable[[Upcaster], Upcaster]:
    """Decorate ``f(payload) -> Upcast`` as the reader of ``event_type`` rows at ``schema_version`` in
    ``stream_type`` streams; ``becomes`` names the type it reads them as (the runner's filters use it)."""

    def decorate(upcaster: Upcaster) -> Upcaster:
        key = (stream_type, event_type, schema_version)
        if key in _registry and _registry[key][0] is not upcaster:
            raise ValueError(f"an upcaster for {key} is registered already")
        _registry[key] = (upcaster, becomes)
        return upcaster

    return decorate


def applies(stream_type: str, event_type: str, schema_version: int) -> bool:
    """Some upcaster reads rows of this type at this schema (most rows: none does)."""
    return (stream_type, event_type, schema_version) in _registry


def upcast(stream_type: str, event_type: str, schema_version: int, payload: dict) -> Upcast:
    """The row as today's readers know it (itself when no upcaster applies)."""
    seen = 0
    while (entry := _registry.get((stream_type, event_type, schema_version))) is not None:
        event_type, payload, schema_version = entry[0](payload)
        seen += 1
        if seen > 32:
            raise RuntimeError(f"upcasters of {stream_type}/{event_type} loop")
    return Upcast(event_type, payload, schema_version)


def stored_types(event_types: Iterable[str]) -> set[str]:
    """Every stored type some row of which reads as one of ``event_types``: what a filtered query asks for."""
    wanted = set(event_types)
    grew = True
    while grew:
        older = {stored for (_, stored, _), (_, becomes) in _registry.items() if becomes in wanted}
        grew = not older <= wanted
        wanted |= older
    return wanted
