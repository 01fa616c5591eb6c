"""A demo club event: players, a director, and matches recorded move by move.

The matches are played by the engine against itself with server dice, through
the same services the API uses, so every event in the demo was judged by the
rules engine. Running it again does nothing once the demo club exists.
"""

from __future__ import annotations

import random

from django.contrib.auth import get_user_model
from django.contrib.auth.hashers import make_password
from django.core.management.base import BaseCommand
from django.db import transaction

from eventlog import projections
from games import services
from players.models import Club, Player
from tournaments.models import Tournament

CLUB = "Crawford Demo Backgammon Club"
MEMBERS = ["Ada", "Bruno", "Chloé", "Dimitri", "Eva", "Farid", "Greta", "Hugo"]


class Command(BaseCommand):
    help = "Load a demo club with players, a director and an event whose matches are recorded move by move."

    def add_arguments(self, parser):
        parser.add_argument("--seed", type=int, default=2026)

    def handle(self, *args, seed: int, **options):
        if Club.objects.filter(name=CLUB).exists():
            self.stdout.write("demo already loaded")
            return
        rnd = random.Random(seed)
        User = get_user_model()
        with transaction.atomic():
            club = Club.objects.create(name=CLUB, country="FR")
            director = User.objects.create_user("director", password="director", is_staff=True, is_superuser=True)
            players = []
            password = make_password("crawford")  # hashed once: the members share the demo password
            for name in MEMBERS:
                user = User.objects.create(username=name.lower().replace("é", "e"), password=password)
                players.append(Player.objects.create(display_name=name, club=club, country="FR", user=user))
            event = Tournament.objects.create(name="Thursday club night", club=club, director=director)
        rnd.shuffle(players)
        for i in range(0, len(players), 2):
            finished = i < len(players) - 2  # the last pairing is still at the board
            self._record(director, event, players[i], players[i + 1], rnd, finished)
        projections.run_all()
        self.stdout.write(
            f"demo loaded: {CLUB}, {len(players)} players, event '{event.name}'; "
            "log in at /admin/ as director / director"
        )

    def _record(self, director, event, p0, p1, rnd, finished: bool) -> None:
        record = services.match_create(actor=director, player0=p0, player1=p1, length=5, tournament_id=event.pk)
        for _ in range(4000 if finished else 40):
            s = record.state
            if record.finished:
                return
            if s.phase in ("opening", "roll"):
                if s.phase == "roll" and s.may_double(s.turn) and rnd.random() < 0.03:
                    command = {"type": "double"}
                else:
                    command = {"type": "roll"}
            elif s.phase == "move":
                command = {"type": "move", "move": str(rnd.choice(s.legal_plays()))}
            else:
                command = {"type": "take" if rnd.random() < 0.7 else "drop"}
            command["expected_version"] = record.version
            record, _ = services.match_command(actor=director, stream_id=record.stream_id, command=command)
