"""Clocks required, allowed or not used, by round, bracket or for the whole event, with a preset: the director's
rule (``set_round_clock``, a ``RoundClockSet`` in the event's stream) shown in its settings view, and given to each
slot's match when it is created. A required clock is set with the match; an allowed one is set at the start of a
game with the round's preset; where clocks are not used none is set. A bad rule is refused with its code and
nothing is appended; a rule stored in the first shape (minutes and a delay) reads as today's."""

from __future__ import annotations

import pytest

from eventlog.models import Event
from games import clocks
from games import commands as match_commands
from games.command_handler import match_command
from games.errors import BadCommand
from games.errors import Reason as MatchReason
from games.loading import match_load
from players.models import Player
from tournaments import commands as c
from tournaments import decider, services
from tournaments import events as ev
from tournaments.refusals import Reason, TournamentError, TournamentRefusal
from tournaments.stream import Facts, stream_id_of

from .test_running_events import settle

pytestmark = pytest.mark.django_db
MINUTE = 60_000


@pytest.fixture
def director(make_user):
    return make_user("dora", official=True)


@pytest.fixture
def event(director):
    return services.tournament_create(actor=director, name="Swiss night", format="swiss", settings={"rounds": 5})


@pytest.fixture
def server_time(monkeypatch):
    clock = {"at": 1_800_000_000_000}
    monkeypatch.setattr(clocks, "now", lambda: clock["at"])
    return clock


def _url(t, what="commands"):
    return f"/api/tournaments/{t.pk}/{what}/"


def _logged(t) -> list[tuple[str, dict]]:
    return [(e.event_type, e.payload) for e in Event.objects.filter(stream_id=stream_id_of(t.pk)).order_by("version")]


def _set(director, t, **body):
    return services.tournament_command(actor=director, tournament=t, command={"type": "set_round_clock", **body})


def test_the_director_sets_the_events_rule_and_a_rounds_and_the_settings_view_shows_them(director, event, api):
    client = api(director)
    answer = client.post(_url(event), {"type": "set_round_clock", "use": "allowed", "preset": "uk"}, format="json")
    assert answer.status_code == 200, answer.content[:300]
    assert answer.json()["appended"] == [{"type": "RoundClockSet", "payload": {
        "round": None, "bracket": "", "rule": {"use": "allowed", "preset": "uk"}}}]
    assert client.post(_url(event), {"type": "set_round_clock", "round": 5, "use": "required", "preset": "us"},
                       format="json").status_code == 200
    custom = {"type": "set_round_clock", "bracket": "swiss", "round": 4, "use": "required", "preset": "custom",
              "per_match": 1800, "delay": 10}
    assert client.post(_url(event), custom, format="json").status_code == 200
    settings = api(None).get(_url(event, "settings")).json()
    assert settings["clock"] == {
        "default": {"use": "allowed", "preset": "uk"}, "5": {"use": "required", "preset": "us"},
        "swiss:4": {"use": "required", "preset": "custom", "per_match": 1800, "per_point": 0, "per_scored": 0,
                    "delay": 10, "overtime": 0}}
    assert settings["rounds"] == 5  # beside the director's settings

    # a later rule replaces the key's; the same again appends nothing
    client.post(_url(event), {"type": "set_round_clock", "round": 5, "use": "none"}, format="json")
    count = Event.objects.count()
    again = client.post(_url(event), {"type": "set_round_clock", "round": 5, "use": "none"}, format="json")
    assert again.status_code == 200 and again.json()["appended"] == [] and Event.objects.count() == count
    assert api(None).get(_url(event, "settings")).json()["clock"]["5"] == {"use": "none"}


def test_the_rule_outlives_a_change_of_settings_and_is_not_a_setting_one_sends(director, event):
    _set(director, event, use="required", preset="aba")
    services.tournament_configure(actor=director, tournament=event, settings={"rounds": 6})
    facts = services.tournament_facts(event)
    assert facts.config["rounds"] == 6 and facts.config["clock"] == {"default": {"use": "required", "preset": "aba"}}
    with pytest.raises(TournamentError) as refused:  # set by its command only: the settings do not take it
        services.tournament_configure(actor=director, tournament=event,
                                      settings={"rounds": 6, "clock": {"default": {"use": "none"}}})
    assert refused.value.code == TournamentRefusal.BAD_EVENT


