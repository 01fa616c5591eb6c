"""The chouette's cubes, scoring and rotation, against sessions worked by hand (games/engine/chouette.py).

Each session is written out as a club's score keeper would: who doubled whom, who took and dropped, what the board
gave, then every player's result for the game, the running sheet and the next line, worked by hand in the comments
and asserted. The sheet is checked to sum to zero after every game.

The checker play between the cube actions is not what these tests are about: where a game must end by bearing off,
the board is set near its end (``near_the_end``) and the last roll is played through the engine.
"""

from __future__ import annotations

import dataclasses

import pytest

from games.engine import chouette as ch
from games.engine.board import Position
from games.engine.errors import CubeNotAvailable, EngineError, InvalidAction, NotYourTurn, Reason


class Table:
    """A chouette recorded command by command, the events kept."""

    def __init__(self, *players, **options):
        self.state = ch.ChouetteState()
        self.events: list = []
        self.board_set = False  # a board set by hand is no event: the session no longer replays from its events
        self.do(ch.StartChouette(tuple(players), **options))

    def do(self, *commands) -> list:
        new = []
        for command in commands:
            for event in ch.decide(self.state, command):
                self.state = ch.evolve(self.state, event)
                new.append(event)
        self.events += new
        return new

    def refused(self, command, refusal=None):
        before = self.state
        with pytest.raises(refusal or Exception) as caught:
            self.do(command)
        assert self.state is before
        return caught.value

    def near_the_end(self, mine: dict[int, int], theirs: dict[int, int]) -> None:
        """The board set as the side on roll sees it (the rest of each side borne off)."""
        assert self.state.phase == ch.Phase.ROLL
        self.state = dataclasses.replace(self.state, position=Position.from_points(mine, theirs))
        self.board_set = True

    @property
    def sheet(self) -> dict[str, int]:
        return dict(self.state.sheet)

    def last_results(self) -> dict[str, int]:
        return dict(self.state.games[-1].results)


def assert_zero_sum(table: Table) -> None:
    for game in table.state.games:
        assert sum(points for _, points in game.results) == 0, game
    assert sum(table.sheet.values()) == 0, table.sheet
    if not table.board_set:
        assert ch.replay(table.events) == table.state  # the fold of the events alone gives the same session


