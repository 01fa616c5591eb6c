"""A slot's match played on another server, reported with its match file: the file judged by the engine as any
import and checked against the slot, the other player's consent (or the director's word), and the imported match
the slot's, its result reaching the event as a match played here does (advancement, standings, ratings). Every
refusal leaves the log as it was."""

from __future__ import annotations

from pathlib import Path

import pytest

from eventlog.models import Event
from games.loading import match_load
from ratings.models import RatingChange
from tournaments import services
from tournaments.selectors import tournament_data

from tests.tournaments.test_running_events import settle, slot

pytestmark = pytest.mark.django_db
MATCHES = Path(__file__).resolve().parents[1] / "fixtures" / "gnubg" / "matches"
ALICE_WINS_3 = "match_012_3pt.mat"  # a 3-point match, Alice against Bob: Alice wins 4-1 in two games


def _file(name: str = ALICE_WINS_3) -> str:
    return (MATCHES / name).read_text()


@pytest.fixture
def people(make_user):
    director = make_user("dora", player=False)
    return director, {n: make_user(n) for n in ("alice", "cid", "dan", "bob")}


def _online_event(director, players, *, online: bool = True):
    """A knockout of four, seeded so that round 1 pairs Alice with Bob; its rounds played online."""
    event = services.tournament_create(actor=director, name="Online cup", format="single_elimination",
                                       settings={"lengths": {"main": {"default": 3}}})
    if online:
        services.tournament_command(actor=director, tournament=event,
                                    command={"type": "set_round_online", "online": True})
    for user in players.values():
        services.tournament_command(actor=director, tournament=event, command={"type": "enter",
                                                                               "player": user.player.pk})
    services.tournament_command(actor=director, tournament=event, command={
        "type": "draw", "method": "manual", "seeds": [u.player.pk for u in players.values()]})
    data = settle(event)
    return event, data


def _slot_of(data: dict, *users) -> dict:
    wanted = {u.player.pk for u in users}
    return next(s for s in data["slots"] if set(s["players"]) == wanted)


def _send(api, user, event, key: str, text: str):
    return api(user).post(f"/api/tournaments/{event.pk}/slots/{key}/proof/", {"text": text}, format="json")


def _consent(api, user, event, key: str):
    return api(user).post(f"/api/tournaments/{event.pk}/slots/{key}/proof/consent/", format="json")


def test_a_player_reports_the_match_played_elsewhere_and_the_opponent_consents(people, api):
    director, p = people
    event, data = _online_event(director, p)
    ours = _slot_of(data, p["alice"], p["bob"])
    first_match = ours["match_id"]
    assert match_load(first_match).online is not None  # the event made an online match for the slot

    sent = _send(api, p["alice"], event, ours["key"], _file())
    assert sent.status_code == 201 and sent.json()["waiting"] is True
    imported = sent.json()["match"]
    assert match_load(imported).awaiting_confirmation
    assert services.tournament_facts(event).proofs[ours["key"]] == {"match_id": imported,
                                                                      "player": p["alice"].player.pk}
    data = settle(event)
    assert slot(data, ours["key"])["status"] == "ready" and slot(data, ours["key"])["match_id"] == first_match
    assert not RatingChange.objects.filter(player_id=p["alice"].player.pk).exists()  # not a result until consent

    # the player who sent it does not consent for the other
    before = Event.objects.count()
    refused = _consent(api, p["alice"], event, ours["key"])
    assert refused.status_code == 403 and "not the player who sent it" in refused.json()["detail"]
    assert Event.objects.count() == before

    agreed = _consent(api, p["bob"], event, ours["key"])
    assert agreed.status_code == 200 and agreed.json() == {"match": imported, "slot": ours["key"], "waiting": False}
    assert match_load(first_match).voided  # the match the event had created, never begun, is void
    assert not match_load(imported).awaiting_confirmation
    data = settle(event)
    decided = slot(data, ours["key"])
    assert decided["status"] == "done" and decided["match_id"] == imported
    assert decided["winner"] == p["alice"].player.pk and decided["score"] == [4, 1]
    assert ours["key"] not in services.tournament_facts(event).proofs

    # the event goes on from it: the other semi-final decided, the final is made with Alice in it
    other = _slot_of(data, p["cid"], p["dan"])
    services.tournament_command(actor=director, tournament=event, command={
        "type": "report_result", "slot": other["key"], "winner": p["cid"].player.pk, "score": [3, 0]})
    data = settle(event)
    final = next(s for s in data["slots"] if s["round"] == 2)
    assert set(final["players"]) == {p["alice"].player.pk, p["cid"].player.pk} and final["match_id"]
    # rated once, through the slot, as a match played here
    assert RatingChange.objects.filter(player_id=p["alice"].player.pk).count() == 1
    assert RatingChange.objects.filter(player_id=p["bob"].player.pk).count() == 1

    # the log's verification judges the event's stream again, the file's fact among the others
    from dataclasses import replace

    from eventlog import store
    from tournaments import judging
    from tournaments.stream import event_of, stream_id_of

    rows = store.read_stream(stream_id_of(event.pk))
    judging.judge(stream_id_of(event.pk), rows)
    filed = next(r for r in rows if r.event_type == "ProofFiled")
    stranger = replace(event_of(filed), player=director.pk + 10_000)
    before = services.tournament_facts(event)
    assert "not in the event" in judging.inconsistency(before, stranger, before.version + 1)


