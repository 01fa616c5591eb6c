"""Every position of a match, for the move-by-move viewer: board, dice, cube, score and IDs after each event."""

from __future__ import annotations

from games.engine.board import BAR, OFF
from games.engine.match import MOVE, MatchState, evolve
from games.engine.state_ids import position_id_of
from games.limits import gnubg_match_id, xgid

from . import streams


def frames(rows) -> list[dict]:
    """One frame per engine event of the stream, in order, each describing the position after it."""
    state = MatchState()
    out = []
    for row in rows:
        if row.event_type in streams.PLATFORM_EVENTS:
            continue
        before = state
        event = streams.engine_event(row.event_type, row.payload)
        state = evolve(state, event)
        out.append(_frame(before, state, row.event_type, row.payload, row.version))
    return out


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
        "cube": s.cube,
        "cube_owner": s.cube_owner,
        "score": list(s.score),
        "crawford": s.crawford,
        "pips": list(s.pip_counts()),
        "position_id": position_id_of(s),
        "match_id": gnubg_match_id(s),  # None where gnubg cannot write one
        "xgid": xgid(s),
    }


def _describe(before: MatchState, s: MatchState, kind: str, p: dict, names) -> str:
    who = names[p["player"]] if "player" in p and p["player"] is not None else ""
    if kind == "MatchStarted":
        return f"{p['length']}-point match" if p["length"] else "Money session"
    if kind == "GameStarted":
        d = p["dice"]
        first = 0 if d[0] > d[1] else 1
        return f"Game {p['game']}: {names[0]} rolls {d[0]}, {names[1]} rolls {d[1]}; {names[first]} plays {max(d)}-{min(d)}"
    if kind == "OpeningRollTied":
        return f"Both roll {p['die']}: roll again"
    if kind == "DiceRolled":
        return f"{who} rolls {p['dice'][0]}-{p['dice'][1]}"
    if kind == "CheckersMoved":
        return f"{who} plays {p['move']}"
    if kind == "CannotMove":
        return f"{who} cannot move"
    if kind == "DoubleOffered":
        return f"{who} doubles to {p['cube']}"
    if kind == "DoubleTaken":
        return f"{who} takes"
    if kind == "DoubleDropped":
        return f"{who} drops"
    if kind in ("Beavered", "Raccooned"):
        return f"{who} {kind[:-2].lower()}s: cube {p['cube']}"
    if kind == "AutomaticDouble":
        return f"Automatic double: cube {p['cube']}"
    if kind == "ResignationOffered":
        return f"{who} offers to resign a {p['kind']}"
    if kind == "ResignationAccepted":
        return f"{who} accepts the resignation"
    if kind == "ResignationDeclined":
        return f"{who} declines the resignation"
    if kind == "GameWon":
        return f"{names[p['winner']]} wins {p['points']} point{'s' if p['points'] != 1 else ''} ({p['kind']}, {p['reason']}); {p['score'][0]}-{p['score'][1]}"
    if kind == "MatchWon":
        return f"{names[p['winner']]} wins the match {p['score'][0]}-{p['score'][1]}"
    return kind
