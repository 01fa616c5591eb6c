"""Poison at the door: a command the read models or the gnubg IDs cannot hold is refused before it is stored.

Poison in the log, and an error answered after a commit: every
command either appends and answers 2xx, or answers 4xx and appends nothing; and what it appends
is something every projection can apply. Each test sends what a hostile member sent, checks the
answer and the log, then runs every projection over the log to show it still moves.
"""

from __future__ import annotations

import random

import pytest

from eventlog import projections
from eventlog.models import Event
from games.models import MatchSummary
from tournaments.models import Tournament

from .conftest import event_count, mat_text

pytestmark = pytest.mark.django_db


def _all_or_nothing(response, before: int) -> bool:
    """2xx with events appended, or 4xx with none: never an error answered after a commit."""
    if response.status_code < 300:
        return event_count() > before
    return 400 <= response.status_code < 500 and event_count() == before


def _projections_move_on(world) -> None:
    """Every projection catches up with the whole log, and a bystander's new match reaches the list."""
    bystander = world.new_match(tournament=False)
    projections.run_all()
    assert MatchSummary.objects.filter(stream_id=bystander).exists()


def _seats(world) -> dict:
    return {"player0": world.player("player").pk, "player1": world.player("opponent").pk}


def _schema(client) -> dict:
    return client.get("/api/schema/?format=json").json()


# -- a casual match of length 32769 ----------------------------------------------------


def test_a_match_longer_than_the_gnubg_match_id_holds_is_refused_before_it_is_stored(world):
    client = world.client("player")
    body = {"player0": world.player("player").pk, "player1": world.player("opponent").pk}
    before = event_count()
    response = client.post("/api/matches/", {**body, "length": 32769}, format="json")
    assert response.status_code == 400, response.content[:300]
    assert "length" in response.json()
    assert event_count() == before
    _projections_move_on(world)
    longest = client.post("/api/matches/", {**body, "length": 32767}, format="json")
    assert longest.status_code == 201, longest.content[:300]
    assert longest.json()["match_id"]  # the gnubg Match ID holds it
    projections.run_all()
    assert MatchSummary.objects.get(stream_id=longest.json()["id"]).length == 32767


def test_the_api_schema_states_the_limits(world):
    schema = _schema(world.client("anonymous"))["components"]["schemas"]
    create = schema["MatchCreate"]["properties"]
    assert create["length"]["maximum"] == 32767
    assert create["cube_limit"]["maximum"] == 32768
    assert create["automatic_doubles"]["maximum"] == 15


# -- a Swiss round paired as "x" ----------------------------------------------------------


def test_a_swiss_round_numbered_x_is_refused_and_the_tournament_view_moves_on(world):
    client = world.client("player")  # any signed-in member, in an event of their own
    created = client.post("/api/tournaments/", {"name": "Mine", "format": "swiss", "settings": {"rounds": 3}},
                          format="json")
    assert created.status_code == 201
    pk = created.json()["id"]
    a, b = world.player("player").pk, world.player("opponent").pk
    for command in ({"type": "enter", "player": a}, {"type": "enter", "player": b},
                    {"type": "draw", "method": "manual", "seeds": [a, b]}):
        assert client.post(f"/api/tournaments/{pk}/commands/", command, format="json").status_code == 200
    before = event_count()
    for bad_round in ("x", 0, -1, 1.5, None, [2], 2**40, 4):
        response = client.post(f"/api/tournaments/{pk}/commands/",
                               {"type": "pair_round", "round": bad_round, "pairings": [[a, b]]}, format="json")
        assert response.status_code == 400, (bad_round, response.status_code, response.content[:300])
        assert event_count() == before, bad_round
    projections.run_all()
    _projections_move_on(world)


# -- event settings stored unchecked --------------------------------------------------------


BAD_SETTINGS = [
    ("single_elimination", {"lengths": {"main": {"default": "abc"}}}),
    ("single_elimination", {"lengths": {"main": {"default": 2**31}}}),
    ("single_elimination", {"lengths": {"main": {"default": 32769}}}),
    ("single_elimination", {"lengths": {"main": {"default": 7, "final": 32769}}}),
    ("single_elimination", {"lengths": {"main": {"rounds": {"x": 7}}}}),
    ("single_elimination", {"lengths": {"main": {"rounds": {"2": "abc"}}}}),
    ("single_elimination", {"lengths": "abc"}),
    ("single_elimination", {"consolation_feeds": 0}),
    ("single_elimination", {"last_chance": True}),
    ("round_robin", {"tiebreaks": ["coin_toss"]}),
    ("round_robin", {"tiebreaks": "buchholz"}),
    ("round_robin", {"cycles": "two"}),
    ("swiss", {"rounds": "abc"}),
    ("swiss", {"rounds": [1]}),
    ("swiss", {"rounds": None}),
    ("swiss", {"rounds": 2**31}),
    ("swiss", {"rounds": 3, "tiebreaks": ["buchholz", "nope"]}),
    ("swiss", {"rounds": 3, "late_entry_points": "lots"}),
    ("swiss", {"rounds": 3, "auto_pair": "maybe"}),
    ("swiss", {"rounds": 3, "format": "round_robin"}),
    ("swiss", {"rounds": 3, "unheard_of": 1}),
]


