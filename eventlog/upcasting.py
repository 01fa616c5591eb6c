"""Upcasters: stored events of an older shape read as today's, the stored rows never edited.

An event type is never changed in place: a renamed type (or a changed payload) gets a new
``schema_version``, and every reader of the log sees old rows through :func:`upcast`, keyed by
(stream type, event type, schema version). An upcaster may lead to another registered one, so a row
two versions old is read through both. This is the one place old rows are read as today's: the log's read
path (``store.read_stream``, ``store.read_stream_rows``) and the projection runner upcast every row with
:func:`read` before anyone folds it, so a reader names only today's types and shapes.

Upcasters are declared on the event types (``published.language.Upcaster``, the engine's schema table); this
module imports no app: the apps that own the types :func:`declare` them when they are loaded.
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


def declare(upcasters: Iterable[tuple[str, str, int, str, Callable[[dict], tuple[str, dict, int]]]]) -> None:
    """Register upcasters as a type declares them: (stream type, stored type, stored schema, type read as,
    ``f(payload) -> (type, payload, schema)``). Declaring the same ones again (a reloaded app) changes nothing."""
    for stream_type, stored_as, schema_version, becomes, reader in upcasters:
        key = (stream_type, stored_as, schema_version)
        if key in _declared and _declared[key] == (becomes, getattr(reader, "__qualname__", None)):
            continue
        _declared[key] = (becomes, getattr(reader, "__qualname__", None))
        register(stream_type=stream_type, event_type=stored_as, schema_version=schema_version, becomes=becomes)(
            lambda payload, reader=reader: Upcast(*reader(payload)))


_declared: dict[tuple[str, str, int], tuple[str, str | None]] = {}


def read(row):
    """A stored row as today's readers know it: the same row when no upcaster applies (most rows), else the row
    with today's type, payload and schema (a model instance is changed in memory, never saved; a tuple row is
    replaced)."""
    if (row.stream_type, row.event_type, row.schema_version) not in _registry:
        return row
    now = upcast(row.stream_type, row.event_type, row.schema_version, row.payload)
    if hasattr(row, "_replace"):
        return row._replace(event_type=now.event_type, payload=now.payload, schema_version=now.schema_version)
    row.event_type, row.payload, row.schema_version = now
    return row


def read_each(rows: list) -> list:
    """:func:`read` of every row, in order: the registry looked up here, not through a call a row (a rebuild
    reads the whole log, nearly none of it old)."""
    registry = _registry
    return [read(row) if (row.stream_type, row.event_type, row.schema_version) in registry else row for row in rows]


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
