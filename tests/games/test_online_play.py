"""Online play through the API: an event's rounds marked online, each player acting for their own side only, the
server pressing the clocks, presence from the pages' heartbeats, and the forfeits judged on the server's readings:
a disconnect that outlasts its clock (the event then advances) and a player who never came by the deadline.

The server's reading is the test's (``games.clocks.now``): time passes here when the test says so, never by
waiting."""

from __future__ import annotations

import pytest
from django.core.cache import cache

from eventlog.models import Event
from games import clocks, presence
from games.errors import Reason
from games.loading import match_load
from analysis.models import MatchAnalysis
from games.models import Challenge, Presence
from tournaments import services

from tests.tournaments.test_running_events import settle, slot

from .recorder import Recorder

pytestmark = pytest.mark.django_db
SECOND = 1000


class Time:
    def __init__(self, monkeypatch):
        self.at = 1_800_000_000_000
        monkeypatch.setattr(clocks, "now", lambda: self.at)

    def passes(self, seconds: float) -> None:
        self.at += int(seconds * SECOND)


@pytest.fixture
def time(monkeypatch):
    return Time(monkeypatch)


@pytest.fixture
def people(make_user):
    return make_user("dora", official=True, player=False), [make_user(n) for n in ("ann", "ben", "cid", "dan")]


def _online_event(director, players, **rule):
    event = services.tournament_create(actor=director, name="Online cup", format="single_elimination",
                                       settings={"lengths": {"main": {"default": 3}}, "dice": "board"})
    services.tournament_command(actor=director, tournament=event, command={"type": "set_round_online",
                                                                            "online": True, **rule})
    for user in players:
        services.tournament_command(actor=director, tournament=event,
                                    command={"type": "enter", "player": user.player.pk})
    services.tournament_command(actor=director, tournament=event, command={
        "type": "draw", "method": "manual", "seeds": [u.player.pk for u in players]})
    return event, settle(event)


def _seat(api, match_id: str, user) -> Recorder:
    client = api(user)
    return Recorder(client, client.get(f"/api/matches/{match_id}/").json())


def _seats(api, match_id: str, users) -> tuple[Recorder, Recorder]:
    """The match's two players' clients, in seat order."""
    ids = match_load(match_id).player_ids
    by_player = {u.player.pk: u for u in users}
    return _seat(api, match_id, by_player[ids[0]]), _seat(api, match_id, by_player[ids[1]])


def _beat(recorder: Recorder, here: bool = True) -> dict:
    answer = recorder.client.post(f"/api/matches/{recorder.id}/presence/", {"here": here}, format="json")
    assert answer.status_code == 200, answer.json()
    return answer.json()


def _types(match_id: str) -> list[str]:
    return list(Event.objects.filter(stream_id=match_id).order_by("version").values_list("event_type", flat=True))


