"""The director's console at /events/{id}/run/: the member list, check-in, tables, results, sheets and the
players' e-mails, all through the services (the API's rules and refusals)."""

import io

import pytest
from django.core import mail
from django.urls import reverse
from pypdf import PdfReader

from eventlog.models import Event
from players.models import Player
from tournaments import console, notices, services
from tournaments.models import MatchNotice
from tournaments.selectors import tournament_data, tournament_facts

pytestmark = pytest.mark.django_db

MEMBERS = "\n".join(f"Member {i}, m{i}@example.org, C{i:03}" for i in range(1, 9))


@pytest.fixture
def director(make_user, client):
    user = make_user("dora", official=True)
    client.force_login(user)
    return user


@pytest.fixture
def event(director):
    return services.tournament_create(actor=director, name="Thursday night", format="single_elimination",
                                      settings={"lengths": {"main": {"default": 3}}})


def post(client, t, **form):
    response = client.post(reverse("event-console", args=[t.pk]), form, follow=True)
    assert response.status_code == 200
    return response.content.decode()


def pdf_text(data: bytes) -> str:
    return "\n".join(page.extract_text() for page in PdfReader(io.BytesIO(data)).pages)


def test_a_pasted_member_list_is_entered_whole_and_checked_in_in_one_click(client, event):
    html = post(client, event, action="import", members="name\temail\tclub\n" + MEMBERS.replace(", ", "\t"))
    assert "8 members entered" in html
    data = tournament_data(event)
    assert len(data["entries"]) == 8 and not data["checked_in"]
    assert Player.objects.get(club_member_id="C003").email == "m3@example.org"
    html = post(client, event, action="check_in_all")
    assert "8 players checked in" in html
    assert len(tournament_data(event)["checked_in"]) == 8


@pytest.mark.parametrize("text, why", [
    ("Ann, ann@example.org, 1\nBob, ann@example.org, 2", "the same e-mail as line 1"),
    ("Ann, ann@example.org, 1\nann, b@example.org, 2", "the same name as line 1"),
    ("Ann, not-an-address, 1", "is not an e-mail address"),
    ("Ann, a@example.org, 1\n, b@example.org, 2", "line 2: a name of 1 to"),
])
def test_a_faulty_list_is_refused_whole_and_changes_nothing(client, event, text, why):
    before = (Event.objects.count(), Player.objects.count())
    html = post(client, event, action="import", members=text)
    assert "Nothing was imported" in html and why in html
    assert (Event.objects.count(), Player.objects.count()) == before


def test_a_member_entered_already_refuses_the_list(client, event):
    post(client, event, action="import", members="Ann, ann@example.org, 1")
    before = (Event.objects.count(), Player.objects.count())
    html = post(client, event, action="import", members="Bob, bob@example.org, 2\nAnn again, ann@example.org, 9")
    assert "Ann is entered already" in html
    assert (Event.objects.count(), Player.objects.count()) == before


def test_matches_get_tables_the_director_can_move_and_the_players_are_told(client, event, django_capture_on_commit_callbacks):
    seven = "\n".join(MEMBERS.splitlines()[:7])
    post(client, event, action="import", members=seven + "\nNo Mail,,C099")
    post(client, event, action="check_in_all")
    post(client, event, action="draw", method="random")
    data = tournament_data(event)
    first = [s for s in data["slots"] if s["round"] == 1 and s["match_id"]]
    assert sorted(s["table"] for s in first) == list(range(1, len(first) + 1))
    page = client.get(reverse("event-console", args=[event.pk])).content.decode()
    assert "Main · Round 1" in page or "Quarter-final" in page
    assert "main:r1:m1</td>" not in page
    assert "No e-mail address" in page and "No Mail" in page

    # the director moves a match to a free table; a taken or closed one is refused with its reason
    slot = first[0]["key"]
    html = post(client, event, action="assign_table", slot=slot, table=first[1]["table"])
    assert "is taken by the match" in html
    post(client, event, action="set_table_service", table=20, in_service="0")
    assert "out of service" in post(client, event, action="assign_table", slot=slot, table=20)
    post(client, event, action="assign_table", slot=slot, table=12)
    assert tournament_facts(event).tables[slot] == 12
    api = client.get(f"/api/tournaments/{event.pk}/").json()
    assert next(s for s in api["slots"] if s["key"] == slot)["table"] == 12

    # one e-mail per player with an address, once per match, even when the log is replayed
    for notice in MatchNotice.objects.all():
        notices.match_notice_send(notice.match_id)
    assert MatchNotice.objects.count() == len(first)
    sent = len(mail.outbox)
    assert sent == 2 * len(first) - 1  # "No Mail" has no address
    assert any("table" in m.subject for m in mail.outbox)
    # the round as the console and the sheets name it (eight players: round one is a quarter-final)
    assert all("Round: Main · Quarter-final · match" in m.body for m in mail.outbox), mail.outbox[0].body
    from django.core.management import call_command

    call_command("rebuild_projections")
    for notice in MatchNotice.objects.all():
        notices.match_notice_send(notice.match_id)
    assert len(mail.outbox) == sent and MatchNotice.objects.count() == len(first)

    # a result entered at the console flows to the next round, which gets a table of its own
    a, b = first[0], first[1]
    post(client, event, action="report_result", slot=a["key"], winner=a["players"][0], winner_points=3, loser_points=1)
    post(client, event, action="report_result", slot=b["key"], winner=b["players"][1], winner_points=3, loser_points=0)
    nxt = next(s for s in tournament_data(event)["slots"] if s["round"] == 2 and a["players"][0] in s["players"])
    assert set(nxt["players"]) == {a["players"][0], b["players"][1]} and nxt["table"] is not None

    # the printed sheets
    draw = pdf_text(client.get(reverse("event-sheet", args=[event.pk, "draw"])).content)
    assert "Thursday night" in draw and "Table" in draw and a["names"][0] in draw
    assert "Semi-final" in draw and nxt["names"][0] in draw.split("Semi-final")[1]  # the next round, as far as known
    cards = pdf_text(client.get(reverse("event-sheet", args=[event.pk, "cards"])).content)
    assert nxt["names"][0] in cards and "match to 3 points" in cards and "Cube" in cards
    standings = pdf_text(client.get(reverse("event-sheet", args=[event.pk, "standings"])).content)
    assert a["names"][0] in standings


