"""The director's event form (/events/new/, /events/{id}/settings/): an event created and set up without the admin,
each format showing only its own settings, with errors that name the setting; after the draw, the settings the
event reads as it goes on (late entry, rounds, tie-breaks) still change from the console, the draw's shape does not."""

import re

import pytest
from django.urls import reverse

from players.models import Club, Player
from tournaments import console, services
from tournaments.models import Tournament
from tournaments.selectors import tournament_facts

pytestmark = pytest.mark.django_db

NEW = "/events/new/"


@pytest.fixture
def director(make_user, client):
    """A club's director: no admin rights, no official's."""
    user = make_user("dora")
    club = Club.objects.create(name="Backgammon Club de Lyon")
    club.directors.add(user)
    client.force_login(user)
    return user


def form(**fields):
    return {"name": "Club night", "format": "single_elimination", "club": Club.objects.get().pk, "dice": "server",
            "published": "on", "rated": "on", **fields}


def config_of(name: str) -> dict:
    return tournament_facts(Tournament.objects.get(name=name)).config


def shown(page: str) -> set[str]:
    """The ids of the form's rows the page shows (those of the other formats are there, hidden)."""
    return {m for m in re.findall(r'<div class="field[^"]*" id="row-([a-z0-9_]+)"(?![^>]*hidden)', page)}


def test_the_home_page_leads_a_director_to_a_new_event_and_to_their_events(client, director):
    services.tournament_create(actor=director, name="Last week", format="swiss", club=Club.objects.get(),
                               settings={"rounds": 3})
    page = client.get("/").content.decode()
    assert f'href="{NEW}"' in page and 'href="/events/1/run/"'.replace("1", str(Tournament.objects.get().pk)) in page
    client.logout()
    assert f'href="{NEW}"' not in client.get("/").content.decode()


def test_each_format_shows_only_its_own_settings(client, director):
    knockout = shown(client.get(NEW).content.decode())
    assert {"consolation", "last_chance", "main_default", "main_final", "main_rounds",
            "reentry_until_round"} <= knockout
    assert not knockout & {"rounds", "late_entry_until_round", "cycles", "groups", "reset", "reach", "division_size"}
    # without the script, the format's button posts the form back: the new format's settings, nothing created
    swiss = shown(client.post(NEW, {**form(format="swiss"), "show_format": "1"}).content.decode())
    assert {"rounds", "late_entry_until_round", "late_entry_points", "auto_pair", "tiebreak_1", "qualifiers"} <= swiss
    assert not swiss & {"consolation", "last_chance", "cycles", "groups", "reset", "reach"}
    robin = shown(client.post(NEW, {**form(format="round_robin"), "show_format": "1"}).content.decode())
    assert {"cycles", "groups", "qualifiers", "tiebreak_1"} <= robin and "rounds" not in robin
    double = shown(client.post(NEW, {**form(format="double_elimination"), "show_format": "1"}).content.decode())
    assert {"winners_default", "losers_default", "grand_final_default", "reset"} <= double
    assert not double & {"consolation", "main_default", "rounds"}
    assert not Tournament.objects.exists()  # showing a format's settings creates nothing


def test_a_single_elimination_with_flights_lengths_per_bracket_and_round(client, director):
    answer = client.post(NEW, form(main_default="5", main_final="9", main_rounds="2: 7", consolation="on",
                                   consolation_feeds="2", consolation_default="3", last_chance="on",
                                   last_chance_default="1", starts_on="2031-05-06"))
    event = Tournament.objects.get(name="Club night")
    assert answer.status_code == 302 and answer["Location"] == reverse("event-console", args=[event.pk])
    c = config_of("Club night")
    assert c["lengths"] == {"main": {"default": 5, "final": 9, "rounds": {"2": 7}}, "consolation": {"default": 3},
                            "last_chance": {"default": 1}}
    assert c["consolation"] is True and c["consolation_feeds"] == 2 and c["last_chance"] is True
    assert event.director == director and event.club.name == "Backgammon Club de Lyon"
    assert str(event.starts_on) == "2031-05-06" and event.published