def test_a_disconnect_that_outlasts_its_clock_forfeits_the_match_and_the_event_advances(people, api, time):
    director, (ann, ben, cid, dan) = people
    event, data = _online_event(director, [ann, ben, cid, dan], disconnect=60)
    match_id = services.tournament_facts(event).matches["main:r1:m1"]["match_id"]
    first, second = _seats(api, match_id, (ann, ben, cid, dan))
    assert first.match["online"] == {"disconnect": 60, "start_by": time.at, "late": 1200}
    assert first.match["dice_source"] == "server"  # online, whatever the event's boards use

    _beat(first), _beat(second)
    first.send(type="roll")  # the opening roll: either player rolls, the server's dice
    second.refresh()
    mover = first if first.match["turn"] == 0 else second
    other = second if mover is first else first
    # each plays for their own side only: not for the other, and the director records nothing for them
    before = len(_types(match_id))
    refused = other.send(expect=403, type="move", move=mover.match["legal_moves"][0], player=mover.match["turn"])
    assert refused.json()["code"] == "permission_denied"
    refused = _seat(api, match_id, director).send(expect=403, type="move", move=mover.match["legal_moves"][0])
    assert "each for their own side" in refused.json()["detail"]
    assert len(_types(match_id)) == before
    mover.send(type="move", move=mover.match["legal_moves"][0])
    other.refresh()

    # the player not to move closes the page: away at once, the disconnect clock runs from that reading
    left_at = time.at
    seen = _beat(other, here=False)
    away = 0 if other is first else 1
    assert seen["seats"][away] == {"here": False, "seen_at": left_at, "away_since": left_at,
                                   "runs_out_at": left_at + 60 * SECOND}
    time.passes(59)
    count = Event.objects.count()
    early = mover.send(expect=400, type="claim_disconnect")
    assert early.json()["code"] == "bad_command" and "1 s left" in early.json()["detail"]
    # back within the clock: here again, and nothing to claim
    _beat(other)
    time.passes(10)  # within the grace of a heartbeat: here
    here = mover.send(expect=400, type="claim_disconnect")
    assert "is here" in here.json()["detail"] and Event.objects.count() == count

    # gone for good (no heartbeat): away once the grace is over, forfeited once the clock has run out
    last = time.at - 10 * SECOND
    time.passes(51)
    assert mover.client.get(f"/api/matches/{match_id}/presence/").json()["seats"][away]["here"] is False
    mover.refresh()
    mover.send(type="claim_disconnect")
    state = mover.match
    winner = 1 - away
    assert state["finished"] and state["winner"] == winner and state["score"][winner] == 3
    assert state["last_game"]["reason"] == "disconnect"
    assert _types(match_id)[-4:] == ["OnlineForfeitClaimed", "GameWon", "MatchWon", "DiceSeedRevealed"]
    grounds = Event.objects.get(stream_id=match_id, event_type="OnlineForfeitClaimed").payload
    assert grounds == {"why": "disconnect", "absent": away, "seen_at": last, "due": last + 60 * SECOND,
                       "at": time.at, "by_seat": winner}

    # the event takes the result as it takes a flag's fall: the winner goes on to the final
    data = settle(event)
    # analysed like any other match, marked as played online (the fair-play review's split)
    assert {a.online for a in MatchAnalysis.objects.filter(stream_id=match_id)} == {True}
    assert slot(data, "main:r1:m1")["status"] == "done"
    winner_player = match_load(match_id).player_ids[winner]
    assert winner_player in [p["id"] if isinstance(p, dict) else p for p in slot(data, "main:r2:m1")["players"]]


def test_an_opponent_who_never_comes_by_the_deadline_and_its_lateness_forfeits(people, api, time):
    director, (ann, ben, cid, dan) = people
    event, _ = _online_event(director, [ann, ben, cid, dan], start_within=10, late=20)
    match_id = services.tournament_facts(event).matches["main:r1:m1"]["match_id"]
    first, _ = _seats(api, match_id, (ann, ben, cid, dan))
    _beat(first)
    time.passes(29 * 60)
    early = first.send(expect=400, type="claim_no_show")
    assert "60 s left" in early.json()["detail"]
    assert first.send(expect=400, type="claim_disconnect").json()["detail"].startswith("this match has not begun")
    time.passes(60)
    _beat(first)
    first.send(type="claim_no_show")
    assert first.match["finished"] and first.match["winner"] == 0
    assert first.match["last_game"]["reason"] == "no_show"
    # the log's verification judges it again: the engine gives the match, the forfeit's readings say it was due
    from eventlog import store
    from games.rejudging import Misjudged, judge_match_stream

    rows = store.read_stream(match_id)
    judge_match_stream(match_id, rows)
    forged = next(r for r in rows if r.event_type == "OnlineForfeitClaimed")
    forged.payload = {**forged.payload, "at": forged.payload["due"] - 1}  # a copy in memory: the log is untouched
    with pytest.raises(Misjudged):
        judge_match_stream(match_id, rows)
    data = settle(event)
    assert slot(data, "main:r1:m1")["status"] == "done"


def test_the_director_claims_for_an_absent_player_naming_the_seat(people, api, time):
    director, (ann, ben, cid, dan) = people
    event, _ = _online_event(director, [ann, ben, cid, dan], start_within=0, late=5)
    match_id = services.tournament_facts(event).matches["main:r1:m2"]["match_id"]
    desk = _seat(api, match_id, director)
    time.passes(6 * 60)
    refused = desk.send(expect=400, type="claim_no_show")
    assert "names the seat" in refused.json()["detail"]
    desk.send(type="claim_no_show", absent=1)
    assert desk.match["winner"] == 0


