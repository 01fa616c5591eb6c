"""gnubg Position ID / Match ID and XGID of a match state, so a match opens in gnubg and XG.

Players 0 and 1 of the match are gnubg's players 0 and 1 and XG's bottom
and top players.
"""

from __future__ import annotations

from .gnubgid import GameState, MatchIdInfo, Resignation, match_id, position_id
from .match import DOUBLED, MOVE, NOT_STARTED, OPENING, OVER, RESIGNED, MatchState
from .xgid import BOTTOM, TOP, CubeAction, XgidInfo, xgid

_RESIGNATION = {"single": Resignation.SINGLE, "gammon": Resignation.GAMMON, "backgammon": Resignation.BACKGAMMON}


def position_id_of(state: MatchState) -> str:
    """The Position ID, seen from the player on roll (gnubg's convention)."""
    return position_id(state.position)


def match_id_info(state: MatchState) -> MatchIdInfo:
    acting = state.turn
    if state.phase == DOUBLED:
        acting = 1 - state.turn
    elif state.phase == RESIGNED:
        acting = 1 - state.resignation[0]
    return MatchIdInfo(
        cube_value=state.cube,
        cube_owner=state.cube_owner,
        player_on_roll=state.turn,
        crawford=state.crawford,
        game_state=_game_state(state),
        turn=acting,
        double_offered=state.phase == DOUBLED,
        resignation=_RESIGNATION[state.resignation[1]] if state.resignation else Resignation.NONE,
        dice=_dice(state),
        match_length=state.length,
        score=_score(state),
        jacoby=bool(state.options and state.options.jacoby),
    )


def match_id_of(state: MatchState) -> str:
    """The gnubg Match ID: cube, turn, dice, score, Crawford, length."""
    return match_id(match_id_info(state))


def xgid_of(state: MatchState) -> str:
    """eXtreme Gammon's XGID of the current position and cube."""
    options = state.options
    limit = options.cube_limit if options and options.cube_limit else max(1024, state.cube)
    owner = {None: 0, 0: BOTTOM, 1: TOP}[state.cube_owner]
    return xgid(
        XgidInfo(
            position=state.position,
            turn=BOTTOM if state.turn == 0 else TOP,
            dice=_dice(state),
            cube_action=CubeAction.DOUBLE if state.phase == DOUBLED else CubeAction.NONE,
            cube_value=state.cube,
            cube_position=owner,
            score_bottom=_score(state)[0],
            score_top=_score(state)[1],
            crawford=state.crawford and state.length > 0,
            jacoby=bool(options and options.jacoby and state.length == 0),
            beaver=bool(options and options.beavers and state.length == 0),
            match_length=state.length,
            max_cube=limit,
        )
    )


def _game_state(state: MatchState) -> GameState:
    if state.phase == NOT_STARTED or (state.phase == OPENING and state.last_game is None):
        return GameState.NONE
    if state.phase in (OPENING, OVER):
        reason = state.last_game.reason if state.last_game else "bearoff"
        return {"drop": GameState.DROPPED, "resignation": GameState.RESIGNED}.get(reason, GameState.OVER)
    return GameState.PLAYING


def _dice(state: MatchState) -> tuple[int, int]:
    """The dice to play, higher first as gnubg and XG write them; (0, 0) before rolling."""
    if state.phase == MOVE and state.dice:
        return (max(state.dice), min(state.dice))
    return (0, 0)


def _score(state: MatchState) -> tuple[int, int]:
    """The score; once the match is won, the score the last game was played at (IDs hold no more)."""
    if state.length and max(state.score) >= state.length and state.last_game is not None:
        before = list(state.score)
        before[state.last_game.winner] -= state.last_game.points
        return tuple(before)
    return tuple(state.score)
