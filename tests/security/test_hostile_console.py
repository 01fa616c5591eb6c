"""The director's console, its printed sheets and its member import under hostile input: every refusal is a page
or a JSON 4xx with its reason, never a 500, and leaves the event log as it was; every console page and action
is the event's director's (or an official's) alone, and every form post needs its CSRF token."""

from __future__ import annotations

import io

import pytest
from django.test import Client
from pypdf import PdfReader

from games.limits import MAX_MATCH_LENGTH
from players.models import Club, Player
from tournaments import console, services
from tournaments.models import Tournament

from .conftest import event_count
from .test_authorization_matrix import _entered, _final

pytestmark = pytest.mark.django_db


def _browser(user=None, **kwargs) -> Client:
    client = Client(**kwargs)
    if user is not None:
        client.force_login(user)
    return client


def _messages(response) -> str:
    """The console's word after a press (its answer to console.js: the messages and the console redrawn)."""
    html = response.content.decode()
    return html.split('id="console-messages">', 1)[1].split("</div>", 1)[0]


# -- the printed score cards -------------------------------------------------------------------------------


@pytest.mark.parametrize("length", [101, MAX_MATCH_LENGTH])
def test_a_score_card_of_the_longest_match_is_printed_on_a_few_pages(world, length):
    """A 32,767-point match (gnubg's limit, so the site's) printed a grid of 65,533 games: minutes of CPU and
    gigabytes of memory for one request. A card stops at a 25-point match's 49 games and says where the rest go."""
    director = world.user("director")
    t = services.tournament_create(actor=director, name="Marathon", format="single_elimination",
                                   settings={"lengths": {"main": {"default": length}}})
    a, b = world.player("player").pk, world.player("opponent").pk
    for pid in (a, b):
        services.tournament_command(actor=director, tournament=t, command={"type": "enter", "player": pid})
    services.tournament_command(actor=director, tournament=t, command={"type": "draw", "method": "manual",
                                                                      "seeds": [a, b]})
    console.settle(t)
    response = _browser(director).get(f"/events/{t.pk}/run/sheets/cards.pdf")
    assert response.status_code == 200 and response["Content-Type"] == "application/pdf"
    pages = PdfReader(io.BytesIO(response.content)).pages
    text = "\n".join(p.extract_text() for p in pages)
    assert len(pages) <= 3, len(pages)
    assert f"match to {length} points" in text and "\n49\n" in text and "\n50\n" not in text
    assert "More than 49 games: continue on a second card." in text


# -- the member list ------------------------------------------------------------------------------------------

BAD_LISTS = {
    "a NUL in a name": "Ann\x00, ann@example.org, A1",
    "a NUL in a club id": "Ann, ann@example.org, A\x001",
    "a NUL alone": "\x00",
    "one cell past the csv module's limit": "x" * 200_000,
    "an unclosed quote": '"' + "a" * 140_000,
}


@pytest.mark.parametrize("what", list(BAD_LISTS))
def test_a_member_list_no_name_could_come_from_is_refused_at_the_console(world, what):
    t = world.event
    before = (event_count(), Player.objects.count())
    response = _browser(world.user("director")).post(f"/events/{t.pk}/run/", {
        "action": "import", "members": BAD_LISTS[what]}, HTTP_X_REQUESTED_WITH="fetch")
    assert response.status_code == 200
    assert "Nothing was imported" in _messages(response)
    assert (event_count(), Player.objects.count()) == before


@pytest.mark.parametrize("what", ["one cell past the csv module's limit", "an unclosed quote"])
def test_a_member_list_no_name_could_come_from_is_refused_by_the_api(world, what):
    t = world.event
    before = (event_count(), Player.objects.count())
    response = world.client("director").post(f"/api/tournaments/{t.pk}/members/import/",
                                             {"members": BAD_LISTS[what]}, format="json")
    assert response.status_code == 400 and response.json()["code"] == "import_refused", response.content[:300]
    assert len(response.content) < 2000
    assert (event_count(), Player.objects.count()) == before