def test_the_server_presses_the_clock_for_the_player_who_has_acted(people, api, time):
    director, (ann, ben, cid, dan) = people
    event = services.tournament_create(actor=director, name="Clocked online", format="single_elimination",
                                       settings={"lengths": {"main": {"default": 3}}})
    for command in ({"type": "set_round_online", "online": True, "round": 1},
                    {"type": "set_round_clock", "use": "required", "preset": "us"}):
        services.tournament_command(actor=director, tournament=event, command=command)
    for user in (ann, ben):
        services.tournament_command(actor=director, tournament=event, command={"type": "enter",
                                                                                "player": user.player.pk})
    services.tournament_command(actor=director, tournament=event, command={
        "type": "draw", "method": "manual", "seeds": [ann.player.pk, ben.player.pk]})
    settle(event)
    match_id = services.tournament_facts(event).matches["main:r1:m1"]["match_id"]
    first, second = _seats(api, match_id, (ann, ben))
    assert first.match["clock"]["running"] is None
    first.send(type="roll")
    on_roll = first.match["turn"]
    assert first.match["clock"]["running"] == on_roll  # the lower die's press, made by the server
    mover = (first, second)[on_roll]
    second.refresh()
    time.passes(20)
    mover.send(type="move", move=mover.match["legal_moves"][0])
    assert mover.match["clock"]["running"] == 1 - on_roll
    assert mover.match["clock"]["reserves"][on_roll] == 6 * 60 * SECOND - 8 * SECOND  # 12 s of delay, then 8
    # the match's end takes no press (the engine takes nothing once a match is over): it ends as at the board
    waiting = (first, second)[1 - on_roll]
    waiting.refresh()
    waiting.send(type="resign", kind="backgammon")
    mover.refresh()
    mover.send(type="accept_resignation")
    assert mover.match["finished"] and mover.match["winner"] == on_roll and not mover.match["clock"]["fallen"]


def test_a_member_challenges_another_who_accepts_and_the_online_match_is_theirs(people, api, time, make_user):
    _, (ann, ben, cid, dan) = people
    made = api(ann).post("/api/challenges/", {"opponent": ben.player.pk, "length": 3, "clock": "us",
                                              "disconnect": "short"}, format="json")
    assert made.status_code == 201, made.json()
    challenge = made.json()["id"]
    assert api(ann).post(f"/api/challenges/{challenge}/accept/").status_code == 403  # the challenged accepts
    assert api(cid).post(f"/api/challenges/{challenge}/accept/").status_code == 404  # nobody else sees it
    accepted = api(ben).post(f"/api/challenges/{challenge}/accept/")
    assert accepted.status_code == 201, accepted.json()
    match = accepted.json()
    assert match["online"] == {"disconnect": 60, "start_by": time.at, "late": 60, "challenge": challenge}
    assert match["dice_source"] == "server" and match["clock"]["preset"] == "us"
    assert [p["name"] for p in match["players"]] == ["Ann", "Ben"]
    assert Challenge.objects.get(pk=challenge).stream_id == match["id"]
    again = api(ben).post(f"/api/challenges/{challenge}/accept/")
    assert again.status_code == 400 and "answered already" in again.json()["detail"]
    assert api(ann).get("/api/challenges/").json()[0]["status"] == "accepted"

    withdrawn = api(cid).post("/api/challenges/", {"opponent": dan.player.pk, "length": 5}, format="json").json()
    assert api(cid).post(f"/api/challenges/{withdrawn['id']}/decline/").json()["status"] == "withdrawn"
    for body, reason in (({"opponent": ann.player.pk, "length": 4}, Reason.WHOLE_NUMBER),
                         ({"opponent": ann.player.pk, "length": 3, "clock": "fide"}, Reason.CLOCK_PRESET_OR_NONE),
                         ({"opponent": ann.player.pk, "length": 3, "disconnect": "forever"}, Reason.DISCONNECT_PRESET),
                         ({"opponent": cid.player.pk, "length": 3}, Reason.TWO_DIFFERENT_PLAYERS)):
        refused = api(cid).post("/api/challenges/", body, format="json")
        assert refused.status_code == 400 and refused.json()["code"] == "bad_command", (body, refused.json())
    assert Challenge.objects.count() == 2


def test_a_player_of_an_online_round_is_shown_their_match_to_play_online(people, client):
    director, (ann, ben, cid, dan) = people
    event, _ = _online_event(director, [ann, ben, cid, dan])
    match_id = services.tournament_facts(event).matches["main:r1:m1"]["match_id"]
    player = next(u for u in (ann, ben, cid, dan) if u.player.pk == match_load(match_id).player_ids[0])
    client.force_login(player)
    page = client.get("/").content.decode()
    assert f'id="play-online" href="/matches/{match_id}/record/"' in page and 'id="report-my-result"' not in page


