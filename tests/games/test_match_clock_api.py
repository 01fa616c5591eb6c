"""A match played with a clock through the API: set at the start of a game, pressed by the players, paused by the
director, a flag falling during a cube answer, lateness from the director's call; refusals that change nothing.

The server's reading is the test's (``games.clocks.now``): time passes here when the test says so, never by
waiting."""

from __future__ import annotations

import pytest

from eventlog.models import Event
from games import clocks

from .recorder import Recorder, event_match

pytestmark = pytest.mark.django_db
MINUTE = 60_000


class Time:
    """The server's clock as the test moves it."""

    def __init__(self, monkeypatch):
        self.at = 1_800_000_000_000
        monkeypatch.setattr(clocks, "now", lambda: self.at)

    def passes(self, ms: int) -> None:
        self.at += ms


@pytest.fixture
def time(monkeypatch):
    return Time(monkeypatch)


@pytest.fixture
def people(make_user):
    return make_user("root", official=True, player=False), make_user("ann"), make_user("ben")


def as_player(api, match: Recorder, user) -> Recorder:
    return Recorder(api(user), match.match)


def rejudged(match: Recorder) -> None:
    """The stream as ``manage.py verify_log`` judges it: every command, the clock's included, decided again."""
    from eventlog import store
    from games.rejudging import judge_match_stream

    judge_match_stream(match.id, store.read_stream(match.id))


def test_a_match_with_a_us_clock_whose_flag_falls_during_a_cube_answer_is_won_on_time(api, people, time):
    director, ann, ben = people
    desk = event_match(api(director), director, (ann, ben), length=5)
    desk.send(type="set_clock", preset="us")  # 2 minutes a point at 0-0: 10 minutes each, 12 s a move
    assert desk.match["clock"]["reserves"] == [10 * MINUTE, 10 * MINUTE] and desk.match["clock"]["running"] is None
    desk.send(type="roll", dice=[3, 1])  # Ann's 3 against Ben's 1: Ben starts Ann's clock
    desk.send(type="press_clock")
    assert desk.match["clock"]["running"] == 0
    time.passes(20_000)  # 12 s of delay, then 8 s of Ann's reserve
    desk.send(type="move", move="8/5 6/5")
    desk.send(type="press_clock", player=0, reading=1_234)
    assert desk.match["clock"]["reserves"] == [10 * MINUTE - 8_000, 10 * MINUTE]
    assert Event.objects.filter(stream_id=desk.id, event_type="ClockPressed").last().payload["device_at"] == 1_234
    desk.send(type="roll", dice=[6, 4])
    desk.send(type="move", move="24/14")
    desk.send(type="press_clock")
    desk.send(type="double")
    desk.send(type="press_clock")  # Ben's clock runs for his answer
    time.passes(5 * MINUTE)
    early = desk.send(expect=400, type="claim_time")
    assert early.json()["code"] == "invalid_action" and "Ben still has" in early.json()["detail"]
    time.passes(5 * MINUTE + 12_000)  # the delay and the rest of Ben's 10 minutes
    clock = desk.refresh()["clock"]
    assert clock["fallen"] and clock["reserves"][1] == 0
    desk.send(type="claim_time")
    state = desk.match
    assert state["finished"] and state["winner"] == 0 and state["score"] == [5, 0]
    assert state["last_game"]["reason"] == "time"
    assert [e for e in Event.objects.filter(stream_id=desk.id).order_by("version").values_list("event_type", flat=True)
            ][-3:] == ["FlagFell", "GameWon", "MatchWon"]
    # the viewer steps through the play and the flag's fall, not through each press of the clock
    from games import viewer
    from eventlog import store

    steps = [f["text"] for f in viewer.frames(store.read_stream(desk.id))]
    assert steps[4:] == ["Ann doubles to 2", "Ben's flag falls: the match is lost on time",
                         "Ann wins 5 points (single, on time); 5-0", "Ann wins the match 5-0"], steps
    page = api(director).get(f"/matches/{desk.id}/").content.decode()
    assert "flag falls" in page
    rejudged(desk)


