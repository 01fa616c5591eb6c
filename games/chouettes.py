"""A chouette's stream and its service: a session recorded move by move on one tablet, judged by the engine.

The stream (type ``chouette``, id ``chouette-<uuid hex>``) opens with ``ChouetteOpened`` (who records it), then
holds the engine's chouette events (:mod:`games.engine.chouette`): the start, the rolls, the captain's and the
box's checker plays, every cube's doubles, takes and drops, and each game's result with the next line. Nothing
else is stored: the session sheet is the fold of the games' results.

The commands are declared once, in ``COMMANDS``: their API name, the engine command they make and the fields of
their body, each with the refusal of a malformed value. The API and the recording page both read a body
through :func:`parse`.
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass, field
from typing import Callable

from eventlog import live, store
from eventlog.store import NewEvent
from eventlog.tasks import wake_projections_and_tell
from games.engine import chouette as engine
from published.chouettes import ChouetteSheet

from .errors import BadCommand, MatchNotFound, Reason
from .forbidden import Forbidden

STREAM_TYPE = "chouette"
OPENED = "ChouetteOpened"
NAME_MOST = 40


@dataclass(frozen=True)
class Chouette:
    """A chouette as its stream says: who records it, its version and the engine's state."""

    stream_id: str
    version: int = 0
    recorder_id: int | None = None
    state: engine.ChouetteState = field(default_factory=engine.ChouetteState)


# -- the commands, declared once ------------------------------------------------


def _names(body: dict, name: str) -> tuple[str, ...]:
    value = body.get(name, [])
    if not isinstance(value, (list, tuple)) or not all(isinstance(v, str) and 0 < len(v) <= NAME_MOST for v in value):
        raise BadCommand(Reason.NAMES_FIELD, field=name, most=NAME_MOST)
    return tuple(value)


def _name(body: dict, name: str) -> str:
    value = body.get(name)
    if not isinstance(value, str) or not 0 < len(value) <= NAME_MOST:
        raise BadCommand(Reason.NAME_FIELD, field=name)
    return value


def _dice(body: dict, name: str) -> tuple[int, int]:
    value = body.get(name)
    if not isinstance(value, (list, tuple)) or len(value) != 2 or not all(
            isinstance(d, int) and not isinstance(d, bool) and 1 <= d <= 6 for d in value):
        raise BadCommand(Reason.BOARD_DICE_FIELD)
    return tuple(value)


def _move(body: dict, name: str) -> str:
    value = body.get(name, "")
    if not isinstance(value, str) or len(value) > 80:
        raise BadCommand(Reason.MOVE_NOTATION)
    return value


def _flag(body: dict, name: str) -> bool:
    value = body.get(name, False)
    if not isinstance(value, bool):
        raise BadCommand(Reason.FLAG_FIELD, field=name)
    return value


def _variation(body: dict, name: str) -> str:
    return body.get(name, engine.Variation.HALF)  # the engine refuses a variation it does not know


READERS: dict[str, Callable[[dict, str], object]] = {
    "names": _names, "name": _name, "dice": _dice, "move": _move, "flag": _flag, "variation": _variation,
}


@dataclass(frozen=True)
class Arg:
    """A field of a command's body: its name, its kind (how it is read, raising the refusal of a bad value), its
    help."""

    name: str
    kind: str
    help: str

    def read(self, body: dict):
        return READERS[self.kind](body, self.name)


@dataclass(frozen=True)
class CommandSpec:
    type: str
    engine: type
    args: tuple[Arg, ...]

    def command(self, body: dict):
        return self.engine(*(arg.read(body) for arg in self.args))


MEMBERS = Arg("members", "names", "the team members' names")
COMMANDS: dict[str, CommandSpec] = {spec.type: spec for spec in (
    CommandSpec("roll", engine.Roll,
                (Arg("dice", "dice", "the two dice; the opening roll: the box's, the captain's"),)),
    CommandSpec("move", engine.Move, (Arg("move", "move", "the play in gnubg notation, e.g. 8/5 6/5"),)),
    CommandSpec("box_doubles", engine.BoxDoubles, (MEMBERS,)),
    CommandSpec("crew_doubles", engine.CrewDoubles, (MEMBERS,)),
    CommandSpec("take", engine.Take, (Arg("member", "name", "who takes the box's double"),)),
    CommandSpec("drop", engine.Drop, (Arg("member", "name", "who drops the box's double"),)),
    CommandSpec("box_answers", engine.BoxAnswers, (Arg("takes", "names", "the doubles the box takes"),
                                                   Arg("drops", "names", "the doubles the box drops"))),
)}

OPENING_ARGS = (
    Arg("players", "names", "the players in the order of their opening rolls: the box, the partner if any, the team"),
    Arg("box_partner", "flag", "the box takes the next in line as partner (6 players or more; required from 7)"),
    Arg("variation", "variation", "half, half_and_captain or free"),
    Arg("jacoby", "flag", "a cube never turned scores a single game"),
)


def parse(body) -> object:
    """The engine command of an API body or a page's form (``{"type": …, fields}``), or BadCommand."""
    if not isinstance(body, dict) or not isinstance(body.get("type"), str):
        raise BadCommand(Reason.COMMAND_OBJECT)
    spec = COMMANDS.get(body["type"])
    if spec is None:
        raise BadCommand(Reason.UNKNOWN_COMMAND_TYPE, type=repr(body["type"])[:40], types=", ".join(COMMANDS))
    return spec.command(body)


