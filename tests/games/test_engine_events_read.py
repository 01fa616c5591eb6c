"""A stored row's engine event (``streams.engine_event``) is the event ``from_dict`` makes of it, and a fold given
the events already made (a rebuild's, one per distinct payload) ends where a fold making each again ends."""

import random

import pytest

from games import streams
from games.engine import events as ev
from tests.games.engine.test_properties import play_random_match
from tests.games.test_match_summary_batches import mat


def _stored(events) -> list[tuple[str, dict]]:
    return [streams.engine_payload(e) for e in events]


@pytest.mark.parametrize("money", [{}, {"jacoby": True, "beavers": True, "raccoons": True, "automatic_doubles": 2}])
def test_every_stored_event_reads_as_from_dict_reads_it(money):
    rnd = random.Random(7)
    events = mat("match_007_3pt.mat") + play_random_match(rnd, 0 if money else 5, money)[1]
    for kind, payload in _stored(events):
        made, wanted = streams.engine_event(kind, payload), ev.from_dict({"type": kind, **payload})
        assert type(made) is type(wanted) and made == wanted and hash(made) == hash(wanted)
        assert repr(made) == repr(wanted)  # tuples where the payload has lists, all the way down


def test_a_field_left_out_reads_its_default_and_a_wrong_shape_is_refused_as_the_class_refuses_it():
    assert streams.engine_event("DiceRolled", {"player": 1, "dice": [6, 5]}) == ev.DiceRolled(1, (6, 5))
    assert streams.engine_event("DiceRolled", {"player": 1, "dice": [6, 5]}).source == ev.RollSource.SERVER
    with pytest.raises(TypeError):
        streams.engine_event("DiceRolled", {"player": 1})  # no dice
    with pytest.raises(TypeError):
        streams.engine_event("DiceRolled", {"player": 1, "dice": [6, 5], "cheat": True})
    with pytest.raises(ValueError):
        streams.engine_event("NoSuchEvent", {})


def test_a_fold_given_the_events_already_made_ends_where_a_fold_making_each_ends():
    class Row:
        def __init__(self, version, kind, payload):
            self.version, self.event_type, self.payload = version, kind, payload

    registration = {"player_ids": [1, 2], "tournament_id": None, "officiating_director_id": None,
                    "rating_ramp": "fibs"}
    shared: dict = {}  # equal payloads one object, as a rebuild's batch has them
    rows = [Row(1, streams.REGISTERED, registration)]
    for i, (kind, payload) in enumerate(_stored(mat("match_007_3pt.mat")), start=2):
        rows.append(Row(i, kind, shared.setdefault(repr(payload), payload)))
    assert len(shared) < len(rows) - 1  # some payloads are repeated: the events made for them are reused
    built: dict = {}
    once = streams.fold("m", rows, built=built)
    assert once == streams.fold("m", rows) and len(built) < len(rows)
    assert streams.fold("m", rows, built=built) == once  # and again from what the first made
