"""Ratings after merges of duplicate players: live = a straight recomputation from the log = a rebuild, whatever
the batches, including results registered before a merge and rated after it, and a kept entry merged on."""

import random

import pytest

from eventlog import projections
from games.creation import match_create
from players.models import Player
from ratings.models import PlayerRating, RatedMatch, RatedSlot, RatingChange
from tests.players.people import registrar
from tests.tournaments.test_running_events import play_to_end

from .from_log import live_ratings, rated_results
from .season import quick_match
from .test_event_ratings import check_everywhere

pytestmark = pytest.mark.django_db


def merge(kept: int, *duplicates: int) -> None:
    from players.services import player_merge

    player_merge(actor=registrar(), kept_id=kept, duplicate_ids=list(duplicates), reason="one person")


def tables() -> list:
    return [sorted(model.objects.values_list(*[f.attname for f in model._meta.concrete_fields if f.attname != "id"]))
            for model in (PlayerRating, RatingChange, RatedMatch, RatedSlot)]


def test_a_match_registered_before_a_merge_and_won_after_it_counts_for_the_kept_player(make_user):
    official = make_user("olga", official=True, player=False)
    ann, ann_again, bob = (Player.objects.create(display_name=n) for n in ("Ann", "Ann (again)", "Bob"))
    record = match_create(actor=official, player0=ann_again, player1=bob, length=3)
    projections.run_all()
    merge(ann.pk, ann_again.pk)
    projections.run_all()
    play_to_end(official, record.stream_id, winner_seat=0)
    projections.run_all()
    assert set(live_ratings()) == {ann.pk, bob.pk}
    check_everywhere(1)


def test_merges_give_the_same_tables_live_and_rebuilt_in_batches_of_any_size(monkeypatch):
    rnd = random.Random(12)
    people = [Player.objects.create(display_name=f"P{i}").pk for i in range(7)]
    a, a2, b, b2, c, d, e = people

    def play(n: int, among: list[int]) -> None:
        for _ in range(n):
            p0, p1 = rnd.sample(among, 2)
            quick_match(p0, p1, rnd.choice([1, 3, 5]), rnd.randint(0, 1), rnd)
        projections.run_all()  # live, a step at a time

    play(12, people)  # results of every entry, some between two entries of one person
    merge(a, a2)
    play(6, people)  # the duplicate's id still used after the merge (an old card): counted as its kept player
    merge(b, b2)
    merge(c, a)  # a kept entry merged on: its duplicate goes with it
    play(6, [a, b, c, d, e])
    live = tables()
    check_everywhere()  # live = straight recomputation = a rebuild; histories start once
    assert not {a, a2, b2} & set(live_ratings())
    assert any({w, l} == {c, e} for w, l, *_ in rated_results())
    monkeypatch.setattr(projections, "BATCH", 1)  # every event its own batch (ratings: 10 a batch)
    projections.rebuild("ratings")
    assert tables() == live
