"""Every word the console shows goes through translation, and none is the program's name for a thing.

The tester's French console said "Fait : report result." and "ready": the command's and the slot's names as the
program spells them, shown raw. Here the console is read in a pseudo-language whose every translated string comes
back «marked»: what is left unmarked in the console's live part and its messages must be data (the players' and the
event's names, numbers, dates), never a word of the program's."""

import re
from html import unescape

import pytest
from django.urls import reverse
from django.utils import translation

from eventlog import projections
from eventlog.models import Event
from players.models import Player
from tournaments import console, services
from tournaments.selectors import tournament_data, tournament_facts

pytestmark = pytest.mark.django_db

NAMES = ("Ada", "Bruno", "Chloé", "Dimitri", "Eva")
# the program's names: command types, slot statuses, formats, brackets, event types
CODE_WORDS = re.compile(r"\b(ready|waiting|bye|done|void|report|result|correct|forfeit|check|withdraw|draw|swiss|"
                        r"single|elimination|main|r1|m1|entered|_)\b", re.IGNORECASE)


@pytest.fixture
def pseudo(monkeypatch):
    """Every string gettext, pgettext and ngettext translate comes back «marked» (lazy ones when read)."""
    trans = translation._trans
    for name, pick in (("gettext", lambda *a: a[0]), ("pgettext", lambda *a: a[1]),
                       ("ngettext", lambda *a: a[0] if a[2] == 1 else a[1]),
                       ("npgettext", lambda *a: a[1] if a[3] == 1 else a[2])):
        monkeypatch.setattr(trans, name, lambda *a, pick=pick: f"«{pick(*a)}»", raising=False)


def unmarked(html: str) -> str:
    """The text a reader sees, less every «marked» part (nested ones too) and the controls' hidden values."""
    html = re.sub(r"<(script|style)\b.*?</\1>", " ", html, flags=re.S)
    html = re.sub(r"<[^>]+>", " ", html)
    text = unescape(html)
    while True:
        shorter = re.sub(r"«[^«»]*»", " ", text)
        if shorter == text:
            return text
        text = shorter


def live_part(html: str) -> str:
    start = html.rindex("<", 0, html.index('id="console-messages"'))
    end = html.find("</main>")
    return html[start:end if end > 0 else None]


def test_the_console_says_nothing_in_the_programs_words(client, make_user, pseudo):
    director = make_user("dora", official=True)
    client.force_login(director)
    t = services.tournament_create(actor=director, name="Thursday", format="single_elimination",
                                   settings={"lengths": {"main": {"default": 3}}})
    players = [Player.objects.create(display_name=n) for n in NAMES[:4]]
    for p in players:
        services.tournament_command(actor=director, tournament=t, command={"type": "enter", "player": p.pk})
    url = reverse("event-console", args=[t.pk])
    console.console_command(actor=director, tournament=t, command={"type": "draw", "method": "random"})
    slot, link = next(iter(tournament_facts(t).matches.items()))

    # a press as console.js sends it: its answer carries its word and the console redrawn
    answer = client.post(url, {"action": "report_result", "slot": slot, "winner": link["players"][0],
                               "winner_points": "3", "loser_points": "1"}, headers={"X-Requested-With": "fetch"})
    html = answer.content.decode()
    assert "«Done: «record the result».»" in html
    assert "«to be played»" in html  # the other match's state, in words (the program's is "ready")
    refused = client.post(url, {"action": "draw", "method": "random"}, headers={"X-Requested-With": "fetch"})
    assert "the draw has been made" in refused.content.decode()  # the refusal, through the API's table of reasons
    undo = client.post(url, {"action": "undo"}, follow=True).content.decode()
    assert "«The last action («a result») cannot be undone here" in undo

    for page in (html, client.get(url).content.decode(), undo):
        left = unmarked(live_part(page))
        for name in (*NAMES, "Thursday", "Dora"):
            left = left.replace(name, " ")
        assert not CODE_WORDS.findall(left), CODE_WORDS.findall(left)
        words = re.findall(r"[^\W\d_]{2,}", left)
        assert words == [], words  # anything else left unmarked is a word no reader's language gets
    assert Event.objects.filter(event_type="ResultReported").count() == 1


