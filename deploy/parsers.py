"""The API's JSON parser: DRF's, with a bound on nesting.

Python's JSON decoder recurses once per level and fails with RecursionError (a 500) on a body
of a hundred thousand ``[``; and no command is more than a few levels deep. So a body nested
deeper than ``MAX_DEPTH`` is refused as malformed (400) before any view sees it.
"""

from __future__ import annotations

from rest_framework import parsers
from rest_framework.exceptions import ParseError

MAX_DEPTH = 32  # a tournament's settings are the deepest thing the API takes: 4 levels


def depth(value) -> int:
    """How deeply lists and objects nest in ``value`` (iterative: no recursion to exhaust)."""
    deepest, stack = 0, [(value, 1)]
    while stack:
        item, level = stack.pop()
        if isinstance(item, dict):
            children = item.values()
        elif isinstance(item, list):
            children = item
        else:
            continue
        deepest = max(deepest, level)
        if deepest > MAX_DEPTH:
            return deepest
        stack.extend((child, level + 1) for child in children)
    return deepest


class JSONParser(parsers.JSONParser):
    def parse(self, stream, media_type=None, parser_context=None):
        try:
            data = super().parse(stream, media_type, parser_context)
        except RecursionError:
            raise ParseError(f"JSON nested more than {MAX_DEPTH} levels deep is not accepted") from None
        if depth(data) > MAX_DEPTH:
            raise ParseError(f"JSON nested more than {MAX_DEPTH} levels deep is not accepted")
        return data
