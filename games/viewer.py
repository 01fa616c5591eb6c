"""Every position of a match, for the move-by-move viewer: board, dice, cube, score and IDs after each event."""

from __future__ import annotations

from django.core.cache import cache
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from eventlog import store
from games.engine.board import BAR, OFF
from games.engine.match import DOUBLED, MOVE, ROLL, MatchState, evolve
from games.engine.state_ids import position_id_of
from games.limits import gnubg_match_id, xgid

from . import streams

# A game at a time: the viewer of a 10,000-game session must not fold and draw all of it for every visitor.
# Where each game begins (the version of the previous game's GameWon and the match's state there) is kept in
# the cache and extended as games end, so a page reads and draws one game's events only.
_BOUNDS = "viewer-bounds:v2:"  # v2: a MatchState knows its games


def game_frames(stream_id: str, game: int) -> list[dict]:
    """The frames of game ``game`` (1, 2…; the match's opening events belong to game 1)."""
    bounds, played = game_bounds(stream_id)
    game = max(1, min(game, played))
    start, state = bounds[game - 1]
    until = bounds[game][0] if game < played else None  # the last game begun runs to the end of the stream
    return frames(store.read_stream(stream_id, after=start, until=until), state)


def game_of_version(stream_id: str, version: int) -> int:
    """The game whose page holds the event at ``version``."""
    bounds, played = game_bounds(stream_id)
    return max(1, min(played, sum(1 for start, _ in bounds if start < version)))


def games_begun(stream_id: str) -> int:
    return game_bounds(stream_id)[1]


def game_bounds(stream_id: str) -> tuple[list[tuple[int, MatchState]], int]:
    """[(version before the game's first event, the match's state there)] for each game ended or begun, and
    how many games have begun (at least 1: a match not yet rolled shows as its first game)."""
    known = cache.get(_BOUNDS + stream_id) or {"scanned": 0, "state": MatchState(), "bounds": [(0, MatchState())]}
    rows = store.read_stream(stream_id, after=known["scanned"])
    if rows:
        state, bounds = known["state"], list(known["bounds"])
        for row in rows:
            if row.event_type in streams.PLATFORM_EVENTS:
                continue
            state = evolve(state, streams.engine_event(row.event_type, row.payload))
            if row.event_type == "GameWon":
                bounds.append((row.version, state))
        known = {"scanned": rows[-1].version, "state": state, "bounds": bounds}
        cache.set(_BOUNDS + stream_id, known, timeout=24 * 3600)
    return known["bounds"], max(1, known["state"].game)


def decided_off_the_board(record: streams.MatchRecord) -> dict | None:
    """The result the match's heading shows when it was decided off the board (a result reported on paper, a
    forfeit, a director's correction), from the winner's side: the board's own score would say 0-0, or whatever
    the board had reached. None for a match played to its end (or still being played) at the board."""
    if record.voided is not None:
        return None
    if record.correction is not None:
        winner, score, how = record.correction.winner, record.correction.score, streams.Ending.CORRECTED
    elif record.closed is not None:
        winner, score, how = record.closed.winner, record.closed.score, record.closed.how
    else:
        return None
    if winner is None:
        return None
    return {"winner": winner, "how": str(how), "reason": record.correction.reason if record.correction else "",
            "won": score[winner] if score else None, "lost": score[1 - winner] if score else None}


def frames(rows, state: MatchState | None = None) -> list[dict]:
    """One frame per engine event of ``rows``, in order, each describing the position after it.

    ``state`` is the match before the first of ``rows`` (a new match when not given)."""
    state = state or MatchState()
    out = []
    roll = None  # a roll is one step with the play that follows it: the play's frame shows its dice
    for row in rows:
        if row.event_type in streams.PLATFORM_EVENTS:
            continue
        before = state
        event = streams.engine_event(row.event_type, row.payload)
        state = evolve(state, event)
        if row.event_type in CLOCK_TICKS:
            continue  # the clock's presses move nothing on the board: no step of the viewer
        frame = _frame(before, state, row.event_type, row.payload, row.version)
        if row.event_type == "DiceRolled":
            roll = frame
            continue
        if roll is not None:
            if row.event_type in ("CheckersMoved", "CannotMove"):
                dice = "-".join(map(str, roll["dice"]))
                text = (_("%(play)s with %(dice)s") % {"play": frame["text"], "dice": dice}
                        if row.event_type == "CheckersMoved"
                        else _("%(roll)s and cannot move") % {"roll": roll["text"]})
                frame.update(dice=roll["dice"], text=text, roll_version=roll["version"])
            else:
                out.append(roll)
            roll = None
        out.append(frame)
    if roll is not None:
        out.append(roll)
    return out


# the clock's events that change nothing on the board (a flag's fall and a lateness penalty are steps: they decide)
CLOCK_TICKS = frozenset({"ClockSet", "ClockPressed", "ClockPaused", "ClockResumed", "OvertimeGiven"})