def test_the_director_records_a_file_directly(people, api):
    director, p = people
    event, data = _online_event(director, p)
    ours = _slot_of(data, p["alice"], p["bob"])
    sent = _send(api, director, event, ours["key"], _file())
    assert sent.status_code == 201 and sent.json()["waiting"] is False
    decided = slot(settle(event), ours["key"])
    assert decided["status"] == "done" and decided["winner"] == p["alice"].player.pk
    # played online, on another server: the fair-play review counts it with the online matches, not at the board
    from analysis.models import MatchAnalysis

    assert MatchAnalysis.objects.get(stream_id=sent.json()["match"]).online is True


def test_the_director_consents_to_a_players_file(people, api):
    director, p = people
    event, data = _online_event(director, p)
    ours = _slot_of(data, p["alice"], p["bob"])
    assert _send(api, p["bob"], event, ours["key"], _file()).status_code == 201
    assert _consent(api, director, event, ours["key"]).status_code == 200
    assert slot(settle(event), ours["key"])["winner"] == p["alice"].player.pk


def test_a_consent_sent_through_the_matchs_own_command_makes_it_the_slots_match(people, api):
    director, p = people
    event, data = _online_event(director, p)
    ours = _slot_of(data, p["alice"], p["bob"])
    imported = _send(api, p["alice"], event, ours["key"], _file()).json()["match"]
    confirmed = api(p["bob"]).post(f"/api/matches/{imported}/commands/", {
        "type": "confirm_import", "expected_version": match_load(imported).version}, format="json")
    assert confirmed.status_code == 200, confirmed.json()
    decided = slot(settle(event), ours["key"])  # the process manager hears of it and the event links it
    assert decided["status"] == "done" and decided["match_id"] == imported and decided["winner"] == p["alice"].player.pk
    assert match_load(ours["match_id"]).voided
    assert RatingChange.objects.filter(player_id=p["alice"].player.pk).count() == 1


def _unfinished() -> str:
    """The record cut after its first game: 1-0, a match not over."""
    text = _file()
    return text[: text.index(" Game 2")]


@pytest.mark.parametrize("case, code, words", [
    ("malformed", None, ""),
    ("other players", "bad_proof", "not the players of"),
    ("other length", "bad_proof", "5-point match"),
    ("unfinished", "bad_proof", "not finished"),
    ("not a player", "not_permitted", "only the slot's two players"),
    ("at the board", "bad_proof", "played at the board"),
])
def test_a_file_that_does_not_fit_the_slot_is_refused_and_changes_nothing(people, api, make_user, case, code, words):
    director, p = people
    event, data = _online_event(director, p, online=case != "at the board")
    ours = _slot_of(data, p["alice"], p["bob"])
    key, sender, text = ours["key"], p["alice"], _file()
    if case == "malformed":
        text = text.replace(" 1) 42: 8/4 6/4", " 1) 42: 8/1 6/4", 1)  # a play the dice do not give
    elif case == "other players":
        key = _slot_of(data, p["cid"], p["dan"])["key"]
        sender = p["cid"]
    elif case == "other length":
        text = _file("match_003_5pt.mat")
    elif case == "unfinished":
        text = _unfinished()
    elif case == "not a player":
        sender = make_user("eve")
    before = Event.objects.count()
    refused = _send(api, sender, event, key, text)
    assert refused.status_code in (400, 403), refused.json()
    if code:
        assert refused.json()["code"] == code and words in refused.json()["detail"], refused.json()
    assert Event.objects.count() == before
    assert services.tournament_facts(event).proofs == {}


