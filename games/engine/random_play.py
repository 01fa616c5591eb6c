"""Matches of random legal play, for load tests and benchmarks: as long as asked, every action judged by the
engine, written as a Jellyfish ``.mat`` file."""

from __future__ import annotations

import random

from . import commands as cmd
from .match import MOVE, OPENING, ROLL, MatchState, decide, evolve
from .matfile import write_mat


def random_money_session(max_games: int, max_events: int, seed: int = 19,
                         names: tuple[str, str] = ("Hammer", "Anvil")) -> tuple[str, int, int]:
    """A money session of random legal play of at most ``max_games`` games and ``max_events`` actions, whole
    games only: (.mat text, games, actions). The same seed gives the same session."""
    rnd = random.Random(seed)
    state, events = MatchState(), []

    def do(command, into):
        nonlocal state
        for event in decide(state, command):
            state = evolve(state, event)
            into.append(event)

    do(cmd.StartMatch(names, 0), events)
    games = 0
    while games < max_games:
        game_events = []
        snapshot = state
        while True:
            if state.phase == OPENING and game_events and state.game > games:
                break  # the game is over and the next has not begun
            if state.phase == OPENING:
                do(cmd.Roll(None, (rnd.randint(1, 6), rnd.randint(1, 6)), "physical"), game_events)
            elif state.phase == ROLL:
                do(cmd.Roll(state.turn, (rnd.randint(1, 6), rnd.randint(1, 6)), "physical"), game_events)
            elif state.phase == MOVE:
                plays = state.legal_plays()
                do(cmd.Move(state.turn, str(rnd.choice(plays)) if plays else ""), game_events)
            else:
                break
        if len(events) + len(game_events) > max_events:
            state = snapshot
            break
        events += game_events
        games += 1
    return write_mat(events, headers={"Site": "Crawford bench"}), games, len(events)
