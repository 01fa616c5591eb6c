"""Drive a match through the HTTP API as a recorder at the table would."""

from __future__ import annotations

import random


class Recorder:
    def __init__(self, client, match: dict):
        self.client = client
        self.match = match

    @property
    def id(self) -> str:
        return self.match["id"]

    @property
    def version(self) -> int:
        return self.match["version"]

    def send(self, expect: int = 200, key: str | None = None, **command):
        command.setdefault("expected_version", self.version)
        headers = {"HTTP_IDEMPOTENCY_KEY": key} if key else {}
        response = self.client.post(f"/api/matches/{self.id}/commands/", command, format="json", **headers)
        assert response.status_code == expect, (response.status_code, response.json())
        if response.status_code == 200:
            self.match = response.json()["state"]
        return response

    def refresh(self) -> dict:
        self.match = self.client.get(f"/api/matches/{self.id}/").json()
        return self.match

    def play_random(self, rnd: random.Random, max_commands: int = 10_000) -> None:
        """Play to the end with random legal moves, doubling now and then; the dice are the server's, or in a
        match with dice from the board drawn from ``rnd`` too (so that a seed gives the same match every time)."""
        for _ in range(max_commands):
            if self.match["finished"]:
                return
            self.step_random(rnd)
        raise AssertionError("the match did not finish")

    def step_random(self, rnd: random.Random) -> None:
        """One command of :meth:`play_random`."""
        m = self.match
        phase = m["phase"]
        if phase in ("opening", "roll"):
            if phase == "roll" and m["may_double"] and rnd.random() < 0.03:
                self.send(type="double")
            elif m.get("dice_source") == "board":
                self.send(type="roll", dice=[rnd.randint(1, 6), rnd.randint(1, 6)])
            else:
                self.send(type="roll")
        elif phase == "move":
            self.send(type="move", move=rnd.choice(m["legal_moves"]))
        elif phase == "doubled":
            self.send(type="take" if rnd.random() < 0.7 else "drop")


def event_match(client, director, seats, *, length: int = 5, dice: str = "board", **options) -> Recorder:
    """A match of an event directed by ``director``, created as the event creates its matches (the match API
    creates casual matches only): the match names its director as its official, and ``client`` records it."""
    from games import selectors
    from games.creation import match_create
    from tournaments.models import Tournament

    event = Tournament.objects.create(name="Club night", director=director)
    record = match_create(actor=director, player0=seats[0].player, player1=seats[1].player, length=length,
                          dice=dice, officiating_director_id=director.pk, tournament_id=event.pk, **options)
    return Recorder(client, selectors.match_state_data(record))