def test_a_swiss_with_late_entry_and_its_tiebreaks(client, director):
    answer = client.post(NEW, form(name="Swiss", format="swiss", rounds="5", rounds_default="3",
                                   late_entry_until_round="3", late_entry_points="0.5", tiebreak_1="sonneborn_berger",
                                   tiebreak_2="buchholz", auto_pair="on", published=""))
    assert answer.status_code == 302
    c = config_of("Swiss")
    assert c["rounds"] == 5 and c["late_entry_until_round"] == 3 and c["late_entry_points"] == 0.5
    assert c["tiebreaks"] == ["sonneborn_berger", "buchholz"] and c["lengths"]["rounds"] == {"default": 3}
    assert "consolation" not in c and not Tournament.objects.get(name="Swiss").published


@pytest.mark.parametrize("fields, row, message", [
    ({"main_default": "4"}, "main_default", "odd number of points"),
    ({"main_rounds": "2 - 5"}, "main_rounds", "Write each round as round: length"),
    ({"last_chance": "on"}, "last_chance", "A Last Chance is fed by the Consolation: tick Consolation too."),
    ({"consolation": "on", "reentry_until_round": "1"}, "reentry_until_round", "choose one"),
    ({"format": "swiss"}, "rounds", "A Swiss event needs its number of rounds."),
    ({"format": "swiss", "rounds": "3", "tiebreak_1": "buchholz", "tiebreak_2": "buchholz"}, "tiebreak_2",
     "Each tie-break once."),
    ({"format": "round_robin", "reentry_until_round": "1"}, "reentry_until_round", "give how many qualify"),
])
def test_a_setting_the_formats_refuse_is_an_error_beside_it_and_creates_nothing(client, director, fields, row,
                                                                                message):
    page = client.post(NEW, form(**fields)).content.decode()
    assert f'id="row-{row}"' in page and message in page
    error_at = page.index('class="field-error"')
    assert page.rindex(f'id="row-{row}"', 0, error_at) > page.rindex('<div class="field', 0, error_at) - 1
    assert 'role="alert"' in page and not Tournament.objects.exists()


def test_a_member_who_directs_no_club_gets_no_form(client, make_user, settings):
    settings.CASUAL_EVENTS = False
    client.force_login(make_user("mia"))
    assert client.get(NEW).status_code == 403
    assert client.post(NEW, {"name": "Mine", "format": "swiss", "rounds": "3"}).status_code == 403
    assert not Tournament.objects.exists()


def test_late_entry_set_from_the_console_after_the_draw_and_said_as_it_is(client, director):
    """The tester's evening: late entry could not be set from the console, and "late entry closed after round 3"
    read as if round 3 were long over. Now the console says when it closes (when round N is paired), links to the
    setting, and the setting changes after the draw."""
    t = services.tournament_create(actor=director, name="Swiss night", format="swiss", club=Club.objects.get(),
                                   settings={"rounds": 4, "lengths": {"rounds": {"default": 1}}})
    for i in range(6):
        services.tournament_command(actor=director, tournament=t, command={
            "type": "enter", "player": Player.objects.create(display_name=f"P{i}").pk})
    console.console_command(actor=director, tournament=t, command={"type": "draw", "method": "random"})
    run = reverse("event-console", args=[t.pk])
    page = client.get(run).content.decode()
    assert "This event takes no late entries: its settings name no round for them." in page
    settings_url = reverse("event-settings", args=[t.pk])
    assert f'href="{settings_url}#id_late_entry_until_round"' in page

    edit = client.get(settings_url).content.decode()
    assert 'name="late_entry_until_round"' in edit and "The draw is made" in edit
    assert re.search(r'<input[^>]*name="rounds_default"[^>]*disabled', edit)  # the draw's shape: shown, fixed
    assert not re.search(r'<input[^>]*name="late_entry_until_round"[^>]*disabled', edit)
    values = {"name": "Swiss night", "dice": "server", "published": "on", "rounds": "4", "late_entry_until_round": "2",
              "auto_pair": "on", "tiebreak_1": "buchholz", "tiebreak_2": "median_buchholz",
              "tiebreak_3": "sonneborn_berger", "rounds_default": "99"}  # a fixed setting posted anyway: kept as it was
    answer = client.post(settings_url, values)
    assert answer.status_code == 302 and answer["Location"] == run
    c = tournament_facts(t).config
    assert c["late_entry_until_round"] == 2 and c["lengths"]["rounds"] == {"default": 1}
    page = client.get(run).content.decode()
    assert "Late entry is open until round 2 is paired: a player entered now plays from round 2." in page
    late = Player.objects.create(display_name="Latecomer")
    page = client.post(run, {"action": "enter", "player": late.pk}, follow=True).content.decode()
    assert "Done: enter the player." in page

    # round 2 paired: closed, and said so
    data = tournament_facts(t)
    for slot, link in data.matches.items():
        if slot.startswith("swiss:r1"):
            console.console_command(actor=director, tournament=t, command={
                "type": "report_result", "slot": slot, "winner": link["players"][0], "score": [1, 0]})
    assert len(tournament_facts(t).rounds) == 2
    page = client.get(run).content.decode()
    assert "Late entry closed: round 2, the last a late entrant may join, has been paired." in page
    page = client.post(run, {"action": "enter", "player": Player.objects.create(display_name="Too late").pk},
                       follow=True).content.decode()
    assert "late entry closed: round 2, the last a late entrant may join, has been paired" in page
    assert "after round" not in page

    # fewer rounds than are paired: refused, said on the form, nothing changed
    page = client.post(settings_url, {**values, "rounds": "1"}).content.decode()
    assert "round 2 has been paired: the event has at least 2 rounds" in page
    assert tournament_facts(t).config["rounds"] == 4


