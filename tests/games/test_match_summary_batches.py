"""The match projection resumes where it stopped: applied event by event, in batches of any size, or rebuilt, it gives the same rows.

The logs are real matches: gnubg's (whole, or imported from a later game at a
non-zero score, before and after the Crawford game) and random ones played by
the engine, with the platform's events around them (registration, dice seeds,
a director's correction, a void mid-game), their appends interleaved as
concurrent tables interleave them.
"""

import random
from types import SimpleNamespace

import pytest
from django.forms.models import model_to_dict
from hypothesis import given, settings
from hypothesis import strategies as st

from eventlog import projections, store
from eventlog.models import Event
from eventlog.store import NewEvent
from games import streams
from games.engine.match import MatchState, replay
from games.engine.matfile import read_mat
from games.models import GameSummary, MatchSummary
from games.projections import _game_rows
from tests.games.engine.test_matfile import FIXTURES
from tests.games.engine.test_properties import play_random_match

NAME = "match_summary"


def mat(name: str, from_game: int = 1) -> list:
    """A gnubg match's engine events; from a later game on, an import that starts at that game's score."""
    games = (FIXTURES / "matches" / name).read_text().split(" Game ")
    return read_mat(games[0] + " Game " + " Game ".join(games[from_game:])).events


def new(events) -> list[NewEvent]:
    return [NewEvent(*streams.engine_payload(e)) for e in events]


def registered(n: int) -> NewEvent:
    return NewEvent(streams.REGISTERED, {"player_ids": [2 * n + 1, 2 * n + 2], "tournament_id": None, "published": True})


def match_streams(rnd: random.Random) -> dict[str, list[NewEvent]]:
    _, short = play_random_match(random.Random(rnd.random()), 5, {})
    _, played = play_random_match(random.Random(rnd.random()), 3, {})
    _, voided = play_random_match(random.Random(rnd.random()), 7, {})
    cut = len(voided) // 2
    plays = {
        "whole": new(mat("match_007_3pt.mat")),
        "from-game-4": new(mat("match_014_7pt.mat", 4)),  # starts 2-3 in a 7-point match, Crawford game ahead
        "after-crawford": new(mat("match_003_5pt.mat", 3)),  # starts 4-1 in a 5-point match, Crawford game played
        "seeded": [NewEvent(streams.SEED_COMMITTED, {"game": 1, "commitment": "00" * 32})] + new(short)
        + [NewEvent(streams.SEED_REVEALED, {"game": 1, "seed": "ab" * 16})],
        "corrected": new(played) + [NewEvent(streams.RESULT_CORRECTED, {"winner": 1, "score": [1, 3], "reason": "misread"})],
        "voided": new(voided[:cut]) + [NewEvent(streams.VOIDED, {"reason": "a player left"})],
    }
    return {name: [registered(n)] + events for n, (name, events) in enumerate(plays.items())}


def interleaved_appends(rnd: random.Random, plays: dict[str, list[NewEvent]]):
    """Each stream's events in appends of 1 to 4, the streams' appends shuffled together (each in its own order)."""
    chunks = {}
    for name, events in plays.items():
        at, chunks[name] = 0, []
        while at < len(events):
            size = rnd.randint(1, 4)
            chunks[name].append(events[at: at + size])
            at += size
    order = [name for name, c in chunks.items() for _ in c]
    rnd.shuffle(order)
    versions = dict.fromkeys(plays, 0)
    for name in order:
        events = chunks[name].pop(0)
        yield name, events, versions[name]
        versions[name] += len(events)


def append(name: str, events: list[NewEvent], version: int) -> None:
    store.append(stream_id=name, stream_type=streams.STREAM_TYPE, expected_version=version, events=events)


def write_log(seed: int) -> list[str]:
    plays = match_streams(random.Random(seed))
    for name, events, version in interleaved_appends(random.Random(seed), plays):
        append(name, events, version)
    return list(plays)


def tables() -> dict:
    return {
        "matches": [{k: v for k, v in model_to_dict(r).items() if k != "updated_at"}
                    for r in MatchSummary.objects.order_by("stream_id")],
        "games": list(GameSummary.objects.order_by("stream_id", "game").values(
            "stream_id", "game", "score0_before", "score1_before", "crawford", "post_crawford", "finished", "winner",
            "points", "kind", "reason")),
    }


def stored_flags(stream_id: str) -> list[tuple]:
    return list(GameSummary.objects.filter(stream_id=stream_id).order_by("game").values_list(
        "game", "score0_before", "score1_before", "crawford", "post_crawford", "finished", "winner", "points", "kind",
        "reason"))


