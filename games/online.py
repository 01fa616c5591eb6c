"""Online play: two members play a match from their own browsers, on the same log and command path as a match
recorded at the board. What is online's own is here: who may act (each player for their own side only), the
server pressing the clock for the player who has just acted, presence (each page's heartbeat) and the two
forfeits judged on it: the disconnect clock of a match under way, and a player who never came by the start deadline.

Presence is not a fact of the log (a heartbeat every few seconds would be most of it): the server's reading of each
seat's last heartbeat, the freshest in the shared cache and a row per seat in the database (``games.models.Presence``)
at most a third of the grace behind (games/presence.py). A forfeit is claimed, never automatic: the
player who stays (or an official) sends ``claim_disconnect`` or ``claim_no_show``, judged on those readings and
the server's clock (``games.clocks.now``, which a test moves), and the log keeps what it was judged on
(``OnlineForfeitClaimed``: who was away, since when, the limit and the reading), then the engine's ``GameWon`` and
``MatchWon`` (reason ``disconnect`` or ``no_show``), which end the match as a flag's fall does: its event advances.

A seat is *here* while its page beats: its last heartbeat within ``ONLINE_PRESENCE_GRACE`` seconds and its page
not closed (a closing page says so: away at once). The disconnect clock of a player away runs from their last
heartbeat; its length is the match's (a preset, fixed at its creation).
"""

from __future__ import annotations

from django.conf import settings
from django.db import transaction

from eventlog import live
from eventlog.store import NewEvent
from games.engine import commands as engine
from games.engine.match import DOUBLED, OVER, RESIGNED, MatchState, decide, evolve
from games.engine.match_clock import presser_of

from . import clocks, presence, streams
from .appending import new_events
from .errors import BadCommand, Reason
from .forbidden import Forbidden
from .models import Presence
from .streams import MatchRecord

SECOND = 1000
# the disconnect clock's presets, in seconds (a site may set its own: ONLINE_DISCONNECT_PRESETS)
DEFAULT_DISCONNECT = {"short": 60, "standard": 180, "long": 600}
MAX_SECONDS = 7 * 24 * 3600  # a start deadline a week away at most


def disconnect_presets() -> dict[str, int]:
    return dict(getattr(settings, "ONLINE_DISCONNECT_PRESETS", None) or DEFAULT_DISCONNECT)


def grace_ms() -> int:
    return int(getattr(settings, "ONLINE_PRESENCE_GRACE", 20)) * SECOND


def heartbeat_seconds() -> float:
    return float(getattr(settings, "ONLINE_HEARTBEAT", 5))


def presence_topic(stream_id: str) -> str:
    """The live topic (eventlog/live.py) the players' pages follow for each other's coming and going."""
    return f"presence:{stream_id}"


# -- the match's rule, given at its creation --------------------------------------------------------------------


def checked_rule(rule: dict | None, at: int) -> dict | None:
    """The online rule a creator hands a match: ``disconnect`` (seconds), and the start deadline ``start_within``
    (seconds from now; none: now) with ``late``, how late past it a player who has not come loses (seconds).
    Stored with the deadline as a reading (``start_by``): the match never looks at its creation time again."""
    if rule is None:
        return None
    if not isinstance(rule, dict):
        raise BadCommand(Reason.ONLINE_RULE, most=MAX_SECONDS)
    values = {}
    for name, low, default in (("disconnect", 1, None), ("start_within", 0, 0), ("late", 0, 0)):
        value = rule.get(name, default)
        if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= MAX_SECONDS:
            raise BadCommand(Reason.ONLINE_RULE, most=MAX_SECONDS)
        values[name] = value
    checked = {"disconnect": values["disconnect"], "start_by": at + values["start_within"] * SECOND,
               "late": values["late"]}
    if rule.get("challenge") is not None:
        checked["challenge"] = int(rule["challenge"])
    return checked


# -- who acts, and the clock pressed for them ---------------------------------------------------------------------


def check_own_seat(record: MatchRecord, seat: int | None) -> None:
    """In an online match a player acts only for their own side; an official's calls (a void, a correction, the
    clock's pause) are the director's commands, and a forfeit's claim is open to an official too."""
    if record.online is not None and seat is None:
        raise Forbidden(Reason.ONLINE_OWN_SEAT)


def with_presses(record: MatchRecord, judged: list, at: int) -> list:
    """``judged`` and the clock's press it calls for: online nobody presses a clock, the server does for the player
    who has just acted once the game waits on the other (and at a game's end, stopping both), at its reading."""
    if record.online is None or record.state.clock is None:
        return judged
    state = record.state
    for event in judged:
        if not isinstance(event, NewEvent):
            state = evolve(state, event)
    due = press_due(state)
    if due is None:
        return judged
    return judged + decide(state, engine.PressClock(due, at, None))


def press_due(state: MatchState) -> int | None:
    """Whose press the game now calls for: the running clock's player once the game waits on the other (or the game
    is over: the press stops both), at an opening roll's end the lower die's; None when none is due."""
    clock = state.clock
    if clock is None or clock.paused or state.phase == OVER:  # a match over takes no press: its clock is done
        return None
    if clock.running is None:
        return presser_of(state) if state.in_game else None
    if not state.in_game:
        return clock.running
    return clock.running if _to_act(state) != clock.running else None


