"""``refused(cls, reason, **params)``: a ``pytest.raises`` that checks a refusal's data, not its English.

The refusal must be a ``cls`` (whose ``code`` it carries), for ``reason``, with at least ``params``; a parameter
given as a reason (an enum member) checks the nested refusal's reason. Pure: the engine's and the decider's tests
use it without Django.
"""

from __future__ import annotations

from contextlib import contextmanager
from enum import Enum

import pytest


@contextmanager
def refused(cls: type[Exception], reason: Enum, **params):
    with pytest.raises(cls) as caught:
        yield caught
    refusal = caught.value
    assert getattr(refusal, "code", None) == getattr(cls, "code", None), str(refusal)
    assert refusal.reason is reason, (refusal.reason, str(refusal))
    for name, value in params.items():
        got = refusal.params[name]
        assert (got.reason if isinstance(value, Enum) else got) == value, (name, got, str(refusal))


def innermost_reason(refusal: Exception) -> Enum:
    """The reason at the heart of a refusal: its own, or its nested ``why``'s, all the way down."""
    while "why" in refusal.params:
        refusal = refusal.params["why"]
    return refusal.reason
