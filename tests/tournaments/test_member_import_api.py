"""POST /api/tournaments/{id}/members/import/: the console's member list through the API. A line the club knows by
name alone is answered as data (409 same_person, its candidates), never created unasked; ``choices`` resolve it."""

import pytest

from eventlog.models import Event
from players.models import Club, Player
from tournaments import services
from tournaments.selectors import tournament_data

pytestmark = pytest.mark.django_db

EVENING = "Ines\nNadia, nadia@example.org\nOmar,,C007"


@pytest.fixture
def club():
    return Club.objects.create(name="Lyon BG")


@pytest.fixture
def director(make_user, club):
    user = make_user("dora", player=False)
    club.directors.add(user)
    return user


def evening(director, club, name="Thursday"):
    return services.tournament_create(actor=director, name=name, format="single_elimination", club=club,
                                      settings={"lengths": {"main": {"default": 3}}})


def send(api, user, t, members, choices=None):
    body = {"members": members} if choices is None else {"members": members, "choices": choices}
    return api(user).post(f"/api/tournaments/{t.pk}/members/import/", body, format="json")


def names(answer, key="entered") -> list[str]:
    return sorted(p["name"] for p in answer.json()[key])


def test_the_same_list_twice_answers_its_namesakes_and_creates_nobody_until_told(api, director, club):
    first, second, third = evening(director, club), evening(director, club, "Friday"), evening(director, club, "Sat")
    assert send(api, director, first, EVENING).status_code == 201
    ines = Player.objects.get(club=club, display_name="Ines")
    before = (Event.objects.count(), Player.objects.count())

    asked = send(api, director, second, EVENING)

    assert asked.status_code == 409 and asked.json()["code"] == "same_person"
    assert asked.json()["namesakes"] == [{"line": 1, "name": "Ines", "candidates": [
        {"id": ines.pk, "name": "Ines", "email": "", "club_member_id": ""}]}]
    assert (Event.objects.count(), Player.objects.count()) == before and tournament_data(second)["entries"] == []

    answer = send(api, director, second, EVENING, [{"name": "ines", "same_as": ines.pk}])
    assert answer.status_code == 201 and names(answer) == ["Ines", "Nadia", "Omar"]
    assert Player.objects.count() == before[1]

    answer = send(api, director, third, EVENING)  # confirmed once: not asked again
    assert answer.status_code == 201 and names(answer) == ["Ines", "Nadia", "Omar"]
    assert names(answer, "recognised") == ["Ines"] and Player.objects.count() == before[1]


def test_a_different_person_takes_a_name_that_tells_them_apart(api, director, club):
    Player.objects.create(display_name="Inès", club=club)
    t = evening(director, club)
    before = (Event.objects.count(), Player.objects.count())
    refused = send(api, director, t, "INES", [{"name": "INES", "new_name": "Ines"}])
    assert refused.status_code == 400 and refused.json()["code"] == "import_refused"
    assert "Ines is taken already" in refused.json()["detail"]
    assert (Event.objects.count(), Player.objects.count()) == before

    answer = send(api, director, t, "INES", [{"name": "INES", "new_name": "Ines Bouzid"}])
    assert answer.status_code == 201 and names(answer) == ["Ines Bouzid"]
    assert sorted(Player.objects.filter(club=club).values_list("display_name", flat=True)) == ["Ines Bouzid", "Inès"]


def test_a_namesake_in_another_club_is_not_asked_about(api, director, club):
    Player.objects.create(display_name="Ines", club=Club.objects.create(name="Paris BG"))
    answer = send(api, director, evening(director, club), "Ines")
    assert answer.status_code == 201 and Player.objects.filter(display_name="Ines").count() == 2


@pytest.mark.parametrize("members, choices, code, why", [
    ("", None, "invalid", "members"),
    ("Ines\n, x@example.org", None, "import_refused", "line 2: a name of 1 to 80 characters"),
    ("I" * 81, None, "import_refused", "line 1: a name of 1 to 80 characters"),
    ("Ines", [{"name": "Ines"}], "invalid", "same_as"),
    ("Ines", [{"name": "Ines", "same_as": 1, "new_name": "Ines B"}], "invalid", "same_as"),
    ("Ines", [{"name": "Ines", "new_name": ""}], "import_refused", "a name of 1 to 80 characters for the new player"),
    ("Ines", [{"name": "Ines", "same_as": 999999}], "import_refused", "player 999999 is not a member called Ines"),
])
def test_bad_input_is_refused_and_changes_nothing(api, director, club, members, choices, code, why):
    Player.objects.create(display_name="Ines", club=club)
    t = evening(director, club)
    before = (Event.objects.count(), Player.objects.count())
    answer = send(api, director, t, members, choices)
    assert answer.status_code == 400 and why in str(answer.json())
    assert code == "invalid" or answer.json()["code"] == code
    assert (Event.objects.count(), Player.objects.count()) == before


def test_only_the_director_imports_and_an_unknown_event_is_not_found(api, director, club, make_user):
    t = evening(director, club)
    assert send(api, make_user("mallory"), t, "Ines").status_code == 403
    assert api(director).post("/api/tournaments/999999/members/import/", {"members": "Ines"},
                              format="json").status_code == 404
    assert Player.objects.filter(display_name="Ines").count() == 0