def parse_opening(body) -> engine.StartChouette:
    if not isinstance(body, dict):
        raise BadCommand(Reason.COMMAND_OBJECT)
    return engine.StartChouette(*(arg.read(body) for arg in OPENING_ARGS))


# -- the stream ---------------------------------------------------------------------


def _payload(event) -> NewEvent:
    data = engine.to_dict(event)
    return NewEvent(data.pop("type"), data)


def fold(stream_id: str, rows) -> Chouette:
    recorder, state, version = None, engine.ChouetteState(), 0
    for row in rows:
        version = row.version
        if row.event_type == OPENED:
            recorder = row.payload["recorder"]
        else:
            state = engine.evolve(state, engine.from_dict({"type": row.event_type, **row.payload}))
    return Chouette(stream_id, version, recorder, state)


def chouette_load(stream_id: str) -> Chouette:
    if not stream_id.startswith("chouette-"):
        raise MatchNotFound(Reason.NO_CHOUETTE, chouette=stream_id[:60])
    rows = store.read_stream(stream_id)
    if not rows or rows[0].stream_type != STREAM_TYPE:
        raise MatchNotFound(Reason.NO_CHOUETTE, chouette=stream_id[:60])
    return fold(stream_id, rows)


def season_sheet(stream_id: str) -> ChouetteSheet:
    """The session sheet as a season counts it (``settings.CHOUETTE_SHEET_PROVIDER``); MatchNotFound for no such
    chouette."""
    state = chouette_load(stream_id).state
    return ChouetteSheet(stream_id, tuple(state.sheet), len(state.games))


def may_record(user, chouette: Chouette) -> bool:
    return bool(user and user.is_authenticated and (user.pk == chouette.recorder_id or user.is_staff))


def _append(stream_id: str, expected: int, events: list[NewEvent], actor) -> None:
    store.append(stream_id=stream_id, stream_type=STREAM_TYPE, expected_version=expected, events=events,
                 metadata={"actor": actor.pk, "correlation_id": uuid.uuid4().hex},
                 on_commit=lambda: wake_projections_and_tell(live.stream_topic(stream_id), expected + len(events)))


def chouette_open(*, actor, start: engine.StartChouette) -> Chouette:
    """A new chouette recorded by ``actor``; the engine judges its players and options first."""
    if not (actor and actor.is_authenticated):
        raise Forbidden(Reason.LOG_IN_TO_OPEN)
    started = engine.decide(engine.ChouetteState(), start)
    stream_id = f"chouette-{uuid.uuid4().hex}"
    _append(stream_id, 0, [NewEvent(OPENED, {"recorder": actor.pk}), *map(_payload, started)], actor)
    return chouette_load(stream_id)


def chouette_command(*, actor, stream_id: str, command, expected_version) -> tuple[Chouette, list]:
    """Judge one engine command on the chouette at ``expected_version`` and append what it causes.

    A stale version is refused (ConcurrencyError, 409): one tablet records, and a second one must not record
    on a board it has not seen."""
    if not isinstance(expected_version, int) or isinstance(expected_version, bool) or expected_version < 1:
        raise BadCommand(Reason.CHOUETTE_VERSION)
    chouette = chouette_load(stream_id)
    if not may_record(actor, chouette):
        raise Forbidden(Reason.CHOUETTE_RECORDER_ONLY)
    if chouette.version != expected_version:
        raise store.ConcurrencyError(stream_id, expected_version, chouette.version)
    events = engine.decide(chouette.state, command)
    _append(stream_id, expected_version, [_payload(e) for e in events], actor)
    return chouette_load(stream_id), events


def judge_chouette_stream(stream_id: str, rows) -> None:
    """The log's verification: the chouette's commands decided again by the engine give the events stored."""
    events = [engine.from_dict({"type": row.event_type, **row.payload}) for row in rows if row.event_type != OPENED]
    engine.rejudge(events)


# -- what the API and the page show ---------------------------------------------------


def sheet_rows(state: engine.ChouetteState) -> list[dict]:
    """The session sheet: a row per game (every player's result, in the order they sat down) and the running
    totals after it."""
    players = [p for p, _ in state.sheet]
    running = dict.fromkeys(players, 0)
    rows = []
    for game in state.games:
        won = dict(game.results)
        for p in players:
            running[p] += won.get(p, 0)
        rows.append({"game": game.game, "results": [won.get(p, 0) for p in players],
                     "totals": [running[p] for p in players], "box_stays": game.box_stays,
                     "sum": sum(won.values())})
    return rows


def state_data(chouette: Chouette) -> dict:
    """The chouette as the API answers it."""
    s = chouette.state
    return {
        "id": chouette.stream_id,
        "version": chouette.version,
        "phase": str(s.phase),
        "game": s.game,
        "box": s.box,
        "partner": s.partner,
        "captain": s.captain,
        "team": list(s.team),
        "turn": "box" if s.turn == engine.BOX else "team",
        "dice": list(s.dice) if s.dice else None,
        "cubes": [{"member": c.member, "value": c.value,
                   "owner": None if c.owner is None else ("box" if c.owner == engine.BOX else c.member),
                   "settled": c.settled, "offered": c.offered_by is not None, "points": c.points} for c in s.cubes],
        "pending": list(s.pending),
        "sheet": [{"player": p, "total": total} for p, total in s.sheet],
        "games": [{"game": g.game, "results": [{"player": p, "points": n} for p, n in g.results],
                   "box_stays": g.box_stays, "line": list(g.line)} for g in s.games],
        "options": {"box_partner": s.options.box_partner, "variation": s.options.variation,
                    "jacoby": s.options.jacoby} if s.options else None,
    }
