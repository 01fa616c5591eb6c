"""Match and money-session play as a decider: ``decide`` judges, ``evolve`` applies.

The rules (FFBG, GNU Backgammon where they are silent):

* **Opening roll.** Each player rolls one die; ties roll again; the higher
  number plays both dice, so a game never opens with a double.
* **End of a game.** Bearing off fifteen wins a single game (1 point), a
  gammon (2) if the loser has borne off none, a backgammon (3) if the loser
  has borne off none and still has a checker on the bar or in the winner's
  home board; times the cube.
* **Cube.** Centred at 1. A player may double on their turn before rolling
  when the cube is centred or theirs. The opponent takes (and owns the cube at
  twice the value) or drops (and loses the current value). No upper limit
  unless ``cube_limit`` is set (gnubg stops at 4096 for its own storage; we
  do not). In match play a dead cube cannot be turned: when the cube already
  gives the doubler the points they need (gnubg: "The cube is dead").
* **Money options** (sessions only): Jacoby (gammons count only once the
  cube has been turned), automatic doubles (equal opening dice double the
  centred cube, up to a set number), beaver and raccoon as gnubg plays them
  (``set beavers N``): the player doubled may beaver, an immediate redouble
  keeping the cube on their side; the doubler then takes (cube at 4x the
  value before the double, owned by the beaverer), drops (loses 2x) or
  raccoons, a further immediate redouble that *leaves the cube with the
  beaverer*, who takes (8x, still theirs) or drops (loses 4x). ``redoubles``
  bounds how many such redoubles may follow one double.
* **Resignation.** A single, gammon or backgammon offered, by the player on
  roll or, while a double is pending, by the player doubled (worth the level
  times the cube *before* the double); accepted, it ends the game for that
  many points times the cube; declined, play goes on (the double is still
  pending). A declined offer may not be repeated at the same or a lower
  level until the next action of the game (gnubg: "... has already declined
  your offer of a single game").
* **Jacoby and resignation.** With the cube never turned, a resigned gammon
  or backgammon counts as a single game here, as a played-out one does.
  gnubg 1.07 scores these doubled (a resigned gammon on a centred cube gives
  2 points) although its own message calls the win "a single game"; we keep
  the rule's reading, not gnubg's arithmetic.
* **Match play.** Scores add; the match ends when a player reaches the
  length. Crawford rule: the first game in which exactly one side stands at
  length - 1 is played without the cube; later games have it again. A match
  resumed at length - 1 to length - 1 has no Crawford game.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable
from dataclasses import dataclass
from enum import StrEnum
from functools import reduce

from . import commands as cmd
from . import events as ev
from .board import BAR, OFF, Position
from .clock import Clock
from .errors import CubeNotAvailable, EngineError, InvalidAction, MatchOver, NotYourTurn, Reason
from .events import BACKGAMMON, GAMMON, KIND_VALUE, SINGLE, Outcome
from .moves import Play, _effect, legal_moves, play

class Phase(StrEnum):
    """Where a match stands, as :attr:`MatchState.phase` (a ``str``: ``Phase.MOVE == "move"``)."""

    NOT_STARTED = "not_started"
    OPENING = "opening"  # waiting for the opening roll of the next game
    ROLL = "roll"  # `turn` may double or roll
    MOVE = "move"  # `turn` has rolled and must play
    DOUBLED = "doubled"  # `answerer` must take, drop (or beaver/raccoon); `turn` doubled
    RESIGNED = "resigned"  # the resigner's opponent must accept or decline
    OVER = "over"  # the match is won


# the short names the rules below are written with: the same members, not a second definition
NOT_STARTED, OPENING, ROLL, MOVE, DOUBLED, RESIGNED, OVER = Phase


@dataclass(frozen=True)
class GameRecord:
    """One game of a match as the fold knows it: the score it started at, its Crawford flags, its result.

    ``crawford``: the Crawford game, played without the cube; ``post_crawford``: a game after it (or of a
    match resumed after it). The result fields stay empty until the game is won.
    """

    game: int
    score_before: tuple[int, int]
    crawford: bool
    post_crawford: bool
    finished: bool = False
    winner: int | None = None
    points: int = 0
    kind: str = ""
    reason: str = ""


@dataclass(frozen=True)
class MatchState:
    """Everything the rules need, folded from a match's events.

    ``position`` is seen from ``turn``'s side, the player on roll. ``crawford``
    says whether the current (or next) game is the Crawford game.
    """

    options: ev.MatchStarted | None = None
    phase: str = NOT_STARTED
    score: tuple[int, int] = (0, 0)
    game: int = 0
    turn: int = 0
    position: Position = Position.start()
    dice: tuple[int, int] | None = None
    cube: int = 1
    cube_owner: int | None = None
    crawford: bool = False
    crawford_done: bool = False
    crawford_games: tuple[int, ...] = ()
    automatic_doubles: int = 0
    redoubles: int = 0  # beavers and raccoons so far on the pending double
    resignation: tuple[int, str] | None = None
    declined: tuple[int, str] | None = None  # (resigner, kind) declined, until the next action
    resumed_phase: str | None = None
    winner: int | None = None
    last_game: ev.GameWon | None = None
    games: tuple[GameRecord, ...] = ()  # every game begun or won, in order: games[n - 1] is game n
    clock: Clock | None = None  # the match's clock, from the game it was set in (games/engine/match_clock.py)
    late: tuple[int, int] = (0, 0)  # penalty points each player gave for lateness

    def game_record(self, number: int) -> GameRecord | None:
        """Game ``number``'s record (1, 2…), or None if it has not begun."""
        return self.games[number - 1] if 0 < number <= len(self.games) else None

    @property
    def players(self) -> tuple[str, str]:
        return self.options.players if self.options else ("", "")

    @property
    def length(self) -> int:
        return self.options.length if self.options else 0

    @property
    def is_money(self) -> bool:
        return self.length == 0

    @property
    def answerer(self) -> int:
        """Who answers the pending double: the player doubled, or the doubler after a beaver."""
        return 1 - self.turn if self.redoubles % 2 == 0 else self.turn

    @property
    def beavered(self) -> bool:
        return self.redoubles > 0

    @property
    def outcome(self) -> Outcome | None:
        """The last finished game's :class:`Outcome` (None before the first ends)."""
        won = self.last_game
        return Outcome(won.winner, won.kind, won.points) if won else None

    @property
    def in_game(self) -> bool:
        return self.phase in (ROLL, MOVE, DOUBLED, RESIGNED)

    def board_of(self, player: int) -> Position:
        """The board as ``player`` sees it."""
        return self.position if player == self.turn else self.position.swap()

    def pip_counts(self) -> tuple[int, int]:
        """Pip counts of player 0 and player 1."""
        mine, theirs = self.position.pip_count()
        return (mine, theirs) if self.turn == 0 else (theirs, mine)

    def may_double(self, player: int) -> bool:
        return may_double(self, player)

    def legal_plays(self) -> list[Play]:
        """The legal plays for the dice on the table (empty when not in the move phase)."""
        return legal_moves(self.position, self.dice) if self.phase == MOVE else []