@pytest.mark.parametrize("body, reason", [
    ({"preset": "us"}, Reason.FIELD_CHOICE),  # no use
    ({"use": "sometimes", "preset": "us"}, Reason.FIELD_CHOICE),
    ({"use": "required"}, Reason.CLOCK_PRESET_NEEDED),
    ({"use": "none", "preset": "us"}, Reason.CLOCK_PRESET_NEEDED),
    ({"use": "allowed", "preset": "fide"}, Reason.FIELD_CHOICE),
    ({"use": "required", "preset": "custom"}, Reason.CLOCK_FIGURES_CUSTOM),
    ({"use": "required", "preset": "custom", "per_scored": 60}, Reason.CLOCK_FIGURES_CUSTOM),
    ({"use": "required", "preset": "us", "delay": 5}, Reason.CLOCK_FIGURES_CUSTOM),
    ({"use": "required", "preset": "custom", "per_point": -1}, Reason.FIELD_WHOLE),
    ({"use": "required", "preset": "custom", "per_point": 86_401}, Reason.FIELD_WHOLE),
    ({"use": "required", "preset": "custom", "per_point": 120.5}, Reason.FIELD_WHOLE),
    ({"use": "required", "preset": "custom", "per_point": True}, Reason.FIELD_WHOLE),
    ({"use": "required", "preset": "us", "bracket": "Main!"}, Reason.CLOCK_BRACKET),
    ({"use": "required", "preset": "us", "bracket": 3}, Reason.CLOCK_BRACKET),
    ({"use": "required", "preset": "us", "round": 0}, Reason.FIELD_WHOLE),
    ({"use": "required", "preset": "us", "round": "2"}, Reason.FIELD_WHOLE),
])
def test_a_bad_rule_is_refused_with_its_reason_and_nothing_appended(director, event, api, body, reason):
    before = Event.objects.count()
    with pytest.raises(TournamentError) as refused:
        _set(director, event, **body)
    assert refused.value.reason == reason
    answer = api(director).post(_url(event), {"type": "set_round_clock", **body}, format="json")
    assert answer.status_code == 400, answer.content[:300]
    assert Event.objects.count() == before
    assert "clock" not in api(None).get(_url(event, "settings")).json()


def test_only_the_director_or_an_official_sets_a_rule(event, make_user, api):
    player = make_user("pia")
    before = Event.objects.count()
    answer = api(player).post(_url(event), {"type": "set_round_clock", "use": "x"}, format="json")
    assert answer.status_code == 403 and answer.json()["code"] == "not_permitted"  # before its fields are read
    assert Event.objects.count() == before


def test_the_decider_decides_and_folds_a_rule_and_a_match_takes_the_most_particular():
    state = decider.evolve(Facts(), ev.TournamentConfigured({"format": "single_elimination"}))
    official = c.Actor(official=True)
    for command in (c.SetRoundClock(use="allowed", preset="uk", by=official),
                    c.SetRoundClock(use="required", preset="us", round=3, by=official),
                    c.SetRoundClock(use="none", bracket="consolation", by=official),
                    c.SetRoundClock(use="required", preset="aba", bracket="consolation", round=3, by=official)):
        decided = decider.decide(state, command)
        assert len(decided) == 1 and ev.from_payload("RoundClockSet", decided[0].to_payload()) == decided[0]
        state = decider.evolve(state, decided[0])
    assert decider.decide(state, c.SetRoundClock(use="none", bracket="consolation", by=official)) == []
    assert ev.clock_rule_for(state.config, "main", 1) == {"use": "allowed", "preset": "uk"}
    assert ev.clock_rule_for(state.config, "main", 3) == {"use": "required", "preset": "us"}
    assert ev.clock_rule_for(state.config, "consolation", 2) == {"use": "none"}
    assert ev.clock_rule_for(state.config, "consolation", 3) == {"use": "required", "preset": "aba"}
    assert ev.clock_rule_for({}, "main", 1) is None
    assert c.parse({"type": "set_round_clock", "use": "none"}) == c.SetRoundClock(use="none")


def test_a_rule_stored_in_the_first_shape_reads_as_an_allowed_custom_clock(director, event):
    """The first shape gave a flat budget in minutes and a delay: its row, never edited, reads as a custom clock of
    that many minutes for the match, allowed."""
    from eventlog import store

    facts = services.tournament_facts(event)
    store.append(stream_id=stream_id_of(event.pk), stream_type=ev.STREAM_TYPE, expected_version=facts.version,
                 events=[store.NewEvent("RoundClockSet", {"round": 2, "minutes": 30, "delay": 12}, 1)])
    rule = services.tournament_facts(event).config["clock"]["2"]
    assert rule == {"use": "allowed", "preset": "custom", "per_match": 1800, "per_point": 0, "per_scored": 0,
                    "delay": 12, "overtime": 0}
    assert _logged(event)[-1] == ("RoundClockSet", {"round": 2, "minutes": 30, "delay": 12})  # the row as stored


def _knockout(director, rules: list[dict], **settings):
    event = services.tournament_create(actor=director, name="Clocked knockout", format="single_elimination",
                                       settings={"lengths": {"main": {"default": 3}}, "dice": "board", **settings})
    for rule in rules:
        _set(director, event, **rule)
    players = [Player.objects.create(display_name=name) for name in ("Ada", "Bruno", "Cleo", "Dmitri")]
    for p in players:
        services.tournament_command(actor=director, tournament=event, command={"type": "enter", "player": p.pk})
    services.tournament_command(actor=director, tournament=event,
                                command={"type": "draw", "method": "manual", "seeds": [p.pk for p in players]})
    settle(event)
    facts = services.tournament_facts(event)
    return event, [facts.matches[k]["match_id"] for k in ("main:r1:m1", "main:r1:m2")]


