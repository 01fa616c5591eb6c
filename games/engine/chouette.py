"""A chouette as a decider: one board, a box against a team, a cube for every team member.

``decide`` judges a command against the folded state and returns the events; ``evolve`` applies one. Pure, as
:mod:`games.engine.match` is, and built on the same board and movement rules (:mod:`games.engine.moves`).

The rules as they are played in clubs (the sources at the end); where clubs differ, the options say which way:

* **The line.** The players, in the order of their opening rolls, form the line: the box, the box's partner when
  there is one, then the team, its first member the *captain*. The captain rolls the team's dice and plays its
  checkers: one checker play for everyone; the crew (the other team members) only double, take and drop.
* **A cube for every team member.** Each team member plays their own game against the box on the common board,
  with their own cube, centred at 1. On the box's turn, before rolling, the box may double any of the team members
  whose cube is centred or the box's; each answers alone (take: the cube theirs at twice the value; drop: they pay
  the cube's value and are out of this game). On the team's turn, before the captain rolls, any team members whose
  cube is centred or their own may double, at once; the box answers all of them in one decision.
* **Several first doubles at once.** When two or more team members offer their *first* double (a centred cube) at
  once, the box's answer is bound by the chouette's ``variation``:

  - ``half`` (the default): the box takes at least half of them or drops them all (Clinton Hill Backgammon Club's
    house rules: "the Box must take half or more of cubes offered");
  - ``half_and_captain``: as ``half``, and the captain's double is among those taken (the Los Angeles chouette
    rules as Joe Russell gives them on BGonline.org, 2013: "he must take enough cubes to at least break even and
    he must take the captain"; the backgammon rules of Backgammon ACT: "where possible the box must take the
    captain's cube");
  - ``free``: each double is answered on its own ("doubling decisions are made individually", Erich Friedman's
    chouette rules; the Wikipedia-derived text on gambiter.com).

  A redouble (a cube already turned) is always answered on its own.
* **The captain drops.** When the captain's cube is settled (the captain dropped the box's double, or the box
  dropped the captain's), the next team member in line still playing becomes captain for the rest of the game.
  A game ends when the last cube still playing is settled, or when a side bears off: every cube still playing
  then scores its single, gammon or backgammon times its value. ``jacoby``: a cube never turned scores a single
  game whatever the win (Boston and Colorado chouette rules).
* **The rotation.** The box keeps the box when it beats the captain of the end of the game (the last team member
  to play, or whose cube the box won last): the game's first captain goes to the bottom of the line and the next
  in line becomes captain. Otherwise that captain becomes the box, the old box goes to the bottom of the line and
  the others keep their order (Erich Friedman's rules; the Los Angeles rules: "to retain the box you must win the
  game, if played to completion against anyone, or have the last active crew member pass your cube").
* **The box's partner.** Optional with 6 players, required with 7 or more (the Los Angeles rules: "partners are
  optional with 6 players and mandatory with 7"); at most 10 players (Kit Woolsey's FIBS chouette regulations).
  The partner is second in the line; the box and the partner split the box's result, the box taking the odd point
  won or lost (garyo on BGonline.org, 2009, bkgm.com rgb 1506). When the box loses, the partner becomes captain,
  the winning captain the box and the next in line the box's partner (Kit Woolsey's regulations).
* **The score sheet.** Each game's results are written to every player; the box's is the opposite of the team's
  sum, so the sheet always sums to zero.

Not played here: automatic doubles, beavers, resignations, players joining or leaving a running session.

Sources: clintonhillbackgammon.com/chouettes.html; bgonline.org forums, message 141034 (the L.A. rules);
erich-friedman.github.io/random/chouette.html; gambiter.com/backgammon/Backgammon_chouette.html;
bkgm.com/rgb/rgb.cgi?view+1087 (Kit Woolsey's regulations) and ?view+1506; home.netspeed.com.au/gregash
(Backgammon ACT); coloradobackgammon.com (Colorado chouette rules).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable
from dataclasses import dataclass
from enum import StrEnum
from functools import reduce

from .board import OFF, Position
from .errors import CubeNotAvailable, InvalidAction, NotYourTurn, Reason
from .events import KIND_VALUE, RollSource
from .match import _bearoff_kind
from .moves import _effect, legal_moves, play

BOX, TEAM = 0, 1  # the two sides of the board; a position is seen from the side on roll
MOST_PLAYERS = 10
PARTNER_OPTIONAL_FROM, PARTNER_REQUIRED_FROM = 6, 7


class Variation(StrEnum):
    """How the box answers several first doubles offered at once (the module's docstring cites each)."""

    HALF = "half"
    HALF_AND_CAPTAIN = "half_and_captain"
    FREE = "free"


class Phase(StrEnum):
    NOT_STARTED = "not_started"
    OPENING = "opening"  # the box and the captain roll one die each for the next game
    ROLL = "roll"  # the side on roll may double, then rolls
    MOVE = "move"  # the side on roll has rolled and plays
    CREW_ANSWERS = "crew_answers"  # the team members doubled by the box take or drop, each alone
    BOX_ANSWERS = "box_answers"  # the box answers the team members' doubles, all in one decision


# -- commands ----------------------------------------------------------------


@dataclass(frozen=True)
class StartChouette:
    """``players`` in the order of their opening rolls: the box, the partner if ``box_partner``, the team."""

    players: tuple[str, ...]
    box_partner: bool = False
    variation: str = Variation.HALF
    jacoby: bool = False


@dataclass(frozen=True)
class Roll:
    """The side on roll rolls; for the opening roll ``dice`` is (the box's die, the captain's die)."""

    dice: tuple[int, int]
    source: str = RollSource.PHYSICAL


@dataclass(frozen=True)
class Move:
    """The checker play of the side on roll (the box, or the captain for the whole team)."""

    move: object


@dataclass(frozen=True)
class BoxDoubles:
    """The box doubles these team members, before rolling."""

    members: tuple[str, ...]


@dataclass(frozen=True)
class CrewDoubles:
    """These team members double the box, at once, before the captain rolls."""

    members: tuple[str, ...]


@dataclass(frozen=True)
class Take:
    """A team member takes the box's double."""

    member: str


@dataclass(frozen=True)
class Drop:
    """A team member drops the box's double."""

    member: str


@dataclass(frozen=True)
class BoxAnswers:
    """The box's one answer to the team members' doubles: whose it takes, whose it drops (every one named)."""

    takes: tuple[str, ...] = ()
    drops: tuple[str, ...] = ()


# -- events ------------------------------------------------------------------


@dataclass(frozen=True)
class ChouetteStarted:
    players: tuple[str, ...]
    box_partner: bool = False
    variation: str = Variation.HALF
    jacoby: bool = False


@dataclass(frozen=True)
class ChouetteOpeningTied:
    die: int
    source: str = RollSource.PHYSICAL


@dataclass(frozen=True)
class ChouetteGameStarted:
    """Game ``game`` begins; ``dice`` (the box's die, the captain's): the higher plays both."""

    game: int
    dice: tuple[int, int]
    source: str = RollSource.PHYSICAL


@dataclass(frozen=True)
class ChouetteDiceRolled:
    side: int
    dice: tuple[int, int]
    source: str = RollSource.PHYSICAL


@dataclass(frozen=True)
class ChouetteCheckersMoved:
    side: int
    move: str
    steps: tuple[tuple[int, int], ...]


@dataclass(frozen=True)
class ChouetteCannotMove:
    side: int


@dataclass(frozen=True)
class CubeOffered:
    """``by`` (a side) doubles ``member``'s cube to ``value``."""

    member: str
    by: int
    value: int


@dataclass(frozen=True)
class CubeTaken:
    """``member``'s cube taken at ``value``: it now belongs to the side that took it."""

    member: str
    value: int


@dataclass(frozen=True)
class CubeDropped:
    """``member``'s double dropped: ``winner`` (a side) wins ``points`` on that cube, which is settled."""

    member: str
    winner: int
    points: int


@dataclass(frozen=True)
class CaptainChanged:
    captain: str


@dataclass(frozen=True)
class ChouetteGameWon:
    """Game ``game`` is over. ``winner``/``kind``: the board's result (None, "" when the last cubes were dropped).

    ``results``: what every player won (+) or lost (-) in this game, in the line of the game, summing to zero;
    ``line``: the line of the next game (the box, the partner if any, the team).
    """

    game: int
    winner: int | None
    kind: str
    results: tuple[tuple[str, int], ...]
    box_stays: bool
    line: tuple[str, ...]


EVENT_TYPES: dict[str, type] = {cls.__name__: cls for cls in (
    ChouetteStarted, ChouetteOpeningTied, ChouetteGameStarted, ChouetteDiceRolled, ChouetteCheckersMoved,
    ChouetteCannotMove, CubeOffered, CubeTaken, CubeDropped, CaptainChanged, ChouetteGameWon,
)}


def to_dict(event) -> dict:
    data = dataclasses.asdict(event)
    data["type"] = type(event).__name__
    return _lists(data)


def from_dict(data: dict):
    """An event back from :func:`to_dict`'s output (lists become tuples)."""
    data = dict(data)
    cls = EVENT_TYPES.get(data.pop("type", None))
    if cls is None:
        raise ValueError(f"unknown chouette event type in {data!r}")
    return cls(**{k: _tuples(v) for k, v in data.items()})


def _lists(value):
    if isinstance(value, (list, tuple)):
        return [_lists(v) for v in value]
    return value


def _tuples(value):
    if isinstance(value, list):
        return tuple(_tuples(v) for v in value)
    return value


# -- state -------------------------------------------------------------------


@dataclass(frozen=True)
class Cube:
    """A team member's cube in the current game. ``owner``: None (centred), BOX or TEAM (the member)."""

    member: str
    value: int = 1
    owner: int | None = None
    settled: bool = False
    offered_by: int | None = None  # the side whose double of it waits for its answer
    points: int = 0  # once settled: what the member won (+) or lost (-) on it

    @property
    def playing(self) -> bool:
        return not self.settled


@dataclass(frozen=True)
class ChouetteState:
    options: ChouetteStarted | None = None
    phase: str = Phase.NOT_STARTED
    box: str = ""
    partner: str = ""
    team: tuple[str, ...] = ()  # the team of the current (or next) game, its first captain first
    captain: str = ""  # who plays the team's checkers now
    game: int = 0
    turn: int = BOX
    position: Position = Position.start()
    dice: tuple[int, int] | None = None
    cubes: tuple[Cube, ...] = ()
    sheet: tuple[tuple[str, int], ...] = ()  # every player's running total, in the order the session started
    games: tuple[ChouetteGameWon, ...] = ()

    @property
    def line(self) -> tuple[str, ...]:
        return (self.box,) + ((self.partner,) if self.partner else ()) + self.team

    def cube(self, member: str) -> Cube | None:
        return next((c for c in self.cubes if c.member == member), None)

    @property
    def pending(self) -> tuple[str, ...]:
        """The team members whose double waits for its answer, in the team's order."""
        return tuple(c.member for c in self.cubes if c.offered_by is not None)

    @property
    def name_on_roll(self) -> str:
        return self.box if self.turn == BOX else self.captain

    def total(self, player: str) -> int:
        return dict(self.sheet).get(player, 0)

    def board_of(self, side: int) -> Position:
        """The board as ``side`` sees it."""
        return self.position if side == self.turn else self.position.swap()

    def legal_plays(self) -> list:
        return legal_moves(self.position, self.dice) if self.phase == Phase.MOVE else []


def replay(events: Iterable) -> ChouetteState:
    return reduce(evolve, events, ChouetteState())


# -- decide ------------------------------------------------------------------


def decide(state: ChouetteState, command) -> list:
    """Judge ``command``; return its events, or raise an :class:`~games.engine.errors.EngineError` (nothing changed)."""
    handler = _DECIDERS.get(type(command))
    if handler is None:
        raise InvalidAction(Reason.UNKNOWN_COMMAND, command=type(command).__name__)
    if state.phase == Phase.NOT_STARTED and not isinstance(command, StartChouette):
        raise InvalidAction(Reason.CHOUETTE_NOT_STARTED)
    return handler(state, command)


def _start(state: ChouetteState, c: StartChouette) -> list:
    if state.phase != Phase.NOT_STARTED:
        raise InvalidAction(Reason.CHOUETTE_ALREADY_STARTED)
    players = tuple(c.players)
    if not 3 <= len(players) <= MOST_PLAYERS or not all(players) or len(set(players)) != len(players):
        raise InvalidAction(Reason.CHOUETTE_PLAYERS, most=MOST_PLAYERS)
    if c.box_partner and len(players) < PARTNER_OPTIONAL_FROM:
        raise InvalidAction(Reason.PARTNER_FROM_SIX, count=len(players), least=PARTNER_OPTIONAL_FROM)
    if not c.box_partner and len(players) >= PARTNER_REQUIRED_FROM:
        raise InvalidAction(Reason.PARTNER_REQUIRED, count=len(players))
    if c.variation not in tuple(Variation):
        raise InvalidAction(Reason.UNKNOWN_VARIATION, variation=repr(c.variation),
                            variations=", ".join(v.value for v in Variation))
    return [ChouetteStarted(players, c.box_partner, str(c.variation), c.jacoby)]


def _check_dice(dice) -> tuple[int, int]:
    dice = tuple(dice)
    if len(dice) != 2 or not all(isinstance(d, int) and 1 <= d <= 6 for d in dice):
        raise InvalidAction(Reason.BAD_DICE, dice=repr(dice))
    return dice


def _roll(state: ChouetteState, c: Roll) -> list:
    dice = _check_dice(c.dice)
    if state.phase == Phase.OPENING:
        if dice[0] == dice[1]:
            return [ChouetteOpeningTied(dice[0], c.source)]
        return _after_roll(state, ChouetteGameStarted(state.game + 1, dice, c.source))
    if state.phase == Phase.MOVE:
        raise InvalidAction(Reason.DICE_ROLLED)
    if state.phase != Phase.ROLL:
        raise _waiting(InvalidAction, state)
    return _after_roll(state, ChouetteDiceRolled(state.turn, dice, c.source))


def _after_roll(state: ChouetteState, rolled) -> list:
    after = evolve(state, rolled)
    if not after.legal_plays():
        return [rolled, ChouetteCannotMove(after.turn)]
    return [rolled]


def _move(state: ChouetteState, c: Move) -> list:
    if state.phase == Phase.ROLL:
        raise InvalidAction(Reason.ROLL_FIRST)
    if state.phase != Phase.MOVE:
        raise _waiting(InvalidAction, state)
    chosen = play(state.position, state.dice, c.move)
    steps = tuple((s.from_point, s.to_point) for s in chosen.steps)
    out: list = [ChouetteCheckersMoved(state.turn, str(chosen), steps)]
    if chosen.position.mine[OFF] == 15:
        kind = _bearoff_kind(chosen.position)
        out.append(_game_over(state, _settle_all(state, state.turn, kind), winner=state.turn, kind=kind))
    return out


def _doubled(state: ChouetteState, members, side: int) -> list[Cube]:
    """The cubes ``side`` may double now, named by ``members``; else the refusal saying why not."""
    if state.phase == Phase.MOVE:
        raise CubeNotAvailable(Reason.DOUBLE_BEFORE_ROLLING)
    if state.phase != Phase.ROLL:
        raise _waiting(CubeNotAvailable, state)
    if state.turn != side:
        doubler = state.box if side == BOX else state.captain
        raise NotYourTurn(Reason.NOT_YOUR_DOUBLE, name=state.name_on_roll, other=doubler)
    members = tuple(members)
    if not members:
        raise InvalidAction(Reason.NAME_A_CUBE)
    cubes = []
    for member in members:
        cube = _member_cube(state, member)
        if members.count(member) > 1:
            raise InvalidAction(Reason.NAMED_TWICE, name=member)
        if cube.settled:
            raise CubeNotAvailable(Reason.CUBE_SETTLED, name=member)
        if cube.owner is not None and cube.owner != side:
            raise CubeNotAvailable(Reason.MEMBER_OWNS_CUBE if side == BOX else Reason.BOX_OWNS_CUBE, name=member)
        cubes.append(cube)
    return cubes


def _member_cube(state: ChouetteState, member: str) -> Cube:
    cube = state.cube(member)
    if cube is None:
        raise InvalidAction(Reason.NOT_IN_TEAM, name=member)
    return cube


def _box_doubles(state: ChouetteState, c: BoxDoubles) -> list:
    return [CubeOffered(cube.member, BOX, cube.value * 2) for cube in _doubled(state, c.members, BOX)]


def _crew_doubles(state: ChouetteState, c: CrewDoubles) -> list:
    return [CubeOffered(cube.member, TEAM, cube.value * 2) for cube in _doubled(state, c.members, TEAM)]


def _crew_answer(state: ChouetteState, member: str, take: bool) -> list:
    cube = _member_cube(state, member)
    if state.phase != Phase.CREW_ANSWERS:
        raise InvalidAction(Reason.NO_DOUBLE_OFFERED)
    if cube.offered_by is None:
        raise NotYourTurn(Reason.NOTHING_TO_ANSWER, name=member)
    if take:
        return [CubeTaken(member, cube.value * 2)]
    return [CubeDropped(member, BOX, cube.value), *_after_drops(state, [CubeDropped(member, BOX, cube.value)])]


def _take(state: ChouetteState, c: Take) -> list:
    return _crew_answer(state, c.member, take=True)


def _drop(state: ChouetteState, c: Drop) -> list:
    return _crew_answer(state, c.member, take=False)


def _box_answers(state: ChouetteState, c: BoxAnswers) -> list:
    if state.phase != Phase.BOX_ANSWERS:
        raise InvalidAction(Reason.NO_DOUBLE_OFFERED)
    takes, drops = tuple(c.takes), tuple(c.drops)
    named = takes + drops
    for member in named:
        _member_cube(state, member)
        if named.count(member) > 1:
            raise InvalidAction(Reason.NAMED_TWICE, name=member)
    pending = state.pending
    if set(named) != set(pending):
        raise InvalidAction(Reason.ANSWER_EVERY_DOUBLE, names=", ".join(pending))
    _check_first_doubles(state, takes)
    taken = [CubeTaken(m, state.cube(m).value * 2) for m in pending if m in takes]
    dropped = [CubeDropped(m, TEAM, state.cube(m).value) for m in pending if m in drops]
    return [*taken, *dropped, *_after_drops(state, dropped)]


def _check_first_doubles(state: ChouetteState, takes: tuple[str, ...]) -> None:
    """The chouette's rule for several first doubles at once (the module's docstring)."""
    variation = state.options.variation
    first = [m for m in state.pending if state.cube(m).owner is None]
    if variation == Variation.FREE or len(first) < 2:
        return
    taken = [m for m in first if m in takes]
    if not taken:
        return  # dropping them all is always allowed
    need = (len(first) + 1) // 2
    if len(taken) < need:
        raise CubeNotAvailable(Reason.BOX_TAKES_HALF, count=len(first), need=need)
    if variation == Variation.HALF_AND_CAPTAIN and state.captain in first and state.captain not in taken:
        raise CubeNotAvailable(Reason.BOX_TAKES_CAPTAIN, name=state.captain)


def _after_drops(state: ChouetteState, dropped: list[CubeDropped]) -> list:
    """After these drops: the game's end when no cube is left playing, else a new captain when the captain's went."""
    if not dropped:
        return []
    after = reduce(evolve, dropped, state)
    playing = [c.member for c in after.cubes if c.playing]
    if not playing:
        return [_game_over(after, after.cubes, winner=None, kind="")]
    if not after.cube(after.captain).playing:
        return [CaptainChanged(playing[0])]
    return []


def _settle_all(state: ChouetteState, winner: int, kind: str) -> tuple[Cube, ...]:
    """Every cube settled by the board's result: those still playing score ``kind`` times their value."""
    jacoby = state.options.jacoby
    settled = []
    for cube in state.cubes:
        if cube.playing:
            value = 1 if jacoby and cube.owner is None else KIND_VALUE[kind]
            points = value * cube.value * (1 if winner == TEAM else -1)
            cube = dataclasses.replace(cube, settled=True, offered_by=None, points=points)
        settled.append(cube)
    return tuple(settled)


def _game_over(state: ChouetteState, cubes: tuple[Cube, ...], winner: int | None, kind: str) -> ChouetteGameWon:
    crew = {c.member: c.points for c in cubes}
    box_result = -sum(crew.values())
    if state.partner:
        # the box takes the odd point, won or lost
        partner_share = int(box_result / 2)
        results = ((state.box, box_result - partner_share), (state.partner, partner_share))
    else:
        results = ((state.box, box_result),)
    results += tuple((member, crew[member]) for member in state.team)
    box_stays = crew[state.captain] < 0
    return ChouetteGameWon(state.game, winner, kind, results, box_stays, _rotated(state, box_stays))


def _rotated(state: ChouetteState, box_stays: bool) -> tuple[str, ...]:
    """The line of the next game (the module's docstring, "The rotation" and "The box's partner")."""
    if box_stays:
        return state.line[: len(state.line) - len(state.team)] + state.team[1:] + state.team[:1]
    winner = state.captain
    rest = tuple(m for m in state.team if m != winner)
    if state.partner:
        return (winner, rest[0], state.partner) + rest[1:] + (state.box,)
    return (winner,) + rest + (state.box,)


def _waiting(refusal, state: ChouetteState):
    if state.phase == Phase.OPENING:
        return refusal(Reason.OPENING_ROLL, game=state.game + 1)
    if state.phase == Phase.CREW_ANSWERS:
        return refusal(Reason.WAITING_FOR_TAKE, name=", ".join(state.pending))
    if state.phase == Phase.BOX_ANSWERS:
        return refusal(Reason.WAITING_FOR_TAKE, name=state.box)
    if state.phase == Phase.MOVE:
        return refusal(Reason.WAITING_FOR_MOVE, name=state.name_on_roll)
    return refusal(Reason.WAITING_FOR_ROLL, name=state.name_on_roll)


_DECIDERS = {
    StartChouette: _start,
    Roll: _roll,
    Move: _move,
    BoxDoubles: _box_doubles,
    CrewDoubles: _crew_doubles,
    Take: _take,
    Drop: _drop,
    BoxAnswers: _box_answers,
}


def rejudge(events: list) -> ChouetteState:
    """Decide again the commands a stream's events record and check they give those events; the state at the end.

    Raises the engine's refusal, or ValueError, where the events are not what the rules make of their commands:
    a verification of a stored stream, which holds the events and not the commands."""
    state, at = ChouetteState(), 0
    while at < len(events):
        command = _command_of(state, events, at)
        decided = decide(state, command)
        if events[at:at + len(decided)] != decided:
            raise ValueError(f"event {at + 1}: {command} gives {decided}, the stream holds "
                             f"{events[at:at + len(decided)]}")
        state = reduce(evolve, decided, state)
        at += len(decided)
    return state


def _command_of(state: ChouetteState, events: list, at: int):
    """The command that recorded ``events[at]`` (and the events after it that the same command caused)."""
    event = events[at]

    def run(kind, key=lambda e: True) -> list:
        same = []
        for later in events[at:]:
            if not isinstance(later, kind) or not key(later):
                break
            same.append(later)
        return same

    if isinstance(event, ChouetteStarted):
        return StartChouette(event.players, event.box_partner, event.variation, event.jacoby)
    if isinstance(event, ChouetteOpeningTied):
        return Roll((event.die, event.die), event.source)
    if isinstance(event, (ChouetteGameStarted, ChouetteDiceRolled)):
        return Roll(event.dice, event.source)
    if isinstance(event, ChouetteCheckersMoved):
        return Move(event.move)
    if isinstance(event, CubeOffered):
        members = tuple(e.member for e in run(CubeOffered, lambda e: e.by == event.by))
        return BoxDoubles(members) if event.by == BOX else CrewDoubles(members)
    if isinstance(event, (CubeTaken, CubeDropped)) and state.phase == Phase.CREW_ANSWERS:
        return Take(event.member) if isinstance(event, CubeTaken) else Drop(event.member)
    if isinstance(event, (CubeTaken, CubeDropped)):
        answers = run((CubeTaken, CubeDropped))
        return BoxAnswers(tuple(e.member for e in answers if isinstance(e, CubeTaken)),
                          tuple(e.member for e in answers if isinstance(e, CubeDropped)))
    raise ValueError(f"event {at + 1} ({type(event).__name__}) is caused by no command here")


# -- evolve ------------------------------------------------------------------


def evolve(state: ChouetteState, event) -> ChouetteState:
    """Apply a recorded fact; events are trusted (``decide`` judged them)."""
    return _EVOLVERS[type(event)](state, event)


def _seated(state: ChouetteState, line: tuple[str, ...]) -> ChouetteState:
    """The state at the opening of a game played by ``line``: every team member's cube centred."""
    partner = line[1] if state.options.box_partner else ""
    team = line[2:] if partner else line[1:]
    return dataclasses.replace(state, phase=Phase.OPENING, box=line[0], partner=partner, team=team, captain=team[0],
                               cubes=tuple(Cube(m) for m in team), dice=None, position=Position.start())


def _on_started(state: ChouetteState, e: ChouetteStarted) -> ChouetteState:
    fresh = ChouetteState(options=e, sheet=tuple((p, 0) for p in e.players))
    return _seated(fresh, tuple(e.players))


def _on_tied(state: ChouetteState, e: ChouetteOpeningTied) -> ChouetteState:
    return state


def _on_game_started(state: ChouetteState, e: ChouetteGameStarted) -> ChouetteState:
    first = BOX if e.dice[0] > e.dice[1] else TEAM
    return dataclasses.replace(state, phase=Phase.MOVE, game=e.game, turn=first, position=Position.start(),
                               dice=(e.dice[first], e.dice[1 - first]))


def _on_rolled(state: ChouetteState, e: ChouetteDiceRolled) -> ChouetteState:
    return dataclasses.replace(state, phase=Phase.MOVE, dice=tuple(e.dice))


def _on_moved(state: ChouetteState, e: ChouetteCheckersMoved) -> ChouetteState:
    after = _effect(state.position, e.steps)
    return dataclasses.replace(state, phase=Phase.ROLL, turn=1 - state.turn, position=after.swap(), dice=None)


def _on_cannot_move(state: ChouetteState, e: ChouetteCannotMove) -> ChouetteState:
    return dataclasses.replace(state, phase=Phase.ROLL, turn=1 - state.turn, position=state.position.swap(),
                               dice=None)


def _with_cube(state: ChouetteState, member: str, **changes) -> ChouetteState:
    cubes = tuple(dataclasses.replace(c, **changes) if c.member == member else c for c in state.cubes)
    after = dataclasses.replace(state, cubes=cubes)
    if not after.pending and after.phase in (Phase.CREW_ANSWERS, Phase.BOX_ANSWERS):
        after = dataclasses.replace(after, phase=Phase.ROLL)
    return after


def _on_offered(state: ChouetteState, e: CubeOffered) -> ChouetteState:
    phase = Phase.CREW_ANSWERS if e.by == BOX else Phase.BOX_ANSWERS
    return _with_cube(dataclasses.replace(state, phase=phase), e.member, offered_by=e.by)


def _on_taken(state: ChouetteState, e: CubeTaken) -> ChouetteState:
    # the side that took owns the cube: the member after the box's double, the box after a member's
    owner = 1 - state.cube(e.member).offered_by
    return _with_cube(state, e.member, offered_by=None, value=e.value, owner=owner)


def _on_dropped(state: ChouetteState, e: CubeDropped) -> ChouetteState:
    points = e.points if e.winner == TEAM else -e.points
    return _with_cube(state, e.member, offered_by=None, settled=True, points=points)


def _on_captain(state: ChouetteState, e: CaptainChanged) -> ChouetteState:
    return dataclasses.replace(state, captain=e.captain)


def _on_game_won(state: ChouetteState, e: ChouetteGameWon) -> ChouetteState:
    won = dict(e.results)
    sheet = tuple((p, total + won.get(p, 0)) for p, total in state.sheet)
    after = dataclasses.replace(state, sheet=sheet, games=state.games + (e,), game=e.game)
    return _seated(after, tuple(e.line))


_EVOLVERS = {
    ChouetteStarted: _on_started,
    ChouetteOpeningTied: _on_tied,
    ChouetteGameStarted: _on_game_started,
    ChouetteDiceRolled: _on_rolled,
    ChouetteCheckersMoved: _on_moved,
    ChouetteCannotMove: _on_cannot_move,
    CubeOffered: _on_offered,
    CubeTaken: _on_taken,
    CubeDropped: _on_dropped,
    CaptainChanged: _on_captain,
    ChouetteGameWon: _on_game_won,
}