def test_a_pasted_member_list_is_held_to_the_uploads_size(world):
    t = world.event
    lines = "\n".join(f"Member {i}, m{i}@example.org, C{i}" for i in range(10_000))  # some 390 kB
    before = (event_count(), Player.objects.count())
    response = _browser(world.user("director")).post(f"/events/{t.pk}/run/", {"action": "import", "members": lines},
                                                     HTTP_X_REQUESTED_WITH="fetch")
    assert "at most 256 kB" in _messages(response)
    assert (event_count(), Player.objects.count()) == before


# -- a director's reason -----------------------------------------------------------------------------------


@pytest.mark.parametrize("action", ["withdraw", "void_match", "forfeit"])
def test_a_reason_with_a_nul_is_refused_at_the_console_with_nothing_appended(world, action):
    """The console reads its form itself (the API's serializers refuse a NUL): the command refuses it, instead of
    the log's last check ending the press in a 500."""
    _entered(world, draw=True)
    t, slot = world.event, _final(world)
    a, b = world.player("player").pk, world.player("opponent").pk
    form = {"withdraw": {"player": a}, "void_match": {"slot": slot}, "forfeit": {"slot": slot, "forfeit": b}}[action]
    before = event_count()
    response = _browser(world.user("director")).post(f"/events/{t.pk}/run/", {
        "action": action, **form, "reason": "ill\x00"}, HTTP_X_REQUESTED_WITH="fetch")
    assert response.status_code == 200
    assert "NUL" in _messages(response)
    assert event_count() == before
    api = world.client("director").post(f"/api/tournaments/{t.pk}/commands/", {"type": action, **{
        k: v for k, v in form.items() if k != "forfeit"}, **({"loser": b} if action == "forfeit" else {}),
        "reason": "ill\x00"}, format="json")
    assert api.status_code == 400 and event_count() == before


# -- who runs the console ---------------------------------------------------------------------------------

CONSOLE_FORMS = {
    "enter": {}, "check_in": {}, "withdraw": {"reason": "x"}, "draw": {"method": "random"}, "pair_round": {},
    "report_result": {"winner_points": "3", "loser_points": "1"},
    "correct_result": {"winner_points": "3", "loser_points": "1", "reason": "r"}, "forfeit": {},
    "void_match": {"reason": "r"}, "assign_table": {"table": "5"}, "set_table_service": {"table": "3", "in_service": "0"},
    "close_stage": {}, "reenter": {}, "close_reentry": {}, "issue_challenge": {}, "decline_challenge": {"number": "1"},
    "apply_deadlines": {}, "set_rated": {"rated": "0"}, "import": {"members": "Zed, zed@example.org, Z1"},
    "import_cancel": {}, "undo": {}, "check_in_all": {}, "register_team": {"name": "Club"},
    "set_lineup": {"team": "1", "round": "1"},
}


def test_every_console_action_is_in_the_list():
    assert set(console.FORM_COMMANDS) | {"import", "import_cancel", "undo", "check_in_all"} == set(CONSOLE_FORMS)


def _club_events(world):
    """The event under club A, directed by "director"; "other_director" directs club B and its event."""
    club_a, club_b = Club.objects.create(name="Club A"), Club.objects.create(name="Club B")
    club_a.directors.add(world.user("director"))
    club_b.directors.add(world.user("other_director"))
    Tournament.objects.filter(pk=world.event.pk).update(club=club_a)
    Tournament.objects.filter(pk=world.other_event.pk).update(club=club_b)
    world.event.refresh_from_db()
    return club_a


def _form(world, action: str, slot: str) -> dict:
    a, b = world.player("player").pk, world.player("opponent").pk
    ids = {"player": a, "winner": a, "slot": slot, "challenger": a, "defender": b}
    if action == "forfeit":
        ids["forfeit"] = b
    return {"action": action, **{k: str(v) for k, v in ids.items()}, **CONSOLE_FORMS[action]}