def may_double(state: MatchState, player: int) -> bool:
    """May ``player`` offer the cube now (in a match recorded here)?

    The rule: « Quand le videau est centré, à son tour de jouer et avant de
    lancer les dés, un joueur peut proposer de doubler l'enjeu »; once taken,
    « la possibilité de doubler à nouveau lui appartient exclusivement ». Not
    in the Crawford game, and never with a dead cube: in a 5-point match at
    4-1, the leader needs 1 point and the cube already gives 1.

    >>> from games.engine import commands as cmd
    >>> def table(*commands):
    ...     state = MatchState()
    ...     for command in commands:
    ...         for event in decide(state, command):
    ...             state = evolve(state, event)
    ...     return state
    >>> post = table(cmd.StartMatch(("Ann", "Ben"), 5, initial_score=(4, 1), crawford_done=True),
    ...              cmd.Roll(None, (1, 3)), cmd.Move(1, "8/5 6/5"))
    >>> may_double(post, 0), may_double(post, 1)  # Ann on roll, 4-1 post-Crawford: her cube is dead
    (False, False)
    >>> post = table(cmd.StartMatch(("Ann", "Ben"), 5, initial_score=(4, 1), crawford_done=True),
    ...              cmd.Roll(None, (3, 1)), cmd.Move(0, "8/5 6/5"))
    >>> may_double(post, 1)  # Ben on roll needs 4: he may double
    True
    """
    try:
        _check_double(state, player)
    except EngineError:
        return False
    return True