def test_a_slot_whose_match_has_begun_here_takes_no_file(people, api):
    from tests.games.recorder import Recorder

    director, p = people
    event, data = _online_event(director, p)
    ours = _slot_of(data, p["alice"], p["bob"])
    client = api(p["alice"])
    client.post(f"/api/matches/{ours['match_id']}/presence/", {"here": True}, format="json")
    table = Recorder(client, client.get(f"/api/matches/{ours['match_id']}/").json())
    table.send(type="roll")  # the opening roll, played here
    before = Event.objects.count()
    refused = _send(api, p["alice"], event, ours["key"], _file())
    assert refused.status_code == 400 and refused.json()["code"] == "bad_proof"
    assert "has begun here" in refused.json()["detail"] and Event.objects.count() == before


def test_consent_with_no_file_waiting_is_refused(people, api):
    director, p = people
    event, data = _online_event(director, p)
    ours = _slot_of(data, p["alice"], p["bob"])
    before = Event.objects.count()
    refused = _consent(api, p["bob"], event, ours["key"])
    assert refused.status_code == 400 and refused.json()["code"] == "bad_proof"
    assert Event.objects.count() == before


def test_a_decided_slot_takes_no_file(people, api):
    director, p = people
    event, data = _online_event(director, p)
    ours = _slot_of(data, p["alice"], p["bob"])
    services.tournament_command(actor=director, tournament=event, command={
        "type": "report_result", "slot": ours["key"], "winner": p["bob"].player.pk, "score": [3, 1]})
    settle(event)
    before = Event.objects.count()
    refused = _send(api, p["alice"], event, ours["key"], _file())
    assert refused.status_code == 400 and refused.json()["code"] == "slot_not_ready"
    assert Event.objects.count() == before
    assert tournament_data(event)  # the event reads as before


def _upload(text: str, name: str = "match.mat"):
    from django.core.files.uploadedfile import SimpleUploadedFile

    return SimpleUploadedFile(name, text.encode(), content_type="text/plain")


def test_on_the_your_match_page_a_player_sends_the_file_and_the_opponent_consents(people, client):
    director, p = people
    event, data = _online_event(director, p)
    ours = _slot_of(data, p["alice"], p["bob"])
    client.force_login(p["alice"])
    banner = client.get("/").content.decode()
    assert 'id="played-elsewhere"' in banner
    page = client.get(f"/events/{event.pk}/my-result/").content.decode()
    assert 'id="proof-send"' in page and 'id="proof-consent"' not in page

    # a refused file is said on the page and records nothing
    before = Event.objects.count()
    said = client.post(f"/events/{event.pk}/my-result/", {"action": "proof_file", "mat": _upload(_unfinished())},
                       follow=True).content.decode()
    assert "not finished" in said and Event.objects.count() == before

    sent = client.post(f"/events/{event.pk}/my-result/", {"action": "proof_file", "mat": _upload(_file())},
                       follow=True).content.decode()
    assert "it counts once your opponent consents" in sent and 'id="proof-waiting"' in sent

    client.force_login(p["bob"])
    page = client.get(f"/events/{event.pk}/my-result/").content.decode()
    assert 'id="proof-to-consent"' in page and "Alice sent the match played on another server" in page
    done = client.post(f"/events/{event.pk}/my-result/", {"action": "proof_consent"}, follow=True).content.decode()
    assert "its match is the slot&#x27;s" in done or "its match is the slot's" in done
    decided = slot(tournament_data(event), ours["key"])
    assert decided["status"] == "done" and decided["winner"] == p["alice"].player.pk


def test_the_console_records_a_file_and_a_players_file_waiting(people, client, api):
    director, p = people
    event, data = _online_event(director, p)
    ours, theirs = _slot_of(data, p["alice"], p["bob"]), _slot_of(data, p["cid"], p["dan"])
    assert _send(api, p["bob"], event, ours["key"], _file()).status_code == 201
    client.force_login(director)
    console = client.get(f"/events/{event.pk}/run/").content.decode()
    assert "Bob sent the match played on another server" in console and 'value="proof_consent"' in console
    client.post(f"/events/{event.pk}/run/", {"action": "proof_consent", "slot": ours["key"]})
    assert slot(tournament_data(event), ours["key"])["winner"] == p["alice"].player.pk

    # a file for the other slot, sent from the console: the wrong players, said and nothing recorded
    before = Event.objects.count()
    said = client.post(f"/events/{event.pk}/run/", {"action": "proof_file", "slot": theirs["key"],
                                                     "mat": _upload(_file())}, follow=True).content.decode()
    assert "not the players of" in said and Event.objects.count() == before