@pytest.mark.parametrize("role", ["other_director", "unrelated", "player", "anonymous"])
def test_nobody_but_the_director_reads_or_acts_on_the_console(world, role):
    club_a = _club_events(world)
    _entered(world, draw=True)
    t, slot = world.event, _final(world)
    client = _browser(None if role == "anonymous" else world.user(role))
    refused = (302,) if role == "anonymous" else (403,)  # anonymous: to the login page
    before = event_count()
    for path in ("run/", "run/?partial=1", "settings/", "run/sheets/draw.pdf", "run/sheets/cards.pdf",
                 "run/sheets/standings.pdf"):
        response = client.get(f"/events/{t.pk}/{path}")
        assert response.status_code in refused, (path, response.status_code)
    for action in CONSOLE_FORMS:
        for headers in ({}, {"HTTP_X_REQUESTED_WITH": "fetch"}):
            response = client.post(f"/events/{t.pk}/run/", _form(world, action, slot), **headers)
            assert response.status_code in refused, (action, response.status_code)
    response = client.post(f"/events/{t.pk}/settings/", {"name": "Taken over", "format": "single_elimination",
                                                         "dice": "board", "published": "on"})
    assert response.status_code in refused
    tournaments = Tournament.objects.count()
    response = client.post("/events/new/", {"name": "Under club A", "format": "single_elimination",
                                            "club": str(club_a.pk), "dice": "server"})
    assert response.status_code in (200, 302, 403)  # the form again, refused; the login page; or no form at all
    assert Tournament.objects.count() == tournaments
    assert event_count() == before
    assert Tournament.objects.get(pk=t.pk).name == "Club night"


@pytest.mark.parametrize("token", ["none", "a wrong one", "a wrong header"])
def test_every_console_form_needs_the_csrf_token(world, token):
    club_a = _club_events(world)
    _entered(world, draw=True)
    t, slot = world.event, _final(world)
    client = _browser(world.user("director"), enforce_csrf_checks=True)
    extra = {"csrfmiddlewaretoken": "x" * 64} if token == "a wrong one" else {}
    headers = {"HTTP_X_CSRFTOKEN": "y" * 32, "HTTP_X_REQUESTED_WITH": "fetch"} if token == "a wrong header" else {}
    before, tournaments = event_count(), Tournament.objects.count()
    posts = [(f"/events/{t.pk}/run/", _form(world, action, slot)) for action in CONSOLE_FORMS] + [
        (f"/events/{t.pk}/settings/", {"name": "Forged", "format": "single_elimination", "dice": "board"}),
        ("/events/new/", {"name": "Forged", "format": "single_elimination", "club": str(club_a.pk), "dice": "server"}),
        (f"/events/{t.pk}/my-result/", {"result": f"{world.player('player').pk}:3:0"}),
    ]
    for url, form in posts:
        response = client.post(url, {**form, **extra}, **headers)
        assert response.status_code == 403 and b"CSRF" in response.content, (url, form.get("action"))
    assert event_count() == before and Tournament.objects.count() == tournaments


def test_a_big_events_score_cards_print_in_parts_the_console_links(world):
    """A 1,024-player first round's 512 cards took 37 s in one request, past the web server's 30 s: the cards print
    in parts of 64 (32 pages), each its own request, and the console links each part."""
    CARDS_PER_SHEET = 64
    official = world.user("official")
    t = services.tournament_create(actor=official, name="Open", format="swiss", settings={"rounds": 1})
    field = Player.objects.bulk_create([Player(display_name=f"Open {i:03}") for i in range(2 * CARDS_PER_SHEET + 2)])
    for p in field:
        services.tournament_command(actor=official, tournament=t, command={"type": "enter", "player": p.pk})
    services.tournament_command(actor=official, tournament=t, command={"type": "draw", "method": "random"})
    console.settle(t)
    browser = _browser(official)
    page = browser.get(f"/events/{t.pk}/run/").content.decode()
    first = f"/events/{t.pk}/run/sheets/cards.pdf?part=1"
    assert f'href="{first}"' in page and "cards 1 to 64" in page and "cards 65 to 65" in page
    counted = []
    for part in (1, 2):
        response = browser.get(f"/events/{t.pk}/run/sheets/cards.pdf?part={part}")
        assert response.status_code == 200
        text = "\n".join(p.extract_text() for p in PdfReader(io.BytesIO(response.content)).pages)
        counted.append(text.count("match to 7 points"))
        assert f"part {part} of 2" in text
    assert counted == [CARDS_PER_SHEET, 1]
    for part in ("3", "0", "-1", "x", "²", "٣", "9" * 40):
        assert browser.get(f"/events/{t.pk}/run/sheets/cards.pdf?part={part}").status_code == 404, part