def is_crawford_game(state: MatchState) -> bool:
    """Is the current (or next) game the Crawford game, played without the cube?

    The rule: the cube is forbidden « lorsqu'un des deux joueurs se trouve à un
    point du gain de la rencontre » — the first game in which exactly one side
    stands at length - 1; « les parties suivantes sont jouées à nouveau avec le
    videau ». A match resumed at 4-4 in a 5-point match has none.

    >>> from games.engine import commands as cmd
    >>> is_crawford_game(replay(decide(MatchState(), cmd.StartMatch(("Ann", "Ben"), 5, initial_score=(4, 2)))))
    True
    >>> is_crawford_game(replay(decide(MatchState(), cmd.StartMatch(("Ann", "Ben"), 5, initial_score=(4, 4)))))
    False
    """
    return state.crawford


def replay(events: Iterable) -> MatchState:
    """The state a stream of events leads to: the fold of :func:`evolve`."""
    return reduce(evolve, events, MatchState())


# -- decide ------------------------------------------------------------------


def decide(state: MatchState, command) -> list:
    """Judge ``command`` against ``state``; return the events it causes.

    Raises an :class:`~games.engine.errors.EngineError` subclass with a reason a
    person can act on, and never changes anything when it does.
    """
    handler = _DECIDERS.get(type(command))
    if handler is None:
        raise InvalidAction(Reason.UNKNOWN_COMMAND, command=type(command).__name__)
    if not isinstance(command, cmd.StartMatch):
        _check_under_way(state)
    return handler(state, command)


def check_roll(state: MatchState, player: int | None) -> None:
    """Raise what :func:`decide` would refuse a roll by ``player`` for, whatever its numbers: the server draws
    its dice only for a roll that may be made, and this judges that without finding a roll's plays."""
    _check_under_way(state)
    if state.phase != OPENING:
        _check_roller(state, player)


def _check_under_way(state: MatchState) -> None:
    if state.phase == OVER:
        raise MatchOver(Reason.MATCH_IS_OVER, name=state.players[state.winner], a=state.score[0], b=state.score[1])
    if state.phase == NOT_STARTED:
        raise InvalidAction(Reason.NOT_STARTED)


def _start(state: MatchState, c: cmd.StartMatch) -> list:
    if state.phase != NOT_STARTED:
        raise InvalidAction(Reason.ALREADY_STARTED)
    if len(c.players) != 2 or not all(c.players) or c.players[0] == c.players[1]:
        raise InvalidAction(Reason.TWO_PLAYERS)
    if c.length < 0:
        raise InvalidAction(Reason.NEGATIVE_LENGTH)
    if c.length and not c.imported and c.length % 2 == 0:
        raise InvalidAction(Reason.EVEN_LENGTH, length=c.length)
    money_options = c.jacoby or c.beavers or c.raccoons or c.automatic_doubles
    if c.length and money_options:
        raise InvalidAction(Reason.MONEY_OPTIONS)
    if c.length and c.redoubles:
        raise InvalidAction(Reason.MONEY_OPTIONS)
    if c.raccoons and not c.beavers:
        raise InvalidAction(Reason.RACCOONS_NEED_BEAVERS)
    if c.redoubles < 0 or (c.redoubles and not c.beavers) or (c.redoubles >= 2 and not c.raccoons):
        raise InvalidAction(Reason.REDOUBLES_NEED_BEAVERS)
    if c.cube_limit and (c.cube_limit < 2 or c.cube_limit & (c.cube_limit - 1)):
        raise InvalidAction(Reason.CUBE_LIMIT_POWER_OF_TWO)
    if any(s < 0 for s in c.initial_score) or (c.length and max(c.initial_score) >= c.length):
        raise InvalidAction(Reason.INITIAL_SCORE)
    return [ev.MatchStarted(**dataclasses.asdict(c) | {"players": tuple(c.players)})]


def _roll(state: MatchState, c: cmd.Roll) -> list:
    dice = tuple(c.dice)
    if len(dice) != 2 or not all(isinstance(d, int) and 1 <= d <= 6 for d in dice):
        raise InvalidAction(Reason.BAD_DICE, dice=repr(c.dice))
    if state.phase == OPENING:
        if dice[0] == dice[1]:
            out: list = [ev.OpeningRollTied(dice[0], c.source)]
            o = state.options
            if (
                state.is_money
                and state.automatic_doubles < o.automatic_doubles
                and (not o.cube_limit or state.cube * 2 <= o.cube_limit)
            ):
                out.append(ev.AutomaticDouble(state.cube * 2))
            return out
        return _after_roll(state, ev.GameStarted(state.game + 1, dice, c.source))
    _check_roller(state, c.player)
    return _after_roll(state, ev.DiceRolled(c.player, dice, c.source))


