"""Who may create events, the limits of a member's casual event, and the process manager's bounded batches.

Creating events belongs to a club's directors (under the club's name) and officials; members may create
casual events only when the site allows it (``CASUAL_EVENTS``), and then within limits
(``CASUAL_EVENT_MAX_PLAYERS``). Whatever the event, the process manager creates its matches in transactions of
at most ``EVENT_MATCHES_PER_TRANSACTION``: the log's advisory lock is never held for a whole round robin.
"""

import pytest
from django.core.exceptions import PermissionDenied
from django.db import connection

from eventlog import projections
from players.models import Club, Player
from tournaments import config, refusals, services
from tournaments.models import Tournament
from tournaments.refusals import Reason

from tests.refusals import refused

pytestmark = pytest.mark.django_db


def _create(actor, club=None, fmt="round_robin"):
    return services.tournament_create(actor=actor, name="Night", format=fmt, club=club,
                                      settings={"lengths": {"rounds": {"default": 1}}})


def test_without_casual_events_a_member_creates_no_event(settings, make_user, api):
    settings.CASUAL_EVENTS = False
    member = make_user("mia")
    with pytest.raises(PermissionDenied):
        _create(member)
    answer = api(member).post("/api/tournaments/", {"name": "Mine", "format": "round_robin"}, format="json")
    assert answer.status_code == 403
    assert not Tournament.objects.exists()


def test_without_casual_events_club_directors_and_officials_still_create(settings, make_user):
    settings.CASUAL_EVENTS = False
    club = Club.objects.create(name="Club")
    director = make_user("dora")
    club.directors.add(director)
    assert _create(director, club=club).club == club
    assert _create(make_user("olga", official=True)).director.username == "olga"
    with pytest.raises(PermissionDenied):
        _create(director)  # outside the club's name it would be a casual event


def test_a_members_casual_event_is_limited_in_players(settings, make_user):
    settings.CASUAL_EVENTS = True
    settings.CASUAL_EVENT_MAX_PLAYERS = 4
    member = make_user("mia")
    event = _create(member)
    field = [Player.objects.create(display_name=f"P{i}").pk for i in range(5)]
    for pid in field[:4]:
        services.tournament_command(actor=member, tournament=event, command={"type": "enter", "player": pid})
    with refused(refusals.EventFull, Reason.CASUAL_EVENT_FULL, limit=4):
        services.tournament_command(actor=member, tournament=event, command={"type": "enter", "player": field[4]})
    # the limit is the event's own, written when it was created: raising the setting later does not lift it
    settings.CASUAL_EVENT_MAX_PLAYERS = 100
    with refused(refusals.EventFull, Reason.CASUAL_EVENT_FULL, limit=4):
        services.tournament_command(actor=member, tournament=event, command={"type": "enter", "player": field[4]})


def test_a_member_cannot_lift_the_limit_through_the_events_settings(settings, make_user):
    settings.CASUAL_EVENTS = True
    settings.CASUAL_EVENT_MAX_PLAYERS = 2
    member = make_user("mia")
    with refused(refusals.BadEvent, Reason.SETTINGS, why=config.Reason.UNKNOWN) as caught:
        services.tournament_create(actor=member, name="Night", format="round_robin", settings={"max_players": 1000})
    assert caught.value.params["why"].params["key"] == "max_players"
    event = services.tournament_create(actor=member, name="Night", format="round_robin")
    field = [Player.objects.create(display_name=f"P{i}").pk for i in range(3)]
    for pid in field[:2]:
        services.tournament_command(actor=member, tournament=event, command={"type": "enter", "player": pid})
    with refused(refusals.EventFull, Reason.CASUAL_EVENT_FULL, limit=2):
        services.tournament_command(actor=member, tournament=event, command={"type": "enter", "player": field[2]})


def test_an_officials_event_has_no_player_limit(settings, make_user):
    settings.CASUAL_EVENTS = True
    settings.CASUAL_EVENT_MAX_PLAYERS = 2
    official = make_user("olga", official=True)
    event = _create(official)
    for i in range(3):
        pid = Player.objects.create(display_name=f"P{i}").pk
        services.tournament_command(actor=official, tournament=event, command={"type": "enter", "player": pid})


def _largest_transaction_of(event_type: str) -> int:
    """Rows appended by one transaction share its id (PostgreSQL's xmin)."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT count(*) FROM eventlog_event WHERE event_type = %s GROUP BY xmin::text "
                       "ORDER BY count(*) DESC LIMIT 1", [event_type])
        row = cursor.fetchone()
    return row[0] if row else 0


def test_the_process_manager_creates_a_round_robin_in_bounded_batches(postgres, settings, make_user):
    settings.EVENT_MATCHES_PER_TRANSACTION = 10
    official = make_user("olga", official=True)
    event = _create(official)
    field = [Player.objects.create(display_name=f"P{i}").pk for i in range(12)]  # 66 matches
    for pid in field:
        services.tournament_command(actor=official, tournament=event, command={"type": "enter", "player": pid})
    services.tournament_command(actor=official, tournament=event, command={"type": "draw", "method": "manual",
                                                                           "seeds": field})
    created = services.tournament_advance(event)
    assert len(created) == 66  # one call still does it all, batch after batch
    assert _largest_transaction_of("MatchRegistered") <= 10
    assert _largest_transaction_of("MatchCreated") <= 10
    projections.run_all()
    assert services.tournament_advance(event) == []  # nothing left, nothing created twice
