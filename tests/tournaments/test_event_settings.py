"""An event's settings declared once (``tournaments.config.EventSettings``): what the services store, the API's
settings body and its settings view, and the bounds of the director's forms all come from that one declaration; a
configuration stored before it existed reads as it was stored."""

from __future__ import annotations

import pytest

from eventlog import store
from eventlog.store import NewEvent
from tournaments import admin, config, event_form, selectors, services
from tournaments.api import EventSettingsSerializer, SettingsSerializer
from tournaments.models import Tournament
from tournaments.stream import STREAM_TYPE, stream_id_of

pytestmark = pytest.mark.django_db


def test_the_settings_are_stored_as_they_were_given_checked_and_nothing_else():
    given = {"rounds": 5, "late_entry_points": 0.5, "tiebreaks": ["buchholz"], "lengths": {"main": {"rounds": {"02": 5}}}}
    assert config.checked("swiss", given) == {"rounds": 5, "late_entry_points": 0.5, "tiebreaks": ["buchholz"],
                                              "lengths": {"main": {"rounds": {"2": 5}}}}
    R = config.Reason
    for fmt, bad, reason, params in [
            ("swiss", {"rounds": 100}, R.WHOLE, {"name": "rounds", "low": 1, "high": 99}),
            ("swiss", {"rounds": True}, R.WHOLE, {"name": "rounds", "low": 1, "high": 99}),
            ("ladder", {"unplayed": "void"}, R.CHOICE, {"key": "unplayed", "choices": "walkover or cancelled"}),
            ("league", {"unplayed": "void", "reach": 2}, R.LADDERS_OWN, {"key": "reach"}),
            ("swiss", {"colour": "red"}, R.UNKNOWN, {"key": "colour", "keys": ", ".join(config.KEYS)}),
            ("swiss", {"lengths": {"main": {"rounds": {"²": 5}}}}, R.ROUND_NUMBER, {"name": "lengths.main", "most": 99}),
            ("swiss", {"rounds": 3, "dice": "mine"}, R.DICE, {}),
            ("single_elimination", {"last_chance": True}, R.LAST_CHANCE_NEEDS_CONSOLATION, {})]:
        with pytest.raises(config.SettingsError) as refused:
            config.checked(fmt, bad)
        assert refused.value.reason is reason
        assert {k: refused.value.params.get(k) for k in params} == params


def test_a_refused_setting_is_said_in_the_readers_language_within_the_events_refusal(make_user, api):
    """Nested in the event's refusal, the setting's reason is data too: a French reader reads it all in French."""
    api_client = api(make_user("dora", official=True))
    body = {"name": "Soirée", "format": "single_elimination", "settings": {"last_chance": True}}
    english = api_client.post("/api/tournaments/", body, format="json")
    french = api_client.post("/api/tournaments/", body, format="json", HTTP_ACCEPT_LANGUAGE="fr")
    assert english.status_code == french.status_code == 400
    assert english.json()["code"] == french.json()["code"] == "bad_event"
    assert english.json()["detail"] == ("settings: a Last Chance flight is fed by the Consolation: set consolation "
                                        "too")
    assert french.json()["detail"] == ("réglages : la Dernière chance est alimentée par la Consolante : activez "
                                       "aussi consolation")


def test_a_configuration_stored_before_the_typed_settings_reads_as_it_was_stored(make_user, api):
    """A row as the log holds it (the record's format and limit beside the settings) folds as it always did, and
    the settings view shows it: the typed settings leave the stored JSON as it is."""
    director = make_user("dora", official=True)
    t = Tournament.objects.create(name="Old night", director=director)
    stored = {"format": "ladder", "max_players": 16, "reach": 2, "challenge_days": 10, "unplayed": "cancelled",
              "lengths": {"main": {"default": 5}}}
    store.append(stream_id=stream_id_of(t.pk), stream_type=STREAM_TYPE, expected_version=0,
                 events=[NewEvent("TournamentConfigured", dict(stored), 1),
                         NewEvent("SettingsChanged", {"settings": {**stored, "reach": 3, "max_players": 99}}, 1)])
    facts = selectors.tournament_facts(t)
    assert facts.config == {**stored, "reach": 3}  # the record's limit kept, the director's reach changed
    assert config.EventSettings.stored(facts.config).as_dict() == {
        k: v for k, v in facts.config.items() if k not in ("format", "max_players")}
    answer = api(None).get(f"/api/tournaments/{t.pk}/settings/")
    assert answer.status_code == 200
    assert answer.json() == {"format": "ladder", "reach": 3, "challenge_days": 10, "unplayed": "cancelled",
                             "lengths": {"main": {"default": 5}}}


def test_the_settings_view_shows_the_settings_the_director_gave(make_user, api):
    director = make_user("dora", official=True)
    t = services.tournament_create(actor=director, name="Swiss night", format="swiss",
                                   settings={"rounds": 4, "late_entry_until_round": 2})
    body = api(None).get(f"/api/tournaments/{t.pk}/settings/").json()
    assert body == {"format": "swiss", "rounds": 4, "late_entry_until_round": 2,
                    "tiebreaks": list(services.SWISS_TIEBREAKS)}
    services.tournament_configure(actor=director, tournament=t, settings={"rounds": 5})
    assert api(None).get(f"/api/tournaments/{t.pk}/settings/").json()["rounds"] == 5


def test_the_api_and_the_forms_take_their_settings_and_bounds_from_the_declaration():
    body = SettingsSerializer().fields
    assert set(body) == set(config.SETTINGS)
    assert set(EventSettingsSerializer().fields) >= set(config.SETTINGS) | {"format"}
    for name, setting in config.SETTINGS.items():
        if setting.kind == "whole":
            assert (body[name].min_value, body[name].max_value) == (setting.low, setting.high), name
            form_field = event_form.EventForm.base_fields[name]
            assert (form_field.min_value, form_field.max_value) == (setting.low, setting.high), name
    for name in ("rounds", "groups", "qualifiers", "reach", "challenge_days", "division_size", "round_days"):
        field = admin.TournamentForm.base_fields[name]
        assert (field.min_value, field.max_value) == (config.SETTINGS[name].low, config.SETTINGS[name].high)


def test_what_may_change_after_the_draw_is_said_by_each_setting():
    assert set(config.AFTER_DRAW) == {"rounds", "tiebreaks", "auto_pair", "late_entry_until_round",
                                      "late_entry_points", "dice", "reach", "challenge_days"}