def _to_act(state: MatchState) -> int:
    """Whose action the game waits for (as the engine's clock reads it): the roller or mover, the player
    answering a double or a resignation."""
    if state.phase == DOUBLED:
        return state.answerer
    if state.phase == RESIGNED:
        return 1 - state.resignation[0]
    return state.turn


# -- presence ------------------------------------------------------------------------------------------------------


def presence_beat(*, record: MatchRecord, seat: int | None, here: bool = True) -> dict:
    """A player's page beats (``here``) or says it is closing: their seat is seen at the server's reading. The
    other page is told when a seat comes or goes (the presence topic), never at each beat."""
    if record.online is None:
        raise BadCommand(Reason.NOT_ONLINE)
    if seat is None:
        raise Forbidden(Reason.ONLINE_PLAYERS_ONLY)
    at = clocks.now()
    before, seen = presence.beat(record.stream_id, seat, at, not here, write_every=grace_ms() // 3)
    was_here = before is not None and _is_here(*before, at)
    if was_here != here:  # a hint only: a page that misses it sees it at its next heartbeat
        transaction.on_commit(lambda: live.publish(presence_topic(record.stream_id), at))
    return presence_data(record, at, seen)


def presence_version(stream_id: str) -> int:
    """The presence topic's number: the newest reading of a coming or going (each is written to the database; a
    beat written there moves it too: one fetch)."""
    return max(Presence.objects.filter(stream_id=stream_id).values_list("seen_at", flat=True), default=0)


def _is_here(seen_at: int | None, left: bool, at: int) -> bool:
    return seen_at is not None and not left and at - seen_at <= grace_ms()


def presence_data(record: MatchRecord, at: int | None = None, seen: dict | None = None) -> dict:
    """Each seat here or away as the server sees it at its reading ``at`` (``seen``: the seats' readings, if just
    read): when it was last seen, since when it is away, and when the disconnect clock of a player away runs out (a
    page counts down from there)."""
    at = clocks.now() if at is None else at
    online = record.online or {}
    seen = presence.readings(record.stream_id) if seen is None else seen
    seats = []
    for seat in (0, 1):
        seen_at, left = seen.get(seat, (None, False))
        here = _is_here(seen_at, left, at)
        away_since = None if here else _away_since(record, seen_at)
        seats.append({"here": here, "seen_at": seen_at, "away_since": away_since,
                      "runs_out_at": None if here or not begun(record.state)
                      else away_since + online.get("disconnect", 0) * SECOND})
    return {"at": at, "grace": grace_ms() // SECOND, "heartbeat": heartbeat_seconds(),
            "disconnect": online.get("disconnect"), "start_by": online.get("start_by"), "late": online.get("late"),
            "begun": begun(record.state), "finished": record.finished, "seats": seats}


def _away_since(record: MatchRecord, seen_at: int | None) -> int:
    # never seen: away since the match was due to start (a challenge's acceptance, an event's deadline)
    return seen_at if seen_at is not None else record.online["start_by"]


def begun(state: MatchState) -> bool:
    """The match's first game has begun (its opening roll made)."""
    return state.game > 0


# -- the forfeits ----------------------------------------------------------------------------------------------------


def forfeit_events(record: MatchRecord, seat: int | None, absent: int | None, no_show: bool) -> list:
    """The events of a claim that the player ``absent`` (the other seat, for a player claiming) forfeits: refused
    while they are here, before the disconnect clock (or the start deadline and its lateness) has run out."""
    if record.online is None:
        raise BadCommand(Reason.NOT_ONLINE)
    if (over := record.why_over()) is not None:
        raise over
    if record.state.phase == OVER:
        decide(record.state, engine.GiveMatch(0, "disconnect"))  # the engine's refusal: the match is over
    if seat is not None:
        absent = 1 - seat
    elif absent not in (0, 1) or isinstance(absent, bool):
        raise BadCommand(Reason.ABSENT_SEAT)
    state, online, at = record.state, record.online, clocks.now()
    name = state.players[absent]
    seen_at, left = presence.readings(record.stream_id).get(absent, (None, False))
    if _is_here(seen_at, left, at):
        raise BadCommand(Reason.OPPONENT_HERE, name=name)
    if no_show:
        if begun(state):
            raise BadCommand(Reason.CLAIM_BEGUN)
        due = online["start_by"] + online.get("late", 0) * SECOND
        if at < due:
            raise BadCommand(Reason.NO_SHOW_NOT_DUE, late=online.get("late", 0), left=-(-(due - at) // SECOND))
    else:
        if not begun(state):
            raise BadCommand(Reason.CLAIM_NOT_BEGUN)
        since = _away_since(record, seen_at)
        due = since + online["disconnect"] * SECOND
        if at < due:
            raise BadCommand(Reason.DISCONNECT_RUNNING, name=name, away=(at - since) // SECOND,
                             limit=online["disconnect"], left=-(-(due - at) // SECOND))
    why = "no_show" if no_show else "disconnect"
    grounds = NewEvent(streams.ONLINE_FORFEIT, {"why": why, "absent": absent, "seen_at": seen_at, "due": due,
                                                "at": at, "by_seat": seat})
    return [grounds] + new_events(decide(state, engine.GiveMatch(1 - absent, why)))
