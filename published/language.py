"""What every published fact is: a frozen dataclass named as its stored ``event_type``, with its payload's
fields, its ``schema_version`` and the upcasters that read its older rows.

A fact is read from a stored row (anything with ``event_type`` and ``payload``, already upcast by the log's
read path) with :func:`read`, or from a payload with ``from_payload``; keys a fact does not name are left out,
so a stream may carry more than it publishes.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from functools import cache
from typing import Any, ClassVar


@dataclass(frozen=True)
class Upcaster:
    """Rows stored as ``stored_as`` at ``schema_version`` read as the declaring type, its payload through ``read``."""

    stored_as: str
    schema_version: int
    read: Callable[[dict], dict] = dict


@dataclass(frozen=True)
class Fact:
    stream_type: ClassVar[str] = ""
    schema_version: ClassVar[int] = 1
    upcasts: ClassVar[tuple[Upcaster, ...]] = ()

    def __init_subclass__(cls, abstract: bool = False, **kwargs):
        super().__init_subclass__(**kwargs)
        # published: the types this package defines; an app's own events may share the base and are not
        if not abstract and cls.__module__.startswith("published."):
            _TYPES[(cls.stream_type, cls.__name__)] = cls

    @property
    def event_type(self) -> str:
        return type(self).__name__

    def to_payload(self) -> dict:
        return _json(dataclasses.asdict(self))

    @classmethod
    def from_payload(cls, payload: dict):
        names = _fields(cls)
        return cls(**{k: _frozen(v) if type(v) is list else v for k, v in payload.items() if k in names})

    @classmethod
    def from_event(cls, row):
        """The fact of a stored row of this type (as the log's read path gives it: upcast)."""
        if row.event_type != cls.__name__:
            raise ValueError(f"a {row.event_type} row is no {cls.__name__}")
        return cls.from_payload(row.payload)


_TYPES: dict[tuple[str, str], type[Fact]] = {}

DEFAULT_RAMP = "fibs"  # the new-player ramp of a result whose writer named none (the FIBS formula's own)


def type_of(stream_type: str, event_type: str) -> type[Fact] | None:
    return _TYPES.get((stream_type, event_type))


def read(row) -> Fact | None:
    """The published fact of a stored row (with ``stream_type``, ``event_type``, ``payload``); None for a row no
    published type names (a move, a tournament's internal bookkeeping)."""
    cls = _TYPES.get((row.stream_type, row.event_type))
    return None if cls is None else cls.from_payload(row.payload)


def names(*types: type[Fact]) -> tuple[str, ...]:
    """The stored names of ``types``: what a follower subscribes to."""
    return tuple(t.__name__ for t in types)


def upcasters(types: Iterable[type[Fact]]) -> list[tuple[str, str, int, str, Callable[[dict], tuple[str, dict, int]]]]:
    """Every declared upcaster of ``types``: (stream type, stored type, stored schema, type read as, the reader
    returning (type, payload, schema)), for the log's one upcasting mechanism to register."""
    out = []
    for cls in types:
        for u in cls.upcasts:
            def reader(payload, cls=cls, u=u):
                return cls.__name__, u.read(payload), cls.schema_version
            out.append((cls.stream_type, u.stored_as, u.schema_version, cls.__name__, reader))
    return out


@cache
def _fields(cls) -> frozenset[str]:
    return frozenset(f.name for f in dataclasses.fields(cls))


def _frozen(value: Any) -> Any:
    if isinstance(value, list):
        return tuple(_frozen(v) for v in value)
    return value


def _json(value: Any) -> Any:
    if isinstance(value, (list, tuple)):
        return [_json(v) for v in value]
    if isinstance(value, dict):
        return {k: _json(v) for k, v in value.items()}
    return value
