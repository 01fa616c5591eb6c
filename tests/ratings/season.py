"""A season of finished matches, made fast: every event judged by the engine, one append per match."""

from __future__ import annotations

import random
import uuid

from eventlog import store
from eventlog.store import NewEvent
from games import streams
from games.engine import commands as c
from games.engine.match import MatchState, decide, evolve
from ratings.formula import Rated, rate


def quick_match(p0: int, p1: int, length: int, winner: int, rnd: random.Random, ramp: str = "fibs") -> str:
    """A match to ``length`` won by seat ``winner``: each game the loser resigns a single, gammon or backgammon."""
    state, events = MatchState(), []

    def do(command):
        nonlocal state
        for event in decide(state, command):
            state = evolve(state, event)
            events.append(event)

    do(c.StartMatch((f"P{p0}", f"P{p1}"), length))
    while state.phase != "over":
        a, b = rnd.sample(range(1, 7), 2)
        do(c.Roll(None, (a, b)))
        do(c.Resign(1 - winner, rnd.choice(["single", "gammon", "backgammon"])))
        do(c.AcceptResignation(winner))
    stream_id = uuid.uuid4().hex
    registered = NewEvent(streams.REGISTERED, {"player_ids": [p0, p1], "tournament_id": None, "published": True,
                                               "rating_ramp": ramp})
    store.append(
        stream_id=stream_id, stream_type=streams.STREAM_TYPE, expected_version=0,
        events=[registered] + [NewEvent(*streams.engine_payload(e)) for e in events], metadata={"actor": None},
    )
    return stream_id


def season(players: list[int], matches: int, seed: int = 1) -> list[tuple[str, int, int, int]]:
    """Record ``matches`` matches; return (stream, winner id, loser id, length) in log order."""
    rnd = random.Random(seed)
    played = []
    for _ in range(matches):
        p0, p1 = rnd.sample(players, 2)
        length = rnd.choice([1, 3, 5, 7, 11])
        winner = rnd.randint(0, 1)
        stream = quick_match(p0, p1, length, winner, rnd)
        played.append((stream, (p0, p1)[winner], (p0, p1)[1 - winner], length))
    return played


def recompute(results) -> dict[int, Rated]:
    """The ratings a straight sequential pass over (winner, loser, length) gives."""
    ratings: dict[int, Rated] = {}
    for winner, loser, length in results:
        ratings[winner], ratings[loser] = rate(ratings.get(winner, Rated()), ratings.get(loser, Rated()), length)
    return ratings
