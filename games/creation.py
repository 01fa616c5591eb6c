"""Creating a match: a new stream with its registration and the engine's first events."""

from __future__ import annotations

import dataclasses
import uuid

from eventlog.store import NewEvent
from games.engine import commands as cmd
from games.engine import errors as engine_errors
from games.engine.match import MatchState, decide, replay
from players.models import Player

from . import clocks, limits, online, streams
from .appending import append_events, fold_checked, new_events
from .errors import BadCommand, Reason
from .loading import SHARE_AFTER, remember_on_commit
from .streams import DiceSource, MatchRecord


def match_create(
    *,
    actor,
    player0: Player,
    player1: Player,
    length: int,
    dice: str = DiceSource.SERVER,
    published: bool = True,
    officiating_director_id: int | None = None,
    rating_ramp: str = "fibs",
    tournament_id: int | None = None,
    crawford: bool = True,
    jacoby: bool = False,
    beavers: bool = False,
    raccoons: bool = False,
    automatic_doubles: int = 0,
    cube_limit: int = 0,
    rated: bool = True,
    clock: dict | None = None,
    online_rule: dict | None = None,
    partner0: Player | None = None,
    partner1: Player | None = None,
) -> MatchRecord:
    """Register a new match between two players: a match to ``length`` points (odd) or a money session (0).

    Whoever creates it says what the match needs to know of its surroundings, and the match records it as
    given: whether it is ``published`` (a match of a hidden event is hidden, and follows its event through
    :func:`match_set_published`), who officiates it (``officiating_director_id``, a user id: its event's
    director), the new-player ``rating_ramp`` it is rated with (``rated`` False: a friendly, kept out of the
    ratings until a director's ``set_rated``), and ``tournament_id``, a label for the event's
    lists that the match never looks up. ``cube_limit`` 0 means as high as the platform goes
    (:data:`games.limits.MAX_CUBE`), which is the limit the engine is given: a double past it is refused rather
    than stored where no ID can show it.

    ``dice`` is where every roll of the match comes from, fixed here by whoever creates it (the event's
    director, through the event's settings): ``server`` or ``board``. A player recording cannot switch.

    ``partner0`` and ``partner1`` make it a consultation match: two players a side, each side named by both of
    them ("Ada & Bruno") on the match, its pages and its exports; either partner records for their side. It is
    never rated (a move is the pair's, not either player's).

    ``clock`` is its round's clock rule (``games.clocks.checked_rule``): a clock its round requires is set with
    the match, standing still until the opening roll.

    ``online_rule``: the match is played online (``games.online.checked_rule``: its disconnect clock, its start
    deadline and lateness), by its two players from their own browsers, with the server's dice."""
    if dice not in streams.DICE_SOURCES:
        raise BadCommand(Reason.DICE_SOURCE, choices=", ".join(streams.DICE_SOURCES))
    if player0.pk == player1.pk:
        raise engine_errors.InvalidAction(Reason.TWO_DIFFERENT_PLAYERS)
    consultation = partner0 is not None or partner1 is not None
    if consultation and (partner0 is None or partner1 is None
                         or len({player0.pk, player1.pk, partner0.pk, partner1.pk}) != 4):
        raise engine_errors.InvalidAction(Reason.CONSULTATION_PAIRS)
    _check_in_range("length", length, 0, limits.MAX_MATCH_LENGTH)
    _check_in_range("automatic_doubles", automatic_doubles, 0, limits.MAX_AUTOMATIC_DOUBLES)
    _check_in_range("cube_limit", cube_limit, 0, limits.MAX_CUBE)
    start = cmd.StartMatch(
        _side_names(player0, partner0, player1, partner1) if consultation else _distinct_names(player0, player1),
        length,
        crawford=crawford,
        jacoby=jacoby,
        beavers=beavers,
        raccoons=raccoons,
        automatic_doubles=automatic_doubles,
        cube_limit=cube_limit or limits.MAX_CUBE,
    )
    registration = checked_registration(published, officiating_director_id, rating_ramp, tournament_id)
    if rated is not True or consultation:  # said only of an unrated match: every other registration stays as it was
        registration["rated"] = False
    if consultation:
        registration["partners"] = [partner0.pk, partner1.pk]
    if (rule := clocks.checked_rule(clock)) is not None:
        registration["clock"] = rule
    if online_rule is not None:
        if dice != DiceSource.SERVER:
            raise BadCommand(Reason.ONLINE_SERVER_DICE)
        registration["online"] = online.checked_rule(online_rule, clocks.now())
    started = decide(MatchState(), start)
    started += clocks.required_clock(replay(started), rule, clocks.now())
    return open_stream(actor, player0, player1, registration, started, dice=DiceSource(dice))