def _decline(api, user, event, key: str, reason: str = "we never played that match", **headers):
    return api(user).post(f"/api/tournaments/{event.pk}/slots/{key}/proof/decline/", {"reason": reason},
                          format="json", **headers)


def test_the_opponent_declines_a_file_saying_why_and_it_never_counts(people, api):
    director, p = people
    event, data = _online_event(director, p)
    ours = _slot_of(data, p["alice"], p["bob"])
    imported = _send(api, p["alice"], event, ours["key"], _file()).json()["match"]

    # refused, and nothing changes: the sender, a player of another slot, no reason, a reason too long
    before = Event.objects.count()
    assert _decline(api, p["alice"], event, ours["key"]).status_code == 403
    assert _decline(api, p["cid"], event, ours["key"]).status_code == 403
    blank = _decline(api, p["bob"], event, ours["key"], reason="  ", HTTP_ACCEPT_LANGUAGE="fr")
    assert blank.status_code == 400, blank.json()
    assert _decline(api, p["bob"], event, ours["key"], reason="x" * 501).status_code == 400
    assert Event.objects.count() == before and ours["key"] in services.tournament_facts(event).proofs

    declined = _decline(api, p["bob"], event, ours["key"])
    assert declined.status_code == 200
    assert declined.json() == {"match": imported, "slot": ours["key"], "reason": "we never played that match"}
    assert ours["key"] not in services.tournament_facts(event).proofs
    assert match_load(imported).voided  # its import voided: a confirmation through the match's API cannot revive it
    assert _consent(api, p["bob"], event, ours["key"]).status_code == 400  # nothing waits any more
    assert _decline(api, p["bob"], event, ours["key"]).status_code == 400
    data = settle(event)
    undecided = slot(data, ours["key"])
    assert undecided["status"] == "ready" and undecided["match_id"] == ours["match_id"]  # the event's own match
    assert not RatingChange.objects.filter(player_id=p["alice"].player.pk).exists()

    # said in the event's history, with the reason; the log's verification judges it
    from eventlog import store
    from tournaments import judging
    from tournaments.selectors import tournament_history
    from tournaments.stream import stream_id_of

    last = tournament_history(event)[-1]
    assert "declined" in last["text"] and last["reason"] == "we never played that match"
    judging.judge(stream_id_of(event.pk), store.read_stream(stream_id_of(event.pk)))

    # the declined import counted nothing: the same file may be sent again (the players sorted it out), and waits
    again = _send(api, p["alice"], event, ours["key"], _file())
    assert again.status_code == 201 and again.json()["waiting"] is True and again.json()["match"] != imported
    assert _send(api, p["alice"], event, ours["key"], _file()).status_code == 400  # while it stands, not twice


def test_the_director_declines_a_players_file_from_the_console(people, client, api):
    director, p = people
    event, data = _online_event(director, p)
    ours = _slot_of(data, p["alice"], p["bob"])
    imported = _send(api, p["bob"], event, ours["key"], _file()).json()["match"]
    client.force_login(director)
    console = client.get(f"/events/{event.pk}/run/").content.decode()
    assert 'value="proof_decline"' in console
    said = client.post(f"/events/{event.pk}/run/", {"action": "proof_decline", "slot": ours["key"],
                                                     "reason": "the names are of another match"}, follow=True)
    assert "The match file is declined" in said.content.decode()
    assert ours["key"] not in services.tournament_facts(event).proofs and match_load(imported).voided


def test_on_the_your_match_page_the_opponent_declines_the_file(people, client, api):
    director, p = people
    event, data = _online_event(director, p)
    ours = _slot_of(data, p["alice"], p["bob"])
    _send(api, p["alice"], event, ours["key"], _file())
    client.force_login(p["bob"])
    page = client.get(f"/events/{event.pk}/my-result/").content.decode()
    assert 'id="proof-decline"' in page
    empty = client.post(f"/events/{event.pk}/my-result/", {"action": "proof_decline", "reason": ""}, follow=True)
    assert ours["key"] in services.tournament_facts(event).proofs and "say why" in empty.content.decode()
    done = client.post(f"/events/{event.pk}/my-result/", {"action": "proof_decline", "reason": "not ours"},
                       follow=True)
    assert "The match file is declined" in done.content.decode()
    assert ours["key"] not in services.tournament_facts(event).proofs