def _check_roller(state: MatchState, player) -> None:
    _check_turn(state, player, Reason.NOT_YOUR_ROLL)
    if state.phase == MOVE:
        raise InvalidAction(Reason.DICE_ROLLED)
    if state.phase != ROLL:
        raise _waiting(InvalidAction, state)


def _after_roll(state: MatchState, rolled) -> list:
    """The roll, and the forfeit when it has no legal play."""
    after = evolve(state, rolled)
    if not after.legal_plays():
        return [rolled, ev.CannotMove(after.turn)]
    return [rolled]


def _move(state: MatchState, c: cmd.Move) -> list:
    _check_turn(state, c.player, Reason.NOT_YOUR_MOVE)
    if state.phase == ROLL:
        raise InvalidAction(Reason.ROLL_FIRST)
    if state.phase != MOVE:
        raise _waiting(InvalidAction, state)
    chosen = play(state.position, state.dice, c.move)
    out: list = [ev.CheckersMoved(c.player, str(chosen), tuple((s.from_point, s.to_point) for s in chosen.steps))]
    after = chosen.position
    if after.mine[OFF] == 15:
        kind = _bearoff_kind(after)
        out.extend(_game_over(state, c.player, kind, "bearoff"))
    return out


def _double(state: MatchState, c: cmd.Double) -> list:
    _check_double(state, c.player, dead_ok=c.imported)
    return [ev.DoubleOffered(c.player, state.cube * 2)]


def _take(state: MatchState, c: cmd.Take) -> list:
    _check_answer(state, c.player)
    return [ev.DoubleTaken(c.player, state.cube * 2)]


def _drop(state: MatchState, c: cmd.Drop) -> list:
    _check_answer(state, c.player)
    # the dropper loses what stands before the offer: the cube, or the taken double of a beaver
    return [ev.DoubleDropped(c.player), *_game_over(state, 1 - c.player, SINGLE, "drop", cube=state.cube)]


def _redouble(state: MatchState, player, beaver: bool) -> int:
    """Check a beaver (``beaver``) or a raccoon; return the cube it offers."""
    _check_answer(state, player)
    o = state.options
    allowed = o.redoubles_allowed if state.is_money else 0
    if not state.is_money or not allowed:
        raise CubeNotAvailable(Reason.NO_BEAVERS)
    if beaver != (state.redoubles % 2 == 0):
        raise CubeNotAvailable(Reason.BEAVER_ANSWERS_DOUBLE if beaver else Reason.RACCOON_ANSWERS_BEAVER)
    if state.redoubles >= allowed:
        if state.redoubles == 1 and allowed == 1:
            raise CubeNotAvailable(Reason.NO_RACCOONS)
        raise CubeNotAvailable(Reason.REDOUBLES_USED, allowed=allowed)
    cube = state.cube * 4
    _check_limit(state, cube)
    return cube


def _beaver(state: MatchState, c: cmd.Beaver) -> list:
    return [ev.Beavered(c.player, _redouble(state, c.player, beaver=True))]


def _raccoon(state: MatchState, c: cmd.Raccoon) -> list:
    return [ev.Raccooned(c.player, _redouble(state, c.player, beaver=False))]


def _resign(state: MatchState, c: cmd.Resign) -> list:
    _check_player(c.player)
    if c.kind not in KIND_VALUE:
        raise InvalidAction(Reason.BAD_RESIGNATION, kind=repr(c.kind))
    if state.phase == DOUBLED:
        # gnubg lets the player who must answer resign instead, for the cube before the double
        if c.player != state.answerer:
            raise NotYourTurn(Reason.MUST_ANSWER_DOUBLE, name=state.players[state.answerer])
    # before the opening roll too: a player who concedes a game unplayed (Galaxy records these)
    elif state.phase not in (ROLL, MOVE, OPENING):
        raise InvalidAction(Reason.NO_RESIGNATION_NOW, why=_waiting(InvalidAction, state))
    if state.declined and state.declined[0] == c.player and KIND_VALUE[c.kind] <= KIND_VALUE[state.declined[1]]:
        declined = state.declined[1]
        raise InvalidAction(DECLINED[declined], name=state.players[1 - c.player])
    return [ev.ResignationOffered(c.player, c.kind)]