def test_a_four_handed_session_of_three_games_worked_by_hand():
    t = Table("Ann", "Ben", "Cat", "Dan")  # Ann box, Ben captain, Cat and Dan crew; several first doubles: "half"
    assert (t.state.box, t.state.captain, t.state.team) == ("Ann", "Ben", ("Ben", "Cat", "Dan"))

    # Game 1. Ann rolls 3, Ben 1: the box plays 3-1.
    t.do(ch.Roll((3, 1)), ch.Move("8/5 6/5"))
    # Cat and Dan double at once (two first doubles: the box must take at least one, or drop both).
    t.do(ch.CrewDoubles(("Cat", "Dan")))
    assert t.state.pending == ("Cat", "Dan")
    # Ann takes Cat's (Cat's cube on 2, on the box's side) and drops Dan's: Dan wins 1 and is out of this game.
    t.do(ch.BoxAnswers(takes=("Cat",), drops=("Dan",)))
    assert t.state.cube("Cat") == ch.Cube("Cat", value=2, owner=ch.BOX)
    assert t.state.cube("Dan").settled and t.state.cube("Dan").points == 1
    # The team bears off its last checker while Ann has borne off none, none in the team's home board: a gammon.
    t.near_the_end(mine={1: 1}, theirs={6: 5, 5: 5, 4: 5})
    won = t.do(ch.Roll((2, 1)), ch.Move("1/off"))[-1]
    assert (won.winner, won.kind) == (ch.TEAM, "gammon")
    # By hand: Ben, cube centred at 1, gammon: +2. Cat, cube 2, gammon: +4. Dan dropped: +1.
    # Ann pays them all: -(2 + 4 + 1) = -7.
    assert t.last_results() == {"Ann": -7, "Ben": 2, "Cat": 4, "Dan": 1}
    # The captain beat the box: Ben takes the box, Ann goes to the bottom, Cat is the next captain.
    assert not won.box_stays and won.line == ("Ben", "Cat", "Dan", "Ann")
    assert t.sheet == {"Ann": -7, "Ben": 2, "Cat": 4, "Dan": 1}
    assert_zero_sum(t)

    # Game 2: Ben box, Cat captain, Dan and Ann crew. Ben rolls 5, Cat 2: the box plays 5-2; the team plays 3-1.
    t.do(ch.Roll((5, 2)), ch.Move("13/8 13/11"), ch.Roll((3, 1)), ch.Move("8/5 6/5"))
    # Ben doubles the whole team. Each answers alone: Cat, the captain, drops (-1): the captaincy passes to the next
    # in line still playing, Dan; Dan takes (his cube on 2, his own); Ann drops (-1).
    t.do(ch.BoxDoubles(("Cat", "Dan", "Ann")))
    t.refused(ch.Roll((1, 1)), InvalidAction)  # nobody rolls while a double waits for its answer
    changed = t.do(ch.Drop("Cat"))
    assert changed[-1] == ch.CaptainChanged("Dan") and t.state.captain == "Dan"
    t.do(ch.Take("Dan"), ch.Drop("Ann"))
    assert t.state.phase == ch.Phase.ROLL and t.state.turn == ch.BOX
    assert t.state.cube("Dan") == ch.Cube("Dan", value=2, owner=ch.TEAM)
    # Ben bears off his last checker; the team has borne one off: a single game.
    t.near_the_end(mine={2: 1}, theirs={6: 4, 5: 5, 4: 5})
    won = t.do(ch.Roll((3, 1)), ch.Move("2/off"))[-1]
    assert (won.winner, won.kind) == (ch.BOX, "single")
    # By hand: Cat dropped -1; Dan, cube 2, single: -2; Ann dropped -1. Ben wins 1 + 2 + 1 = +4.
    assert t.last_results() == {"Ben": 4, "Cat": -1, "Dan": -2, "Ann": -1}
    # The box beat the captain of the end (Dan): Ben keeps the box, the game's first captain (Cat) goes to the
    # bottom, Dan is next in line and captains.
    assert won.box_stays and won.line == ("Ben", "Dan", "Ann", "Cat")
    # Running: Ann -7-1 = -8, Ben 2+4 = 6, Cat 4-1 = 3, Dan 1-2 = -1.
    assert t.sheet == {"Ann": -8, "Ben": 6, "Cat": 3, "Dan": -1}
    assert_zero_sum(t)

    # Game 3: Ben box, Dan captain, Ann and Cat crew. Ben rolls 1, Dan 6: the team plays 6-1; the box plays 3-1.
    t.do(ch.Roll((1, 6)), ch.Move("13/7 8/7"), ch.Roll((3, 1)), ch.Move("8/5 6/5"))
    # The whole team doubles at once: three first doubles, so the box takes two at least, or drops all three.
    t.do(ch.CrewDoubles(("Dan", "Ann", "Cat")))
    refusal = t.refused(ch.BoxAnswers(takes=("Ann",), drops=("Dan", "Cat")), CubeNotAvailable)
    assert refusal.reason == Reason.BOX_TAKES_HALF and refusal.params == {"count": 3, "need": 2}
    assert t.refused(ch.BoxAnswers(takes=("Ann",), drops=("Dan",))).reason == Reason.ANSWER_EVERY_DOUBLE
    # Ben drops them all: no cube is left playing, the game is over. Each wins 1; Ben pays 3.
    won = t.do(ch.BoxAnswers(drops=("Dan", "Ann", "Cat")))[-1]
    assert (won.winner, won.kind) == (None, "")
    assert t.last_results() == {"Ben": -3, "Dan": 1, "Ann": 1, "Cat": 1}
    # The captain (Dan) beat the box: Dan takes the box, Ben goes to the bottom.
    assert won.line == ("Dan", "Ann", "Cat", "Ben")
    # Running: Ann -8+1 = -7, Ben 6-3 = 3, Cat 3+1 = 4, Dan -1+1 = 0.
    assert t.sheet == {"Ann": -7, "Ben": 3, "Cat": 4, "Dan": 0}
    assert_zero_sum(t)
    assert (t.state.box, t.state.captain, t.state.game, t.state.phase) == ("Dan", "Ann", 3, ch.Phase.OPENING)


