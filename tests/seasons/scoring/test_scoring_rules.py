"""Each scoring rule on tables computed by hand (pure: no Django, run with -p no:django -p tests.pure)."""

from datetime import date

import pytest

from seasons.scoring import (
    EventResult, Finish, Reason, RuleError, Version, Win, checked, event_points, table, version_on,
)

from tests.refusals import refused

# USBGF-style: the club's table of places x field sizes (master points grow with the field)
USBGF = {"kind": "placement", "table": [
    {"min_field": 8, "points": [4, 2, 1, 1]},
    {"min_field": 16, "points": [8, 5, 3, 3, 1, 1, 1, 1]},
    {"min_field": 32, "points": [16, 10, 6, 6, 3, 3, 3, 3]},
]}


def rule(*components, best=None):
    return checked({"components": list(components), "best": best})


@pytest.mark.parametrize("field_size, place, points", [
    (7, 1, 0),    # smaller than every column: nothing
    (8, 1, 4), (12, 2, 2), (15, 4, 1), (15, 5, 0),  # the 8-player column; past its list: nothing
    (16, 1, 8), (16, 5, 1), (31, 8, 1), (31, 9, 0),
    (32, 1, 16), (40, 3, 6), (64, 8, 3),
])
def test_placement_by_place_and_field_size(field_size, place, points):
    assert event_points(rule(USBGF), Finish(1, place), field_size) == points


def test_placement_columns_are_read_in_field_order_whatever_order_the_club_gave_them():
    shuffled = {"kind": "placement", "table": list(reversed(USBGF["table"]))}
    assert event_points(rule(shuffled), Finish(1, 1), 20) == 8


def test_match_wins_weighted_by_bracket_and_round():
    wins = (Win("main", 1), Win("main", 2), Win("main", 3),  # 1 + 1 + 2 (the final counts double)
            Win("consolation", 1), Win("consolation", 2),    # 0.5 + 0.5: consolation is worth half
            Win("main", 1, forfeit=True),                    # a walkover is not a match won: 0
            Win("main", 2, rated=False))                     # nor is an unrated match (a friendly): 0
    component = {"kind": "match_wins", "per_win": 1, "brackets": {"main": 1, "consolation": 0.5}, "rounds": {"3": 2}}
    assert event_points(rule(component), Finish(1, 1, wins), 8) == 5.0
    # the consolation's third round is weighted by both: 0.5 x 2
    assert event_points(rule(component), Finish(1, 1, (Win("consolation", 3),)), 8) == 1.0
    # an unnamed bracket weighs 1; per_win scales everything
    assert event_points(rule({"kind": "match_wins", "per_win": 3}), Finish(1, 1, (Win("last_chance", 1),)), 8) == 3


def test_attendance_and_components_add_up():
    r = rule(USBGF, {"kind": "attendance", "points": 2}, {"kind": "match_wins", "per_win": 1})
    # 16 players, 2nd place with 3 wins: 5 + 2 + 3
    assert event_points(r, Finish(1, 2, (Win(), Win(round=2), Win(round=3))), 16) == 10


def test_best_3_of_5():
    # hand-computed: the points each player got in each of five events, one point per match won
    got = {1: {1: 10, 2: 6, 3: 10}, 2: {1: 2, 2: 6}, 3: {1: 7, 2: 6, 3: 10}, 4: {1: 5}, 5: {1: 0, 3: 1}}
    events = [EventResult(event, date(2026, 2, event), 8,
                          tuple(Finish(p, place, tuple(Win() for _ in range(points[p])))
                                for place, p in enumerate(sorted(points, key=lambda p: -points[p]), 1)))
              for event, points in got.items()]
    versions = [Version(1, date(2026, 1, 1), rule({"kind": "match_wins", "per_win": 1}, best=3))]
    rows = {r.player: r for r in table(events, versions)}
    # player 1: 10, 2, 7, 5, 0 -> best three 10 + 7 + 5 = 22; player 3: 10, 10, 1 -> 21; player 2: 6, 6, 6 -> 18
    assert (rows[1].total, rows[3].total, rows[2].total) == (22, 21, 18)
    assert (rows[1].rank, rows[3].rank, rows[2].rank) == (1, 2, 3)
    assert [(s.event, s.points, s.counted) for s in rows[1].scores] == [
        (1, 10, True), (2, 2, False), (3, 7, True), (4, 5, True), (5, 0, False)]
    assert [s.counted for s in rows[3].scores] == [True, True, True]  # three events: all three count
    # every event counts without "best": 24, 21, 18
    every = {r.player: r.total for r in table(events, [Version(1, date(2026, 1, 1), rule({"kind": "match_wins"}))])}
    assert every == {1: 24, 3: 21, 2: 18}