def test_overtime_given_at_a_late_press_then_the_flag_falls_in_it_and_the_log_is_judged_again(api, people, time):
    director, ann, ben = people
    desk = event_match(api(director), director, (ann, ben), length=1)
    desk.send(type="set_clock", preset="us_overtime_1")  # 2 minutes for a 1-point match, then 1 minute of overtime
    desk.send(type="roll", dice=[3, 1])
    desk.send(type="press_clock")  # Ben starts Ann's clock
    time.passes(12_000 + 2 * MINUTE + 20_000)  # the delay, her 2 minutes, 20 s into the overtime
    desk.send(type="move", move="8/5 6/5")
    desk.send(type="press_clock")
    types = list(Event.objects.filter(stream_id=desk.id).order_by("version").values_list("event_type", flat=True))
    assert types[-2:] == ["OvertimeGiven", "ClockPressed"]
    assert desk.match["clock"]["reserves"][0] == MINUTE - 20_000 and not desk.match["finished"]
    desk.send(type="roll", dice=[6, 4])
    desk.send(type="move", move="24/14")
    desk.send(type="press_clock")  # Ann's clock: 40 s of overtime left, and her delay
    time.passes(12_000 + 40_000)
    desk.send(type="claim_time")
    assert desk.match["finished"] and desk.match["winner"] == 1 and desk.match["last_game"]["reason"] == "time"
    rejudged(desk)


def test_the_players_press_their_own_clock_and_only_the_director_pauses_it(api, people, time):
    director, ann, ben = people
    desk = event_match(api(director), director, (ann, ben), length=3)
    ann_tablet = as_player(api, desk, ann)
    ann_tablet.send(type="set_clock", preset="uk")
    ann_tablet.send(type="roll", dice=[3, 1])
    before = Event.objects.count()
    refused = ann_tablet.send(expect=400, type="press_clock")  # Ann rolled the higher die: Ben presses
    assert refused.json()["code"] == "not_your_turn" and Event.objects.count() == before
    ben_tablet = as_player(api, ann_tablet, ben)
    ben_tablet.send(type="press_clock")
    paused = ben_tablet.send(expect=403, type="pause_clock")
    assert paused.json()["code"] == "permission_denied" and Event.objects.count() == before + 1
    desk.refresh()
    desk.send(type="pause_clock")
    time.passes(30 * MINUTE)
    assert desk.refresh()["clock"]["reserves"] == [6 * MINUTE, 6 * MINUTE] and desk.match["clock"]["paused"]
    desk.send(type="resume_clock")
    assert not desk.match["clock"]["paused"] and desk.match["clock"]["running"] == 0
    rejudged(desk)


def test_lateness_from_the_directors_call_gives_penalty_points_and_the_match(api, people, time):
    director, ann, ben = people
    desk = event_match(api(director), director, (ann, ben), length=5)
    refused = desk.send(expect=400, type="record_lateness", player=1)
    assert refused.json()["code"] == "bad_command" and "call the match first" in refused.json()["detail"]
    desk.send(type="call_match")
    time.passes(5 * MINUTE)
    desk.send(type="record_lateness", player=1)
    assert desk.match["score"] == [1, 0] and desk.match["clock"] is None
    time.passes(10 * MINUTE)  # 15 minutes: 3 points, past half of 5
    desk.send(type="record_lateness", player=1)
    assert desk.match["finished"] and desk.match["winner"] == 0 and desk.match["last_game"]["reason"] == "late"
    french = api(director).post(f"/api/matches/{desk.id}/commands/", {"type": "call_match", "expected_version":
                                                                      desk.version}, format="json",
                                HTTP_ACCEPT_LANGUAGE="fr")
    assert french.status_code == 400 and french.json()["code"] == "match_over"
    assert french.json()["detail"] == "le match est terminé : Ann a gagné 5-0"
    rejudged(desk)


def test_a_clock_is_set_only_before_a_games_opening_roll_with_a_known_preset(api, people, time):
    director, ann, ben = people
    desk = event_match(api(director), director, (ann, ben), length=5)
    bad = desk.send(expect=400, type="set_clock", preset="blitz")
    assert bad.json()["code"] == "bad_command"
    figures = desk.send(expect=400, type="set_clock", preset="custom", per_point=0)
    assert "'per_point' or 'per_match' (more than 0)" in figures.json()["detail"]
    desk.send(type="set_clock", preset="custom", per_point=90, per_scored=30, delay=8)
    assert desk.match["clock"]["reserves"] == [450_000, 450_000] and desk.match["clock"]["delay"] == 8_000
    again = desk.send(expect=400, type="set_clock", preset="us")
    assert again.json()["code"] == "invalid_action"
    french = api(director).post(f"/api/matches/{desk.id}/commands/", {"type": "set_clock", "preset": "us",
                                                                      "expected_version": desk.version},
                                format="json", HTTP_ACCEPT_LANGUAGE="fr")
    assert french.json()["detail"] == "le match a déjà sa pendule"
