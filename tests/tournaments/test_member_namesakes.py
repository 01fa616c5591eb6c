"""A member list naming people the club knows by name alone: the console asks "same person?" instead of making
each import a new player (three "Ines" on the ratings), and remembers the answer."""

import pytest
from django.urls import reverse

from eventlog.models import Event
from players.models import Club, Player
from players.services import player_merge
from tournaments import console, services
from tournaments.selectors import tournament_data

pytestmark = pytest.mark.django_db

EVENING = "Ines\nNadia, nadia@example.org\nOmar,,C007"


@pytest.fixture
def club():
    return Club.objects.create(name="Lyon BG")


@pytest.fixture
def director(make_user, client, club):
    user = make_user("dora", official=True)
    club.directors.add(user)
    client.force_login(user)
    return user


def evening(director, club, name="Thursday"):
    return services.tournament_create(actor=director, name=name, format="single_elimination", club=club,
                                      settings={"lengths": {"main": {"default": 3}}})


def post(client, t, **form):
    response = client.post(reverse("event-console", args=[t.pk]), form, follow=True)
    assert response.status_code == 200
    return response.content.decode()


def entrants(t) -> list[str]:
    return sorted(e["name"] for e in tournament_data(t)["entries"])


def club_players(club) -> list[str]:
    return sorted(Player.objects.filter(club=club).values_list("display_name", flat=True))


def answer(html: str) -> dict:
    """The console's "same person?" form as the page shows it: the asked names by their hidden field, and the
    radio choice the page checked."""
    import re

    form = {}
    for index, name in re.findall(r'name="namesake-(\d+)" value="([^"]*)"', html):
        form[f"namesake-{index}"] = name
        checked = re.search(rf'name="who-{index}" value="([^"]+)" id="[^"]+" checked', html)
        if checked:
            form[f"who-{index}"] = checked.group(1)
    return form


def test_the_same_names_imported_again_are_asked_about_not_made_new_players(client, director, club):
    first, second = evening(director, club), evening(director, club, "Friday")
    post(client, first, action="import", members=EVENING)
    assert club_players(club) == ["Ines", "Nadia", "Omar"]
    before = Event.objects.count()

    html = post(client, second, action="import", members=EVENING)

    # Nadia and Omar are recognised by their e-mail and club id as ever; Ines, by name alone, is asked about
    assert "Same person?" in html and "Nothing was imported yet" in html and "Line 1: Ines" in html
    assert "Line 2" not in html and "Line 3" not in html
    assert club_players(club) == ["Ines", "Nadia", "Omar"]
    assert entrants(second) == [] and Event.objects.count() == before


def test_same_person_enters_the_member_and_the_next_import_asks_no_more(client, director, club):
    first, second, third = evening(director, club), evening(director, club, "Friday"), evening(director, club, "Sat")
    post(client, first, action="import", members=EVENING)
    ines = Player.objects.get(club=club, display_name="Ines")
    html = post(client, second, action="import", members=EVENING)
    form = answer(html)
    assert form == {"namesake-1": "Ines", "who-1": str(ines.pk)}  # the one member of that name, chosen to begin with

    html = post(client, second, action="import", members=EVENING, **form)

    assert "3 members entered" in html and "Same person?" not in html
    assert entrants(second) == ["Ines", "Nadia", "Omar"] and club_players(club) == ["Ines", "Nadia", "Omar"]
    html = post(client, third, action="import", members=EVENING)
    assert "3 members entered" in html and "Same person?" not in html
    assert "Recognised by their name, as confirmed at an earlier import: Ines." in html
    assert entrants(third) == ["Ines", "Nadia", "Omar"] and club_players(club) == ["Ines", "Nadia", "Omar"]


def test_a_different_person_is_a_new_player_with_a_name_that_tells_them_apart(client, director, club):
    first, second = evening(director, club), evening(director, club, "Friday")
    post(client, first, action="import", members=EVENING)
    post(client, second, action="import", members=EVENING)
    before = Event.objects.count()

    html = post(client, second, action="import", members=EVENING, **{"namesake-1": "Ines", "who-1": "new",
                                                                       "new_name-1": "ines "})
    assert "Nothing was imported" in html and "ines is taken already" in html
    assert "Same person?" in html  # the question stays, with the answer given
    assert 'id="who-1-new" checked' in html and 'value="ines "' in html
    assert club_players(club) == ["Ines", "Nadia", "Omar"] and Event.objects.count() == before

    html = post(client, second, action="import", members=EVENING, **{"namesake-1": "Ines", "who-1": "new",
                                                                       "new_name-1": "Ines  Bouzid"})
    assert "3 members entered" in html and "Same person?" not in html
    assert entrants(second) == ["Ines Bouzid", "Nadia", "Omar"]
    assert club_players(club) == ["Ines", "Ines Bouzid", "Nadia", "Omar"]
    assert not Player.objects.get(display_name="Ines").name_confirmed  # "Ines" alone is still asked about