def _frame(before: MatchState, s: MatchState, kind: str, p: dict, version: int) -> dict:
    board = s.board_of(0)
    names = s.players
    return {
        "version": version,
        "text": _describe(before, s, kind, p, names),
        "game": s.game,
        "points": board.signed_points(),
        "bar": [board.mine[BAR], board.theirs[BAR]],
        "off": [board.mine[OFF], board.theirs[OFF]],
        "dice": list(s.dice) if s.dice and s.phase == MOVE else (list(p["dice"]) if "dice" in p else None),
        "turn": s.turn,
        # a game's last frame shows the cube it was won on (the fold has already set the next game's at 1)
        "cube": p["cube"] if kind == "GameWon" else s.cube,
        "cube_owner": before.cube_owner if kind == "GameWon" else s.cube_owner,
        "offered": s.cube * 2 if s.phase == DOUBLED else None,  # a double not yet answered: the cube offered
        "on_roll": s.turn if s.phase in (ROLL, MOVE, DOUBLED) else None,
        "score": list(s.score),
        "crawford": s.crawford,
        "pips": list(s.pip_counts()),
        "position_id": position_id_of(s),
        "match_id": gnubg_match_id(s),  # None where gnubg cannot write one
        "xgid": xgid(s),
    }


# the engine's words in a sentence (games/engine/match.py): how a game was won, what a resignation gives
def _word(word: str) -> str:
    return {"single": _("single"), "gammon": _("gammon"), "backgammon": _("backgammon"),
            "bearoff": _("bearoff"), "drop": _("drop"), "resignation": _("resignation"), "time": _("on time"),
            "late": _("lateness"), "disconnect": _("disconnection"), "no_show": _("no-show")}.get(word, word)


def game_how(kind: str, reason: str) -> str:
    """How a game was won, in the reader's words, as its row in the games table says it: "gammon, bearoff"."""
    return ", ".join(_word(w) for w in (kind, reason) if w)


def _describe(before: MatchState, s: MatchState, kind: str, p: dict, names) -> str:
    """The event in a sentence of the reader's language (a page's request: the frames are not cached)."""
    who = names[p["player"]] if "player" in p and p["player"] is not None else ""
    if kind == "MatchStarted":
        return _("%(n)s-point match") % {"n": p["length"]} if p["length"] else _("Money session")
    if kind == "GameStarted":
        d = p["dice"]
        first = 0 if d[0] > d[1] else 1
        return _("Game %(game)s: %(a)s rolls %(da)s, %(b)s rolls %(db)s; %(first)s plays %(roll)s") % {
            "game": p["game"], "a": names[0], "da": d[0], "b": names[1], "db": d[1], "first": names[first],
            "roll": f"{max(d)}-{min(d)}"}
    if kind == "OpeningRollTied":
        return _("Both roll %(die)s: roll again") % {"die": p["die"]}
    texts = {
        "DiceRolled": lambda: _("%(who)s rolls %(roll)s") % {"who": who, "roll": f"{p['dice'][0]}-{p['dice'][1]}"},
        "CheckersMoved": lambda: _("%(who)s plays %(move)s") % {"who": who, "move": p["move"]},
        "CannotMove": lambda: _("%(who)s cannot move") % {"who": who},
        "DoubleOffered": lambda: _("%(who)s doubles to %(value)s") % {"who": who, "value": p["cube"]},
        "DoubleTaken": lambda: _("%(who)s takes") % {"who": who},
        "DoubleDropped": lambda: _("%(who)s drops") % {"who": who},
        "Beavered": lambda: _("%(who)s beavers: cube %(value)s") % {"who": who, "value": p["cube"]},
        "Raccooned": lambda: _("%(who)s raccoons: cube %(value)s") % {"who": who, "value": p["cube"]},
        "AutomaticDouble": lambda: _("Automatic double: cube %(value)s") % {"value": p["cube"]},
        "ResignationOffered": lambda: _("%(who)s offers to resign a %(kind)s") % {"who": who, "kind": _word(p["kind"])},
        "ResignationAccepted": lambda: _("%(who)s accepts the resignation") % {"who": who},
        "ResignationDeclined": lambda: _("%(who)s declines the resignation") % {"who": who},
        "GameWon": lambda: ngettext("%(who)s wins %(n)s point (%(kind)s, %(reason)s); %(a)s-%(b)s",
                                    "%(who)s wins %(n)s points (%(kind)s, %(reason)s); %(a)s-%(b)s", p["points"]) % {
            "who": names[p["winner"]], "n": p["points"], "kind": _word(p["kind"]), "reason": _word(p["reason"]),
            "a": p["score"][0], "b": p["score"][1]},
        "FlagFell": lambda: _("%(who)s's flag falls: the match is lost on time") % {"who": who},
        "LatePenalty": lambda: ngettext("%(who)s is late: %(n)s penalty point", "%(who)s is late: %(n)s penalty points",
                                        p["points"]) % {"who": who, "n": p["points"]},
        "MatchWon": lambda: _("%(who)s wins the match %(a)s-%(b)s") % {
            "who": names[p["winner"]], "a": p["score"][0], "b": p["score"][1]},
    }
    return texts[kind]() if kind in texts else kind


def dice_proof(stream_id: str, *, first: int, count: int) -> tuple[list[dict], bool]:
    """The dice proof (:func:`games.dice.verify`) of games ``first`` to ``first + count - 1``, reading only their
    events (and their seeds' reveals, appended just after each game's end); True if later games exist."""
    from eventlog.models import Event

    from . import dice

    bounds, played = game_bounds(stream_id)
    last = min(first + count - 1, played)
    if first > played:
        return [], False
    until = bounds[last][0] if last < played else None
    rows = store.read_stream(stream_id, after=bounds[first - 1][0], until=until)
    games = range(first, last + 1)
    if until is not None:
        rows += list(Event.objects.filter(stream_id=stream_id, version__gt=until, event_type="DiceSeedRevealed",
                                          payload__game__in=list(games)).order_by("version"))
    return [line for line in dice.verify(rows) if line["game"] in games], last < played