def test_an_events_name_date_and_settings_change_before_the_draw(client, director):
    client.post(NEW, form(name="Thursday", format="round_robin", cycles="1", rounds_default="3"))
    t = Tournament.objects.get(name="Thursday")
    url = reverse("event-settings", args=[t.pk])
    edit = client.get(url).content.decode()
    assert 'value="Thursday"' in edit and "disabled" in edit.split('name="format"')[1][:200]
    answer = client.post(url, {"name": "Thursday open", "dice": "board", "cycles": "2", "groups": "2",
                               "rounds_default": "5", "starts_on": "2031-01-02", "published": "on"})
    assert answer.status_code == 302
    t.refresh_from_db()
    c = tournament_facts(t).config
    assert t.name == "Thursday open" and str(t.starts_on) == "2031-01-02"
    assert c["cycles"] == 2 and c["groups"] == 2 and c["dice"] == "board" and c["lengths"]["rounds"]["default"] == 5
    assert c["format"] == "round_robin"


def test_a_ladder_and_a_league_with_their_own_rules(client, director):
    ladder = shown(client.post(NEW, {**form(format="ladder"), "show_format": "1"}).content.decode())
    assert {"reach", "on_win", "challenge_days", "refused", "ladder_unplayed", "rounds_default"} <= ladder
    assert not ladder & {"division_size", "league_unplayed", "tiebreak_1", "cycles", "main_default"}
    created = client.post(NEW, form(name="Ladder", format="ladder", reach="2", on_win="swap", challenge_days="7",
                                    refused="cancelled", ladder_unplayed="cancelled", rounds_default="5"))
    assert created.status_code == 302
    c = config_of("Ladder")
    assert (c["reach"], c["on_win"], c["challenge_days"], c["refused"], c["unplayed"]) == (2, "swap", 7, "cancelled",
                                                                                          "cancelled")
    assert c["lengths"] == {"rounds": {"default": 5}}
    assert client.post(NEW, form(name="League", format="league", division_size="6", promote="2", relegate="2",
                                 round_days="14", league_unplayed="void", cycles="2",
                                 tiebreak_1="points_diff")).status_code == 302
    c = config_of("League")
    assert (c["division_size"], c["promote"], c["relegate"], c["round_days"], c["unplayed"], c["cycles"]) == (
        6, 2, 2, 14, "void", 2)
    assert c["tiebreaks"] == ["points_diff"] and "reach" not in c


def test_a_team_event_with_its_boards_reserves_and_board_order(client, director):
    teams = shown(client.post(NEW, {**form(format="team_round_robin"), "show_format": "1"}).content.decode())
    assert {"boards", "reserves", "fixed_order", "rounds_default"} <= teams
    assert not teams & {"tiebreak_1", "cycles", "main_default", "reach"}
    # the WBIF's team championship: five boards and a reserve, the board order fixed for the event
    created = client.post(NEW, form(name="Teams", format="team_round_robin", boards="5", reserves="1",
                                    fixed_order="on", rounds_default="9"))
    assert created.status_code == 302
    c = config_of("Teams")
    assert (c["boards"], c["reserves"], c.get("fixed_order", True), c["lengths"]) == (5, 1, True, {"rounds": {"default": 9}})
    assert client.post(NEW, form(name="Free order", format="team_round_robin", boards="3")).status_code == 302
    assert config_of("Free order")["fixed_order"] is False  # unticked: each team sets its order for each match
