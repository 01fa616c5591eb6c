"""The followers of an event share one derive of each version of its stream (tournaments/folding.py, read_only):
after a result, the process manager, the event's tables and its money read the same view, derived once, and it
is the view a fold of the whole stream gives; a rolled-back append's view is never anybody's."""

import pytest
from django.db import transaction

from eventlog import projections, store
from players.models import Player
from tournaments import derive, folding, services, stream
from tournaments.models import TournamentSlot, TournamentState


def whole(t) -> tuple[stream.Facts, derive.View]:
    facts = stream.fold(store.read_stream(stream.stream_id_of(t.pk)))
    return facts, derive.derive(facts)


def drawn_swiss(director, n=8):
    t = services.tournament_create(actor=director, name="Swiss night", format="swiss",
                                   settings={"rounds": 3, "auto_pair": False})
    for i in range(n):
        p = Player.objects.create(display_name=f"S{i}").pk
        services.tournament_command(actor=director, tournament=t, command={"type": "enter", "player": p})
    services.tournament_command(actor=director, tournament=t, command={"type": "draw", "method": "rating"})
    return t


def report(director, t, n: int = 1) -> None:
    open_slots = [s for s in services.tournament_view(t)[1].slots if s.status == "ready"]
    for s in open_slots[:n]:
        services.tournament_command(actor=director, tournament=t, command={
            "type": "report_result", "slot": s.key, "winner": s.players[0], "score": [s.length, 0]})


@pytest.fixture
def derives(monkeypatch):
    counted: list[int] = []
    inner = derive.derive

    def counting(facts, **kwargs):
        counted.append(facts.version)
        return inner(facts, **kwargs)

    monkeypatch.setattr(derive, "derive", counting)
    return counted


@pytest.mark.django_db(transaction=True)
def test_a_result_is_derived_once_for_all_the_events_followers(make_user, tasks_in_process, derives):
    director = make_user("dora", official=True)
    t = drawn_swiss(director)
    projections.run_all()
    report(director, t)
    derives.clear()
    projections.run_all()
    facts, view = whole(t)
    assert derives == [facts.version]  # the process manager's; the tables and the money read it again
    state = TournamentState.objects.get(tournament_id=t.pk)
    assert state.version == facts.version and state.needs_advance is False
    decided = {s.key: s.result.winner for s in view.slots if s.result}
    assert decided and dict(TournamentSlot.objects.filter(tournament_id=t.pk, winner__isnull=False)
                            .values_list("key", "winner")) == decided


@pytest.mark.django_db(transaction=True)
def test_the_shared_view_is_the_whole_streams_and_its_reader_changes_nothing(make_user):
    director = make_user("dora", official=True)
    t = drawn_swiss(director)
    report(director, t, n=2)
    assert folding.read_only(t.pk) == whole(t)
    facts, view = folding.read_only(t.pk)
    again = folding.read_only(t.pk)
    assert again[0] is facts and again[1] is view  # held, not copied: for readers that change neither
    mine = folding.facts_of(t.pk)
    mine.entered.append(999_999)  # a reader that folds further has its own copy
    assert 999_999 not in folding.read_only(t.pk)[0].entered


@pytest.mark.django_db
def test_the_view_of_a_rolled_back_append_is_never_read(make_user):
    director = make_user("dora", official=True)
    t = drawn_swiss(director, n=4)
    folding.SNAPSHOTS.forget()
    folding.VIEWS.forget()
    before = folding.read_only(t.pk)
    with transaction.atomic():
        report(director, t)
        inside = folding.read_only(t.pk)
        assert inside == whole(t) and inside[0].version > before[0].version  # its own appends, seen inside
        transaction.set_rollback(True)
    assert folding.read_only(t.pk) == whole(t) == before
    slot = [s for s in whole(t)[1].slots if s.status == "ready"][0]
    services.tournament_command(actor=director, tournament=t, command={  # the same versions, another result
        "type": "report_result", "slot": slot.key, "winner": slot.players[1], "score": [slot.length, 0]})
    facts, view = folding.read_only(t.pk)
    assert facts.version == inside[0].version and (facts, view) == whole(t) and view != inside[1]
