"""Random events of every format, driven step by step, and the check that every read model is a function of
the log: live = a rebuild from position 0 = a straight recomputation.

Used by the fast in-process property test (hypothesis draws the steps) and by the long example run with the
live Celery worker (a seeded generator draws them)."""

from __future__ import annotations

import os
from dataclasses import dataclass, field

from django.apps import apps
from django.core.management import call_command
from django.db import models
from django.forms.models import model_to_dict

from games.engine.errors import EngineError
from games.errors import BadCommand
from games.loading import match_load
from games.models import MatchSummary
from players.models import Player
from players.services import player_merge
from tests.players.people import registrar
from tests.ratings.from_log import history, live_ratings, recomputed
from tests.tournaments.test_running_events import play_to_end
from tournaments import services
from tournaments.models import Tournament, TournamentSlot, TournamentStanding, TournamentState
from tournaments.services import TournamentError

FORMATS = ("single_elimination", "double_elimination", "swiss", "round_robin")
ACTIONS = ("new_event", "board", "board", "paper", "paper", "forfeit", "correct", "correct", "void", "merge",
           "withdraw", "publish")


class Chooser:
    """What the steps are drawn from: ``choice``, ``integer`` (inclusive)."""

    def choice(self, options):
        raise NotImplementedError

    def integer(self, low: int, high: int) -> int:
        raise NotImplementedError


class HypothesisChooser(Chooser):
    def __init__(self, data):
        from hypothesis import strategies as st

        self.data, self.st = data, st

    def choice(self, options):
        return self.data.draw(self.st.sampled_from(list(options)))

    def integer(self, low, high):
        return self.data.draw(self.st.integers(low, high))


class SeededChooser(Chooser):
    def __init__(self, seed: int):
        import random

        self.rnd = random.Random(seed)

    def choice(self, options):
        return self.rnd.choice(list(options))

    def integer(self, low, high):
        return self.rnd.randint(low, high)


def settings_for(fmt: str, choose: Chooser) -> dict:
    length = {"default": choose.choice((1, 3))}
    if fmt == "single_elimination":
        flights = choose.choice(("main", "consolation", "last_chance"))
        out = {"lengths": {"main": length, "consolation": length, "last_chance": length}}
        if flights != "main":
            out.update(consolation=True, consolation_feeds=choose.integer(1, 2))
        if flights == "last_chance":
            out["last_chance"] = True
        return out
    if fmt == "double_elimination":
        return {"lengths": {"winners": length, "losers": length, "grand_final": length}}
    if fmt == "swiss":
        return {"lengths": {"rounds": length}, "rounds": choose.integer(2, 3)}
    return {"lengths": {"rounds": length}}


