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
the engine infers the Crawford game from the scores.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from . import commands as cmd
from . import events as ev
from .errors import EngineError, NotationError
from .events import KIND_VALUE
from .match import DOUBLED, MOVE, OPENING, OVER, ROLL, MatchState, decide, evolve
from .notation import format_mat_move

KIND_BY_VALUE = {v: k for k, v in KIND_VALUE.items()}


class MatFileError(NotationError):
    """A ``.mat`` file that cannot be read or whose play breaks the rules."""

    def __init__(self, reason: str, game: int | None = None, move: int | None = None):
        self.reason, self.game, self.move = reason, game, move
        where = []
        if game is not None:
            where.append(f"game {game}")
        if move is not None:
            where.append(f"move {move}")
        super().__init__(f"{', '.join(where)}: {reason}" if where else reason)


@dataclass
class Action:
    kind: str  # roll, double, take, drop, beaver, raccoon, wins, losses
    column: int  # 0 left (player 1 of the file), 1 right
    line: int | None  # the move number written in the file
    dice: tuple[int, int] | None = None
    move: str = ""
    value: int = 0


@dataclass
class MatGame:
    number: int
    score: tuple[int, int]
    names: tuple[str, str]
    actions: list[Action] = field(default_factory=list)


@dataclass
class MatRecord:
    """A match read from a file: its headers, the engine's events and final state."""

    players: tuple[str, str]
    length: int
    headers: dict[str, str]
    events: list
    state: MatchState
    games: int


# -- reading -----------------------------------------------------------------

_HEADER = re.compile(r'^;\s*\[(?P<key>[^"\]]+?)\s+"(?P<value>.*)"\s*\]\s*$')
_LENGTH = re.compile(r"^\s*(\d+)\s+point\s+match\s*$", re.I)
_GAME = re.compile(r"^\s*Game\s+(\d+)\s*$", re.I)
_SCORE = re.compile(r"^\s*(?P<a>\S.*?)\s*:\s*(?P<sa>\d+)\s+(?P<b>\S.*?)\s*:\s*(?P<sb>\d+)\s*$")
_NUMBERED = re.compile(r"^\s*(\d+)\)(.*)$")
_ROLL = re.compile(r"^([1-6])([1-6]):$")
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
    for raw in text.splitlines():
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
            raise MatFileError(f"unexpected line before the first game: {line.strip()!r}")
        numbered = _NUMBERED.match(line)
        if numbered:
            _read_actions(numbered[2], int(numbered[1]), game, numbered=True)
            continue
        score = _SCORE.match(line)
        if score and not game.actions and game.names == ("", ""):
            game.names = (_RATING.sub("", score["a"]), _RATING.sub("", score["b"]))
            game.score = (int(score["sa"]), int(score["sb"]))
            continue
        if re.search(r"\b(Wins|Losses)\b", line):
            _read_actions(line, None, game, numbered=False)
            continue
        raise MatFileError(f"cannot read the line {line.strip()!r}", game.number)
    if length is None:
        raise MatFileError("no 'N point match' line")
    return headers, length, games


def _read_actions(content: str, number: int | None, game: MatGame, numbered: bool) -> None:
    tokens = [(m.start(), m.group()) for m in re.finditer(r"\S+", content)]
    actions: list[Action] = []
    i = 0
    while i < len(tokens):
        start, word = tokens[i]
        lower = word.lower()
        roll = _ROLL.match(word)
        column = 1 if start > (_RIGHT_OFFSET if numbered else _RIGHT_COLUMN) else 0
        if roll:
            moves = []
            i += 1
            while i < len(tokens) and not _is_keyword(tokens[i][1]):
                moves.append(tokens[i][1])
                i += 1
            text = " ".join(moves)
            if re.fullmatch(r"(?i)(cannot\s+move|\(?no\s+(legal\s+)?move\)?)?", text):
                text = ""
            actions.append(Action("roll", column, number, (int(roll[1]), int(roll[2])), text))
            continue
        if lower in ("doubles", "beavers", "raccoons"):
            value = _number_after(tokens, i, game, number)
            kind = {"doubles": "double", "beavers": "beaver", "raccoons": "raccoon"}[lower]
            actions.append(Action(kind, column, number, value=value))
            i += 3 if i + 1 < len(tokens) and tokens[i + 1][1] == "=>" else 2
            continue
        if lower in ("takes", "drops", "accepts", "passes", "rejects"):
            kind = "take" if lower in ("takes", "accepts") else "drop"
            actions.append(Action(kind, column, number))
            i += 1
            continue
        if lower in ("wins", "losses", "loses"):
            if i + 1 >= len(tokens) or not tokens[i + 1][1].isdigit():
                raise MatFileError(f"'{word}' needs a number of points", game.number, number)
            kind = "wins" if lower == "wins" else "losses"
            actions.append(Action(kind, column, number, value=int(tokens[i + 1][1])))
            i += 2
            while i < len(tokens) and tokens[i][1].lower() in ("point", "points", "and", "the", "match"):
                i += 1
            continue
        if lower == "cannot" and i + 1 < len(tokens) and tokens[i + 1][1].lower() == "move":
            i += 2  # "Cannot Move" written without a roll before it: nothing to replay
            continue
        raise MatFileError(f"cannot read {word!r}", game.number, number)
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
        raise MatFileError(f"'{tokens[i][1]}' needs a cube value (e.g. Doubles => 2)", game.number, number)
    return int(tokens[j][1])


