"""A demo club event: players, a director, a bracket whose matches are recorded move by move.

The event is run through the same services as the API and the admin: entries,
check-in, the draw, the process manager creating each match as it becomes
playable. The matches are played by the engine against itself with server
dice, so every event in the demo was judged by the rules engine. Running it
again does nothing once the demo club exists.
"""

from __future__ import annotations

import random

from django.conf import settings as django_settings
from django.contrib.auth import get_user_model
from django.contrib.auth.hashers import make_password
from django.core.management.base import BaseCommand
from django.db import transaction
from django.utils.module_loading import import_string

from eventlog import projections
from eventlog.tasks import one_wake_up
from games.command_handler import match_command
from games.commands import RollDice
from games.engine import commands as match_commands
from games.engine.match import MOVE, OPENING, ROLL
from games.loading import match_load
from players.models import Club, Player
from tournaments.formats.core import READY
from tournaments import services
from tournaments import demo_ladder
from tournaments.selectors import tournament_data

CLUB = "Crawford Demo Backgammon Club"
MEMBERS = ["Ada", "Bruno", "Chloé", "Dimitri", "Eva", "Farid", "Greta", "Hugo"]


def _username(name: str) -> str:
    return name.lower().replace("é", "e")


class Command(BaseCommand):
    help = "Load a demo club with players, a director and an event whose matches are recorded move by move."

    def add_arguments(self, parser):
        parser.add_argument("--seed", type=int, default=2026, help="the engine's choices (the dice are the server's)")

    def handle(self, *args, seed: int, **options):
        if Club.objects.filter(name=CLUB).exists():
            self.stdout.write("demo already loaded")
            return
        # the demo settles its events itself (run_all, then the process manager's advance): the read models need
        # not also catch up after each of its thousands of commands, as in-process tasks would have them do. All or
        # nothing: a load cut short (Ctrl-C during `make run`'s first start) must not leave a part of the demo that
        # the check above takes for the whole of it at every later start
        with one_wake_up(), transaction.atomic():
            self._load(random.Random(seed))

    def _load(self, rnd: random.Random) -> None:
        User = get_user_model()
        with transaction.atomic():
            club = Club.objects.create(name=CLUB, country="FR")
            # a club's director with exactly a director's rights: staff opens the admin's door, directing the club
            # lets them hold its events, and the events they direct are theirs to run (players/authority.py); no
            # superuser, so the admin shows them their events, not the log, the projections or the periodic tasks
            director = User.objects.create_user("director", password="director", is_staff=True)
            club.directors.add(director)
            password = make_password("crawford")  # hashed once: the members share the demo password
            players = []
            for name in MEMBERS:
                user = User.objects.create(username=_username(name), password=password)
                players.append(Player.objects.create(display_name=name, club=club, country="FR", user=user))
        event = services.tournament_create(
            actor=director, name="Thursday club night", format="single_elimination", club=club,
            settings={"lengths": {"main": {"default": 5, "final": 7}}},
        )
        for player in players:
            services.tournament_command(actor=director, tournament=event, command={"type": "enter", "player": player.pk})
            services.tournament_command(actor=director, tournament=event, command={"type": "check_in", "player": player.pk})
        services.tournament_command(actor=director, tournament=event, command={"type": "draw", "method": "random"})
        self._settle(event)
        # round 1 and the first semi-final are played out; the other semi-final is still at the board
        for slot in self._ready(event):
            self._play(director, slot["match_id"], rnd, moves=None)
        self._settle(event)
        semis = self._ready(event)
        self._play(director, semis[0]["match_id"], rnd, moves=None)
        self._play(director, semis[1]["match_id"], rnd, moves=40)
        self._settle(event)
        for extra in django_settings.DEMO_EXTRAS:  # the season (seasons/demo.py)…, named by the composition root
            self.stdout.write(import_string(extra)(director=director, club=club, players=players, event=event, rnd=rnd))
        demo_ladder.load(director=director, club=club, players=players, play=lambda m: self._play(director, m, rnd, None))
        self.stdout.write(
            f"demo loaded: {CLUB}, {len(players)} players, event '{event.name}'; "
            "log in at /accounts/login/ as director / director (the club's director), "
            f"or as a member ({', '.join(_username(name) for name in MEMBERS)}) / crawford"
        )

    def _settle(self, event) -> None:
        for _ in range(10):
            projections.run_all()
            if not services.tournament_advance(event):
                projections.run_all()
                return

    def _ready(self, event) -> list[dict]:
        return [s for s in tournament_data(event)["slots"] if s["status"] == READY and s["match_id"]]

    def _play(self, director, match_id: str, rnd: random.Random, moves: int | None) -> None:
        """Self-play with server dice: a random legal play, now and then a double."""
        record = match_load(match_id)
        for _ in range(moves or 10_000):
            s = record.state
            if record.finished:
                return
            if s.phase in (OPENING, ROLL):
                if s.phase == ROLL and s.may_double(s.turn) and rnd.random() < 0.03:
                    command = match_commands.Double(None)
                else:
                    command = RollDice()
            elif s.phase == MOVE:
                command = match_commands.Move(None, str(rnd.choice(s.legal_plays())))
            else:
                command = match_commands.Take(None) if rnd.random() < 0.7 else match_commands.Drop(None)
            record, _ = match_command(actor=director, stream_id=match_id, command=command,
                                      expected_version=record.version)