def checked_registration(published, officiating_director_id, rating_ramp, tournament_id) -> dict:
    """What the creator told the match of its surroundings, checked for its type only: the match trusts it."""
    for name, value in (("officiating_director_id", officiating_director_id), ("tournament_id", tournament_id)):
        if value is not None and (not isinstance(value, int) or isinstance(value, bool)):
            raise BadCommand(Reason.ID_OR_NONE, field=name)
    if not isinstance(rating_ramp, str) or not rating_ramp or len(rating_ramp) > 32:
        raise BadCommand(Reason.RATING_RAMP)
    return {"published": bool(published), "officiating_director_id": officiating_director_id,
            "rating_ramp": rating_ramp, "tournament_id": tournament_id}


def _check_in_range(name: str, value, low: int, high: int) -> None:
    if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
        raise BadCommand(Reason.WHOLE_NUMBER, field=name, low=low, high=high)


def _distinct_names(player0: Player, player1: Player) -> tuple[str, str]:
    """The players' names as the match shows them; two players of one name get their ids too (within MAX_NAME)."""
    names = (player0.display_name[: limits.MAX_NAME], player1.display_name[: limits.MAX_NAME])
    if names[0] != names[1]:
        return names
    tagged = []
    for player in (player0, player1):
        tag = f" ({player.pk})"
        tagged.append(player.display_name[: limits.MAX_NAME - len(tag)] + tag)
    return tagged[0], tagged[1]


def _side_names(player0: Player, partner0: Player, player1: Player, partner1: Player) -> tuple[str, str]:
    """A consultation match's sides as it shows them: both players of each ("Ada & Bruno"), within MAX_NAME."""
    names = []
    for first, second in ((player0, partner0), (player1, partner1)):
        half = (limits.MAX_NAME - 3) // 2
        a, b = first.display_name, second.display_name
        if len(a) + len(b) + 3 > limits.MAX_NAME:
            a, b = a[:half], b[:half]
        names.append(f"{a} & {b}")
    return names[0], names[1]


def open_stream(
    actor, player0: Player, player1: Player, registration: dict, engine_events, import_warnings=(), **registered,
) -> MatchRecord:
    """A new match stream: who plays (in the platform's terms) and what its creator said, then the engine's events.

    The whole stream is folded and checked against the platform's limits before it is appended:
    a match refused here leaves nothing in the log."""
    registration = {**registered, "player_ids": [player0.pk, player1.pk], **registration}
    if import_warnings:  # what the .mat reader read leniently (a dead cube doubled elsewhere...): kept with the match
        registration["import_warnings"] = list(import_warnings)
    stream_id = uuid.uuid4().hex
    events = [NewEvent(streams.REGISTERED, registration, streams.REGISTERED_SCHEMA)] + new_events(engine_events)
    record = fold_checked(stream_id, events, None)
    rows = append_events(stream_id, 0, events, actor)
    record = dataclasses.replace(record, created_at=rows[0].recorded_at)
    # a long import: every web worker starts from it
    remember_on_commit(record, share=True if len(events) >= SHARE_AFTER else None)
    return record