@pytest.mark.parametrize("line", ["  INÈS ", "ines", "Inés", "Ines, ines.b@example.org", "Ines,,C999"])
def test_a_name_is_matched_case_accents_and_spacing_aside_when_nothing_else_decides(client, director, club, line):
    Player.objects.create(display_name="Ines", club=club, email="ines@example.org", club_member_id="C001")
    t = evening(director, club)
    html = post(client, t, action="import", members=line)
    assert "Same person?" in html and "ines@example.org" in html and "club id C001" in html
    assert Player.objects.filter(club=club).count() == 1 and entrants(t) == []


def test_a_namesake_in_another_club_is_another_person(client, director, club):
    Player.objects.create(display_name="Ines", club=Club.objects.create(name="Paris BG"))
    t = evening(director, club)
    html = post(client, t, action="import", members="Ines")
    assert "1 members entered" in html and "Same person?" not in html
    assert Player.objects.filter(display_name="Ines").count() == 2


def test_duplicates_merged_already_are_one_person_to_choose(client, director, club, django_user_model):
    kept = Player.objects.create(display_name="Ines", club=club)
    duplicate = Player.objects.create(display_name="INES", club=club)
    registrar = django_user_model.objects.create_superuser("registrar", password="pw-registrar")
    player_merge(actor=registrar, kept_id=kept.pk, duplicate_ids=[duplicate.pk], reason="one person")
    t = evening(director, club)
    html = post(client, t, action="import", members="Ines")
    assert answer(html) == {"namesake-1": "Ines", "who-1": str(kept.pk)}
    assert f'id="who-1-{duplicate.pk}"' not in html


def test_several_namesakes_choose_none_to_begin_with_and_an_unanswered_line_is_asked_again(client, director, club):
    first = Player.objects.create(display_name="Ines", club=club)
    Player.objects.create(display_name="Inès", club=club)
    t = evening(director, club)
    html = post(client, t, action="import", members="Ines\nKarim")
    assert answer(html) == {"namesake-1": "Ines"}  # two members of that name: nothing chosen for the director
    assert "Several members go by this name: if they are one person, an official merges their entries" in html
    html = post(client, t, action="import", members="Ines\nKarim", **answer(html))
    assert "Same person?" in html and entrants(t) == []
    html = post(client, t, action="import", members="Ines\nKarim", **{"namesake-1": "Ines", "who-1": str(first.pk)})
    assert "2 members entered" in html and entrants(t) == ["Ines", "Karim"]


def test_cancel_drops_the_waiting_list(client, director, club):
    Player.objects.create(display_name="Ines", club=club)
    t = evening(director, club)
    post(client, t, action="import", members="Ines")
    html = post(client, t, action="import_cancel")
    assert "Import cancelled" in html and "Same person?" not in html and "namesake-1" not in html
    html = client.get(reverse("event-console", args=[t.pk])).content.decode()
    assert "Same person?" not in html


@pytest.mark.parametrize("choice, why", [
    (console.Choice(None, "   "), "line 1: a name of 1 to 80 characters for the new player"),
    (console.Choice(None, "I" * 81), "line 1: a name of 1 to 80 characters for the new player"),
    (console.Choice(None, "Karim"), "Karim is taken already"),  # the name of another line of the list
    (console.Choice(None, "Omar"), "Omar is taken already"),  # a member's name
    (console.Choice(123456789), "player 123456789 is not a member called Ines"),
])
def test_a_bad_answer_is_refused_and_changes_nothing(director, club, choice, why):
    Player.objects.create(display_name="Ines", club=club)
    Player.objects.create(display_name="Omar", club=club)
    t = evening(director, club)
    before = (Event.objects.count(), Player.objects.count())
    with pytest.raises(console.ImportRefused, match=why):
        console.console_import(actor=director, tournament=t, text="Ines\nKarim", choices={"ines": choice})
    assert (Event.objects.count(), Player.objects.count()) == before


def test_a_faulty_list_is_refused_before_anything_is_asked(client, director, club):
    Player.objects.create(display_name="Ines", club=club)
    t = evening(director, club)
    for text, why in (("Ines\n, x@example.org", "line 2: a name of 1 to 80 characters"),
                      ("Ines\n" + "N" * 81, "line 2: a name of 1 to 80 characters"),
                      ("Inès\nines", "line 2: the same name as line 1")):
        html = post(client, t, action="import", members=text)
        assert "Nothing was imported" in html and why in html and "Same person?" not in html
    assert Player.objects.filter(club=club).count() == 1 and entrants(t) == []


def test_an_event_of_no_club_asks_about_the_players_of_no_club(client, director, club):
    t = services.tournament_create(actor=director, name="Open", format="single_elimination",
                                   settings={"lengths": {"main": {"default": 3}}})
    Player.objects.create(display_name="Ines", club=club)
    Player.objects.create(display_name="Zoe")
    html = post(client, t, action="import", members="Ines\nZoe")
    assert "Line 2: Zoe" in html and "Line 1" not in html
