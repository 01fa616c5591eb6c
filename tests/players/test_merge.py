"""Merging duplicate players: a command on the players' stream, refused cleanly, read back by projections."""

import threading

import pytest
from django.core.exceptions import PermissionDenied

from eventlog import projections, store
from eventlog.models import Event
from players import identity
from players.models import Club, Player
from players.selectors import player_identities
from players.services import MergeRefused, player_merge

from .people import registrar as a_registrar

pytestmark = pytest.mark.django_db


@pytest.fixture
def registrar():
    return a_registrar()


@pytest.fixture
def people():
    return [Player.objects.create(display_name=f"Entry {i}").pk for i in range(5)]


def log() -> list[tuple]:
    return list(Event.objects.order_by("global_position").values_list("stream_id", "version", "event_type", "payload"))


def players_table() -> list[tuple]:
    return list(Player.objects.order_by("pk").values_list("pk", "user", "club", "country", "merged_into"))


def test_a_merge_appends_one_event_to_the_players_stream(registrar, people, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks() as woken:
        kept = player_merge(actor=registrar, kept_id=people[0], duplicate_ids=[people[1], people[2]],
                            reason="entered by two clubs")
    assert kept.pk == people[0] and len(woken) == 1  # the projections are woken once it commits
    event = Event.objects.get(stream_id="players")
    assert (event.stream_type, event.version, event.event_type) == ("players", 1, "PlayersMerged")
    assert event.payload == {"kept": people[0], "duplicates": [people[1], people[2]], "reason": "entered by two clubs",
                             "actor": registrar.pk}
    assert event.metadata["actor"] == registrar.pk
    assert player_identities().of(people[2]) == people[0]
    # the merged view follows the log, through its projection only
    assert not Player.objects.exclude(merged_into=None).exists()
    projections.run("players")
    assert dict(Player.objects.exclude(merged_into=None).values_list("pk", "merged_into")) == {
        people[1]: people[0], people[2]: people[0]}


def test_the_kept_entry_takes_the_account_club_country_and_language_only_a_duplicate_had(registrar, make_user):
    ann = make_user("ann")
    club = Club.objects.create(name="Lyon BG")
    bare = Player.objects.create(display_name="Ann")
    dup = ann.player
    Player.objects.filter(pk=dup.pk).update(club=club, country="FR", language="fr")
    player_merge(actor=registrar, kept_id=bare.pk, duplicate_ids=[dup.pk], reason="same person")
    bare.refresh_from_db()
    dup.refresh_from_db()
    assert (bare.user_id, bare.club_id, bare.country) == (ann.pk, club.pk, "FR") and dup.user_id is None
    assert bare.language == "fr"  # the e-mails keep the language the person chose


@pytest.mark.parametrize("who", ["anonymous", "member", "staff without the permission"])
def test_only_who_may_change_players_may_merge(who, people, make_user):
    from django.contrib.auth.models import AnonymousUser

    actor = {"anonymous": lambda: AnonymousUser(), "member": lambda: make_user("mo"),
             "staff without the permission": lambda: make_user("stan", official=False, player=False)}[who]()
    if who.startswith("staff"):
        type(actor).objects.filter(pk=actor.pk).update(is_staff=True)
    before, table = log(), players_table()
    with pytest.raises(PermissionDenied) as refused:
        player_merge(actor=actor, kept_id=people[0], duplicate_ids=[people[1]], reason="x")
    assert refused.value.reason == identity.Reason.MAY_NOT_MERGE
    assert log() == before and players_table() == table


def test_refusals_append_nothing_and_change_nothing(registrar, people):
    player_merge(actor=registrar, kept_id=people[0], duplicate_ids=[people[1]], reason="first")
    before, table = log(), players_table()
    cases = [
        (dict(kept_id=people[2], duplicate_ids=[]), "too_few_players"),
        (dict(kept_id=people[2], duplicate_ids=[people[1]]), "already_merged"),
        (dict(kept_id=people[1], duplicate_ids=[people[3]]), "kept_is_merged"),
        (dict(kept_id=people[2], duplicate_ids=[people[2]]), "listed_twice"),
        (dict(kept_id=people[2], duplicate_ids=[10**9]), "no_such_player"),
        (dict(kept_id=people[2], duplicate_ids=["3"]), "not_a_player"),
        (dict(kept_id=people[2], duplicate_ids=[people[3]], reason=""), "no_reason"),
    ]
    for args, code in cases:
        with pytest.raises(MergeRefused) as refused:
            player_merge(actor=registrar, **{"reason": "why", **args})
        assert refused.value.code == code, args
        assert log() == before and players_table() == table


def test_a_stale_expected_version_is_refused(registrar, people):
    player_merge(actor=registrar, kept_id=people[0], duplicate_ids=[people[1]], reason="first", expected_version=0)
    before = log()
    with pytest.raises(store.ConcurrencyError):
        player_merge(actor=registrar, kept_id=people[2], duplicate_ids=[people[3]], reason="second",
                     expected_version=0)
    assert log() == before
    player_merge(actor=registrar, kept_id=people[2], duplicate_ids=[people[3]], reason="second", expected_version=1)
    assert Event.objects.filter(stream_id="players").count() == 2


def test_merging_a_kept_entry_on_carries_its_duplicates_and_a_rebuild_gives_the_same_view(registrar, people):
    player_merge(actor=registrar, kept_id=people[0], duplicate_ids=[people[1]], reason="first")
    projections.run("players")
    player_merge(actor=registrar, kept_id=people[4], duplicate_ids=[people[0]], reason="and that one too")
    projections.run("players")
    view = players_table()
    assert {p: m for p, *_, m in view if m} == {people[0]: people[4], people[1]: people[4]}
    projections.rebuild("players")
    assert players_table() == view


@pytest.mark.django_db(transaction=True)
def test_two_registrars_merging_one_duplicate_at_once_record_one_merge(postgres, registrar, people):
    """The log's lock is held from reading the players' stream to appending: the second merge sees the first."""
    start, outcomes = threading.Barrier(2), []

    def merge(kept: int) -> None:
        from django.db import connection as own

        try:
            start.wait()
            player_merge(actor=registrar, kept_id=kept, duplicate_ids=[people[1]], reason="race")
            outcomes.append("merged")
        except MergeRefused as refused:
            outcomes.append(refused.code)
        finally:
            own.close()

    threads = [threading.Thread(target=merge, args=(kept,)) for kept in (people[0], people[2])]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(outcomes) == ["already_merged", "merged"]
    assert Event.objects.filter(stream_id=identity.STREAM_ID).count() == 1
