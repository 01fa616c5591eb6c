"""A small world with one user per role, shared by the security tests.

Roles, as the services see them:

    anonymous       no credentials
    player          seat 0 of the match, entered in the event
    opponent        seat 1 of the match, entered in the event
    unrelated       a player with an account, in neither the match nor the event
    other_director  directs another event (not staff)
    director        directs this event (not staff, not in the match)
    official        is_staff and in the "Officials" group (players.officiate: runs every event and match;
                    no superuser, no model permissions of the tournaments or games apps)

Every user with an account has a Player and an API token.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import pytest

ROLES = ("anonymous", "player", "opponent", "unrelated", "other_director", "director", "official")
FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "gnubg" / "matches"


@dataclass
class World:
    users: dict = field(default_factory=dict)  # role -> User (None for anonymous)
    tokens: dict = field(default_factory=dict)  # role -> token key
    event: object = None  # this event (single elimination), directed by "director"
    other_event: object = None  # directed by "other_director"

    def user(self, role: str):
        return self.users[role]

    def player(self, role: str):
        return self.users[role].player

    def client(self, role: str):
        """An API client that authenticates the way a program does: ``Authorization: Token …``."""
        from rest_framework.test import APIClient

        client = APIClient()
        if role != "anonymous":
            client.credentials(HTTP_AUTHORIZATION=f"Token {self.tokens[role]}")
        return client

    def new_match(self, *, length: int = 5, tournament=True, published: bool = True, dice: str = "board",
                  **options) -> str:
        """A match between "player" (seat 0) and "opponent" (seat 1), in this event unless ``tournament=False``.

        Its dice come from the board (the scenes name each roll). An event's match is created as the event
        creates them: naming the event's director as its official."""
        from games.creation import match_create

        record = match_create(
            actor=self.users["official"], player0=self.player("player"), player1=self.player("opponent"), length=length,
            tournament_id=self.event.pk if tournament else None, published=published, dice=dice,
            officiating_director_id=self.event.director_id if tournament else None, **options,
        )
        return record.stream_id

    def send(self, match_id: str, **command) -> None:
        """Drive a match as an official through the service (setting the scene, not under test)."""
        from games.api.serializers import typed_command
        from games.command_handler import match_command
        from games.loading import match_load

        typed, version = typed_command({**command, "expected_version": match_load(match_id).version})
        match_command(actor=self.users["official"], stream_id=match_id, command=typed, expected_version=version)

    def version(self, match_id: str) -> int:
        from games.loading import match_load

        return match_load(match_id).version


@pytest.fixture
def world(db, django_user_model) -> World:
    return world_made(django_user_model)


def world_made(django_user_model) -> World:
    from rest_framework.authtoken.models import Token

    from players.models import Player

    from ..conftest import officials_group
    from tournaments import services

    w = World(users={"anonymous": None})
    for role in ROLES[1:]:
        user = django_user_model.objects.create_user(username=role, password="pw-" + role, is_staff=role == "official")
        if role == "official":
            user.groups.add(officials_group())
        Player.objects.create(display_name=role.replace("_", " ").title(), user=user)
        w.users[role] = user
        w.tokens[role] = Token.objects.create(user=user).key
    lengths = {"main": {"default": 3}}
    w.event = services.tournament_create(actor=w.users["director"], name="Club night", format="single_elimination",
                                         settings={"lengths": lengths, "dice": "board"})
    w.other_event = services.tournament_create(actor=w.users["other_director"], name="Another club's night",
                                               format="single_elimination", settings={"lengths": lengths, "dice": "board"})
    return w


def world_again(world: World) -> World:
    """The same world read again from the database: a test's changes to its objects (an event's fields, a role
    added to the dicts) stay with that test, as when each test built its own."""
    from django.contrib.auth import get_user_model

    from tournaments.models import Tournament

    users = get_user_model().objects.in_bulk([u.pk for u in world.users.values() if u is not None])
    events = Tournament.objects.in_bulk([world.event.pk, world.other_event.pk])
    return World(users={role: u and users[u.pk] for role, u in world.users.items()}, tokens=dict(world.tokens),
                 event=events[world.event.pk], other_event=events[world.other_event.pk])


def event_count() -> int:
    from eventlog.models import Event

    return Event.objects.count()


def mat_text() -> str:
    """A real one-point match file written by GNU Backgammon (Alice against Bob)."""
    return (FIXTURES / "match_021_1pt.mat").read_text()