def _send(director, match_id: str, command):
    return match_command(actor=director, stream_id=match_id, command=command,
                         expected_version=match_load(match_id).version)


def test_a_required_clock_is_set_with_each_match_of_its_round_standing_still_until_the_opening_roll(
        director, server_time, api):
    event, (first, second) = _knockout(director, [{"use": "required", "preset": "us", "round": 1},
                                                  {"use": "none", "round": 2}])
    for match_id in (first, second):
        record = match_load(match_id)
        assert record.clock_rule == {"use": "required", "preset": "us"}
        clock = record.state.clock
        assert clock.preset.name == "us" and clock.reserves == (6 * MINUTE, 6 * MINUTE)  # 2 min a point, 3 points
        assert clock.running is None
    server_time["at"] += 10 * MINUTE  # nobody has rolled: nothing runs
    answer = api(director).get(f"/api/matches/{first}/").json()
    assert answer["clock"]["reserves"] == [6 * MINUTE, 6 * MINUTE]
    assert answer["clock_rule"] == {"use": "required", "preset": "us"}
    _send(director, first, match_commands.RollDice(dice=(3, 1)))  # seat 0's 3: seat 1 presses, seat 0's runs
    _send(director, first, match_commands.PressClock(1))
    server_time["at"] += 20_000
    assert match_load(first).state.clock.shown(server_time["at"])[0] == (6 * MINUTE - 8_000, 6 * MINUTE)


def test_an_allowed_clock_takes_its_rounds_preset_and_no_other(director, server_time):
    event, (first, second) = _knockout(director, [{"use": "allowed", "preset": "custom", "per_match": 1200,
                                                   "delay": 8}])
    assert match_load(first).state.clock is None  # the players' choice
    before = Event.objects.filter(stream_id=first).count()
    for other in (match_commands.SetClock("us"), match_commands.SetClock("custom", per_match=1200, delay=9)):
        with pytest.raises(BadCommand) as refused:
            _send(director, first, other)
        assert refused.value.reason == MatchReason.CLOCK_OF_ROUND
    assert Event.objects.filter(stream_id=first).count() == before
    _send(director, first, match_commands.SetClock())  # the round's
    clock = match_load(first).state.clock
    assert clock.preset.name == "custom" and clock.reserves == (20 * MINUTE, 20 * MINUTE)
    assert clock.preset.delay == 8_000
    _send(director, second, match_commands.SetClock("custom", per_match=1200, delay=8))  # the round's, said whole
    assert match_load(second).state.clock.reserves == (20 * MINUTE, 20 * MINUTE)


def test_where_clocks_are_not_used_none_is_set(director, server_time, api):
    event, (first, _) = _knockout(director, [{"use": "none"}])
    assert match_load(first).state.clock is None
    before = Event.objects.filter(stream_id=first).count()
    answer = api(director).post(f"/api/matches/{first}/commands/", {
        "type": "set_clock", "preset": "us", "expected_version": match_load(first).version}, format="json")
    assert answer.status_code == 400 and answer.json()["code"] == "bad_command", answer.content[:300]
    assert answer.json()["detail"] == "this round is played without clocks"
    french = api(director).post(f"/api/matches/{first}/commands/", {
        "type": "set_clock", "expected_version": match_load(first).version}, format="json",
        HTTP_ACCEPT_LANGUAGE="fr")
    assert french.status_code == 400 and "sans pendule" in french.json()["detail"], french.content[:300]
    assert Event.objects.filter(stream_id=first).count() == before


def test_a_match_outside_any_rule_takes_any_clock_and_one_named_is_needed(director, server_time):
    event, (first, _) = _knockout(director, [])
    assert match_load(first).clock_rule is None
    with pytest.raises(BadCommand) as refused:
        _send(director, first, match_commands.SetClock())
    assert refused.value.reason == MatchReason.CLOCK_PRESET
    _send(director, first, match_commands.SetClock("custom", per_match=600))
    assert match_load(first).state.clock.reserves == (10 * MINUTE, 10 * MINUTE)


def test_the_schema_declares_the_body_and_the_settings_views_clock():
    from drf_spectacular.generators import SchemaGenerator

    schema = SchemaGenerator().get_schema(request=None, public=True)
    body = schema["components"]["schemas"]["SetRoundClock"]
    assert set(body["required"]) == {"type", "use"} and body["properties"]["per_point"]["maximum"] == 24 * 3600
    view = schema["paths"]["/api/tournaments/{id}/settings/"]["get"]["responses"]["200"]
    settings = schema["components"]["schemas"][view["content"]["application/json"]["schema"]["$ref"].rsplit("/")[-1]]
    assert "clock" in settings["properties"]