def _accept(state: MatchState, c: cmd.AcceptResignation) -> list:
    _check_resignation_answer(state, c.player)
    resigner, kind = state.resignation
    return [ev.ResignationAccepted(c.player), *_game_over(state, 1 - resigner, kind, "resignation")]


def _decline(state: MatchState, c: cmd.DeclineResignation) -> list:
    _check_resignation_answer(state, c.player)
    return [ev.ResignationDeclined(c.player)]


_DECIDERS = {
    cmd.StartMatch: _start,
    cmd.Roll: _roll,
    cmd.Move: _move,
    cmd.Double: _double,
    cmd.Take: _take,
    cmd.Drop: _drop,
    cmd.Beaver: _beaver,
    cmd.Raccoon: _raccoon,
    cmd.Resign: _resign,
    cmd.AcceptResignation: _accept,
    cmd.DeclineResignation: _decline,
}


# a declined resignation's kind: what the player offered
DECLINED = {SINGLE: Reason.DECLINED_SINGLE, GAMMON: Reason.DECLINED_GAMMON, BACKGAMMON: Reason.DECLINED_BACKGAMMON}


def _check_player(player) -> None:
    if player not in (0, 1):
        raise NotYourTurn(Reason.NO_SUCH_PLAYER, player=repr(player))


def _check_turn(state: MatchState, player, action: Reason) -> None:
    _check_player(player)
    if state.phase == OPENING:
        raise InvalidAction(Reason.OPENING_ROLL, game=state.game + 1)
    if state.phase in (ROLL, MOVE) and player != state.turn:
        raise NotYourTurn(action, name=state.players[state.turn], other=state.players[player])


def _check_double(state: MatchState, player, dead_ok: bool = False) -> None:
    _check_turn(state, player, Reason.NOT_YOUR_DOUBLE)
    if state.phase == MOVE:
        raise CubeNotAvailable(Reason.DOUBLE_BEFORE_ROLLING)
    if state.phase != ROLL:
        raise _waiting(CubeNotAvailable, state)
    if state.crawford:
        raise CubeNotAvailable(Reason.CRAWFORD_GAME)
    if state.cube_owner is not None and state.cube_owner != player:
        raise CubeNotAvailable(Reason.CUBE_OWNED, name=state.players[state.cube_owner])
    if state.length and not dead_ok:
        need = state.length - state.score[player]
        if state.cube >= need:
            raise CubeNotAvailable(Reason.DEAD_CUBE if need != 1 else Reason.DEAD_CUBE_ONE_POINT, need=need,
                                   cube=state.cube)
    _check_limit(state, state.cube * 2)


def _check_limit(state: MatchState, value: int) -> None:
    limit = state.options.cube_limit
    if limit and value > limit:
        raise CubeNotAvailable(Reason.CUBE_LIMIT, limit=limit)


def _check_answer(state: MatchState, player) -> None:
    _check_player(player)
    if state.phase != DOUBLED:
        raise InvalidAction(Reason.NO_DOUBLE_OFFERED)
    if player != state.answerer:
        raise NotYourTurn(Reason.OWN_DOUBLE)


def _check_resignation_answer(state: MatchState, player) -> None:
    _check_player(player)
    if state.phase != RESIGNED:
        raise InvalidAction(Reason.NO_RESIGNATION_OFFERED)
    if player == state.resignation[0]:
        raise NotYourTurn(Reason.OWN_RESIGNATION)


def _waiting(refusal: type[EngineError], state: MatchState) -> EngineError:
    """A ``refusal`` saying what the game waits for."""
    name = state.players
    if state.phase == DOUBLED:
        return refusal(Reason.WAITING_FOR_TAKE, name=name[state.answerer])
    if state.phase == RESIGNED:
        return refusal(Reason.WAITING_FOR_ANSWER, name=name[1 - state.resignation[0]])
    if state.phase == OPENING:
        return refusal(Reason.OPENING_ROLL, game=state.game + 1)
    if state.phase == MOVE:
        return refusal(Reason.WAITING_FOR_MOVE, name=name[state.turn])
    return refusal(Reason.WAITING_FOR_ROLL, name=name[state.turn])


