"""The dice seeds of games under way: drawn and stored before a game's first server roll, revealed at its end.

How a seed makes the dice, and how anyone checks them, is :mod:`games.dice`."""

from __future__ import annotations

import threading
from collections import OrderedDict

from django.db import IntegrityError, transaction

from eventlog import store
from eventlog.store import NewEvent

from . import dice as dice_rolls
from . import streams
from .models import DiceSeed

# The seeds of games under way, by (stream, game): a seed never changes once committed, so a roll reads it once
# per process; one is remembered only after the transaction that stored it has committed.
_SEEDS: OrderedDict[tuple[str, int], str] = OrderedDict()
_SEED_LIMIT = 2048
_seeds_lock = threading.Lock()


def stored_seed(stream_id: str, game: int) -> str | None:
    key = (stream_id, game)
    with _seeds_lock:
        seed = _SEEDS.get(key)
    if seed is None:
        seed = DiceSeed.objects.filter(stream_id=stream_id, game=game).values_list("seed", flat=True).first()
        if seed is not None:
            _remember_seed(key, seed)
    return seed


def draw_seed(stream_id: str, game: int) -> tuple[str, list]:
    """A seed drawn and stored for the game's first server roll, and its commitment to append with the roll."""
    try:
        with transaction.atomic():
            seed = DiceSeed.objects.create(stream_id=stream_id, game=game, seed=dice_rolls.new_seed()).seed
    except IntegrityError:  # another command of this match got there first: this one is stale
        raise store.ConcurrencyError(stream_id, -1, store.stream_version(stream_id)) from None
    transaction.on_commit(lambda: _remember_seed((stream_id, game), seed))
    return seed, [NewEvent(streams.SEED_COMMITTED, {"game": game, "commitment": dice_rolls.commitment(seed)})]


def _remember_seed(key: tuple[str, int], seed: str) -> None:
    with _seeds_lock:
        _SEEDS[key] = seed
        _SEEDS.move_to_end(key)
        while len(_SEEDS) > _SEED_LIMIT:
            _SEEDS.popitem(last=False)


def reveal_open_seed(stream_id: str) -> list[NewEvent]:
    """Publish the seed of a game that has ended (or of a match voided mid-game)."""
    out = []
    for seed in DiceSeed.objects.select_for_update().filter(stream_id=stream_id, revealed=False):
        seed.revealed = True
        seed.save(update_fields=["revealed"])
        out.append(NewEvent(streams.SEED_REVEALED, {"game": seed.game, "seed": seed.seed}))
    return out