@pytest.mark.parametrize("fmt,spec", BAD_SETTINGS)
def test_event_settings_are_checked_before_the_event_is_stored(world, fmt, spec):
    before, events = event_count(), Tournament.objects.count()
    response = world.client("official").post(
        "/api/tournaments/", {"name": "Odd", "format": fmt, "settings": spec}, format="json")
    assert response.status_code == 400, (spec, response.status_code, response.content[:300])
    assert len(response.content) < 2000
    assert (event_count(), Tournament.objects.count()) == (before, events)


def test_sensible_settings_are_still_accepted(world):
    client = world.client("official")
    for fmt, settings in [
        ("single_elimination", {"lengths": {"main": {"default": 7, "final": 9, "rounds": {"2": 5}},
                                            "consolation": {"default": 5}},
                                "consolation": True, "consolation_feeds": 2}),
        ("double_elimination", {"lengths": {"winners": {"default": 5}, "grand_final": {"default": 9}},
                                "reset": False}),
        ("round_robin", {"cycles": 2, "tiebreaks": ["points_diff", "sonneborn_berger"]}),
        ("swiss", {"rounds": 5, "tiebreaks": ["buchholz"], "late_entry_until_round": 2, "late_entry_points": 0.5,
                   "auto_pair": False, "lengths": {"rounds": {"default": 3}}}),
    ]:
        response = client.post("/api/tournaments/", {"name": "Fine", "format": fmt, "settings": settings},
                               format="json")
        assert response.status_code == 201, (fmt, response.content[:300])


# -- a correction's score beyond an integer column ----------------------------------------


@pytest.mark.parametrize("score", [[2**31, 0], [2**63, 0], [7, 2**31], [131071, 0]])
def test_a_correction_with_a_score_no_read_model_holds_is_refused(world, score):
    match_id = world.new_match(length=7)
    before = event_count()
    response = world.client("director").post(f"/api/matches/{match_id}/commands/", {
        "type": "correct_result", "winner": 0, "score": score, "reason": "typo",
        "expected_version": world.version(match_id)}, format="json")
    assert response.status_code == 400, response.content[:300]
    assert event_count() == before
    _projections_move_on(world)


def test_a_tournament_correction_with_a_score_no_read_model_holds_is_refused(world):
    from tournaments import services

    client = world.client("director")
    final = _final_with_a_paper_result(world)
    before = event_count()
    response = client.post(f"/api/tournaments/{world.event.pk}/commands/", {
        "type": "correct_result", "slot": final["key"], "winner": final["players"][0], "score": [2**31, 0],
        "reason": "typo"}, format="json")
    assert response.status_code == 400, response.content[:300]
    assert event_count() == before
    projections.run_all()
    assert services.tournament_view(world.event)[1].slots[0].result.winner_points == 3


def _final_with_a_paper_result(world) -> dict:
    from tournaments import selectors, services

    director = world.user("director")
    a, b = world.player("player").pk, world.player("opponent").pk

    def cmd(**c):
        services.tournament_command(actor=director, tournament=world.event, command=c)

    for pid in (a, b):
        cmd(type="enter", player=pid)
        cmd(type="check_in", player=pid)
    cmd(type="draw", method="manual", seeds=[a, b])
    key = services.tournament_view(world.event)[1].slots[0].key
    cmd(type="report_result", slot=key, winner=a, score=[3, 0])
    projections.run_all()
    return next(s for s in selectors.tournament_data(world.event)["slots"] if s["key"] == key)


# -- a .mat with a 200-character player name ----------------------------------------------


def test_a_mat_file_with_a_name_longer_than_the_read_model_holds_is_refused(world):
    long_name = "A" * 200
    text = mat_text().replace("Alice", long_name)
    assert long_name in text
    before = event_count()
    response = world.client("player").post("/api/matches/import/", {"text": text, **_seats(world)}, format="json")
    assert response.status_code == 400, response.content[:300]
    assert "80" in response.json()["detail"] and long_name not in response.json()["detail"]
    assert event_count() == before
    _projections_move_on(world)


def test_two_players_of_the_longest_same_name_still_fit_the_read_model(world):
    from games.creation import match_create
    from players.models import Player

    name = "B" * 80
    one, two = Player.objects.create(display_name=name), Player.objects.create(display_name=name)
    record = match_create(actor=world.user("official"), player0=one, player1=two, length=3)
    projections.run_all()
    summary = MatchSummary.objects.get(stream_id=record.stream_id)
    assert summary.player0_name != summary.player1_name
    assert max(len(summary.player0_name), len(summary.player1_name)) <= 80


# -- an error answered after a commit -----------------------------------------------


