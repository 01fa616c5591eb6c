"""The log's payloads as Python values, decoded where every event is read.

A rebuild of every projection decodes each of the log's million payloads: with the standard library's ``json``
that is a fifth of match_summary's rebuild (by a profile). orjson, a
compiled parser, decodes them in about 40 % of that time into the same values — but for an integer of more than
64 bits, which it reads as a float where ``json`` keeps it whole. A payload with a run of 19 digits or more
(2**63 has 19) is therefore read by ``json``: none the platform writes has one.
"""

from __future__ import annotations

import json
import re

import orjson

_LONG_NUMBER = re.compile(r"\d{19}")


def loads(text: str):
    if _LONG_NUMBER.search(text):
        return json.loads(text)
    return orjson.loads(text)


def loads_each(texts: list, *, shared: bool = False) -> list:
    """Each stored payload (text, or a value already decoded) as a Python value; with ``shared``, equal texts
    decoded once and given as one value, for a reader that never changes a payload: the log repeats itself (a
    million events of club play hold about a tenth as many distinct payloads, every roll one of 72)."""
    if not shared:
        return [loads(t) if t.__class__ is str else t for t in texts]
    seen: dict = {}
    out = []
    for text in texts:
        if text.__class__ is not str:
            out.append(text)
            continue
        value = seen.get(text)
        if value is None:
            value = seen[text] = loads(text)
        out.append(value)
    return out