def test_a_reentry_and_a_swiss_evening_in_the_readers_words(client, make_user, pseudo):
    director = make_user("dora", official=True)
    client.force_login(director)
    ko = services.tournament_create(actor=director, name="Thursday", format="single_elimination",
                                    settings={"lengths": {"main": {"default": 3}}, "reentry": {"until_round": 1}})
    swiss = services.tournament_create(actor=director, name="Swiss", format="swiss",
                                       settings={"rounds": 3, "late_entry_until_round": 2,
                                                 "lengths": {"rounds": {"default": 1}}})
    players = [Player.objects.create(display_name=n) for n in NAMES]
    for t in (ko, swiss):
        for p in players:
            services.tournament_command(actor=director, tournament=t, command={"type": "enter", "player": p.pk})
        console.console_command(actor=director, tournament=t, command={"type": "draw", "method": "random"})
        slot, link = next((s, m) for s, m in tournament_facts(t).matches.items())
        console.console_command(actor=director, tournament=t, command={
            "type": "report_result", "slot": slot, "winner": link["players"][0], "score": [3 if t is ko else 1, 0]})
    eligible = console.console_data(ko)["reentry"]["eligible"]
    assert eligible, "a first-round loser may re-enter"
    console.console_command(actor=director, tournament=ko, command={"type": "reenter",
                                                                    "player": eligible[0]["player_id"]})
    for t in (ko, swiss):
        page = client.get(reverse("event-console", args=[t.pk])).content.decode()
        left = unmarked(live_part(page))
        for name in (*NAMES, "Thursday", "Swiss", "Dora"):
            left = left.replace(name, " ")
        assert re.findall(r"[^\W\d_]{2,}", left) == []
    assert "«Late entry is open until round 2 is paired" in client.get(
        reverse("event-console", args=[swiss.pk])).content.decode()


def test_the_event_form_says_nothing_in_the_programs_words(client, make_user, pseudo):
    director = make_user("dora", official=True)
    client.force_login(director)
    t = services.tournament_create(actor=director, name="Thursday", format="swiss", settings={"rounds": 3})
    for page in (client.get(reverse("event-new")).content.decode(),
                 client.get(reverse("event-settings", args=[t.pk])).content.decode(),
                 client.post(reverse("event-new"), {"name": "", "format": "swiss"}).content.decode()):
        main = page[page.index("<main>"):page.index("</main>")]
        left = unmarked(re.sub(r"<option[^>]*>(Buchholz|Sonneborn-Berger)</option>", " ", main)).replace(
            "Thursday", " ")
        assert re.findall(r"[^\W\d_]{2,}", left) == []


def test_a_ladder_and_a_league_in_the_readers_words(client, make_user, pseudo):
    """A challenge and a league's match are named in words ("Challenge 1", "Division 1 · …"), never by the slot's
    key (``ladder:c1``, ``d1:rr:c1:r1:t1``), in the console and in its history."""
    director = make_user("dora", official=True)
    client.force_login(director)
    players = [Player.objects.create(display_name=n) for n in NAMES[:4]]
    ladder = services.tournament_create(actor=director, name="Thursday", format="ladder",
                                        settings={"reach": 3, "challenge_days": 7})
    league = services.tournament_create(actor=director, name="Winter", format="league",
                                        settings={"division_size": 4, "round_days": 7})
    for t in (ladder, league):
        for p in players:
            services.tournament_command(actor=director, tournament=t, command={"type": "enter", "player": p.pk})
        services.tournament_command(actor=director, tournament=t, command={
            "type": "draw", "method": "manual", "seeds": [p.pk for p in players]})
    services.tournament_command(actor=director, tournament=ladder, command={
        "type": "issue_challenge", "challenger": players[2].pk, "defender": players[0].pk})
    projections.run_all()
    ready = [next(s for s in tournament_data(t)["slots"] if s["status"] == "ready") for t in (ladder, league)]
    console.console_command(actor=director, tournament=ladder, command={
        "type": "forfeit", "slot": ready[0]["key"], "winner": ready[0]["players"][0]})
    console.console_command(actor=director, tournament=league, command={
        "type": "report_result", "slot": ready[1]["key"], "winner": ready[1]["players"][0], "score": [7, 0]})
    for t, name in ((ladder, "Thursday"), (league, "Winter")):
        page = client.get(reverse("event-console", args=[t.pk])).content.decode()
        left = unmarked(live_part(page))
        for word in (*NAMES, name, "Dora", "UTC"):
            left = left.replace(word, " ")
        assert re.findall(r"[^\W\d_]{2,}", left) == []