def test_presence_is_for_the_two_players_of_an_online_match(people, api, time):
    director, (ann, ben, cid, dan) = people
    event, _ = _online_event(director, [ann, ben, cid, dan])
    match_id = services.tournament_facts(event).matches["main:r1:m1"]["match_id"]
    assert api(cid).post(f"/api/matches/{match_id}/presence/", {}, format="json").status_code == 403
    watched = api(None).get(f"/api/matches/{match_id}/presence/")
    assert watched.status_code == 200 and watched.json()["seats"][0]["here"] is False


def _begun_match(people, api, time, **rule):
    director, (ann, ben, cid, dan) = people
    event, _ = _online_event(director, [ann, ben, cid, dan], **rule)
    match_id = services.tournament_facts(event).matches["main:r1:m1"]["match_id"]
    first, second = _seats(api, match_id, (ann, ben, cid, dan))
    _beat(first), _beat(second)
    first.send(type="roll")
    second.refresh()
    return match_id, first, second


def _stored_reading(match_id: str, seat: int) -> tuple[int, bool]:
    return Presence.objects.values_list("seen_at", "left").get(stream_id=match_id, seat=seat)


def _flush_readings(match_id: str) -> None:
    """The shared cache loses the match's readings (flushed, restarted, evicted)."""
    cache.delete_many([presence.cache_key(match_id, seat) for seat in (0, 1)])


def test_a_player_who_beats_is_never_forfeited_on_a_reading_not_written_or_a_flushed_cache(people, api, time,
                                                                                           broker_url):
    match_id, first, second = _begun_match(people, api, time, disconnect=60)
    written = time.at
    # beats closer together than a third of the grace reach the cache only: the database keeps the first
    for _ in range(3):
        time.passes(2)
        _beat(second)
    assert _stored_reading(match_id, 1) == (written, False)
    last = time.at
    time.passes(19)  # within the grace of the last beat, past it of the database's reading
    refused = first.send(expect=400, type="claim_disconnect")
    assert "is here" in refused.json()["detail"]
    assert first.client.get(f"/api/matches/{match_id}/presence/").json()["seats"][1]["seen_at"] == last
    # a beat a third of the grace after the database's reading is written
    _beat(second)
    assert _stored_reading(match_id, 1) == (time.at, False)
    written = time.at
    time.passes(5)
    _beat(second)
    assert _stored_reading(match_id, 1) == (written, False)
    # the cache flushed, the database's reading alone still finds the player who beats here
    _flush_readings(match_id)
    time.passes(5)
    refused = first.send(expect=400, type="claim_disconnect")
    assert "is here" in refused.json()["detail"]
    _beat(second)  # the first beat after the flush is written: the database holds it
    assert _stored_reading(match_id, 1) == (time.at, False)
    assert _types(match_id)[-1] != "OnlineForfeitClaimed"


def test_a_disconnect_runs_from_the_last_beat_even_one_the_database_never_held(people, api, time, broker_url):
    match_id, first, second = _begun_match(people, api, time, disconnect=60)
    time.passes(4)
    _beat(second)  # the player's last beat, in the cache only
    last = time.at
    assert _stored_reading(match_id, 1)[0] < last
    time.passes(59)  # gone: away once the grace is over, 1 s of the clock left from the last beat
    early = first.send(expect=400, type="claim_disconnect")
    assert "1 s left" in early.json()["detail"]
    time.passes(1)
    first.send(type="claim_disconnect")
    grounds = Event.objects.get(stream_id=match_id, event_type="OnlineForfeitClaimed").payload
    assert grounds["seen_at"] == last and grounds["due"] == last + 60 * SECOND


def test_a_page_closing_or_coming_back_is_written_at_once(people, api, time):
    match_id, first, second = _begun_match(people, api, time)
    time.passes(1)
    _beat(second, here=False)
    assert _stored_reading(match_id, 1) == (time.at, True)
    _flush_readings(match_id)  # the database alone says the page closed
    assert first.client.get(f"/api/matches/{match_id}/presence/").json()["seats"][1]["here"] is False
    time.passes(1)
    _beat(second)
    assert _stored_reading(match_id, 1) == (time.at, False)


def test_without_a_shared_cache_every_beat_is_written(people, api, time, settings):
    match_id, first, second = _begun_match(people, api, time)
    settings.REDIS_URL = ""  # the embedded default: one process, its cache its own
    for _ in range(3):
        time.passes(1)
        _beat(second)
        assert _stored_reading(match_id, 1) == (time.at, False)