def test_equal_totals_share_a_place():
    event = EventResult(1, date(2026, 1, 5), 4, tuple(Finish(p, place) for place, p in enumerate((4, 3, 2, 1), 1)))
    versions = [Version(1, date(2026, 1, 1), rule({"kind": "placement", "table": [{"min_field": 2, "points": [5, 3, 3]}]}))]
    assert [(r.player, r.rank, r.total) for r in table([event], versions)] == [(4, 1, 5), (2, 2, 3), (3, 2, 3), (1, 4, 0)]


def test_a_rule_change_from_a_date_rescores_only_the_events_from_that_date():
    events = [EventResult(n, day, 8, (Finish(1, 1), Finish(2, 2)))
              for n, day in enumerate((date(2026, 1, 15), date(2026, 2, 15), date(2026, 3, 1), date(2026, 4, 1)), 1)]
    v1 = Version(1, date(2026, 1, 1), rule({"kind": "attendance", "points": 1}))
    v2 = Version(2, date(2026, 3, 1), rule({"kind": "attendance", "points": 3}, USBGF))
    before = {r.player: r for r in table(events, [v1])}
    after = {r.player: r for r in table(events, [v1, v2])}
    assert [(s.points, s.version) for s in after[1].scores] == [(1, 1), (1, 1), (7, 2), (7, 2)]
    assert [(s.points, s.version) for s in after[2].scores] == [(1, 1), (1, 1), (5, 2), (5, 2)]
    for player in (1, 2):  # the two events before the date are exactly as they were
        assert after[player].scores[:2] == before[player].scores[:2]
    assert (after[1].total, after[2].total) == (16, 12)


def test_no_rule_in_force_yet_gives_no_points():
    event = EventResult(1, date(2025, 12, 31), 8, (Finish(1, 1),))
    assert table([event], [Version(1, date(2026, 1, 1), rule({"kind": "attendance", "points": 1}))]) == []


def test_the_version_in_force():
    v1, v2, v3 = (Version(n, d, {}) for n, d in ((1, date(2026, 1, 1)), (2, date(2026, 3, 1)), (3, date(2026, 3, 1))))
    assert version_on([v1, v2, v3], date(2026, 2, 28)) is v1
    assert version_on([v3, v2, v1], date(2026, 3, 1)) is v3  # two from one date: the later version
    assert version_on([v1], date(2025, 1, 1)) is None


@pytest.mark.parametrize("bad, reason", [
    ([], Reason.RULE_OBJECT),
    ({"components": []}, Reason.COMPONENTS),
    ({"components": [{"kind": "lottery"}]}, Reason.KIND),
    ({"components": [{"kind": "attendance", "points": -1}]}, Reason.NUMBER),
    ({"components": [{"kind": "attendance", "bonus": 1}]}, Reason.COMPONENT_KEY),
    ({"components": [{"kind": "placement", "table": [{"min_field": 1, "points": [1]}]}]}, Reason.MIN_FIELD),
    ({"components": [{"kind": "placement", "table": [{"min_field": 8, "points": [1]},
                                                      {"min_field": 8, "points": [2]}]}]}, Reason.MIN_FIELD),
    ({"components": [{"kind": "match_wins", "rounds": {"final": 2}}]}, Reason.ROUNDS),
    # digits that are not 0-9: '²' made int() raise (a 500), Arabic-Indic ones were read and stored as "1"
    ({"components": [{"kind": "match_wins", "rounds": {"²": 2}}]}, Reason.ROUNDS),
    ({"components": [{"kind": "match_wins", "rounds": {"\u0661": 2}}]}, Reason.ROUNDS),
    ({"components": [{"kind": "match_wins", "brackets": {f"b{i}": 1 for i in range(20_000)}}]}, Reason.BRACKETS_MOST),
    ({"components": [{"kind": "match_wins", "rounds": {str(i): 1 for i in range(1, 100)}}]}, Reason.ROUNDS_MOST),
    ({"components": [{"kind": "attendance"}], "best": 0}, Reason.BEST),
    ({"components": [{"kind": "attendance"}], "worst": 1}, Reason.UNKNOWN_KEY),
])
def test_a_bad_rule_is_refused_with_its_reason(bad, reason):
    with refused(RuleError, reason):
        checked(bad)


