"""Row ids as the database holds them (a bigint): a larger number names no row, on every engine.

PostgreSQL compares such a number as a numeric and finds nothing; SQLite, the embedded default, refuses to bind
it (OverflowError: the request would end in a 500). So the edges take an id only in the range a row can have: the
path converter ``<id:…>`` (registered by apikit/apps.py) leaves a larger number unmatched, a 404, and a body's id
field is bounded by :data:`MAX_ID`.
"""

MAX_ID = 2**63 - 1


def is_id(value) -> bool:
    """A whole number a row's id can be (booleans are not numbers here)."""
    return isinstance(value, int) and not isinstance(value, bool) and 0 < value <= MAX_ID


class RowIdConverter:
    regex = "[0-9]{1,19}"

    def to_python(self, value: str) -> int:
        number = int(value)
        if number > MAX_ID:
            raise ValueError("no row has this id")  # the resolver goes on to the next pattern: none, a 404
        return number

    def to_url(self, value) -> str:
        return str(int(value))
