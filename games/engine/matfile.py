"""Jellyfish ``.mat`` match files: read (judged by the engine) and write.

Reads what GNU Backgammon, eXtreme Gammon and the online servers write:
``; [Player 1 "…"]`` headers, a BOM and CRLF line ends, score lines whose names
carry a GamesGrid-style ``,rating``, matches starting at any score, unfinished
matches, ``Cannot Move`` and empty moves (no legal play), ``Doubles => N``,
``Takes``, ``Drops``, ``Beavers => N``, ``Wins N points``, Backgammon Galaxy's
``Losses N point`` lines, and resignations that appear only as ``Wins N
points`` (the loser resigned that many points over the cube).

Every action goes through :func:`games.engine.match.decide`; a file with an
illegal or unreadable move raises :class:`MatFileError` naming the game, the
move number and the reason. There is no Crawford marker in a ``.mat`` file:
the engine infers the Crawford game from the scores, unless XG's
``; [Crawford "Off"]`` header says the match had no Crawford rule. XG's
``; [Jacoby "On"]``, ``; [Beaver "On"]`` and ``; [CubeLimit "N"]`` headers
set the session's options.

What real files hold, read as gnubg 1.07 reads it (or better where gnubg gives
up), each kept as a :class:`MatWarning` (file line and reason) on the record:

* ``???`` / ``????`` after a roll (XG, Backgammon Studio: the play was not
  recorded): before a ``Wins`` line, the roll and then the resignation; at the
  end of the file, the game is unfinished with the mover to move; before more
  play, as a roll with no move written (below).
* ``?????`` (five or more ``?``): gnubg blanks four and cannot read the rest, so it drops the
  roll: before a ``Wins`` line, the mover resigns before rolling; at the end of the file, the
  game is unfinished with the mover to roll; before more play (gnubg would let the other
  player play twice) the file is refused.
* A roll with no move written: at the end of the file, unfinished (no warning:
  our own export of a player who has rolled writes it so); before more play,
  its only legal play is played, or it is forfeited; with several plays the
  file is refused.
* ``Wins N`` after a resignation that is not the cube times 1, 2 or 3: as
  gnubg, single up to the cube, gammon up to twice, else backgammon.
* ``Wins N`` after a game already won by a bear-off or a drop: the play
  decides; N capped at what the match needed (Galaxy) is silent, any other N
  is a warning; a ``Wins`` in the loser's column stays an error.
* A dead cube doubled (gnubg would refuse it at the table): read as written.
* ``Wins N`` by the doubler while the double is pending, with no ``Drops``: as gnubg, the
  player doubled resigned (N over the cube before the double), not a drop.
* Names longer than gnubg holds (31 bytes): the score line carries them cut at a character
  within that, the ``; [Player N]`` headers whole; read back whole.
* Empty player names (gnubg crashes): the header's name, or "Player 1"/"Player 2".
* A row number written twice on one line (Galaxy): read as two rows.
* ``Losses N point(s)`` lines repeat the ``Wins`` and are ignored.
* Snowie's ``Illegal play (…)`` (a position set by hand) is refused.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field

from . import commands as cmd
from . import events as ev
from .errors import EngineError, ErrorCode, NotationError, Reason, Refusal
from .events import BACKGAMMON, GAMMON, KIND_VALUE, SINGLE
from .match import DOUBLED, MOVE, OPENING, OVER, ROLL, MatchState, decide, evolve
from .match_clock import GIVEN_FOR
from .notation import format_mat_move

KIND_BY_VALUE = {v: k for k, v in KIND_VALUE.items()}
_NOT_YOUR_TURN = {"roll": Reason.MAT_NOT_TURN_ROLL, "double": Reason.MAT_NOT_TURN_DOUBLE, "take": Reason.MAT_NOT_TURN_TAKE,
                  "drop": Reason.MAT_NOT_TURN_DROP, "beaver": Reason.MAT_NOT_TURN_BEAVER}


@dataclass(frozen=True)
class MatWarning:
    """A quirk of the file read leniently: its ``line`` (1-based) and what was done."""

    line: int
    reason: str

    def to_dict(self) -> dict:
        return {"line": self.line, "reason": self.reason}


class MatFileError(NotationError):
    """A ``.mat`` file that cannot be read or whose play breaks the rules: ``fault`` says what (a reason of the
    file's, or the engine's refusal of the play), ``game`` and ``move`` where (the file's game and move numbers).

    >>> str(MatFileError(Reason.MAT_UNREADABLE_WORD, 2, 7, word="13/x9"))
    "game 2, move 7: cannot read '13/x9'"
    >>> MatFileError(Reason.MAT_UNREADABLE_WORD, 2, 7, word="13/x9").fault.reason.name
    'MAT_UNREADABLE_WORD'
    """

    code = ErrorCode.INVALID_MAT_FILE

    def __init__(self, reason: Reason | Refusal, game: int | None = None, move: int | None = None, /, **params):
        self.game, self.move = game, move
        fault = reason if isinstance(reason, Refusal) else Refusal(reason, **params)
        if game is None:
            super().__init__(fault.reason or str(fault), **fault.params)
            self.fault = self
        else:
            where = {"game": game} if move is None else {"game": game, "move": move}
            super().__init__(Reason.MAT_AT_GAME if move is None else Reason.MAT_AT_MOVE, why=fault, **where)
            self.fault = fault


@dataclass
class Action:
    kind: str  # roll, double, take, drop, beaver, raccoon, wins, losses
    column: int  # 0 left (player 1 of the file), 1 right
    line: int | None  # the move number written in the file
    dice: tuple[int, int] | None = None
    move: str = ""
    value: int = 0
    file_line: int = 0  # 1-based line of the file


@dataclass
class MatGame:
    number: int
    score: tuple[int, int]
    names: tuple[str, str]
    actions: list[Action] = field(default_factory=list)
    has_score_line: bool = False
    score_line: int = 0
    warnings: list[MatWarning] = field(default_factory=list)


@dataclass
class MatRecord:
    """A match read from a file: its headers, the engine's events and final state."""

    players: tuple[str, str]
    length: int
    headers: dict[str, str]
    events: list
    state: MatchState
    games: int
    warnings: list[MatWarning] = field(default_factory=list)


# -- reading -----------------------------------------------------------------

_HEADER = re.compile(r'^;\s*\[(?P<key>[^"\]]+?)\s+"(?P<value>.*)"\s*\]\s*$')
_LENGTH = re.compile(r"^\s*(\d+)\s+point\s+match\s*$", re.I)
_GAME = re.compile(r"^\s*Game\s+(\d+)\s*$", re.I)
_SCORE = re.compile(r"^\s*(?P<a>.*?)\s*:\s*(?P<sa>\d+)\s+(?P<b>.*?)\s*:\s*(?P<sb>\d+)\s*$")
_NUMBERED = re.compile(r"^\s*(\d+)\)(.*)$")
_ROLL = re.compile(r"^([1-6])([1-6]):$")
_UNRECORDED = re.compile(r"^\?{3,4}$")  # XG / Backgammon Studio: the play was not recorded
_DROPPED = re.compile(r"^\?{5,}$")  # gnubg blanks four "?" and cannot read the rest: it drops the roll
GNUBG_NAME_BYTES = 31  # gnubg's MAX_NAME_LEN (32, backgammon.h) less its terminator: where import.c cuts a name
_RATING = re.compile(r"\s*,\s*-?\d+(?:[.,]\d+)?\s*$")
_RIGHT_OFFSET = 12  # an action further than this right of "N)" is in the second column
_RIGHT_COLUMN = 20  # the same for lines without a number ("      Wins 2 points")


def parse_mat(text: str) -> tuple[dict[str, str], int, list[MatGame]]:
    """Split a ``.mat`` text into headers, match length and games of actions (no rules yet)."""
    text = text.lstrip("\ufeff")
    headers: dict[str, str] = {}
    length: int | None = None
    games: list[MatGame] = []
    game: MatGame | None = None
    for lineno, raw in enumerate(text.splitlines(), start=1):
        line = raw.rstrip()
        if not line.strip():
            continue
        if line.lstrip().startswith(";"):
            found = _HEADER.match(line.strip())
            if found:
                headers[found["key"]] = found["value"]
            continue
        if length is None and _LENGTH.match(line):
            length = int(_LENGTH.match(line)[1])
            continue
        if _GAME.match(line):
            game = MatGame(int(_GAME.match(line)[1]), (0, 0), ("", ""))
            games.append(game)
            continue
        if game is None:
            raise MatFileError(Reason.MAT_LINE_BEFORE_GAME, line=line.strip())
        numbered = _NUMBERED.match(line)
        if numbered:
            number, content = int(numbered[1]), numbered[2]
            glued = re.search(rf"(?<=\s){number}\)", content)
            if glued:  # Galaxy glues its last row onto the one before: "24) 43: 21/18   24)  Losses 2 ..."
                _read_actions(content[: glued.start()], number, game, numbered=True, line=lineno)
                content = content[glued.end():]
                game.warnings.append(MatWarning(lineno, f"row {number} is written twice on one line: read as two rows"))
            _read_actions(content, number, game, numbered=True, line=lineno)
            continue
        if not game.actions and not game.has_score_line:
            names = _score_names(line, headers)
            if names:
                game.names, game.score = names
                game.has_score_line, game.score_line = True, lineno
                continue
        if re.search(r"\b(Wins|Losses)\b", line):
            _read_actions(line, None, game, numbered=False, line=lineno)
            continue
        raise MatFileError(Reason.MAT_UNREADABLE_LINE, game.number, line=line.strip())
    if length is None:
        raise MatFileError(Reason.MAT_NO_LENGTH)
    return headers, length, games


def _score_names(line: str, headers: dict[str, str]):
    """The names and scores of a game's score line, or None; the headers' names win when they fit.

    A name may hold a colon or start with spaces (``; [Player 1 " Ann: the best"]``): the
    score line alone cannot say where it ends, the header can.
    """
    given = headers.get("Player 1"), headers.get("Player 2")
    if all(given):
        shown = [re.escape(gnubg_name(name).strip()) for name in given]  # a long name is written cut (write_mat)
        exact = re.match(rf"^\s*{shown[0]}\s*:\s*(\d+)\s+{shown[1]}\s*:\s*(\d+)\s*$", line)
        if exact:
            return (given[0], given[1]), (int(exact[1]), int(exact[2]))
    score = _SCORE.match(line)
    if not score:
        return None
    return (_RATING.sub("", score["a"]), _RATING.sub("", score["b"])), (int(score["sa"]), int(score["sb"]))


def _read_actions(content: str, number: int | None, game: MatGame, numbered: bool, line: int = 0) -> None:
    tokens = [(m.start(), m.group()) for m in re.finditer(r"\S+", content)]
    actions: list[Action] = []
    i = 0
    while i < len(tokens):
        start, word = tokens[i]
        lower = word.lower()
        roll = _ROLL.match(word)
        column = 1 if start > (_RIGHT_OFFSET if numbered else _RIGHT_COLUMN) else 0
        if lower == "illegal" and i + 1 < len(tokens) and tokens[i + 1][1].lower().startswith("play"):
            raise MatFileError(Reason.MAT_ILLEGAL_PLAY_RECORDED, game.number, number)
        if roll:
            moves = []
            i += 1
            while i < len(tokens) and not _is_keyword(tokens[i][1]):
                moves.append(tokens[i][1])
                i += 1
            text = " ".join(moves)
            if re.fullmatch(r"(?i)(cannot\s+move|\(?no\s+(legal\s+)?move\)?)?", text):
                text = ""
            if text.lower().startswith("illegal play"):  # Snowie: "52: Illegal play (<position>)"
                raise MatFileError(Reason.MAT_ILLEGAL_PLAY_RECORDED, game.number, number)
            actions.append(Action("roll", column, number, (int(roll[1]), int(roll[2])), text, file_line=line))
            continue
        if lower in ("doubles", "beavers", "raccoons"):
            value = _number_after(tokens, i, game, number)
            kind = {"doubles": "double", "beavers": "beaver", "raccoons": "raccoon"}[lower]
            actions.append(Action(kind, column, number, value=value, file_line=line))
            i += 3 if i + 1 < len(tokens) and tokens[i + 1][1] == "=>" else 2
            continue
        if lower in ("takes", "drops", "accepts", "passes", "rejects"):
            kind = "take" if lower in ("takes", "accepts") else "drop"
            actions.append(Action(kind, column, number, file_line=line))
            i += 1
            continue
        if lower in ("wins", "losses", "loses"):
            if i + 1 >= len(tokens) or not tokens[i + 1][1].isdigit():
                raise MatFileError(Reason.MAT_NEEDS_POINTS, game.number, number, word=word)
            kind = "wins" if lower == "wins" else "losses"
            actions.append(Action(kind, column, number, value=int(tokens[i + 1][1]), file_line=line))
            i += 2
            while i < len(tokens) and tokens[i][1].lower() in ("point", "points", "and", "the", "match"):
                i += 1
            continue
        if lower == "cannot" and i + 1 < len(tokens) and tokens[i + 1][1].lower() == "move":
            i += 2  # "Cannot Move" written without a roll before it: nothing to replay
            continue
        raise MatFileError(Reason.MAT_UNREADABLE_WORD, game.number, number, word=word)
    if numbered and len(actions) == 2:
        actions[0].column, actions[1].column = 0, 1
    game.actions.extend(actions)


def _is_keyword(word: str) -> bool:
    return bool(_ROLL.match(word)) or word.lower() in (
        "doubles", "beavers", "raccoons", "takes", "drops", "accepts", "passes", "rejects", "wins", "losses", "loses",
    )


def _number_after(tokens, i, game, number) -> int:
    j = i + 2 if i + 1 < len(tokens) and tokens[i + 1][1] == "=>" else i + 1
    if j >= len(tokens) or not tokens[j][1].isdigit():
        raise MatFileError(Reason.MAT_NEEDS_CUBE, game.number, number, word=tokens[i][1])
    return int(tokens[j][1])


def names_of(headers: dict[str, str], games: list[MatGame]) -> tuple[str, str]:
    """The players' names: the first score line's, else the headers', else "Player 1"/"Player 2"."""
    given = games[0].names if games else ("", "")
    return tuple(
        given[i] if given[i].strip() else (headers.get(f"Player {i + 1}", "").strip() and headers[f"Player {i + 1}"])
        or f"Player {i + 1}"
        for i in (0, 1)
    )


def _header_options(headers: dict[str, str], length: int, warnings: list[MatWarning]) -> dict:
    """XG's option headers as StartMatch options (the money ones only for a money session)."""
    on = {k.lower(): v.strip().lower() for k, v in headers.items()}
    options: dict = {}
    if on.get("crawford") == "off":
        options["crawford"] = False
    if not length:
        options["jacoby"] = on.get("jacoby") == "on"
        options["beavers"] = on.get("beaver", on.get("beavers")) == "on"
        if on.get("raccoon", on.get("raccoons")) == "on" and options["beavers"]:
            options["raccoons"] = True
    limit = on.get("cubelimit", "")
    if limit.isdigit() and int(limit) >= 2 and not int(limit) & (int(limit) - 1):
        options["cube_limit"] = int(limit)
    redoubles = on.get("redoubles", "")
    if not length and redoubles.isdigit() and options["beavers"]:
        options["redoubles"] = int(redoubles)
    return options


def read_mat(text: str, on_game: Callable[[int], None] | None = None) -> MatRecord:
    """Read and judge a ``.mat`` file: every action is decided by the engine. ``on_game(done)`` is told after each
    game is judged (how far a long record is: a worker reports it)."""
    headers, length, games = parse_mat(text)
    if not games:
        raise MatFileError(Reason.MAT_NO_GAME)
    warnings: list[MatWarning] = []
    names = names_of(headers, games)
    if games[0].has_score_line and not all(n.strip() for n in games[0].names):
        warnings.append(MatWarning(games[0].score_line, f"a player's name is empty: read as {names[0]!r} and {names[1]!r}"))
    if names[0] == names[1]:
        names = (names[0], names[1] + " (2)")
    first = games[0]
    crawford_done = False
    if length > 1 and length - 1 in first.score:
        # a match that starts at away-1: a double shows the Crawford game is past
        crawford_done = any(a.kind == "double" for a in first.actions)
    replayer = _Replayer(warnings, last_game=games[-1].number)
    try:
        replayer.do(
            cmd.StartMatch(
                tuple(names), length, initial_score=first.score, crawford_done=crawford_done, imported=True,
                **_header_options(headers, length, warnings),
            )
        )
    except EngineError as broken:
        raise MatFileError(broken) from None
    for done, game in enumerate(games, 1):
        warnings.extend(game.warnings)
        replayer.game(game)
        if on_game is not None:
            on_game(done)
    if headers.get("Termination") in GIVEN_FOR and replayer.state.phase != OVER:
        winner = headers.get("Winner", "")
        if winner not in names:
            raise MatFileError(Reason.MAT_GIVEN_TO_WHOM, reason=headers["Termination"], name=winner)
        replayer.do(cmd.GiveMatch(names.index(winner), headers["Termination"]))
    warnings.sort(key=lambda w: w.line)
    return MatRecord(tuple(names), length, headers, replayer.events, replayer.state, len(games), warnings)


class _Replayer:
    """Feeds a file's actions to the engine as commands, game by game."""

    def __init__(self, warnings: list[MatWarning] | None = None, last_game: int | None = None):
        self.state = MatchState()
        self.events: list = []
        self.warnings = warnings if warnings is not None else []
        self.last_game = last_game
        self.following: Action | None = None  # the game's next action that is not a "Losses" line
        self.is_last_game = False

    def do(self, command) -> None:
        for event in decide(self.state, command):
            self.state = evolve(self.state, event)
            self.events.append(event)

    def warn(self, a: Action, reason: str) -> None:
        self.warnings.append(MatWarning(a.file_line, reason))

    def game(self, game: MatGame) -> None:
        state = self.state
        if state.phase == OVER:
            raise MatFileError(Reason.MAT_ALREADY_OVER, game.number)
        if state.phase != OPENING:
            raise MatFileError(Reason.MAT_GAME_UNFINISHED, game.number - 1)
        if game.has_score_line and tuple(game.score) != tuple(state.score):
            raise MatFileError(Reason.MAT_SCORE_DIFFERS, game.number, written=f"{game.score[0]}-{game.score[1]}",
                               played=f"{state.score[0]}-{state.score[1]}")
        self.is_last_game = game.number == self.last_game
        for i, action in enumerate(game.actions):
            self.following = next((a for a in game.actions[i + 1:] if a.kind != "losses"), None)
            try:
                self._act(action)
            except EngineError as broken:
                if isinstance(broken, MatFileError) and broken.game is not None:
                    raise
                raise MatFileError(broken, game.number, action.line) from None

    def _act(self, a: Action) -> None:
        s = self.state
        if a.kind == "losses":
            return  # Galaxy writes the loser's side of "Wins": nothing to replay
        if a.kind == "wins":
            return self._wins(a)
        if a.kind == "roll":
            if _DROPPED.match(a.move):
                return self._dropped_roll(a)
            if s.phase == OPENING:
                if a.dice[0] == a.dice[1]:
                    raise MatFileError(Reason.MAT_OPENS_WITH_DOUBLE)
                high, low = max(a.dice), min(a.dice)
                self.do(cmd.Roll(None, (high, low) if a.column == 0 else (low, high), "imported"))
            else:
                self._check_actor(a, s.turn, "roll")
                self.do(cmd.Roll(s.turn, a.dice, "imported"))
            roll = f"{a.dice[0]}{a.dice[1]}"
            unrecorded = bool(_UNRECORDED.match(a.move))
            if self.state.phase != MOVE:  # no legal play: forfeited
                if a.move and not unrecorded:
                    raise MatFileError(Reason.MAT_ROLL_HAS_NO_PLAY, move=a.move, roll=roll)
                return None
            if a.move and not unrecorded:
                self.do(cmd.Move(self.state.turn, a.move))
                return None
            return self._unwritten_play(a, roll, unrecorded)
        if a.kind == "double":
            self._check_actor(a, s.turn, "double")
            need = s.length - s.score[s.turn]
            if s.length and s.cube >= need and not s.crawford:
                self.warn(a, f"a dead cube is doubled: {s.players[s.turn]} needs {need} point{'s' if need != 1 else ''} "
                             f"and the cube already gives {s.cube} (gnubg refuses it at the table); read as written")
            self.do(cmd.Double(s.turn, imported=True))
            if self.state.cube * 2 != a.value:
                raise MatFileError(Reason.MAT_CUBE_VALUE, cube=self.state.cube * 2, written=a.value)
            return None
        if a.kind in ("take", "drop", "beaver"):
            self._check_actor(a, s.answerer, a.kind)
            command = {"take": cmd.Take, "drop": cmd.Drop, "beaver": cmd.Beaver}[a.kind]
            return self.do(command(s.answerer))
        if a.kind == "raccoon":
            return self.do(cmd.Raccoon(s.answerer if s.phase == DOUBLED else s.turn))
        raise AssertionError(f"the reader made an action it cannot replay: {a.kind}")

    def _dropped_roll(self, a: Action) -> None:
        """A roll written with five or more ``?``: gnubg drops it, so the mover has not rolled."""
        s = self.state
        if s.phase != OPENING:
            self._check_actor(a, s.turn, "roll")
        mover = s.players[s.turn] if s.phase != OPENING else s.players[a.column]
        roll, nxt = f"{a.dice[0]}{a.dice[1]}", self.following
        if nxt is not None and nxt.kind == "wins":
            self.warn(a, f"the roll {roll} is written with a play of {a.move}, which gnubg cannot read: "
                         f"the roll is dropped, {mover} resigns before rolling")
            return None
        if nxt is None and self.is_last_game:
            self.warn(a, f"the roll {roll} is written with a play of {a.move}, which gnubg cannot read: "
                         f"the roll is dropped, the match stops with {mover} to roll")
            return None
        if nxt is None:
            return None  # "the previous game did not finish" follows
        raise MatFileError(Reason.MAT_DROPPED_ROLL, move=a.move, name=mover)

    def _unwritten_play(self, a: Action, roll: str, unrecorded: bool) -> None:
        """A roll whose play is not written (nothing, or XG's ``???``), the mover to move."""
        mover = self.state.players[self.state.turn]
        nxt = self.following
        if nxt is not None and nxt.kind == "wins":
            if unrecorded:
                self.warn(a, f"the play of {roll} is not recorded ({a.move}): read as a resignation before moving")
            return None  # rolled, then resigned instead of moving
        if nxt is None:
            if not self.is_last_game:
                return None  # "the previous game did not finish" follows
            if unrecorded:
                self.warn(a, f"the play of {roll} is not recorded ({a.move}): the match stops with {mover} to move")
            return None  # the file ends with the mover to move (our own export of a rolled, unplayed turn)
        plays = self.state.legal_plays()
        if len(plays) == 1:
            what = f"the play of {roll} is not recorded ({a.move})" if unrecorded else f"no play is written for {roll}"
            self.warn(a, f"{what}; its only legal play {plays[0]} is played")
            self.do(cmd.Move(self.state.turn, plays[0]))
            return None
        if unrecorded:
            raise MatFileError(Reason.MAT_PLAY_NOT_RECORDED, roll=roll, move=a.move, play=plays[0])
        raise MatFileError(Reason.MAT_NO_MOVE_WRITTEN, roll=roll, play=plays[0])

    def _check_actor(self, a: Action, player: int, what: str) -> None:
        if a.column != player and self.state.phase != OPENING:
            players = self.state.players
            raise MatFileError(_NOT_YOUR_TURN[what], name=players[a.column], other=players[player])

    def _wins(self, a: Action) -> None:
        s = self.state
        winner = a.column
        if s.phase in (OPENING, OVER) and s.last_game is not None and s.last_game.game == s.game:
            return self._wins_after_the_end(a, s.last_game)
        if s.phase == DOUBLED and winner == s.answerer:
            raise MatFileError(Reason.MAT_RESIGN_UNDER_OWN_DOUBLE)
        if s.phase not in (ROLL, MOVE, OPENING, DOUBLED):
            raise MatFileError(Reason.MAT_RESIGN_NOW)
        # while a double is pending (no "Drops" written) the player doubled resigned, as gnubg reads it: the
        # points are counted on the cube before the double
        if a.value % s.cube == 0 and a.value // s.cube in KIND_BY_VALUE:
            kind = KIND_BY_VALUE[a.value // s.cube]
        else:  # as gnubg reads it: up to the cube a single, up to twice a gammon, else a backgammon
            kind = SINGLE if a.value <= s.cube else GAMMON if a.value <= 2 * s.cube else BACKGAMMON
            self.warn(a, f"the file says {a.value} point{'s' if a.value != 1 else ''}; read as a {kind} "
                         f"at cube {s.cube} = {KIND_VALUE[kind] * s.cube}")
        self.do(cmd.Resign(1 - winner, kind))
        self.do(cmd.AcceptResignation(winner))
        return None

    def _wins_after_the_end(self, a: Action, done: ev.GameWon) -> None:
        """A ``Wins`` line after a bear-off or a drop: the play decides, as in gnubg."""
        s = self.state
        if done.winner != a.column:
            raise MatFileError(Reason.MAT_WINNER_DIFFERS, name=s.players[a.column], points=a.value,
                               winner=s.players[done.winner], won=done.points)
        if a.value == done.points:
            return
        before = done.score[done.winner] - done.points
        cap = s.length - before
        if s.length and done.points > cap and a.value == cap:
            return  # Backgammon Galaxy writes the points the match needed
        self.warn(a, f"the file says {s.players[done.winner]} wins {a.value} point{'s' if a.value != 1 else ''}; "
                     f"the play gives {done.points} (read as played)")


# -- writing -----------------------------------------------------------------


def write_mat(events, headers: dict[str, str] | None = None, on_game: Callable[[int], None] | None = None) -> str:
    """Write a match's events as a ``.mat`` file in GNU Backgammon's layout. ``on_game(done)`` is told after each
    game is written (how far a long match's file is: a worker reports it)."""
    state = MatchState()
    won = 0
    lines: list[str] = []
    row: list[str | None] = [None, None]
    number = 0
    tags_at, given = 0, None  # where the headers end; a match given on time or by lateness: (reason, winner)

    def flush() -> None:
        nonlocal row, number
        if row != [None, None]:
            number += 1
            # gnubg's layout: the second column starts 28 characters after "NNN) "
            lines.append(f"{number:3d}) {row[0] or '':<27s} {row[1] or ''}".rstrip())
        row = [None, None]

    def put(player: int, text: str) -> None:
        if row[player] is not None or (player == 0 and row[1] is not None):
            flush()
        row[player] = text

    for event in events:
        before = state
        state = evolve(state, event)
        if isinstance(event, ev.MatchStarted):
            for key, value in (headers or {}).items():
                lines.append(f'; [{key} "{value}"]')
            lines.append(f'; [Player 1 "{event.players[0]}"]')
            lines.append(f'; [Player 2 "{event.players[1]}"]')
            lines += [f'; [{key} "{value}"]' for key, value in _option_headers(event, headers or {})]
            tags_at = len(lines)
            lines += ["", f" {event.length} point match", ""]
        elif isinstance(event, ev.GameStarted):
            number = 0
            lines += _game_header(event.game, state.players, before.score)
            first = state.turn
            put(first, f"{max(event.dice)}{min(event.dice)}:")
        elif isinstance(event, ev.DiceRolled):
            put(event.player, f"{max(event.dice)}{min(event.dice)}:")
        elif isinstance(event, ev.CheckersMoved):
            text = format_mat_move(_with_hits(before, event.steps))
            row[event.player] = f"{row[event.player]} {text}"
        elif isinstance(event, ev.DoubleOffered):
            put(event.player, f" Doubles => {event.cube}")
        elif isinstance(event, ev.DoubleTaken):
            put(event.player, " Takes")
        elif isinstance(event, ev.DoubleDropped):
            put(event.player, " Drops")
        elif isinstance(event, ev.Beavered):
            put(event.player, f" Beavers => {event.cube}")
        elif isinstance(event, ev.Raccooned):
            put(event.player, f" Raccoons => {event.cube}")
        elif isinstance(event, ev.GameWon) and event.reason in GIVEN_FOR:
            # no "Wins" line (gnubg would read a resignation worth at most a backgammon): the game as far as it
            # was played, the match's end in the headers (gnubg skips them; read_mat gives the match back)
            flush()
            if before.phase == OPENING:  # given before the game began: its score line, no play
                lines += _game_header(event.game, state.players, before.score)
            lines.append("")
            given = (event.reason, state.players[event.winner])
            won += 1
            if on_game is not None:
                on_game(won)
        elif isinstance(event, ev.GameWon):
            wins = f"Wins {event.points} point{'s' if event.points != 1 else ''}"
            if event.winner == 1 and row[0] is not None and row[1] is None:
                row[1] = " " + wins  # gnubg's "NN)  Drops    Wins 1 point": its importer needs it so
                flush()
            else:
                flush()
                if before.resumed_phase == OPENING:  # conceded before the opening roll
                    lines += _game_header(event.game, state.players, before.score)
                lines.append(" " * (6 if event.winner == 0 else 34) + wins)
            lines.append("")
            won += 1
            if on_game is not None:
                on_game(won)
    flush()
    if given is not None:
        lines[tags_at:tags_at] = [f'; [Termination "{given[0]}"]', f'; [Winner "{given[1]}"]']
    # gnubg ends every game, the last one too, with a blank line; its importer needs it
    return "\n".join(lines).rstrip("\n") + "\n\n"


def _option_headers(start: ev.MatchStarted, given: dict[str, str]) -> list[tuple[str, str]]:
    """XG's option tags, so that the match reads back with its rules (e.g. no invented Crawford game)."""
    out = []
    if start.length:
        out.append(("Crawford", "On" if start.crawford else "Off"))
    if start.jacoby:
        out.append(("Jacoby", "On"))
    if start.beavers:
        out.append(("Beaver", "On"))
    if start.raccoons:
        out.append(("Raccoon", "On"))
    if start.redoubles:
        out.append(("Redoubles", str(start.redoubles)))
    if start.cube_limit:
        out.append(("CubeLimit", str(start.cube_limit)))
    return [(k, v) for k, v in out if k not in given]


def _game_header(game: int, players: tuple[str, str], score: tuple[int, int]) -> list[str]:
    a, b = (gnubg_name(name) for name in players)
    # gnubg's layout (the second name at column 33) with a space kept after the first score however long the
    # first name: gnubg reads that score up to the next space, the second name from there to its colon
    return [f" Game {game}", f"{f' {a} : {score[0]}':<31s} {b} : {score[1]}"]


def gnubg_name(name: str) -> str:
    """The name as gnubg can hold it on a score line: at most 31 bytes, cut at a character (gnubg cuts the bytes,
    and a character cut in two crashes it). The ``; [Player N]`` headers keep the whole name."""
    cut = name.encode()[:GNUBG_NAME_BYTES].decode(errors="ignore")
    return name if cut == name else cut.rstrip()


def _with_hits(state: MatchState, steps) -> list[tuple[int, int, bool]]:
    """Mark each step that lands on a blot, replaying the play step by step."""
    theirs = list(state.position.theirs)
    out = []
    for s, t in steps:
        hit = bool(t) and theirs[25 - t] == 1
        if hit:
            theirs[25 - t] = 0
        out.append((s, t, hit))
    return out
