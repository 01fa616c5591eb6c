"""The log's payloads decode to the values the standard library's json gives (eventlog/payloads.py): orjson for
speed, json where orjson would read a number otherwise."""

import json

import pytest

from eventlog import payloads


@pytest.mark.parametrize("text", [
    '{"steps": [[24, 18, false], [13, 11, true]], "player": 0, "dice": [3, 1]}',
    '{"name": "Zoé «la Reine» 🎲", "note": null, "score": [7, 4], "ratio": 0.1, "neg": -3}',
    '{"id": 9223372036854775807, "low": -9223372036854775808}',  # 64 bits: both read it whole
    '{"beyond": 123456789012345678901234567890, "nested": {"also": [18446744073709551616]}}',  # more: json reads
    '{"precise": 0.1000000000000000055511151231257827, "exp": 1e300}',
    '[]', '{}', '"text"',
])
def test_a_payload_reads_as_json_reads_it(text):
    ours, theirs = payloads.loads(text), json.loads(text)
    assert ours == theirs
    assert repr(ours) == repr(theirs)  # the same types too: an int stays an int, never a float