def read_mat(text: str) -> MatRecord:
    """Read and judge a ``.mat`` file: every action is decided by the engine."""
    headers, length, games = parse_mat(text)
    if not games:
        raise MatFileError("the file holds no game")
    names = games[0].names
    if names == ("", ""):
        names = (headers.get("Player 1", "Player 1"), headers.get("Player 2", "Player 2"))
    first = games[0]
    crawford_done = False
    if length > 1 and length - 1 in first.score:
        # a match that starts at away-1: a double shows the Crawford game is past
        crawford_done = any(a.kind == "double" for a in first.actions)
    replayer = _Replayer()
    try:
        replayer.do(
            cmd.StartMatch(tuple(names), length, initial_score=first.score, crawford_done=crawford_done, imported=True)
        )
    except EngineError as broken:
        raise MatFileError(str(broken)) from None
    for game in games:
        replayer.game(game)
    return MatRecord(tuple(names), length, headers, replayer.events, replayer.state, len(games))


class _Replayer:
    """Feeds a file's actions to the engine as commands, game by game."""

    def __init__(self):
        self.state = MatchState()
        self.events: list = []
        self.resigns_next = False

    def do(self, command) -> None:
        for event in decide(self.state, command):
            self.state = evolve(self.state, event)
            self.events.append(event)

    def game(self, game: MatGame) -> None:
        state = self.state
        if state.phase == OVER:
            raise MatFileError("the match was already over", game.number)
        if state.phase != OPENING:
            raise MatFileError("the previous game did not finish", game.number - 1)
        if game.names != ("", "") and tuple(game.score) != tuple(state.score):
            raise MatFileError(
                f"the file gives the score {game.score[0]}-{game.score[1]}, "
                f"the games before give {state.score[0]}-{state.score[1]}",
                game.number,
            )
        for i, action in enumerate(game.actions):
            self.resigns_next = i + 1 < len(game.actions) and game.actions[i + 1].kind == "wins"
            try:
                self._act(action)
            except EngineError as broken:
                if isinstance(broken, MatFileError) and broken.game is not None:
                    raise
                raise MatFileError(str(broken), game.number, action.line) from None

    def _act(self, a: Action) -> None:
        s = self.state
        if a.kind == "losses":
            return  # Galaxy writes the loser's side of "Wins": nothing to replay
        if a.kind == "wins":
            return self._wins(a)
        if a.kind == "roll":
            if s.phase == OPENING:
                if a.dice[0] == a.dice[1]:
                    raise MatFileError("a game cannot open with a double")
                high, low = max(a.dice), min(a.dice)
                self.do(cmd.Roll(None, (high, low) if a.column == 0 else (low, high), "imported"))
            else:
                self._check_actor(a, s.turn, "roll")
                self.do(cmd.Roll(s.turn, a.dice, "imported"))
            if self.state.phase == MOVE:
                if not a.move and self.resigns_next:
                    return None  # rolled, then resigned instead of moving
                if not a.move:
                    plays = self.state.legal_plays()
                    raise MatFileError(f"no move is written, but {a.dice[0]}{a.dice[1]} can be played (e.g. {plays[0]})")
                self.do(cmd.Move(self.state.turn, a.move))
            elif a.move:
                raise MatFileError(f"{a.move} is not legal: {a.dice[0]}{a.dice[1]} has no legal play")
            return None
        if a.kind == "double":
            self._check_actor(a, s.turn, "double")
            self.do(cmd.Double(s.turn))
            if self.state.cube * 2 != a.value:
                raise MatFileError(f"the cube is doubled to {self.state.cube * 2}, not {a.value}")
            return None
        if a.kind in ("take", "drop", "beaver"):
            self._check_actor(a, 1 - s.turn, a.kind)
            command = {"take": cmd.Take, "drop": cmd.Drop, "beaver": cmd.Beaver}[a.kind]
            return self.do(command(1 - s.turn))
        if a.kind == "raccoon":
            return self.do(cmd.Raccoon(s.turn))
        raise MatFileError(f"unknown action {a.kind}")

    def _check_actor(self, a: Action, player: int, what: str) -> None:
        if a.column != player and self.state.phase != OPENING:
            raise MatFileError(f"{self.state.players[a.column]} cannot {what} now: it is {self.state.players[player]}'s turn")

    def _wins(self, a: Action) -> None:
        s = self.state
        winner = a.column
        if s.phase in (OPENING, OVER) and s.last_game is not None and s.last_game.game == s.game:
            done = s.last_game
            if done.winner != winner or done.points != a.value:
                raise MatFileError(
                    f"the file says {s.players[winner]} wins {a.value}, "
                    f"the play gives {s.players[done.winner]} {done.points}"
                )
            return
        if s.phase == DOUBLED and winner == s.turn and a.value == s.cube:
            self.do(cmd.Drop(1 - winner))  # some writers leave out "Drops"
            return
        if a.value % s.cube or a.value // s.cube not in KIND_BY_VALUE:
            raise MatFileError(f"{a.value} points cannot be won with the cube at {s.cube}")
        if s.phase not in (ROLL, MOVE, OPENING):
            raise MatFileError("a game cannot be resigned while a double is pending")
        self.do(cmd.Resign(1 - winner, KIND_BY_VALUE[a.value // s.cube]))
        self.do(cmd.AcceptResignation(winner))


# -- writing -----------------------------------------------------------------


def write_mat(events, headers: dict[str, str] | None = None) -> str:
    """Write a match's events as a ``.mat`` file in GNU Backgammon's layout."""
    state = MatchState()
    lines: list[str] = []
    row: list[str | None] = [None, None]
    number = 0

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
    flush()
    # gnubg ends every game, the last one too, with a blank line; its importer needs it
    return "\n".join(lines).rstrip("\n") + "\n\n"


def _game_header(game: int, players: tuple[str, str], score: tuple[int, int]) -> list[str]:
    a, b = players
    return [f" Game {game}", f"{f' {a} : {score[0]}':<32s}{b} : {score[1]}"]


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