def test_only_the_director_runs_the_console(client, event, make_user):
    client.force_login(make_user("pat"))
    assert client.get(reverse("event-console", args=[event.pk])).status_code == 403
    assert client.post(reverse("event-console", args=[event.pk]), {"action": "import", "members": MEMBERS}).status_code == 403
    assert client.get(reverse("event-sheet", args=[event.pk, "draw"])).status_code == 403
    assert not tournament_data(event)["entries"]


def test_a_player_sees_their_match_and_reports_the_result_in_two_taps(client, director, event, make_user):
    ann, bob = make_user("ann"), make_user("bob")
    for user in (ann, bob):
        services.tournament_command(actor=director, tournament=event, command={"type": "enter", "player": user.player.pk})
        services.tournament_command(actor=director, tournament=event, command={"type": "check_in", "player": user.player.pk})
    console.console_command(actor=director, tournament=event, command={"type": "draw", "method": "random"})
    slot = next(s for s in tournament_data(event)["slots"] if s["match_id"])
    client.force_login(ann)
    home = client.get("/").content.decode()
    assert "Your match" in home and f"Table {slot['table']}" in home and "against Bob, 3 points" in home
    match_page = client.get(reverse("match-page", args=[slot["match_id"]])).content.decode()
    assert f"Table {slot['table']}" in match_page

    # tap 1: the banner's link; tap 2: the score
    page = client.get(reverse("my-result", args=[event.pk])).content.decode()
    assert "I won 3–1" in page and "I lost 1–3" in page
    client.post(reverse("my-result", args=[event.pk]), {"slot": slot["key"], "result": f"{ann.player.pk}:3:1"})
    assert not tournament_data(event)["winner"]
    client.force_login(bob)
    page = client.get(reverse("my-result", args=[event.pk])).content.decode()
    assert "Your opponent reported:" in page and "I lost 1–3 ✓" in page
    client.post(reverse("my-result", args=[event.pk]), {"slot": slot["key"], "result": f"{ann.player.pk}:3:1"})
    assert tournament_data(event)["winner"] == ann.player.pk
    assert "Your match" not in client.get("/").content.decode()


def test_undo_compensates_the_last_action_with_an_event(client, event):
    post(client, event, action="import", members="Ann, ann@example.org, 1\nBob, bob@example.org, 2")
    ann = Player.objects.get(display_name="Ann")
    post(client, event, action="check_in", player=ann.pk)
    before = Event.objects.count()
    html = post(client, event, action="undo")
    assert "Undone: check-in: Ann" in html
    assert ann.pk not in tournament_data(event)["checked_in"]
    assert Event.objects.count() == before + 1  # nothing erased: a PlayerCheckInCancelled is appended
    assert Event.objects.latest("global_position").event_type == "PlayerCheckInCancelled"
    post(client, event, action="check_in_all")
    post(client, event, action="draw", method="random")
    slot = next(s for s in tournament_data(event)["slots"] if s["match_id"])
    post(client, event, action="assign_table", slot=slot["key"], table=5)
    post(client, event, action="undo")
    assert tournament_facts(event).tables[slot["key"]] == slot["table"]
    html = post(client, event, action="report_result", slot=slot["key"], winner=slot["players"][0],
                winner_points=3, loser_points=0)
    before = Event.objects.count()
    html = post(client, event, action="undo")
    assert "cannot be undone here: correct it instead" in html and Event.objects.count() == before


