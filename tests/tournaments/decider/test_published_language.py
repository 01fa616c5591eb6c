"""The published language (``published/``): the facts other apps read of a tournament's stream, the rule of which
result a slot counts, and the names a follower of the whole stream subscribes to. Pure: no Django."""

from __future__ import annotations

from types import SimpleNamespace

from published import language, slots
from published import matches as m
from published import tournaments as t
from tournaments import events as ev


def test_a_follower_of_the_whole_stream_is_told_every_type_it_holds():
    """The seasons subscribe to a tournament stream by the published names: a new event of the stream must be
    named there too, or a season would not see the event change; only an event that changes no result (a setting
    of the matches to come, ``tournaments.events.CHANGES_NO_RESULT``) may be left out."""
    assert set(t.EVENT_TYPES) == set(ev.EVENTS) - {e.__name__ for e in ev.CHANGES_NO_RESULT}
    assert not {e.__name__ for e in ev.CHANGES_NO_RESULT} & set(t.EVENT_TYPES)


def test_the_tournaments_published_events_are_the_published_types_themselves():
    for fact in t.FACTS:
        assert ev.EVENTS[fact.__name__] is fact


def test_a_fact_reads_the_keys_it_publishes_and_leaves_the_others():
    row = SimpleNamespace(stream_type=m.STREAM_TYPE, event_type="MatchRegistered",
                          payload={"player_ids": [3, 4], "rating_ramp": "none", "dice": "server", "rated": False})
    fact = language.read(row)
    assert fact == m.MatchRegistered(player_ids=(3, 4), rating_ramp="none", rated=False)
    assert language.read(SimpleNamespace(stream_type=m.STREAM_TYPE, event_type="CheckersMoved", payload={})) is None
    assert language.read(SimpleNamespace(stream_type=t.STREAM_TYPE, event_type="PlayerEntered",
                                         payload={"player_id": 1})) is None  # the tournament's own, not published


def test_a_slot_result_is_written_as_it_was_before_it_was_published():
    e = t.ResultReported("main:r1:m1", 11, 12, 5, 2, 5)
    assert e.event_type == "ResultReported" and e.schema_version == 1
    assert e.to_payload() == {"slot": "main:r1:m1", "winner": 11, "loser": 12, "winner_points": 5, "loser_points": 2,
                              "length": 5, "rating_ramp": "fibs", "reported_by": "director"}
    assert t.SlotResultCorrected.schema_version == 2
    assert ev.from_payload("ResultReported", e.to_payload()) == e


def test_each_upcaster_is_declared_on_its_type():
    declared = {(s, stored, v, becomes) for s, stored, v, becomes, _ in language.upcasters(m.FACTS + t.FACTS)}
    assert declared == {("match", "MatchRegistered", 1, "MatchRegistered"),
                        ("tournament", "ResultCorrected", 1, "SlotResultCorrected")}
    (*_, registered), = language.upcasters([m.MatchRegistered])
    assert registered({"player_ids": [1, 2]}) == (
        "MatchRegistered", {"officiating_director_id": None, "rating_ramp": "fibs", "player_ids": [1, 2]}, 2)


def test_a_slot_counts_the_correction_then_the_result_decided_off_the_board_then_its_match():
    assert slots.counted("corrected", "paper", "played") == "corrected"
    assert slots.counted(None, "paper", "played") == "paper"
    assert slots.counted(None, None, "played") == "played"
    assert slots.counted(None, None, None) is None


def test_voiding_the_slots_match_voids_only_a_result_between_its_players():
    assert slots.voided_with_match((11, 12), (12, 11))
    assert not slots.voided_with_match((11, 13), (11, 12))  # a result of a superseded pairing stands