def test_six_handed_with_the_box_partner_and_jacoby_worked_by_hand():
    # Ann box, Pia her partner, Ben captain, Cat, Dan and Eve crew; Jacoby: a cube never turned scores singles
    t = Table("Ann", "Pia", "Ben", "Cat", "Dan", "Eve", box_partner=True, jacoby=True)
    assert (t.state.box, t.state.partner, t.state.captain) == ("Ann", "Pia", "Ben")
    assert [c.member for c in t.state.cubes] == ["Ben", "Cat", "Dan", "Eve"]  # the partner has no cube
    # Ben rolls 6 to Ann's 1: the team plays 6-1; Ann doubles Ben alone before her roll; Ben takes.
    t.do(ch.Roll((1, 6)), ch.Move("13/7 8/7"), ch.BoxDoubles(("Ben",)), ch.Take("Ben"))
    assert t.refused(ch.BoxDoubles(("Ben",)), CubeNotAvailable).reason == Reason.MEMBER_OWNS_CUBE
    t.do(ch.Roll((3, 1)), ch.Move("8/5 6/5"))
    assert t.refused(ch.CrewDoubles(("Pia",)), InvalidAction).reason == Reason.NOT_IN_TEAM
    # The team bears off with a gammon.
    t.near_the_end(mine={1: 1}, theirs={6: 5, 5: 5, 4: 5})
    won = t.do(ch.Roll((2, 1)), ch.Move("1/off"))[-1]
    assert won.kind == "gammon"
    # By hand: Ben's cube was turned (2): the gammon counts, 2 x 2 = +4. Cat, Dan, Eve: cubes never turned, Jacoby:
    # a single each, +1. The team wins 4 + 3 = 7; the box's side pays 7, split: the partner -3, the box the odd
    # point, -4.
    assert t.last_results() == {"Ann": -4, "Pia": -3, "Ben": 4, "Cat": 1, "Dan": 1, "Eve": 1}
    # The box lost: Ben takes the box, the next in line (Cat) becomes his partner, Pia captains, Ann goes last.
    assert won.line == ("Ben", "Cat", "Pia", "Dan", "Eve", "Ann")
    assert (t.state.box, t.state.partner, t.state.captain) == ("Ben", "Cat", "Pia")
    assert_zero_sum(t)


def test_a_partnership_that_wins_keeps_the_box_and_the_captain_goes_last():
    t = Table("Ann", "Pia", "Ben", "Cat", "Dan", "Eve", "Fay", box_partner=True)
    # Ann rolls 6 to Ben's 1 and plays; the team plays; Ann doubles everyone; all drop but Eve, who takes.
    t.do(ch.Roll((6, 1)), ch.Move("13/7 8/7"), ch.Roll((3, 1)), ch.Move("8/5 6/5"))
    t.do(ch.BoxDoubles(("Ben", "Cat", "Dan", "Eve", "Fay")))
    t.do(ch.Drop("Ben"), ch.Drop("Cat"), ch.Drop("Dan"), ch.Take("Eve"), ch.Drop("Fay"))
    assert t.state.captain == "Eve"
    # Ann bears off; the team has one off: a single. Eve's cube is 2: -2.
    t.near_the_end(mine={1: 1}, theirs={6: 4, 5: 5, 4: 5})
    won = t.do(ch.Roll((2, 1)), ch.Move("1/off"))[-1]
    # By hand: Ben, Cat, Dan, Fay -1 each; Eve -2. The box's side wins 6: Pia +3, Ann +3 (no odd point).
    assert t.last_results() == {"Ann": 3, "Pia": 3, "Ben": -1, "Cat": -1, "Dan": -1, "Eve": -2, "Fay": -1}
    # Ann and Pia keep the box; the first captain (Ben) goes to the bottom; Cat captains.
    assert won.box_stays and won.line == ("Ann", "Pia", "Cat", "Dan", "Eve", "Fay", "Ben")
    assert_zero_sum(t)