def game_flags(rows) -> list:
    """The engine's record of each game, folded from a stream's rows (the one home of the Crawford rule)."""
    return list(streams.fold("any", rows).state.games)


def read_independently(stream_id: str, up_to: int | None = None) -> list[tuple]:
    """The stream folded by the engine up to ``up_to`` in one go, not batch by batch as the projection does."""
    rows = store.read_stream(stream_id)
    return [(g.game, *g.score_before, g.crawford, g.post_crawford, g.finished, g.winner, g.points, g.kind, g.reason)
            for g in game_flags([r for r in rows if up_to is None or r.global_position <= up_to])]


def rebuilt() -> dict:
    projections.rebuild(NAME)
    return tables()


@pytest.mark.django_db
@pytest.mark.parametrize("seed", range(2))
def test_projected_after_every_append_it_equals_the_rebuild_and_the_independent_reading(seed):
    plays = match_streams(random.Random(seed))
    for name, events, version in interleaved_appends(random.Random(seed), plays):
        append(name, events, version)
        projections.run(NAME)
        assert stored_flags(name) == read_independently(name)
    live = tables()
    assert live == rebuilt()
    finished = {r["stream_id"]: r["finished"] for r in live["matches"]}
    assert finished == {"whole": True, "from-game-4": True, "after-crawford": True, "seeded": finished["seeded"],
                        "corrected": True, "voided": True}
    crawford = {(g["stream_id"], g["game"]) for g in live["games"] if g["crawford"]}
    assert {("whole", 2), ("from-game-4", 2)} <= crawford and not any(s == "after-crawford" for s, _ in crawford)
    assert all(g["post_crawford"] for g in live["games"] if g["stream_id"] == "after-crawford")


@pytest.mark.django_db
@pytest.mark.parametrize("batch", [1, 2, 7, 64])
def test_batches_of_any_size_split_anywhere_give_the_rebuild(monkeypatch, batch):
    names = write_log(seed=batch)
    whole = rebuilt()
    assert len(whole["matches"]) == len(names) and whole["games"]
    monkeypatch.setattr(projections, "BATCH", batch)
    assert rebuilt() == whole
    for name in names:
        assert stored_flags(name) == read_independently(name)


@pytest.mark.django_db
def test_after_every_batch_the_game_rows_are_the_reading_of_the_log_up_to_it(monkeypatch):
    names = write_log(seed=11)
    projection = projections.registered()[NAME]
    apply, seen = projection.apply, []

    def apply_and_check(batch):
        apply(batch)
        seen.append(batch[-1].global_position)
        for name in {e.stream_id for e in batch}:  # the others' rows are not written
            assert stored_flags(name) == read_independently(name, up_to=seen[-1])

    monkeypatch.setattr(projections, "BATCH", 5)
    monkeypatch.setattr(projection, "batch_factor", 1)  # batches of 5 (a rebuild reads 10 x BATCH at a time)
    monkeypatch.setattr(projection, "apply", apply_and_check)
    projections.rebuild(NAME)
    assert seen[-1] == Event.objects.count() and len(seen) > 100
    for name in names:
        assert stored_flags(name) == read_independently(name)


@settings(max_examples=200, deadline=None)
@given(st.sampled_from(["match_003_5pt.mat", "match_023_5pt.mat", "match_027_3pt.mat", "match_035_11pt.mat"]),
       st.integers(1, 6), st.lists(st.integers(0, 1000), max_size=12), st.booleans())
def test_the_game_rows_of_any_cuts_are_the_engines_games_at_each_cut(name, from_game, cuts, ahead):
    """What the projection does, without a database: each batch writes the rows of the games it names, from the
    state after it or (a rebuild meeting a later snapshot) from the match's last state; either way what is stored
    after each batch is the engine's record of the games up to there."""
    events = mat(name, min(from_game, (FIXTURES / "matches" / name).read_text().count(" Game ")))
    rows = [SimpleNamespace(event_type=t, payload=p) for t, p in map(streams.engine_payload, events)]
    bounds = sorted({min(c, len(rows)) for c in cuts} | {0, len(rows)})
    final, stored = replay(events), {}
    for a, b in zip(bounds, bounds[1:]):
        exact = replay(events[:b])
        for row in _game_rows("s", rows[a:b], final if ahead else exact):
            stored[row.game] = (row.score0_before, row.score1_before, row.crawford, row.post_crawford, row.finished,
                                row.winner, row.points, row.kind, row.reason)
        assert [stored[g] for g in sorted(stored)] == [
            (*g.score_before, g.crawford, g.post_crawford, g.finished, g.winner, g.points, g.kind, g.reason)
            for g in exact.games]
    assert len(stored) == len(final.games) and final != MatchState()