def test_a_csv_file_is_imported_and_the_board_flags_a_stalled_match(client, event):
    from datetime import timedelta

    from django.core.files.uploadedfile import SimpleUploadedFile
    from django.utils import timezone

    upload = SimpleUploadedFile("members.csv", ("name;email;club\n" + MEMBERS.replace(", ", ";")).encode("utf-8-sig"))
    html = client.post(reverse("event-console", args=[event.pk]), {"action": "import", "csv": upload}, follow=True)
    assert "8 members entered" in html.content.decode()
    post(client, event, action="check_in_all")
    post(client, event, action="draw", method="random")
    board = console.console_data(event)["board"]
    assert len(board) == 4 and not any(r["stalled"] for r in board)
    later = console.console_data(event, now=timezone.now() + timedelta(minutes=16))["board"]
    assert all(r["stalled"] for r in later)
    assert "stalled for 15 min" not in client.get(reverse("event-console", args=[event.pk])).content.decode()
    event_page = client.get(reverse("event-page", args=[event.pk])).content.decode()
    assert f"table {board[0]['table']}" in event_page and reverse("event-console", args=[event.pk]) in event_page


def test_a_swiss_evening_prints_its_pairings_by_table(client, director):
    t = services.tournament_create(actor=director, name="Swiss night", format="swiss",
                                   settings={"rounds": 3, "lengths": {"rounds": {"default": 3}}})
    post(client, t, action="import", members="\n".join(MEMBERS.splitlines()[:6]))
    post(client, t, action="check_in_all")
    post(client, t, action="draw", method="random")
    data = tournament_data(t)
    round_one = [s for s in data["slots"] if s["round"] == 1]
    assert sorted(s["table"] for s in round_one) == [1, 2, 3]
    page = client.get(reverse("event-console", args=[t.pk])).content.decode()
    assert "Round 1 · pairing 1" in page and "Pair the next round now" not in page  # Swiss rounds pair themselves
    assert "Late entry" not in page  # not offered: this Swiss takes no late entries (the decider would refuse it)
    draw = pdf_text(client.get(reverse("event-sheet", args=[t.pk, "draw"])).content)
    lines = [line for line in draw.splitlines() if line[:1].isdigit() and "Member" in line]
    assert [int(line.split()[0]) for line in lines] == [1, 2, 3]  # by table


def test_after_the_draw_the_console_takes_a_late_entry_and_a_withdrawal(client, director):
    """After the draw the console, not only the API, takes a late entry (Swiss) and a withdrawal."""
    t = services.tournament_create(actor=director, name="Swiss night", format="swiss",
                                   settings={"rounds": 3, "late_entry_until_round": 2,
                                             "lengths": {"rounds": {"default": 3}}})
    post(client, t, action="import", members="\n".join(MEMBERS.splitlines()[:6]))
    post(client, t, action="check_in_all")
    post(client, t, action="draw", method="random")
    late = Player.objects.create(display_name="Latecomer")
    page = client.get(reverse("event-console", args=[t.pk])).content.decode()
    assert "Late entry" in page and "Withdraw Member 1" in page
    html = post(client, t, action="enter", player=late.pk)
    assert "late entry closed" not in html
    gone = Player.objects.get(display_name="Member 1")
    post(client, t, action="withdraw", player=gone.pk, reason="ill")
    data = tournament_data(t)
    assert late.pk in [e["player_id"] for e in data["entries"]] and gone.pk in data["withdrawn"]


def test_a_console_action_tells_the_pages_following_the_event(client, event, monkeypatch,
                                                              django_capture_on_commit_callbacks):
    """The console runs the projections itself (the director sees the outcome at once): it must tell the pages
    following them, other consoles and the event pages, as the worker's run would; the worker's run after it
    finds nothing left to apply, and so tells nobody."""
    from eventlog import live

    told = []
    monkeypatch.setattr(live, "publish", lambda topic, number: told.append((topic, number)))
    with django_capture_on_commit_callbacks(execute=True):
        post(client, event, action="import", members=MEMBERS)
    assert told and told[-1] == (live.PROJECTIONS, live.projected_position())
    told.clear()
    with django_capture_on_commit_callbacks(execute=True):
        post(client, event, action="check_in_all")
        post(client, event, action="draw", method="random")
    assert [t for t, _ in told].count(live.PROJECTIONS) >= 2  # both actions (the draw's new matches tell their own)


def test_the_console_s_live_part_is_the_board_without_the_messages(client, event):
    """What console.js fetches when told: the board (with the clock the stalled flag needs), the results, the
    entries; never the flash meant for the page after the director's own action (a push would take it)."""
    client.post(reverse("event-console", args=[event.pk]), {"action": "import", "members": MEMBERS})
    post(client, event, action="check_in_all")
    client.post(reverse("event-console", args=[event.pk]), {"action": "draw", "method": "random"})
    part = client.get(reverse("event-console", args=[event.pk]), {"partial": "1"}).content.decode()
    assert "Done: draw." not in part and "<html" not in part
    assert 'id="board" data-now="' in part and part.count("data-last-activity=") == 4 and 'id="results"' in part
    page = client.get(reverse("event-console", args=[event.pk])).content.decode()
    assert "Done: draw." in page  # still there for the page that follows the action
    assert 'id="console-live"' in page and "crawford/console.js" in page and 'data-position="' in page