def _bearoff_kind(after: Position) -> str:
    """The kind of win of the mover who has just borne off fifteen checkers."""
    loser = after.theirs
    if loser[OFF]:
        return SINGLE
    # the winner's home board is the loser's 19..24 points
    if loser[BAR] or any(loser[19:25]):
        return BACKGAMMON
    return GAMMON


def _game_over(state: MatchState, winner: int, kind: str, reason: str, cube: int | None = None) -> list:
    cube = state.cube if cube is None else cube
    value = KIND_VALUE[kind]
    o = state.options
    if state.is_money and o.jacoby and state.cube_owner is None:
        value = 1  # Jacoby: gammons count only once the cube has been turned
    points = value * cube
    score = list(state.score)
    score[winner] += points
    unplayed = state.phase == OPENING or state.resumed_phase == OPENING
    won = ev.GameWon(state.game + 1 if unplayed else state.game, winner, kind, cube, points, reason, tuple(score))
    if state.length and score[winner] >= state.length:
        return [won, ev.MatchWon(winner, tuple(score))]
    return [won]


# -- evolve ------------------------------------------------------------------


def evolve(state: MatchState, event) -> MatchState:
    """Apply a recorded fact. Events are trusted: ``decide`` judged them."""
    after = _EVOLVERS[type(event)](state, event)
    if after.declined is not None and not isinstance(event, (ev.ResignationOffered, ev.ResignationDeclined)):
        # gnubg forgets a declined offer with the next record of the game (roll, move, cube)
        after = _r(after, declined=None)
    return after


_STATE_FIELDS = frozenset(f.name for f in dataclasses.fields(MatchState))


def _r(state: MatchState, **changes) -> MatchState:
    """``dataclasses.replace(state, **changes)``, without its call of ``__init__`` with every field (a fifth of a
    stream's fold): MatchState has no ``__post_init__``, no ``init=False`` field and caches nothing on itself, so
    a copy of its fields with the changes is the same value."""
    if not changes.keys() <= _STATE_FIELDS:
        raise TypeError(f"MatchState has no field {sorted(changes.keys() - _STATE_FIELDS)}")
    after = object.__new__(MatchState)
    after.__dict__.update(state.__dict__, **changes)
    return after


def _on_started(state: MatchState, e: ev.MatchStarted) -> MatchState:
    fresh = MatchState(options=e, phase=OPENING, score=tuple(e.initial_score), crawford_done=e.crawford_done)
    return _r(fresh, crawford=_is_crawford_game(fresh))


def _on_tie(state: MatchState, e: ev.OpeningRollTied) -> MatchState:
    return state


def _on_auto_double(state: MatchState, e: ev.AutomaticDouble) -> MatchState:
    return _r(state, cube=e.cube, automatic_doubles=state.automatic_doubles + 1)


def _on_game_started(state: MatchState, e: ev.GameStarted) -> MatchState:
    first = 0 if e.dice[0] > e.dice[1] else 1
    crawford_games = state.crawford_games + ((e.game,) if state.crawford else ())
    return _r(
        state,
        games=_begin(state, e.game),
        phase=MOVE,
        game=e.game,
        turn=first,
        position=Position.start(),
        dice=(e.dice[first], e.dice[1 - first]),
        crawford_games=crawford_games,
        redoubles=0,
        resignation=None,
        last_game=None,
    )


def _on_rolled(state: MatchState, e: ev.DiceRolled) -> MatchState:
    return _r(state, phase=MOVE, dice=tuple(e.dice))


def _on_moved(state: MatchState, e: ev.CheckersMoved) -> MatchState:
    after = _effect(state.position, e.steps)
    return _r(state, phase=ROLL, turn=1 - state.turn, position=after.swap(), dice=None)


def _on_cannot_move(state: MatchState, e: ev.CannotMove) -> MatchState:
    return _r(state, phase=ROLL, turn=1 - state.turn, position=state.position.swap(), dice=None)


def _on_double(state: MatchState, e: ev.DoubleOffered) -> MatchState:
    return _r(state, phase=DOUBLED)


def _on_take(state: MatchState, e: ev.DoubleTaken) -> MatchState:
    # after a beaver the doubler takes, but the cube stays with the player first doubled
    return _r(state, phase=ROLL, cube=e.cube, cube_owner=1 - state.turn, redoubles=0)


def _on_drop(state: MatchState, e: ev.DoubleDropped) -> MatchState:
    return state