def test_a_money_session_s_tied_opening_rolls_never_push_the_cube_past_what_is_stored(world):
    """Ask for more automatic doubles than the cube can take: refused at once, or every tie answered
    with what it stored; either way the cube stays within what the IDs and the read model hold."""
    client = world.client("player")
    seats = {"player0": world.player("player").pk, "player1": world.player("opponent").pk, "length": 0,
             "dice": "board"}
    for doubles in (20, 15):
        before = event_count()
        created = client.post("/api/matches/", {**seats, "automatic_doubles": doubles}, format="json")
        assert _all_or_nothing(created, before), (doubles, created.status_code, created.content[:300])
        if created.status_code != 201:
            continue
        match_id = created.json()["id"]
        for tie in range(1, 20):
            before = event_count()
            response = client.post(f"/api/matches/{match_id}/commands/",
                                   {"type": "roll", "dice": [tie % 6 + 1] * 2,
                                    "expected_version": world.version(match_id)}, format="json")
            assert _all_or_nothing(response, before), (tie, response.status_code, response.content[:300])
            assert response.status_code == 200, (tie, response.content[:300])
            assert response.json()["state"]["cube"]["value"] <= 32768
        state = client.get(f"/api/matches/{match_id}/").json()
        assert state["cube"]["value"] == 32768 and state["match_id"]
        _projections_move_on(world)
        assert MatchSummary.objects.get(stream_id=match_id).cube_value == 32768


def test_too_many_automatic_doubles_are_refused_at_creation(world):
    before = event_count()
    response = world.client("player").post("/api/matches/", {
        "player0": world.player("player").pk, "player1": world.player("opponent").pk, "length": 0,
        "automatic_doubles": 16}, format="json")
    assert response.status_code == 400 and event_count() == before


def _mat_with_cube(target: int) -> str:
    """A money session (written by the engine) whose only game is doubled and taken up to ``target``."""
    from games.engine import commands as cmd
    from games.engine.match import MatchState, decide, evolve
    from games.engine.matfile import write_mat

    rng, state, events = random.Random(1), MatchState(), []

    def do(command):
        nonlocal state
        for event in decide(state, command):
            state = evolve(state, event)
            events.append(event)

    do(cmd.StartMatch(("Alice", "Bob"), 0))
    do(cmd.Roll(None, (3, 1)))
    do(cmd.Move(state.turn, str(state.legal_plays()[0])))
    while state.cube < target:
        p = state.turn
        do(cmd.Double(p))
        do(cmd.Take(1 - p))
        do(cmd.Roll(p, (rng.randint(1, 6), rng.randint(1, 6))))
        if state.phase == "move":
            do(cmd.Move(p, str(state.legal_plays()[0])))
    do(cmd.Resign(state.turn, "single"))
    do(cmd.AcceptResignation(1 - state.resignation[0]))
    return write_mat(events, headers={})


def test_a_mat_money_session_whose_cube_reaches_2_to_the_40_is_refused_with_nothing_stored(world):
    before = event_count()
    response = world.client("player").post("/api/matches/import/", {"text": _mat_with_cube(2**40), **_seats(world)}, format="json")
    assert response.status_code == 400, response.content[:300]
    assert "cube" in response.json()["detail"]
    assert event_count() == before
    _projections_move_on(world)


def test_a_mat_money_session_within_the_limits_is_imported(world):
    response = world.client("player").post("/api/matches/import/", {"text": _mat_with_cube(2**15), **_seats(world)}, format="json")
    assert response.status_code == 201, response.content[:300]
    projections.run_all()
    summary = MatchSummary.objects.get(stream_id=response.json()["id"])
    assert summary.score0 + summary.score1 == 2**15


def test_a_money_session_s_score_past_the_gnubg_match_id_shows_the_id_as_unavailable(world):
    """Scores of a money session add up without end; past 15 bits gnubg cannot write the Match ID."""
    response = world.client("player").post("/api/matches/import/", {"text": _mat_with_cube(2**15), **_seats(world)}, format="json")
    match_id = response.json()["id"]
    world.send(match_id, type="roll", dice=[4, 2])  # the second game opens at 32768-0
    client = world.client("player")
    state = client.get(f"/api/matches/{match_id}/").json()
    assert state["match_id"] is None and state["position_id"]
    projections.run_all()
    assert MatchSummary.objects.get(stream_id=match_id).match_id == ""


def test_no_event_of_a_refused_match_creation_is_left_behind(world):
    """The first command of a stream: registration and MatchStarted come together or not at all."""
    client = world.client("player")
    before = list(Event.objects.values_list("global_position", flat=True))
    for length in (32769, 2**31, 2**63, -1, 4):
        response = client.post("/api/matches/", {"player0": world.player("player").pk,
                                                 "player1": world.player("opponent").pk, "length": length},
                               format="json")
        assert response.status_code == 400, (length, response.content[:300])
    assert list(Event.objects.values_list("global_position", flat=True)) == before