def test_an_odd_result_leaves_the_odd_point_with_the_box():
    t = Table("Ann", "Pia", "Ben", "Cat", "Dan", "Eve", box_partner=True)
    t.do(ch.Roll((1, 6)), ch.Move("13/7 8/7"), ch.Roll((3, 1)), ch.Move("8/5 6/5"))
    # Three first doubles at once (Ben, Cat, Dan): the box takes two, drops Dan's (Dan +1).
    t.do(ch.CrewDoubles(("Ben", "Cat", "Dan")), ch.BoxAnswers(takes=("Ben", "Cat"), drops=("Dan",)))
    t.do(ch.Roll((6, 5)), ch.Move("24/13"))
    # The box bears off while the team has borne off none: a gammon.
    t.near_the_end(mine={1: 1}, theirs={6: 5, 5: 5, 4: 5})
    won = t.do(ch.Roll((2, 1)), ch.Move("1/off"))[-1]
    assert won.kind == "gammon"
    # By hand: Ben and Cat, cubes on 2, gammon: -4 each; Eve, centred: -2; Dan dropped: +1. The box's side wins
    # 4 + 4 + 2 - 1 = 9, odd: Pia +4, Ann the odd point, +5.
    assert t.last_results() == {"Ann": 5, "Pia": 4, "Ben": -4, "Cat": -4, "Dan": 1, "Eve": -2}
    assert_zero_sum(t)


def test_the_half_rule_counts_first_doubles_only_and_its_variations():
    # a redouble is answered on its own: with Cat's redouble and Dan's first double, one first double only
    t = Table("Ann", "Ben", "Cat", "Dan")
    t.do(ch.Roll((1, 6)), ch.Move("13/7 8/7"), ch.BoxDoubles(("Cat", "Ben")), ch.Take("Cat"), ch.Drop("Ben"))
    assert t.state.captain == "Cat"
    t.do(ch.Roll((3, 1)), ch.Move("8/5 6/5"), ch.CrewDoubles(("Cat", "Dan")))
    assert t.state.pending == ("Cat", "Dan")
    t.do(ch.BoxAnswers(takes=("Cat",), drops=("Dan",)))  # one first double of one: dropping it is free
    assert t.state.cube("Cat") == ch.Cube("Cat", value=4, owner=ch.BOX)
    assert_zero_sum(t)

    # half_and_captain: of the captain's and Cat's first doubles, taking one means taking the captain's
    t = Table("Ann", "Ben", "Cat", "Dan", variation="half_and_captain")
    t.do(ch.Roll((3, 1)), ch.Move("8/5 6/5"), ch.CrewDoubles(("Ben", "Cat")))
    refusal = t.refused(ch.BoxAnswers(takes=("Cat",), drops=("Ben",)), CubeNotAvailable)
    assert refusal.reason == Reason.BOX_TAKES_CAPTAIN and refusal.params == {"name": "Ben"}
    t.do(ch.BoxAnswers(takes=("Ben",), drops=("Cat",)))
    assert t.state.phase == ch.Phase.ROLL and t.state.turn == ch.TEAM

    # free: each double on its own, one taken of three
    t = Table("Ann", "Ben", "Cat", "Dan", variation="free")
    t.do(ch.Roll((3, 1)), ch.Move("8/5 6/5"), ch.CrewDoubles(("Ben", "Cat", "Dan")))
    t.do(ch.BoxAnswers(takes=("Dan",), drops=("Ben", "Cat")))
    # Ben (captain) and Cat dropped, so Dan plays on as captain
    assert t.state.captain == "Dan" and [c.member for c in t.state.cubes if c.playing] == ["Dan"]

    # half with four first doubles: two taken is half
    t = Table("Ann", "Ben", "Cat", "Dan", "Eve")
    t.do(ch.Roll((3, 1)), ch.Move("8/5 6/5"), ch.CrewDoubles(("Ben", "Cat", "Dan", "Eve")))
    t.do(ch.BoxAnswers(takes=("Cat", "Eve"), drops=("Ben", "Dan")))
    assert t.state.captain == "Cat"