def _on_beaver(state: MatchState, e: ev.Beavered) -> MatchState:
    if e.taken:  # schema 1: final at once
        return _r(state, phase=ROLL, cube=e.cube, cube_owner=e.player, redoubles=0)
    # pending: a drop now loses half the offer, and the cube is on the beaverer's side (as in gnubg)
    return _r(state, cube=e.cube // 2, cube_owner=1 - state.turn, redoubles=state.redoubles + 1)


def _on_raccoon(state: MatchState, e: ev.Raccooned) -> MatchState:
    if e.taken:  # schema 1: the raccooner got the cube at once
        return _r(state, cube=e.cube, cube_owner=e.player, redoubles=0)
    return _r(state, cube=e.cube // 2, cube_owner=1 - state.turn, redoubles=state.redoubles + 1)


def _on_resign(state: MatchState, e: ev.ResignationOffered) -> MatchState:
    return _r(state, phase=RESIGNED, resignation=(e.player, e.kind), resumed_phase=state.phase)


def _on_resign_accepted(state: MatchState, e: ev.ResignationAccepted) -> MatchState:
    return state


def _on_resign_declined(state: MatchState, e: ev.ResignationDeclined) -> MatchState:
    return _r(state, phase=state.resumed_phase, resignation=None, resumed_phase=None, declined=state.resignation)


def _on_game_won(state: MatchState, e: ev.GameWon) -> MatchState:
    crawford_done = state.crawford_done or state.crawford
    crawford_games = state.crawford_games
    if state.crawford and e.game not in crawford_games:
        crawford_games += (e.game,)
    games = _begin(state, e.game)  # a game conceded before its opening roll was never begun
    won = dataclasses.replace(games[e.game - 1], finished=True, winner=e.winner, points=e.points, kind=e.kind,
                              reason=e.reason)
    after = _r(
        state,
        games=games[: e.game - 1] + (won,) + games[e.game:],
        phase=OPENING,
        game=e.game,
        crawford_games=crawford_games,
        score=tuple(e.score),
        dice=None,
        cube=1,
        cube_owner=None,
        automatic_doubles=0,
        redoubles=0,
        resignation=None,
        resumed_phase=None,
        crawford_done=crawford_done,
        last_game=e,
    )
    return _r(after, crawford=_is_crawford_game(after))


def _on_match_won(state: MatchState, e: ev.MatchWon) -> MatchState:
    return _r(state, phase=OVER, winner=e.winner, crawford=False)


def _begin(state: MatchState, number: int) -> tuple[GameRecord, ...]:
    """The games with game ``number`` begun at the state's score and Crawford flags (as it is, if it has begun)."""
    if state.game_record(number) is not None:
        return state.games
    return state.games + (GameRecord(number, tuple(state.score), state.crawford, state.crawford_done),)


def _is_crawford_game(state: MatchState) -> bool:
    """Is the next game the Crawford game? The first game in which exactly one side stands at length - 1.

    A 1-point match has none: nobody *reaches* 0 away-1; nor a match resumed at
    length - 1 to length - 1 (gnubg calls it post-Crawford).
    """
    o = state.options
    if not o.crawford or state.length < 2 or state.crawford_done:
        return False
    at_match_point = [s == state.length - 1 for s in state.score]
    return at_match_point[0] != at_match_point[1] and max(state.score) < state.length


_EVOLVERS = {
    ev.MatchStarted: _on_started,
    ev.OpeningRollTied: _on_tie,
    ev.AutomaticDouble: _on_auto_double,
    ev.GameStarted: _on_game_started,
    ev.DiceRolled: _on_rolled,
    ev.CheckersMoved: _on_moved,
    ev.CannotMove: _on_cannot_move,
    ev.DoubleOffered: _on_double,
    ev.DoubleTaken: _on_take,
    ev.DoubleDropped: _on_drop,
    ev.Beavered: _on_beaver,
    ev.Raccooned: _on_raccoon,
    ev.ResignationOffered: _on_resign,
    ev.ResignationAccepted: _on_resign_accepted,
    ev.ResignationDeclined: _on_resign_declined,
    ev.GameWon: _on_game_won,
    ev.MatchWon: _on_match_won,
}

from . import match_clock  # noqa: E402 - the clock's commands and facts, judged against the match's state

_DECIDERS.update(match_clock.DECIDERS)
_EVOLVERS.update(match_clock.EVOLVERS)
