"""A match at the table for tests: commands in, events kept, state folded."""

from __future__ import annotations

from games.engine import commands as c
from games.engine.match import MatchState, decide, evolve, replay


class Table:
    def __init__(self, length: int = 5, **options):
        self.state = MatchState()
        self.events: list = []
        self.do(c.StartMatch(("Alice", "Bob"), length, **options))

    def do(self, command) -> list:
        new = decide(self.state, command)
        for event in new:
            self.state = evolve(self.state, event)
        self.events.extend(new)
        assert replay(self.events) == self.state
        return new

    def opening(self, die0: int = 3, die1: int = 1) -> None:
        self.do(c.Roll(None, (die0, die1)))

    def roll(self, a: int, b: int) -> list:
        return self.do(c.Roll(self.state.turn, (a, b)))

    def move(self, text) -> list:
        return self.do(c.Move(self.state.turn, text))

    def first_play(self) -> list:
        return self.move(self.state.legal_plays()[0])

    def double(self) -> list:
        return self.do(c.Double(self.state.turn))

    def take(self) -> list:
        return self.do(c.Take(1 - self.state.turn))

    def drop(self) -> list:
        return self.do(c.Drop(1 - self.state.turn))
