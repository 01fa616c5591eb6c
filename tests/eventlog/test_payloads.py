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


def test_shared_payloads_are_one_value_for_equal_texts_and_the_same_values_as_each_alone():
    texts = ['{"player": 0, "dice": [3, 1]}', '{"player": 1}', '{"player": 0, "dice": [3, 1]}', {"done": True},
             '{"id": 123456789012345678901234567890}', '{"player": 1}']
    alone = [payloads.loads(t) if isinstance(t, str) else t for t in texts]
    shared = payloads.loads_each(texts, shared=True)
    assert shared == alone and repr(shared) == repr(alone)
    assert shared[0] is shared[2] and shared[1] is shared[5] and shared[3] is texts[3]
    fresh = payloads.loads_each(texts)
    assert fresh == alone and fresh[0] is not fresh[2]  # a reader that may change its payloads gets its own
