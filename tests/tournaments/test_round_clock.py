"""A round's clock, set by the director: each player's budget in minutes and a delay in seconds per move, for one
round or as the event's default. A fact of the event's stream (``RoundClockSet``), shown in its settings view; a
value out of its range is refused with its code and nothing is appended. (Only the setting: the clocks of the
matches come later.)"""

from __future__ import annotations

import pytest

from eventlog.models import Event
from tournaments import commands as c
from tournaments import decider, services
from tournaments import events as ev
from tournaments.refusals import TournamentError, TournamentRefusal
from tournaments.stream import Facts, stream_id_of

pytestmark = pytest.mark.django_db


@pytest.fixture
def director(make_user):
    return make_user("dora", official=True)


@pytest.fixture
def event(director):
    return services.tournament_create(actor=director, name="Swiss night", format="swiss", settings={"rounds": 5})


def _url(t, what="commands"):
    return f"/api/tournaments/{t.pk}/{what}/"


def _logged(t) -> list[tuple[str, dict]]:
    return [(e.event_type, e.payload) for e in Event.objects.filter(stream_id=stream_id_of(t.pk)).order_by("version")]


def test_the_director_sets_the_events_clock_and_a_rounds_and_the_settings_view_shows_them(director, event, api):
    client = api(director)
    answer = client.post(_url(event), {"type": "set_round_clock", "minutes": 30, "delay": 12}, format="json")
    assert answer.status_code == 200, answer.content[:300]
    assert answer.json()["appended"] == [{"type": "RoundClockSet",
                                          "payload": {"round": None, "minutes": 30, "delay": 12}}]
    assert client.post(_url(event), {"type": "set_round_clock", "round": 5, "minutes": 45, "delay": 0},
                       format="json").status_code == 200
    assert _logged(event)[-2:] == [("RoundClockSet", {"round": None, "minutes": 30, "delay": 12}),
                                   ("RoundClockSet", {"round": 5, "minutes": 45, "delay": 0})]
    settings = api(None).get(_url(event, "settings")).json()
    assert settings["clock"] == {"default": {"minutes": 30, "delay": 12}, "5": {"minutes": 45, "delay": 0}}
    assert settings["rounds"] == 5  # beside the director's settings

    # a later clock replaces the round's; the same again appends nothing
    client.post(_url(event), {"type": "set_round_clock", "round": 5, "minutes": 60, "delay": 8}, format="json")
    count = Event.objects.count()
    again = client.post(_url(event), {"type": "set_round_clock", "round": 5, "minutes": 60, "delay": 8}, format="json")
    assert again.status_code == 200 and again.json()["appended"] == [] and Event.objects.count() == count
    assert api(None).get(_url(event, "settings")).json()["clock"]["5"] == {"minutes": 60, "delay": 8}


def test_the_clock_outlives_a_change_of_settings_and_is_not_a_setting_one_sends(director, event):
    services.tournament_command(actor=director, tournament=event,
                                command={"type": "set_round_clock", "minutes": 25, "delay": 10})
    services.tournament_configure(actor=director, tournament=event, settings={"rounds": 6})
    facts = services.tournament_facts(event)
    assert facts.config["rounds"] == 6 and facts.config["clock"] == {"default": {"minutes": 25, "delay": 10}}
    with pytest.raises(TournamentError) as refused:  # set by its command only: the settings do not take it
        services.tournament_configure(actor=director, tournament=event,
                                      settings={"rounds": 6, "clock": {"default": {"minutes": 1, "delay": 0}}})
    assert refused.value.code == TournamentRefusal.BAD_EVENT


@pytest.mark.parametrize("body, code", [
    ({"minutes": 0, "delay": 5}, TournamentRefusal.BAD_COMMAND),
    ({"minutes": c.MAX_CLOCK_MINUTES + 1, "delay": 5}, TournamentRefusal.BAD_COMMAND),
    ({"minutes": "30", "delay": 5}, TournamentRefusal.BAD_COMMAND),
    ({"minutes": 30.5, "delay": 5}, TournamentRefusal.BAD_COMMAND),
    ({"minutes": 30, "delay": -1}, TournamentRefusal.BAD_COMMAND),
    ({"minutes": 30, "delay": c.MAX_CLOCK_DELAY + 1}, TournamentRefusal.BAD_COMMAND),
    ({"minutes": 30, "delay": True}, TournamentRefusal.BAD_COMMAND),
    ({"delay": 5}, TournamentRefusal.BAD_COMMAND),
    ({"minutes": 30}, TournamentRefusal.BAD_COMMAND),
    ({"round": 0, "minutes": 30, "delay": 5}, TournamentRefusal.BAD_ROUND),
    ({"round": 100, "minutes": 30, "delay": 5}, TournamentRefusal.BAD_ROUND),
    ({"round": "2", "minutes": 30, "delay": 5}, TournamentRefusal.BAD_ROUND),
    ({"round": None, "minutes": 30, "delay": 5}, TournamentRefusal.BAD_ROUND),
])
def test_a_clock_out_of_its_range_is_refused_with_its_code_and_nothing_appended(director, event, api, body, code):
    before = Event.objects.count()
    with pytest.raises(TournamentError) as refused:
        services.tournament_command(actor=director, tournament=event, command={"type": "set_round_clock", **body})
    assert refused.value.code == code
    answer = api(director).post(_url(event), {"type": "set_round_clock", **body}, format="json")
    assert answer.status_code == 400, answer.content[:300]
    assert set(answer.json()) & {"round", "minutes", "delay"}  # the field at fault named
    assert Event.objects.count() == before
    assert "clock" not in api(None).get(_url(event, "settings")).json()


def test_only_the_director_or_an_official_sets_a_clock(event, make_user, api):
    player = make_user("pia")
    before = Event.objects.count()
    answer = api(player).post(_url(event), {"type": "set_round_clock", "minutes": 0}, format="json")
    assert answer.status_code == 403 and answer.json()["code"] == "not_permitted"  # before its fields are read
    assert Event.objects.count() == before


def test_the_decider_sets_and_folds_the_clock():
    state = decider.evolve(Facts(), ev.TournamentConfigured({"format": "swiss", "rounds": 3}))
    official = c.Actor(official=True)
    decided = decider.decide(state, c.SetRoundClock(round=2, minutes=40, delay=10, by=official))
    assert decided == [ev.RoundClockSet(2, 40, 10)]
    state = decider.evolve(state, decided[0])
    assert state.config["clock"] == {"2": {"minutes": 40, "delay": 10}}
    assert decider.decide(state, c.SetRoundClock(round=2, minutes=40, delay=10, by=official)) == []
    assert ev.from_payload("RoundClockSet", decided[0].to_payload()) == decided[0]
    assert c.parse({"type": "set_round_clock", "minutes": 40, "delay": 10}) == c.SetRoundClock(minutes=40, delay=10)


def test_the_schema_declares_its_body_and_the_settings_views_clock():
    from drf_spectacular.generators import SchemaGenerator

    schema = SchemaGenerator().get_schema(request=None, public=True)
    body = schema["components"]["schemas"]["SetRoundClock"]
    assert body["properties"]["minutes"]["maximum"] == c.MAX_CLOCK_MINUTES
    assert body["properties"]["delay"]["minimum"] == 0 and set(body["required"]) >= {"minutes", "delay"}
    view = schema["paths"]["/api/tournaments/{id}/settings/"]["get"]["responses"]["200"]
    settings = schema["components"]["schemas"][view["content"]["application/json"]["schema"]["$ref"].rsplit("/")[-1]]
    assert "clock" in settings["properties"]