@dataclass
class World:
    director: object
    choose: Chooser
    settle: object  # callable(): let the projections and the process manager finish
    players: list[int] = field(default_factory=list)
    events: list[Tournament] = field(default_factory=list)
    log: list[str] = field(default_factory=list)

    def step(self) -> None:
        action = self.choose.choice(ACTIONS if self.events else ("new_event",))
        try:
            getattr(self, action)()
        except (TournamentError, EngineError, BadCommand) as refused:
            self.log.append(f"{action}: refused ({refused})")
        self.settle()

    # -- actions ------------------------------------------------------------------------------

    def _active(self) -> list[int]:
        return [p for p in self.players if not Player.objects.filter(pk=p, merged_into__isnull=False).exists()]

    def new_event(self) -> None:
        fmt = self.choose.choice(FORMATS)
        pool = self._active()
        n = self.choose.integer(4 if fmt == "double_elimination" else 3, min(6, len(pool)))
        field_ = [pool[(self.choose.integer(0, len(pool) - 1) + i * 7) % len(pool)] for i in range(n)]
        field_ = list(dict.fromkeys(field_)) or pool[:n]
        while len(field_) < n:
            field_.append(next(p for p in pool if p not in field_))
        t = services.tournament_create(actor=self.director, name=f"Event {len(self.events) + 1}", format=fmt,
                                       settings=settings_for(fmt, self.choose))
        for p in field_:
            services.tournament_command(actor=self.director, tournament=t, command={"type": "enter", "player": p})
        services.tournament_command(actor=self.director, tournament=t,
                                    command={"type": "draw", "method": "manual", "seeds": field_})
        self.events.append(t)
        self.log.append(f"new_event {fmt} {field_}")

    def _slots(self, status: str | None = None):
        t = self.choose.choice(self.events)
        facts, view = services.tournament_view(t)
        slots = [s for s in view.slots if None not in s.players and (status is None or s.status == status)]
        return t, facts, slots

    def _cmd(self, t, **command) -> None:
        self.log.append(f"{t.pk}: {command}")
        services.tournament_command(actor=self.director, tournament=t, command=command)

    def board(self) -> None:
        t, facts, slots = self._slots("ready")
        slots = [s for s in slots if s.key in facts.matches]
        if not slots:
            return
        s = self.choose.choice(slots)
        match_id = facts.matches[s.key]["match_id"]
        record = match_load(match_id)
        if record.finished or set(record.player_ids) != set(s.players):
            return
        self.log.append(f"{t.pk}: board {s.key}")
        play_to_end(self.director, match_id, self.choose.integer(0, 1))

    def paper(self) -> None:
        t, _, slots = self._slots("ready")
        if slots:
            s = self.choose.choice(slots)
            self._cmd(t, type="report_result", slot=s.key, winner=self.choose.choice(s.players),
                      score=[s.length, self.choose.integer(0, s.length - 1)])

    def forfeit(self) -> None:
        t, _, slots = self._slots("ready")
        if slots:
            s = self.choose.choice(slots)
            self._cmd(t, type="forfeit", slot=s.key, winner=self.choose.choice(s.players), reason="no-show")

    def correct(self) -> None:
        t, _, slots = self._slots("done")
        if slots:
            s = self.choose.choice(slots)
            self._cmd(t, type="correct_result", slot=s.key, winner=self.choose.choice(s.players),
                      score=[s.length, self.choose.integer(0, s.length - 1)], reason="scoresheet")

    def void(self) -> None:
        t, facts, _ = self._slots()
        if facts.matches:
            self._cmd(t, type="void_match", slot=self.choose.choice(sorted(facts.matches)), reason="wrong dice")

    def withdraw(self) -> None:
        t = self.choose.choice(self.events)
        facts = services.tournament_facts(t)
        left = [p for p in facts.entered if p not in facts.withdrawn]
        if len(left) > 2:
            self._cmd(t, type="withdraw", player=self.choose.choice(left), reason="ill")

    def publish(self) -> None:
        """An event hidden, or published again: its results leave, or re-enter, everything public."""
        t = self.choose.choice(self.events)
        self.log.append(f"{t.pk}: {'hide' if t.published else 'publish'}")
        services.tournament_publish(actor=self.director, tournament=t, published=not t.published)

    def merge(self) -> None:
        pool = self._active()
        if len(pool) > 4:
            kept, dup = self.choose.choice(pool), self.choose.choice(pool)
            if kept != dup:
                self.log.append(f"merge {dup} into {kept}")
                merge_players(kept, dup)


def merge_players(kept: int, dup: int) -> None:
    player_merge(actor=registrar(), kept_id=kept, duplicate_ids=[dup], reason="one person entered twice")


def pending_work() -> list:
    """What the process manager still has to do (matches to create, to close, wrong pairings to replace)."""
    out = []
    for t in Tournament.objects.all():
        _, view = services.tournament_view(t)
        if view.to_create or getattr(view, "to_close", None) or [f for f in view.flagged if not f["started"]]:
            out.append((t.pk, [s.key for s in view.to_create], getattr(view, "to_close", None), view.flagged))
    return out


# -- the check -------------------------------------------------------------------------------------


def tournament_tables() -> dict:
    def rows(model, *order):
        return [{k: v for k, v in model_to_dict(r).items() if k != "id"} for r in model.objects.order_by(*order)]

    return {
        "state": rows(TournamentState, "tournament_id"),
        "slots": rows(TournamentSlot, "tournament_id", "key"),
        # players out in the same round of a knockout share a rank: the player names the row
        "standings": sorted(rows(TournamentStanding, "tournament_id", "rank"),
                            key=lambda r: (r["tournament_id"], r.get("flight", ""), r["rank"], r["player_id"])),
    }


def straight_tournament_tables() -> dict:
    """Each event's slots and standings derived afresh from its stream and its matches' streams."""
    slots, standings = [], []
    for t in Tournament.objects.order_by("pk"):
        facts, view = services.tournament_view(t)
        for s in view.slots:
            slots.append((t.pk, s.key, tuple(s.players), s.status, s.result.winner if s.result else None,
                          (facts.matches.get(s.key) or {}).get("match_id", "")))
        for flight, table in getattr(view, "flights", {"": view.standings}).items():
            standings += [(t.pk, flight, r.rank, r.player, r.wins, r.losses) for r in table]
    return {"slots": sorted(slots, key=lambda x: (x[0], x[1])), "standings": sorted(standings)}


def stored_as_straight(tables: dict) -> dict:
    return {
        "slots": [(r["tournament_id"], r["key"], (r["player_a"], r["player_b"]), r["status"], r["winner"], r["match_id"])
                  for r in tables["slots"]],
        "standings": sorted((r["tournament_id"], r.get("flight", ""), r["rank"], r["player_id"], r["wins"], r["losses"])
                            for r in tables["standings"]),
    }