def test_naming_a_cube_not_offered_is_refused_and_nothing_changes():
    t = Table("Ann", "Ben", "Cat", "Dan")
    t.do(ch.Roll((3, 1)), ch.Move("8/5 6/5"), ch.CrewDoubles(("Cat",)))
    assert t.refused(ch.BoxAnswers(drops=("Cat", "Dan"))).reason == Reason.ANSWER_EVERY_DOUBLE
    assert t.refused(ch.BoxAnswers(takes=("Cat",), drops=("Cat",))).reason == Reason.NAMED_TWICE
    assert t.refused(ch.Take("Cat"), InvalidAction).reason == Reason.NO_DOUBLE_OFFERED  # the box answers this one
    t.do(ch.BoxAnswers(takes=("Cat",)))
    # Cat's cube is the box's now: Cat cannot double it, the box can redouble it on her turn
    assert t.refused(ch.CrewDoubles(("Cat",)), CubeNotAvailable).reason == Reason.BOX_OWNS_CUBE
    t.do(ch.Roll((6, 5)), ch.Move("24/13"))
    assert t.refused(ch.CrewDoubles(("Dan",)), NotYourTurn).reason == Reason.NOT_YOUR_DOUBLE
    t.do(ch.BoxDoubles(("Cat", "Ben")))
    assert t.refused(ch.Take("Dan"), NotYourTurn).reason == Reason.NOTHING_TO_ANSWER
    t.do(ch.Take("Cat"), ch.Take("Ben"))
    assert t.state.cube("Cat") == ch.Cube("Cat", value=4, owner=ch.TEAM)


def test_starting_a_chouette_checks_its_players_and_the_partner_rule():
    def refused(players, **options):
        with pytest.raises(InvalidAction) as caught:
            ch.decide(ch.ChouetteState(), ch.StartChouette(tuple(players), **options))
        return caught.value.reason

    assert refused(("Ann", "Ben")) == Reason.CHOUETTE_PLAYERS
    assert refused(("Ann", "Ben", "Ann")) == Reason.CHOUETTE_PLAYERS
    assert refused([f"P{n}" for n in range(11)], box_partner=True) == Reason.CHOUETTE_PLAYERS
    assert refused(("A", "B", "C", "D", "E"), box_partner=True) == Reason.PARTNER_FROM_SIX
    assert refused(("A", "B", "C", "D", "E", "F", "G")) == Reason.PARTNER_REQUIRED
    assert refused(("A", "B", "C"), variation="most") == Reason.UNKNOWN_VARIATION
    six = ch.decide(ch.ChouetteState(), ch.StartChouette(("A", "B", "C", "D", "E", "F")))  # partner optional at 6
    assert ch.replay(six).partner == "" and ch.replay(six).captain == "B"
    with pytest.raises(InvalidAction) as caught:
        ch.decide(ch.ChouetteState(), ch.Roll((3, 1)))
    assert caught.value.reason == Reason.CHOUETTE_NOT_STARTED


def test_events_round_trip_through_their_dicts():
    t = Table("Ann", "Ben", "Cat", "Dan")
    t.do(ch.Roll((3, 1)), ch.Move("8/5 6/5"), ch.CrewDoubles(("Cat", "Dan")), ch.BoxAnswers(drops=("Cat", "Dan")))
    assert [ch.from_dict(ch.to_dict(e)) for e in t.events] == t.events


def test_a_stream_is_judged_again_from_its_events_and_a_tampered_one_is_not():
    t = Table("Ann", "Ben", "Cat", "Dan")
    t.do(ch.Roll((3, 1)), ch.Move("8/5 6/5"), ch.CrewDoubles(("Cat", "Dan")), ch.BoxAnswers(("Cat",), ("Dan",)),
         ch.Roll((6, 5)), ch.Move("24/13"), ch.BoxDoubles(("Ben", "Cat")), ch.Drop("Ben"), ch.Drop("Cat"))
    assert ch.rejudge(t.events) == t.state
    assert t.last_results() == {"Ann": 2, "Ben": -1, "Cat": -2, "Dan": 1}
    # the box's answer rewritten to drop Cat's double too: the results stored no longer follow
    at = next(i for i, e in enumerate(t.events) if isinstance(e, ch.CubeTaken))
    tampered = t.events[:at] + [ch.CubeDropped("Cat", ch.TEAM, 1)] + t.events[at + 1:]
    with pytest.raises((ValueError, EngineError)):
        ch.rejudge(tampered)