def test_a_numbers_place_in_the_rule_is_said_with_it():
    with refused(RuleError, Reason.NUMBER, where=Reason.ATTENDANCE_POINTS, minimum="0") as caught:
        checked({"components": [{"kind": "attendance", "points": -1}]})
    assert caught.value.params["where"].params == {"component": 1}
    assert str(caught.value) == "component 1: 'points' is a number from 0 to 1000000"


# an eight-player knockout as the event publishes it: the semi-finals' losers share 3rd, the quarter-finals' 5th
KNOCKOUT_8 = (Finish(11, 1), Finish(12, 2), Finish(13, 3), Finish(14, 3),
              Finish(15, 5), Finish(16, 5), Finish(17, 5), Finish(18, 5))


def test_shared_places_share_the_points_of_the_places_they_cover_averaged():
    wall = {"kind": "placement", "table": [{"min_field": 8, "points": [10, 6, 4, 2, 1, 1, 0.5, 0.5]}]}
    rows = table([EventResult(1, date(2026, 3, 1), 8, KNOCKOUT_8)], [Version(1, date(2026, 1, 1), rule(wall))])
    points = {row.player: row.total for row in rows}
    # 3= takes the mean of 3rd and 4th (4 and 2); 5= the mean of 5th to 8th (1, 1, 0.5, 0.5): no seed decides
    assert points == {11: 10, 12: 6, 13: 3, 14: 3, 15: 0.75, 16: 0.75, 17: 0.75, 18: 0.75}
    assert sum(points.values()) == sum(wall["table"][0]["points"])  # the event gives out its table's points, once
    assert [row.rank for row in rows] == [1, 2, 3, 3, 5, 5, 5, 5]


def test_a_shared_place_past_the_end_of_the_list_counts_the_missing_places_as_nothing():
    short = {"kind": "placement", "table": [{"min_field": 8, "points": [4, 2, 1]}]}  # nothing from 4th on
    rows = table([EventResult(1, date(2026, 3, 1), 8, KNOCKOUT_8)], [Version(1, date(2026, 1, 1), rule(short))])
    points = {row.player: row.total for row in rows}
    assert points[13] == points[14] == 0.5 and points[15] == 0
    assert event_points(rule(short), Finish(13, 3), 8, sharing=2) == 0.5
    assert event_points(rule(short), Finish(13, 3), 8) == 1  # a place of its own: the place's points


def test_a_chouette_night_gives_its_sheets_net_points_and_attendance_beside_the_events():
    r = rule(USBGF, {"kind": "attendance", "points": 1}, {"kind": "chouette", "per_point": 2})
    # a chouette night: no place, no match won; its sheet's net points (x2) and attendance only
    assert event_points(r, Finish(1, 0, points=3), 4, chouette=True) == 7
    assert event_points(r, Finish(2, 0, points=-5), 4, chouette=True) == -9
    # an event gives nothing by the chouette component: 2nd of 8 (2) and attendance (1)
    assert event_points(r, Finish(1, 2, points=10), 8) == 3
    night = EventResult("chouette-abc", date(2026, 3, 5), 3,
                        (Finish(1, 0, points=4), Finish(2, 0, points=-1), Finish(3, 0, points=-3)), chouette=True)
    event = EventResult(7, date(2026, 3, 5), 8, (Finish(1, 2), Finish(2, 1), Finish(3, 3)))
    rows = {row.player: row for row in table([night, event], [Version(1, date(2026, 1, 1), r)])}
    # by hand: player 1: 2 + 1 (event) + 8 + 1 (night) = 12; player 2: 4 + 1 - 2 + 1 = 4; player 3: 1 + 1 - 6 + 1 = -3
    assert [(p, rows[p].total, rows[p].rank) for p in (1, 2, 3)] == [(1, 12, 1), (2, 4, 2), (3, -3, 3)]
    assert [s.event for s in rows[1].scores] == [7, "chouette-abc"]  # on one date: the events first
    with refused(RuleError, Reason.NUMBER, where=Reason.CHOUETTE_POINTS, minimum="0"):
        checked({"components": [{"kind": "chouette", "per_point": -1}]})