def summaries() -> list[dict]:
    return [{k: v for k, v in model_to_dict(r).items() if k not in ("updated_at",)}
            for r in MatchSummary.objects.order_by("stream_id")]


def one_slot_one_result() -> None:
    """A decided slot's own match is over: nothing more can be played in it."""
    for t in Tournament.objects.all():
        facts, view = services.tournament_view(t)
        for s in view.slots:
            link = facts.matches.get(s.key)
            if s.status == "done" and link and set(link["players"]) == set(s.players):
                record = match_load(link["match_id"])
                assert record.finished, f"{t.pk}:{s.key} has a result but its match is still open"


# The project's apps: their tables, read models and write models alike, are compared around a rebuild.
APPS = ("eventlog", "players", "games", "tournaments", "ratings", "analysis", "seasons")
# The analysis projection only makes a match's row (these columns); gnubg fills in the rest later, on the
# worker, after the commit, so a rebuild refills them in its own time (its decisions and figures likewise).
ANALYSIS_ROWS = {"MatchAnalysis": ("stream_id", "plies", "player0_id", "player1_id", "tournament_id", "ended_at"),
                 "Decision": (), "PlayerFigures": ()}


def every_table() -> dict[str, list[tuple]]:
    """Every table of the project's apps as sorted rows of values, less what a rebuild may renumber or re-stamp
    (automatic ids, automatic timestamps). The log and the write models are in it too: a rebuild touches neither."""
    out = {}
    for app in APPS:
        for model in apps.get_app_config(app).get_models():
            columns = [f.attname for f in model._meta.concrete_fields
                       if not isinstance(f, models.AutoField)
                       and not getattr(f, "auto_now", False) and not getattr(f, "auto_now_add", False)]
            if app == "analysis":
                columns = [c for c in columns if c in ANALYSIS_ROWS.get(model.__name__, ())]
            if columns:
                out[model._meta.label] = sorted(model.objects.values_list(*columns), key=repr)
    return out


def differing(before: dict, after: dict) -> list[str]:
    return sorted(name for name in before.keys() | after.keys() if before.get(name) != after.get(name))


def unsent_notices() -> bool:
    """The players' e-mails the worker has still to send (it marks each notice sent as it sends)."""
    from tournaments.models import ByeNotice, MatchNotice

    return (MatchNotice.objects.filter(sent_at__isnull=True).exists()
            or ByeNotice.objects.filter(sent_at__isnull=True).exists())


def settled_here() -> None:
    """What the worker does, here and now: projections, then the process manager, until nothing is left. For the
    tests of what the read models say (the worker's own part is tested with a live one: settled_by_the_worker)."""
    from eventlog import projections

    for _ in range(30):
        projections.run_all()
        created = [m for t in Tournament.objects.all() for m in services.tournament_advance(t)]
        projections.run_all()
        if not created and not pending_work():
            return
    raise AssertionError(f"the events did not settle: {pending_work()}")


def settled_by_the_worker() -> None:
    """Wait for the live worker: every projection caught up with the log and no event's work pending."""
    from eventlog import projections
    from eventlog.models import Event, ProjectionCheckpoint
    from tests.waiting import wait_for

    def settled() -> bool:
        top = Event.objects.order_by("-global_position").values_list("global_position", flat=True).first() or 0
        caught_up = ProjectionCheckpoint.objects.filter(position__gte=top).count() == len(projections.registered())
        return caught_up and not pending_work() and not unsent_notices()

    wait_for(settled, what="the worker to catch up with the log and advance every event")
    # settled twice, a sweep apart: a wake-up the worker had not started yet would show now
    wait_for(settled, what="the worker to stay caught up")


def check_read_models(log: list[str]) -> None:
    """Live = straight recomputation = rebuild from position 0, for ratings, brackets and standings; and
    ``rebuild_projections`` gives every table (``every_table``) again, row for row."""
    where = "\n".join(log[-12:])
    live, live_history = live_ratings(), history()
    assert live == recomputed(), f"live ratings differ from a recomputation after:\n{where}"
    tables = tournament_tables()
    assert stored_as_straight(tables) == straight_tournament_tables(), f"event tables differ after:\n{where}"
    match_rows = summaries()
    one_slot_one_result()
    tables_before = every_table()
    call_command("rebuild_projections", stdout=open(os.devnull, "w"))
    tables_after = every_table()
    assert live_ratings() == live and history() == live_history, f"ratings rebuild differs after:\n{where}"
    assert tournament_tables() == tables, f"event tables' rebuild differs after:\n{where}"
    assert summaries() == match_rows, f"match summaries' rebuild differs after:\n{where}"
    assert tables_after == tables_before, f"{differing(tables_before, tables_after)} differ after a rebuild, after:\n{where}"
