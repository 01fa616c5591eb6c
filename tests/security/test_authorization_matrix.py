"""Who may do what, for every API endpoint and command: the roles of conftest.py against each action.

The rules (players/authority.py, the services and docs/features.md). "Officials" hold ``players.officiate``
(the "Officials" group, or superuser); ``is_staff`` alone only opens the admin's door and gives no power:

- Reading a match (state, events, games, export, dice): anyone while it is published; an unpublished one
  only its two players, its event's director and officials (the others get 404, as if it did not exist).
- Match commands: the two players (each only for their own seat: acting out of turn is the engine's
  400, acting for the other seat 403), the event's director and officials (for whichever seat is due).
  ``correct_result`` and ``void``: the event's director and officials only. ``confirm_import`` (an imported
  record counts for the ratings only once vouched for): the other player than the importer, the event's
  director and officials.
- Creating or importing a match through the match API: a casual match only, by one of its two players or an
  official (an event creates its own matches; a body naming an event is refused).
- Creating an event: officials (they become its director); under a club's name, the club's directors; without
  a club's name, any member only where the site allows casual events (``CASUAL_EVENTS``, on in the tests'
  settings, off by default), limited to ``CASUAL_EVENT_MAX_PLAYERS`` players.
- Reading an event: anyone while it is published; an unpublished one only its director, officials and
  its entrants (the others get 404, for commands too).
- Event commands: ``enter`` yourself (anyone logged in who can see the event) or anyone (director,
  officials); ``confirm_result`` only the slot's two players; every other command the director and officials.
- A slot's match played on another server, reported with its match file (``/api/tournaments/{id}/slots/{key}/
  proof/``): the slot's two players, the event's director and officials; the consent to a player's file
  (``…/proof/consent/``) and its refusal (``…/proof/decline/``): the other player, the event's director and
  officials, never the player who sent it.
- A player's fair-play review (``/api/players/{id}/fair-play/`` and its page): officials, and the director of an
  event the player entered (never another director's players).
- The director's console (``/events/{id}/run/``, where the admin's old "run this event" address leads): the
  event's director (staff or not) and officials. The rest of the
  admin needs staff: the event list shows officials every event and a staff director their own; its
  actions (draw, pair) act only on those; merging players needs the change permission on players.

Anonymous requests are refused with 401 or 403 (DRF answers 403 when session authentication comes first).
Every refused request leaves the event log as it was; every allowed one appends to it.
"""

from __future__ import annotations

import pytest
from django.urls import Resolver404, resolve

from eventlog.models import Event
from players.models import Player
from tests.conftest import built_once
from tournaments import services
from tournaments.commands import COMMANDS
from tournaments.models import Tournament

from .conftest import ROLES, event_count, mat_text, world_again, world_made

pytestmark = pytest.mark.django_db


@pytest.fixture(scope="module")
def _world(django_db_setup, django_db_blocker):
    """The world built once for the module (users, tokens, two events: most of a test's setup, seven hundred
    tests), in a transaction rolled back at its end; each test runs in a savepoint of it and reads it again."""
    from django.contrib.auth import get_user_model

    yield from built_once(django_db_blocker, lambda: world_made(get_user_model()))


@pytest.fixture
def world(db, _world):
    built, restore_cache = _world
    restore_cache()
    return world_again(built)

ANON = (401, 403)
OFFICIALS = ("director", "official")


def check(response, expected, before: int, *, appends: bool | None = None):
    """The status is the one expected; a refusal appends nothing, a success appends something."""
    allowed = expected if isinstance(expected, tuple) else (expected,)
    assert response.status_code in allowed, (response.status_code, _body(response))
    if response.status_code >= 400:
        assert event_count() == before, "a refused request appended to the event log"
        assert _body(response), "a refusal without a reason"
    elif appends is not False:
        assert event_count() > before, "an accepted command appended nothing"


def _body(response):
    try:
        return response.json()
    except ValueError:
        return response.content[:200]


# -- reading matches ------------------------------------------------------------------------------


def _route_exists(path: str) -> bool:
    try:
        resolve(path)
        return True
    except Resolver404:
        return False


READS = ["", "events/", "games/", "export.mat"] + (["dice/"] if _route_exists("/api/matches/x/dice/") else [])


@pytest.mark.parametrize("role", ROLES)
@pytest.mark.parametrize("read", READS)
def test_a_published_match_is_readable_by_everyone(world, role, read):
    match_id = world.new_match()
    assert world.client(role).get(f"/api/matches/{match_id}/{read}").status_code == 200


@pytest.mark.parametrize("role", ROLES)
@pytest.mark.parametrize("read", READS)
def test_an_unpublished_match_is_readable_by_its_players_director_and_staff_only(world, role, read):
    match_id = world.new_match(published=False)
    expected = 200 if role in ("player", "opponent", "director", "official") else 404
    assert world.client(role).get(f"/api/matches/{match_id}/{read}").status_code == expected


def test_the_match_list_leaves_unpublished_matches_out(world):
    from eventlog import projections

    hidden, shown = world.new_match(published=False), world.new_match()
    projections.run_all()
    for role in ROLES:
        ids = {m["id"] for m in world.client(role).get("/api/matches/").json()}
        assert shown in ids and hidden not in ids, role


# -- match commands ---------------------------------------------------------------------------------

ROLL_31, PLAY_31 = {"type": "roll", "dice": [3, 1]}, {"type": "move", "move": "8/5 6/5"}
CLOCK_UK = {"type": "set_clock", "preset": "uk"}
ONLINE = {"dice": "server", "online_rule": {"disconnect": 60}}  # due to start now, none late
# name: (match options, commands that set the scene (sent by staff), the command, the seat due to act:
#        0 = Player, 1 = Opponent, None = either, "officials" = a director's command)
MATCH_SCENES = {
    "opening roll": ({}, [], ROLL_31, None),
    "roll": ({}, [ROLL_31, PLAY_31], {"type": "roll", "dice": [5, 2]}, 1),
    "move": ({}, [ROLL_31], PLAY_31, 0),
    "double": ({}, [ROLL_31, PLAY_31], {"type": "double"}, 1),
    "take": ({}, [ROLL_31, PLAY_31, {"type": "double"}], {"type": "take"}, 0),
    "drop": ({}, [ROLL_31, PLAY_31, {"type": "double"}], {"type": "drop"}, 0),
    "beaver": ({"length": 0, "beavers": True}, [ROLL_31, PLAY_31, {"type": "double"}], {"type": "beaver"}, 0),
    "raccoon": ({"length": 0, "beavers": True, "raccoons": True},
                [ROLL_31, PLAY_31, {"type": "double"}, {"type": "beaver"}], {"type": "raccoon"}, 1),
    "resign": ({}, [ROLL_31], {"type": "resign", "kind": "single"}, None),
    "accept_resignation": ({}, [ROLL_31, {"type": "resign", "kind": "single", "player": 0}],
                           {"type": "accept_resignation"}, 1),
    "decline_resignation": ({}, [ROLL_31, {"type": "resign", "kind": "single", "player": 0}],
                            {"type": "decline_resignation"}, 1),
    "correct_result": ({}, [], {"type": "correct_result", "winner": 0, "score": [5, 2], "reason": "scoresheet"},
                       "officials"),
    "void": ({}, [], {"type": "void", "reason": "wrong players"}, "officials"),
    "set_rated": ({}, [], {"type": "set_rated", "rated": False}, "officials"),
    # a .mat record imported by "player" (seat 0): vouched for by the other seat or an official of the event
    "confirm_import": ({"imported_by": "player"}, [], {"type": "confirm_import"}, "other seat"),
    # the clock: either player sets it before a game; the lower opening die (seat 1's 1) presses first; a flag
    # claimed with time left, and lateness with none due yet, are refused by the rules once the rights allow them
    "set_clock": ({}, [], {"type": "set_clock", "preset": "uk"}, None),
    "press_clock": ({}, [CLOCK_UK, ROLL_31], {"type": "press_clock"}, 1),
    "claim_time": ({}, [CLOCK_UK, ROLL_31, {"type": "press_clock", "player": 1}], {"type": "claim_time"},
                   "time left"),
    "pause_clock": ({}, [CLOCK_UK, ROLL_31, {"type": "press_clock", "player": 1}], {"type": "pause_clock"},
                    "officials"),
    "resume_clock": ({}, [CLOCK_UK, ROLL_31, {"type": "press_clock", "player": 1}, {"type": "pause_clock"}],
                     {"type": "resume_clock"}, "officials"),
    "call_match": ({}, [], {"type": "call_match"}, "officials"),
    "record_lateness": ({}, [{"type": "call_match"}], {"type": "record_lateness", "player": 1},
                        "officials, none due"),
    # online: the player who came claims against the other seat, an official names the seat away; the disconnect
    # clock is claimed only once the match has begun (its rules refuse it before)
    "claim_no_show": (ONLINE, [], {"type": "claim_no_show", "absent": 1}, None),
    "claim_disconnect": (ONLINE, [], {"type": "claim_disconnect", "absent": 1}, "online, not begun"),
}


def _match_in_scene(world, scene: str, *, tournament=True) -> tuple[str, dict]:
    options, steps, command, _ = MATCH_SCENES[scene]
    if "imported_by" in options:
        from games.mat_io import match_import_mat

        match_id = match_import_mat(actor=world.user(options["imported_by"]), text=mat_text(),
                                            player0=world.player("player"), player1=world.player("opponent"),
                                            tournament_id=world.event.pk if tournament else None,
                                            officiating_director_id=world.event.director_id if tournament else None,
                                            ).stream_id
        return match_id, {**command, "expected_version": world.version(match_id)}
    match_id = world.new_match(tournament=tournament, **options)
    for step in steps:
        world.send(match_id, **step)
    return match_id, {**command, "expected_version": world.version(match_id)}


def _expected_for_match_command(role: str, due) -> int | tuple:
    if role == "anonymous":
        return ANON
    if due in ("time left", "officials, none due", "online, not begun") and (
            role in OFFICIALS or due in ("time left", "online, not begun") and role in ("player", "opponent")):
        return 400  # allowed to ask, refused by the rules (the flag has not fallen; no penalty is due yet)
    if role in OFFICIALS:
        return 200
    if role in ("unrelated", "other_director"):
        return 403
    if due in ("officials", "officials, none due"):
        return 403
    if due == "other seat":
        return 200 if role == "opponent" else 403
    seat = 0 if role == "player" else 1
    return 200 if due in (None, seat) else 400  # the engine: not your turn / not your double to answer


def test_every_match_command_type_is_in_the_matrix():
    from games.commands import COMMAND_TYPES

    assert {command["type"] for _, _, command, _ in MATCH_SCENES.values()} == set(COMMAND_TYPES)


@pytest.mark.parametrize("role", ROLES)
@pytest.mark.parametrize("scene", list(MATCH_SCENES))
def test_match_commands(world, scene, role):
    match_id, command = _match_in_scene(world, scene)
    expected = _expected_for_match_command(role, MATCH_SCENES[scene][3])
    before = event_count()
    response = world.client(role).post(f"/api/matches/{match_id}/commands/", command, format="json")
    check(response, expected, before)
    if expected == 400:
        due = MATCH_SCENES[scene][3]
        ruled = due in ("time left", "officials, none due")
        assert response.json()["code"] == ("bad_command" if due == "online, not begun"
                                           else "invalid_action" if ruled else "not_your_turn")


@pytest.mark.parametrize("scene", [s for s, (_, _, _, due) in MATCH_SCENES.items() if due in (0, 1)])
def test_a_player_cannot_act_for_the_other_seat(world, scene):
    match_id, command = _match_in_scene(world, scene)
    due = MATCH_SCENES[scene][3]
    other = "opponent" if due == 0 else "player"
    before = event_count()
    response = world.client(other).post(f"/api/matches/{match_id}/commands/", {**command, "player": due}, format="json")
    check(response, 403, before)


@pytest.mark.parametrize("role", ROLES)
def test_outside_an_event_no_director_may_record(world, role):
    """A casual match has no director: only its players and staff send commands."""
    match_id, command = _match_in_scene(world, "opening roll", tournament=False)
    expected = {"anonymous": ANON, "player": 200, "opponent": 200, "official": 200}.get(role, 403)
    before = event_count()
    check(world.client(role).post(f"/api/matches/{match_id}/commands/", command, format="json"), expected, before)


@pytest.mark.parametrize("role", ROLES[1:])
def test_commands_to_a_match_that_does_not_exist_are_404(world, role):
    before = event_count()
    response = world.client(role).post("/api/matches/no-such-match/commands/", {**ROLL_31, "expected_version": 2},
                                       format="json")
    check(response, 404, before)


# -- creating and importing matches -----------------------------------------------------------------

CREATE_CASUAL = {"anonymous": ANON, "player": 201, "opponent": 201, "unrelated": 403, "other_director": 403,
                 "director": 403, "official": 201}
# a match knows nothing of its event, so an event's matches are added through the event (which knows
# its director); the match API refuses a body naming an event (test_no_match_is_added_to_an_unpublished_event…)
CREATE_IN_EVENT = {"anonymous": ANON, "player": 403, "opponent": 403, "unrelated": 403, "other_director": 403,
                   "director": 201, "official": 201}


@pytest.mark.parametrize("in_event", [False, True], ids=["casual", "in-event"])
@pytest.mark.parametrize("role", ROLES)
def test_creating_a_match(world, role, in_event):
    body = {"player0": world.player("player").pk, "player1": world.player("opponent").pk, "length": 5}
    # a match held by an event is added through the event, which knows its director (games never looks it up)
    url = f"/api/tournaments/{world.event.pk}/matches/" if in_event else "/api/matches/"
    before = event_count()
    response = world.client(role).post(url, body, format="json")
    check(response, (CREATE_IN_EVENT if in_event else CREATE_CASUAL)[role], before)


@pytest.mark.parametrize("in_event", [False, True], ids=["casual", "in-event"])
@pytest.mark.parametrize("role", ROLES)
def test_importing_a_mat_file(world, role, in_event):
    body = {"text": mat_text(), "player0": world.player("player").pk, "player1": world.player("opponent").pk}
    url = f"/api/tournaments/{world.event.pk}/matches/import/" if in_event else "/api/matches/import/"
    before = event_count()
    response = world.client(role).post(url, body, format="json")
    check(response, (CREATE_IN_EVENT if in_event else CREATE_CASUAL)[role], before)


def test_a_refused_import_creates_no_players(world):
    players, before = Player.objects.count(), event_count()
    response = world.client("unrelated").post("/api/matches/import/", {"text": mat_text()}, format="json")
    check(response, 403, before)
    assert Player.objects.count() == players, "a refused import created players"


# -- creating and reading events --------------------------------------------------------------------


@pytest.mark.parametrize("role", ROLES)
def test_creating_an_event_makes_you_its_director(world, role):
    before = event_count()
    response = world.client(role).post("/api/tournaments/", {"name": f"{role}'s night", "format": "swiss",
                                                             "settings": {"rounds": 3}}, format="json")
    check(response, ANON if role == "anonymous" else 201, before)
    if role != "anonymous":
        assert Tournament.objects.get(name=f"{role}'s night").director == world.user(role)


@pytest.mark.parametrize("role", ROLES)
def test_without_casual_events_only_officials_create_events_outside_a_club(world, role, settings):
    """Production's default (CASUAL_EVENTS off): a member's event of their own is refused."""
    settings.CASUAL_EVENTS = False
    before = event_count()
    response = world.client(role).post("/api/tournaments/", {"name": f"{role}'s night", "format": "round_robin"},
                                       format="json")
    check(response, ANON if role == "anonymous" else 201 if role == "official" else 403, before)


@pytest.mark.parametrize("role", ROLES)
def test_a_published_event_is_readable_by_everyone(world, role):
    assert world.client(role).get(f"/api/tournaments/{world.event.pk}/").status_code == 200


UNPUBLISHED_READERS = {"director", "official"}


@pytest.mark.parametrize("role", ROLES)
def test_an_unpublished_event_is_readable_by_its_director_and_officials_only(world, role):
    Tournament.objects.filter(pk=world.event.pk).update(published=False)
    expected = 200 if role in UNPUBLISHED_READERS else 404
    assert world.client(role).get(f"/api/tournaments/{world.event.pk}/").status_code == expected
    page = _admin_client(world, role).get(f"/events/{world.event.pk}/")
    assert page.status_code == expected
    if expected == 200:
        assert b"hidden: not published" in page.content


@pytest.mark.parametrize("role", ["player", "opponent"])
def test_an_unpublished_event_is_readable_by_those_entered_in_it(world, role):
    _entered(world, check_in=False)
    Tournament.objects.filter(pk=world.event.pk).update(published=False)
    assert world.client(role).get(f"/api/tournaments/{world.event.pk}/").status_code == 200
    assert world.client("unrelated").get(f"/api/tournaments/{world.event.pk}/").status_code == 404


@pytest.mark.parametrize("role", ROLES)
def test_a_team_events_teams_are_read_as_the_event_is(world, role):
    _team_event(world, registered=True)
    url = f"/api/tournaments/{world.event.pk}/teams/"
    assert world.client(role).get(url).status_code == 200
    Tournament.objects.filter(pk=world.event.pk).update(published=False)
    hidden = world.client(role).get(url).status_code
    assert hidden == (200 if role in UNPUBLISHED_READERS | {"player", "opponent"} else 404)


@pytest.mark.parametrize("role", [r for r in ROLES if r not in UNPUBLISHED_READERS])
def test_the_event_list_leaves_unpublished_events_out(world, role):
    Tournament.objects.filter(pk=world.event.pk).update(published=False)
    ids = {t["id"] for t in world.client(role).get("/api/tournaments/").json()}
    assert world.event.pk not in ids and world.other_event.pk in ids


# -- event commands -------------------------------------------------------------------------------


def _as_staff(world, t, **command):
    services.tournament_command(actor=world.user("official"), tournament=t, command=command)


def _entered(world, *, check_in=True, draw=False, extra=()):
    t = world.event
    field = [world.player("player").pk, world.player("opponent").pk, *extra]
    for pid in field:
        _as_staff(world, t, type="enter", player=pid)
        if check_in:
            _as_staff(world, t, type="check_in", player=pid)
    if draw:
        _as_staff(world, t, type="draw", method="manual", seeds=field)
        services.tournament_advance(t)
    return t


def _final(world) -> str:
    return next(s.key for s in services.tournament_view(world.event)[1].slots if None not in s.players)


def _scene_keep_match(world) -> dict:
    """Four players; round one decided on paper, the final started, then a round-one result corrected:
    the final's match no longer fits its slot and is flagged to the director."""
    walk_ins = [Player.objects.create(display_name=f"Walk-in {i}").pk for i in (1, 2)]
    t = _entered(world, draw=True, extra=walk_ins)
    view = services.tournament_view(t)[1]
    first = [s for s in view.slots if s.round == 1]
    for s in first:
        _as_staff(world, t, type="report_result", slot=s.key, winner=s.players[0], score=[3, 0])
    services.tournament_advance(t)
    facts, view = services.tournament_view(t)
    final = next(s for s in view.slots if s.round == 2)
    world.send(facts.matches[final.key]["match_id"], **ROLL_31)
    _as_staff(world, t, type="correct_result", slot=first[0].key, winner=first[0].players[1], score=[3, 2],
              reason="scoresheet")
    flagged = services.tournament_view(t)[1].flagged
    assert [f["slot"] for f in flagged] == [final.key]
    return {"type": "keep_match", "slot": final.key}


def _scene_pair_round(world) -> dict:
    """A Swiss event of the same director, round one paired by the draw: the director pairs it again."""
    swiss = services.tournament_create(actor=world.user("director"), name="Swiss night", format="swiss",
                                       settings={"rounds": 3})
    world.event = swiss
    walk_in = Player.objects.create(display_name="Walk-in").pk
    field = [world.player("player").pk, world.player("opponent").pk, walk_in]
    for pid in field:
        _as_staff(world, swiss, type="enter", player=pid)
    _as_staff(world, swiss, type="draw", method="manual", seeds=field)
    # round one again, before any of its matches begins (round two waits for round one to be played)
    return {"type": "pair_round", "round": 1, "pairings": [[field[0], field[1]], [walk_in, None]]}


def _scene_close_stage(world) -> dict:
    """A one-round Swiss of the same director whose top two go on to a knockout, its round decided on paper."""
    t = services.tournament_create(actor=world.user("director"), name="Staged night", format="swiss",
                                   settings={"rounds": 1, "qualifiers": 2})
    world.event = t
    field = [world.player("player").pk, world.player("opponent").pk]
    for pid in field:
        _as_staff(world, t, type="enter", player=pid)
    _as_staff(world, t, type="draw", method="manual", seeds=field)
    services.tournament_advance(t)
    _as_staff(world, t, type="report_result", slot=_final(world), winner=field[0], score=[7, 1])
    services.tournament_advance(t)
    return {"type": "close_stage"}


def _reentry_event(world, *, lose: bool):
    """Three players in a four-draw with re-entry until round one: the top seed's bye stays open for a buy-back;
    with ``lose`` the other two play and the player loses."""
    t = services.tournament_create(actor=world.user("director"), name="Buy-back night", format="single_elimination",
                                   settings={"reentry": {"until_round": 1, "times": 1}})
    world.event = t
    walk_in = Player.objects.create(display_name="Walk-in").pk
    field = [walk_in, world.player("opponent").pk, world.player("player").pk]
    for pid in field:
        _as_staff(world, t, type="enter", player=pid)
        _as_staff(world, t, type="check_in", player=pid)
    _as_staff(world, t, type="draw", method="manual", seeds=field)
    services.tournament_advance(t)
    if lose:
        _as_staff(world, t, type="report_result", slot=_final(world), winner=field[1], score=[7, 1])
        services.tournament_advance(t)
    return t


def _ladder(world, *, challenge: bool = False, weeks_ago: int = 0):
    """A ladder of the same director: the opponent on the top rung, the player below; with ``challenge`` the
    player has challenged the opponent (``weeks_ago``: issued that long ago, by the clock the service reads)."""
    t = services.tournament_create(actor=world.user("director"), name="Club ladder", format="ladder",
                                   settings={"challenge_days": 7})
    world.event = t
    field = [world.player("opponent").pk, world.player("player").pk]
    for pid in field:
        _as_staff(world, t, type="enter", player=pid)
    _as_staff(world, t, type="draw", method="manual", seeds=field)
    if challenge:
        now = services.clock
        services.clock = lambda: now() - weeks_ago * 7 * 86_400
        try:
            _as_staff(world, t, type="issue_challenge", challenger=field[1], defender=field[0])
        finally:
            services.clock = now
    return t


def _p(world, role="player") -> int:
    return world.player(role).pk


def _sold(world, *, bought_back: bool = False):
    """The player and the opponent entered, the player's lot of the Calcutta sold to Ann (and bought back)."""
    _entered(world)
    _as_staff(world, world.event, type="set_money", entry=1000)
    _as_staff(world, world.event, type="add_lot", name="Lot", players=[_p(world)])
    _as_staff(world, world.event, type="sell_lot", lot="Lot", owner="Ann", price=500)
    if bought_back:
        _as_staff(world, world.event, type="buy_back", lot="Lot")


def _jackpot(world, *, full: bool = False):
    """The player and the opponent entered, a jackpot of two seats opened, the player's bought (both: full)."""
    _entered(world)
    _as_staff(world, world.event, type="open_jackpot", name="Jackpot", buy_in=1000, size=2)
    for who in ("player", "opponent") if full else ("player",):
        _as_staff(world, world.event, type="buy_jackpot", jackpot="Jackpot", player=_p(world, who))


def _team_event(world, *, registered: bool = False):
    """A team event of the same director, of one board a team; with ``registered`` the player's and the
    opponent's teams are in it, with a reserve each."""
    t = services.tournament_create(actor=world.user("director"), name="Teams", format="team_round_robin",
                                   settings={"boards": 1, "reserves": 1})
    world.event = t
    if registered:
        for n, role in enumerate(("player", "opponent")):
            _as_staff(world, t, type="register_team", name=f"Team {n + 1}", players=[_p(world, role)],
                      reserves=[Player.objects.create(display_name=f"Reserve {n + 1}").pk])


# name: (set the scene in world.event and return the command, who may send it)
EVENT_SCENES = {
    "enter someone else": (lambda w: {"type": "enter", "player": Player.objects.create(display_name="Guest").pk},
                           OFFICIALS),
    "check_in": (lambda w: (_entered(w, check_in=False), {"type": "check_in", "player": _p(w)})[1], OFFICIALS),
    "withdraw": (lambda w: (_entered(w), {"type": "withdraw", "player": _p(w), "reason": "ill"})[1], OFFICIALS),
    "draw": (lambda w: (_entered(w), {"type": "draw", "method": "random"})[1], OFFICIALS),
    "pair_round": (_scene_pair_round, OFFICIALS),
    "forbid": (lambda w: {"type": "forbid", "players": [_p(w), _p(w, "opponent")]}, OFFICIALS),
    "report_result": (lambda w: (_entered(w, draw=True), {"type": "report_result", "slot": _final(w),
                                                          "winner": _p(w), "score": [3, 1]})[1], OFFICIALS),
    "confirm_result": (lambda w: (_entered(w, draw=True), {"type": "confirm_result", "slot": _final(w),
                                                           "winner": _p(w), "score": [3, 1]})[1],
                       ("player", "opponent")),
    "correct_result": (lambda w: (_entered(w, draw=True), _as_staff(w, w.event, type="report_result", slot=_final(w),
                                                                    winner=_p(w), score=[3, 1]),
                                  {"type": "correct_result", "slot": _final(w), "winner": _p(w, "opponent"),
                                   "score": [3, 2], "reason": "scoresheet"})[2], OFFICIALS),
    "forfeit": (lambda w: (_entered(w, draw=True), {"type": "forfeit", "slot": _final(w), "winner": _p(w)})[1],
                OFFICIALS),
    "keep_match": (_scene_keep_match, OFFICIALS),
    "void_match": (lambda w: (_entered(w, draw=True), {"type": "void_match", "slot": _final(w),
                                                       "reason": "wrong pairing"})[1], OFFICIALS),
    "cancel_check_in": (lambda w: (_entered(w), {"type": "cancel_check_in", "player": _p(w)})[1], OFFICIALS),
    "assign_table": (lambda w: (_entered(w, draw=True), {"type": "assign_table", "slot": _final(w), "table": 9})[1],
                     OFFICIALS),
    "set_table_service": (lambda w: {"type": "set_table_service", "table": 3, "in_service": False}, OFFICIALS),
    "close_stage": (_scene_close_stage, OFFICIALS),
    "reenter": (lambda w: (_reentry_event(w, lose=True), {"type": "reenter", "player": _p(w)})[1], OFFICIALS),
    "close_reentry": (lambda w: (_reentry_event(w, lose=False), {"type": "close_reentry"})[1], OFFICIALS),
    # a challenger challenges for themself, a defender declines for themself; the director does either for them
    "issue_challenge": (lambda w: (_ladder(w), {"type": "issue_challenge", "challenger": _p(w),
                                                "defender": _p(w, "opponent")})[1], (*OFFICIALS, "player")),
    "decline_challenge": (lambda w: (_ladder(w, challenge=True), {"type": "decline_challenge", "number": 1})[1],
                          (*OFFICIALS, "opponent")),
    "apply_deadlines": (lambda w: (_ladder(w, challenge=True, weeks_ago=2), {"type": "apply_deadlines"})[1],
                        OFFICIALS),
    "set_rated": (lambda w: (_entered(w, draw=True), {"type": "set_rated", "rated": False, "slot": _final(w)})[1],
                  OFFICIALS),
    # the money is the director's: a player neither enters the side pool nor buys back nor records a payout
    "enter_side_pool": (lambda w: (_entered(w), {"type": "enter_side_pool", "player": _p(w)})[1], OFFICIALS),
    "sell_lot": (lambda w: (_sold(w), {"type": "sell_lot", "lot": "Lot", "owner": "Bob", "price": 700})[1],
                 OFFICIALS),
    "buy_back": (lambda w: (_sold(w), {"type": "buy_back", "lot": "Lot"})[1], OFFICIALS),
    "record_payout": (lambda w: (_sold(w), {"type": "record_payout", "owner": "Ann", "amount": 100})[1], OFFICIALS),
    # nor buys a jackpot's seat (the director sells it), hands it back, or starts the jackpot (which makes an event)
    "buy_jackpot": (lambda w: (_jackpot(w), {"type": "buy_jackpot", "jackpot": "Jackpot",
                                             "player": _p(w, "opponent")})[1], OFFICIALS),
    "leave_jackpot": (lambda w: (_jackpot(w), {"type": "leave_jackpot", "jackpot": "Jackpot", "player": _p(w)})[1],
                      OFFICIALS),
    "start_jackpot": (lambda w: (_jackpot(w, full=True), {"type": "start_jackpot", "jackpot": "Jackpot"})[1],
                      OFFICIALS),
    "register_team": (lambda w: (_team_event(w), {"type": "register_team", "name": "Club", "players": [_p(w)]})[1],
                      OFFICIALS),
    "set_lineup": (lambda w: (_team_event(w, registered=True), {
        "type": "set_lineup", "team": 1, "round": 1, "players": [_reserve(w)]})[1], OFFICIALS),
}


def _reserve(world) -> int:
    return Player.objects.get(display_name="Reserve 1").pk

# a command declared with its own example (tournaments/commands.py) needs no scene: its example, sent to the world's
# event, is its scene, and who may send it is what it declares
EVENT_SCENES.update({kind: (lambda w, cls=cls: {"type": cls.type, **cls.example}, OFFICIALS)
                     for kind, cls in COMMANDS.items()
                     if kind not in EVENT_SCENES and cls.example is not None and cls.director_only})


def test_every_event_command_type_is_in_the_matrix():
    assert {"enter"} | {k for k in EVENT_SCENES if " " not in k} == set(services.COMMAND_TYPES)


@pytest.mark.parametrize("role", ROLES)
@pytest.mark.parametrize("scene", list(EVENT_SCENES))
def test_event_commands(world, scene, role):
    make, allowed = EVENT_SCENES[scene]
    command = make(world)
    expected = ANON if role == "anonymous" else 200 if role in allowed else 403
    before = event_count()
    response = world.client(role).post(f"/api/tournaments/{world.event.pk}/commands/", command, format="json")
    check(response, expected, before)


@pytest.mark.parametrize("role", ROLES)
def test_anyone_logged_in_may_enter_themselves(world, role):
    command = {"type": "enter", "player": world.player(role).pk if role != "anonymous" else _p(world)}
    before = event_count()
    response = world.client(role).post(f"/api/tournaments/{world.event.pk}/commands/", command, format="json")
    check(response, ANON if role == "anonymous" else 200, before)


@pytest.mark.parametrize("role", ("player", "unrelated", "other_director"))
def test_no_one_enters_another_player(world, role):
    before = event_count()
    response = world.client(role).post(f"/api/tournaments/{world.event.pk}/commands/",
                                       {"type": "enter", "player": _p(world, "opponent")}, format="json")
    check(response, 403, before)


def test_nobody_enters_themselves_into_an_unpublished_event(world):
    Tournament.objects.filter(pk=world.event.pk).update(published=False)
    before = event_count()
    response = world.client("unrelated").post(f"/api/tournaments/{world.event.pk}/commands/",
                                              {"type": "enter", "player": _p(world, "unrelated")}, format="json")
    check(response, 404, before)


@pytest.mark.parametrize("role", OFFICIALS)
def test_officials_enter_players_into_an_unpublished_event(world, role):
    Tournament.objects.filter(pk=world.event.pk).update(published=False)
    before = event_count()
    response = world.client(role).post(f"/api/tournaments/{world.event.pk}/commands/",
                                       {"type": "enter", "player": _p(world, "unrelated")}, format="json")
    check(response, 200, before)


def test_the_two_players_confirming_the_same_result_report_it(world):
    command = EVENT_SCENES["confirm_result"][0](world)
    url = f"/api/tournaments/{world.event.pk}/commands/"
    first = world.client("player").post(url, command, format="json").json()["appended"]
    second = world.client("opponent").post(url, command, format="json").json()["appended"]
    assert [e["type"] for e in first] == ["ResultConfirmed"]
    assert [e["type"] for e in second] == ["ResultConfirmed", "ResultReported"]


@pytest.mark.parametrize("role", ROLES[1:])
def test_commands_to_an_event_that_does_not_exist_are_404(world, role):
    before = event_count()
    response = world.client(role).post("/api/tournaments/999999/commands/", {"type": "draw"}, format="json")
    check(response, 404, before)


# -- the director's console, "run this event" (the admin's old run page leads there) -------------


def _admin_client(world, role):
    from django.test import Client

    client = Client()
    if role != "anonymous":
        client.force_login(world.user(role))
    return client


def _run_url(world) -> str:
    return f"/events/{world.event.pk}/run/"


@pytest.mark.parametrize("role", ROLES)
def test_the_console(world, role):
    _entered(world)  # two players checked in: a draw would succeed
    client = _admin_client(world, role)
    page = client.get(_run_url(world))
    before = event_count()
    posted = client.post(_run_url(world), {"action": "draw", "method": "random"})
    old = client.get(f"/admin/tournaments/tournament/{world.event.pk}/run/")
    assert old.status_code == 302 and old["Location"] == _run_url(world)  # whoever asks: the console says who may
    if role in OFFICIALS:  # the director is not staff: the page is theirs all the same
        assert page.status_code == 200
        assert posted.status_code == 302 and posted["Location"] == _run_url(world)
        assert event_count() > before
    elif role == "anonymous":  # the site's login page, which every member can use
        for answer in (page, posted):
            assert answer.status_code == 302 and answer["Location"].startswith("/accounts/login/?next=")
        assert event_count() == before
    else:
        assert page.status_code == 403 and posted.status_code == 403
        assert event_count() == before


def test_a_director_who_is_not_staff_logs_in_on_the_site_and_runs_the_event(world):
    from django.test import Client

    _entered(world)
    client = Client()
    first = client.get(_run_url(world))
    assert first.status_code == 302
    login = client.get(first["Location"])
    assert login.status_code == 200 and b'name="password"' in login.content
    landed = client.post(first["Location"], {"username": "director", "password": "pw-director",
                                             "next": _run_url(world)})
    assert landed.status_code == 302 and landed["Location"] == _run_url(world)
    assert client.get(_run_url(world)).status_code == 200
    assert b"Run this event" in client.get(f"/events/{world.event.pk}/").content
    before = event_count()
    assert client.post(_run_url(world), {"action": "draw", "method": "random"}).status_code == 302
    assert event_count() > before


@pytest.mark.parametrize("who", ["superuser", "staff director of this event", "staff with players.officiate"])
def test_the_console_for_staff_who_may_run_the_event(world, django_user_model, who):
    from django.contrib.auth.models import Permission

    if who == "superuser":
        user = django_user_model.objects.create_superuser("root", password="pw")
    else:
        user = django_user_model.objects.create_user(who.split()[0] + "x", password="pw", is_staff=True)
        if who.startswith("staff director"):
            Tournament.objects.filter(pk=world.event.pk).update(director=user)
        else:
            user.user_permissions.add(Permission.objects.get(codename="officiate"))
    _entered(world)
    from django.test import Client

    client = Client()
    client.force_login(user)
    assert client.get(_run_url(world)).status_code == 200
    before = event_count()
    assert client.post(_run_url(world), {"action": "draw", "method": "random"}).status_code == 302
    assert event_count() > before


def test_staff_directing_another_event_cannot_run_this_one(world, django_user_model):
    from django.test import Client

    user = django_user_model.objects.create_user("oscar2", password="pw", is_staff=True)
    Tournament.objects.filter(pk=world.other_event.pk).update(director=user)
    _entered(world)
    client = Client()
    client.force_login(user)
    before = event_count()
    assert client.get(_run_url(world)).status_code == 403
    assert client.post(_run_url(world), {"action": "draw", "method": "random"}).status_code == 403
    assert event_count() == before
    assert not Event.objects.filter(stream_id=f"tournament-{world.event.pk}", event_type="DrawMade").exists()


# -- is_staff alone is no power ---------------------------------------------------------------------


@pytest.fixture
def bare_staff(world, django_user_model):
    """Staff with the admin's model permission to edit events, but not an official and no director."""
    from django.contrib.auth.models import Permission
    from rest_framework.authtoken.models import Token

    user = django_user_model.objects.create_user("clerk", password="pw-clerk", is_staff=True)
    user.user_permissions.add(Permission.objects.get(codename="change_tournament"))
    world.users["clerk"], world.tokens["clerk"] = user, Token.objects.create(user=user).key
    return "clerk"


def test_staff_without_the_officiate_permission_cannot_run_an_event(world, bare_staff):
    _entered(world)
    before = event_count()
    check(world.client(bare_staff).post(f"/api/tournaments/{world.event.pk}/commands/",
                                        {"type": "draw", "method": "random"}, format="json"), 403, before)
    client = _admin_client(world, bare_staff)
    assert client.get(_run_url(world)).status_code == 403
    assert client.post(_run_url(world), {"action": "draw", "method": "random"}).status_code == 403
    assert event_count() == before


def test_staff_without_the_officiate_permission_cannot_record_or_void_a_match(world, bare_staff):
    match_id = world.new_match(published=False)
    assert world.client(bare_staff).get(f"/api/matches/{match_id}/").status_code == 404
    match_id, command = _match_in_scene(world, "opening roll")
    for sent in (command, {"type": "void", "reason": "no", "expected_version": command["expected_version"]}):
        before = event_count()
        check(world.client(bare_staff).post(f"/api/matches/{match_id}/commands/", sent, format="json"), 403, before)


# -- events under a club's name ---------------------------------------------------------------------


@pytest.fixture
def club(world):
    from players.models import Club

    club = Club.objects.create(name="Backgammon Club de Lyon")
    club.directors.add(world.user("director"))
    return club


@pytest.mark.parametrize("role", ROLES)
def test_only_a_clubs_directors_and_officials_create_events_under_its_name(world, club, role):
    expected = {"anonymous": ANON, "director": 201, "official": 201}.get(role, 403)
    before = event_count()
    response = world.client(role).post("/api/tournaments/", {"name": "Lyon open", "format": "swiss", "club": club.pk,
                                                             "settings": {"rounds": 3}}, format="json")
    check(response, expected, before)
    assert Tournament.objects.filter(name="Lyon open").exists() == (expected == 201)


def test_the_admin_refuses_an_event_under_a_club_its_author_does_not_direct(world, club, django_user_model):
    from django.contrib.auth.models import Permission
    from django.test import Client

    user = django_user_model.objects.create_user("clerk", password="pw", is_staff=True)
    user.user_permissions.add(*Permission.objects.filter(codename__in=["add_tournament", "change_tournament",
                                                                       "view_tournament"]))
    client = Client()
    client.force_login(user)
    before = event_count()
    form = {"name": "Lyon open", "club": club.pk, "format": "single_elimination", "length": 7, "published": "on"}
    refused = client.post("/admin/tournaments/tournament/add/", form)
    assert refused.status_code == 200 and b"Only the directors of Backgammon Club de Lyon" in refused.content
    assert event_count() == before and not Tournament.objects.filter(name="Lyon open").exists()
    club.directors.add(user)
    assert client.post("/admin/tournaments/tournament/add/", form).status_code == 302
    assert Tournament.objects.get(name="Lyon open").director == user and event_count() > before


def test_a_staff_director_sees_only_their_own_events_in_the_admin(world, django_user_model):
    from django.test import Client

    user = django_user_model.objects.create_user("dirk", password="pw", is_staff=True)
    Tournament.objects.filter(pk=world.event.pk).update(director=user)
    client = Client()
    client.force_login(user)
    listing = client.get("/admin/tournaments/tournament/")
    assert listing.status_code == 200
    assert f"/tournament/{world.event.pk}/change/".encode() in listing.content
    assert f"/tournament/{world.other_event.pk}/change/".encode() not in listing.content
    assert client.get(f"/admin/tournaments/tournament/{world.event.pk}/change/").status_code == 200
    assert client.get(f"/admin/tournaments/tournament/{world.other_event.pk}/change/").status_code in (302, 403)


def test_the_migrations_make_the_officials_group_with_the_permission(db):
    import importlib

    from django.apps import apps
    from django.contrib.auth.models import Group

    from players import authority

    migration = importlib.import_module("players.migrations.0004_officials_group")
    Group.objects.filter(name=authority.OFFICIALS_GROUP).delete()
    migration.create_group(apps, None)
    group = Group.objects.get(name=authority.OFFICIALS_GROUP)
    assert "officiate" in set(group.permissions.values_list("codename", flat=True))


# -- the admin's list actions -----------------------------------------------------------------------


def _staff_director(world, django_user_model, event):
    user = django_user_model.objects.create_user(f"staff-{event.pk}", password="pw", is_staff=True)
    Tournament.objects.filter(pk=event.pk).update(director=user)
    return user


@pytest.mark.parametrize("who", [*ROLES, "staff director of this event", "staff director of another event"])
def test_the_draw_action_of_the_event_list(world, django_user_model, who):
    from django.test import Client

    _entered(world)
    if who.startswith("staff director"):
        event = world.event if who.endswith("this event") else world.other_event
        client = Client()
        client.force_login(_staff_director(world, django_user_model, event))
    else:
        client = _admin_client(world, who)
    before = event_count()
    answer = client.post("/admin/tournaments/tournament/", {"action": "make_random_draw",
                                                            "_selected_action": [world.event.pk]})
    drawn = Event.objects.filter(stream_id=f"tournament-{world.event.pk}", event_type="DrawMade").exists()
    if who in ("official", "staff director of this event"):
        assert answer.status_code == 302 and drawn
    elif who == "staff director of another event":  # this event is not in their list: nothing to act on
        assert answer.status_code == 302 and not drawn and event_count() == before
    else:  # not staff: the admin's door is shut
        assert answer.status_code == 302 and answer["Location"].startswith("/admin/login/")
        assert not drawn and event_count() == before


def test_officials_see_every_event_in_the_admin(world):
    listing = _admin_client(world, "official").get("/admin/tournaments/tournament/")
    assert listing.status_code == 200
    for event in (world.event, world.other_event):
        assert f"/tournament/{event.pk}/change/".encode() in listing.content


@pytest.mark.parametrize("perms", [["view_player"], ["view_player", "change_player"]], ids=["may view", "may change"])
def test_merging_players_in_the_admin_needs_the_change_permission(world, django_user_model, perms):
    from django.contrib.auth.models import Permission
    from django.test import Client

    user = django_user_model.objects.create_user("clerk", password="pw", is_staff=True)
    user.user_permissions.add(*Permission.objects.filter(content_type__app_label="players", codename__in=perms))
    twins = [Player.objects.create(display_name="Twin").pk for _ in range(2)]
    client = Client()
    client.force_login(user)
    from eventlog import projections
    from eventlog.models import Event

    client.post("/admin/players/player/", {"action": "merge_duplicates", "_selected_action": twins})
    projections.run("players")  # the merged view is a projection of the log's PlayersMerged events
    merged = Player.objects.filter(pk=twins[1], merged_into_id=twins[0]).exists()
    assert merged == ("change_player" in perms)
    assert Event.objects.filter(event_type="PlayersMerged").exists() == merged


# -- the matches of an unpublished event --------------------------------------------------------------


def _hidden_event_match(world) -> str:
    """The final of this event, created by the process manager while the event is not published."""
    from eventlog import projections

    Tournament.objects.filter(pk=world.event.pk).update(published=False)
    world.event.refresh_from_db()
    _entered(world, draw=True)
    projections.run_all()
    link = next(iter(services.tournament_facts(world.event).matches.values()))
    return link["match_id"]


HIDDEN_MATCH_READERS = ("player", "opponent", "director", "official")


@pytest.mark.parametrize("role", ROLES)
def test_a_match_of_an_unpublished_event_is_hidden_like_its_event(world, role):
    match_id = _hidden_event_match(world)
    expected = 200 if role in HIDDEN_MATCH_READERS else 404
    client = world.client(role)
    for read in READS:
        assert client.get(f"/api/matches/{match_id}/{read}").status_code == expected, read
    assert _admin_client(world, role).get(f"/matches/{match_id}/").status_code == expected  # the viewer


@pytest.mark.parametrize("role", [r for r in ROLES if r not in HIDDEN_MATCH_READERS])
def test_the_lists_and_home_page_leave_an_unpublished_events_matches_out(world, role):
    match_id = _hidden_event_match(world)
    client = world.client(role)
    assert match_id not in {m["id"] for m in client.get("/api/matches/").json()}
    assert client.get(f"/api/matches/?tournament={world.event.pk}").json() == []
    assert match_id.encode() not in _admin_client(world, role).get("/").content


def test_publishing_the_event_publishes_its_matches(world):
    from eventlog import projections

    match_id = _hidden_event_match(world)
    services.tournament_publish(actor=world.user("director"), tournament=world.event, published=True)
    projections.run_all()
    anonymous = world.client("anonymous")
    for read in READS:
        assert anonymous.get(f"/api/matches/{match_id}/{read}").status_code == 200, read
    assert match_id in {m["id"] for m in anonymous.get(f"/api/matches/?tournament={world.event.pk}").json()}
    # and hiding it again hides them again
    services.tournament_publish(actor=world.user("director"), tournament=world.event, published=False)
    projections.run_all()
    assert anonymous.get(f"/api/matches/{match_id}/").status_code == 404
    assert anonymous.get(f"/api/matches/?tournament={world.event.pk}").json() == []


def test_no_match_is_added_to_an_unpublished_event_through_the_match_api(world):
    """The event creates its own matches (hidden while it is: _hidden_event_match); the match API,
    which cannot know the event, refuses a body that names one rather than making a public casual match."""
    Tournament.objects.filter(pk=world.event.pk).update(published=False)
    a, b = world.player("player").pk, world.player("opponent").pk
    before = event_count()
    created = world.client("director").post("/api/matches/", {"player0": a, "player1": b, "length": 3,
                                                               "tournament": world.event.pk}, format="json")
    check(created, 400, before)
    assert "created by the event" in created.json()["detail"]


@pytest.mark.parametrize("role", [r for r in ROLES if r not in HIDDEN_MATCH_READERS])
def test_the_result_of_an_unpublished_events_match_does_not_show_on_the_players_pages(world, role):
    from eventlog import projections

    match_id = _hidden_event_match(world)
    world.send(match_id, type="roll", dice=[3, 1])  # then the opponent resigns a backgammon: 3 points, a 3-pointer
    world.send(match_id, type="resign", kind="backgammon", player=1)
    world.send(match_id, type="accept_resignation", player=0)
    projections.run_all()
    from ratings.models import RatingChange

    pid = world.player("player").pk
    assert RatingChange.objects.filter(player_id=pid).exists()  # rated (through its event's slot): a leak would show
    seen_by_official = world.client("official").get(f"/api/players/{pid}/ratings/").json()["history"]
    assert [h for h in seen_by_official if h["match_id"] == match_id]
    history = world.client(role).get(f"/api/players/{pid}/ratings/").json()["history"]
    assert not [h for h in history if h["match_id"] == match_id or h["tournament_id"] == world.event.pk]
    page = _admin_client(world, role).get(f"/players/{pid}/")
    assert page.status_code == 200
    assert match_id.encode() not in page.content


# -- online play -------------------------------------------------------------------------------------


@pytest.mark.parametrize("role", ROLES)
def test_an_online_match_is_played_by_its_two_players_only_each_for_their_own_side(world, role):
    """Officials keep their calls (a void, a correction) but record nothing for a player; each player acts in their
    own seat, as at the board."""
    match_id = world.new_match(**ONLINE)
    command = {"type": "roll", "expected_version": world.version(match_id)}
    expected = ANON if role == "anonymous" else 200 if role in ("player", "opponent") else 403
    before = event_count()
    check(world.client(role).post(f"/api/matches/{match_id}/commands/", command, format="json"), expected, before)


@pytest.mark.parametrize("role", ROLES)
def test_presence_is_said_by_an_online_matchs_two_players_and_read_by_its_readers(world, role):
    match_id = world.new_match(**ONLINE)
    beat = world.client(role).post(f"/api/matches/{match_id}/presence/", {"here": True}, format="json")
    assert beat.status_code == (ANON[1] if role == "anonymous" else 200 if role in ("player", "opponent") else 403)
    assert world.client(role).get(f"/api/matches/{match_id}/presence/").status_code == 200
    hidden = world.new_match(published=False, **ONLINE)
    expected = 200 if role in ("player", "opponent", "director", "official") else 404
    assert world.client(role).get(f"/api/matches/{hidden}/presence/").status_code == expected


@pytest.mark.parametrize("role", ROLES)
def test_a_member_challenges_another_and_only_the_one_challenged_accepts(world, role):
    from games.models import Challenge

    made = world.client("player").post("/api/challenges/", {"opponent": _p(world, "opponent"), "length": 3},
                                       format="json")
    assert made.status_code == 201, made.json()
    challenge = made.json()["id"]
    before = event_count()
    accepted = world.client(role).post(f"/api/challenges/{challenge}/accept/")
    expected = {"anonymous": ANON, "player": (403,), "opponent": (201,)}.get(role, (404,))
    assert accepted.status_code in expected, (role, accepted.status_code)
    assert (event_count() > before) == (role == "opponent")
    assert Challenge.objects.get(pk=challenge).status == ("accepted" if role == "opponent" else "open")
    if role not in ("anonymous", "player", "opponent"):  # nobody else sees it, or withdraws it
        assert world.client(role).post(f"/api/challenges/{challenge}/decline/").status_code == 404
        listed = world.client(role).post("/api/challenges/", {"opponent": _p(world, "player"), "length": 1},
                                         format="json")
        assert listed.status_code == 201  # every member with a player challenges


@pytest.mark.parametrize("role", ROLES)
def test_the_online_pages(world, role):
    from django.test import Client

    page = Client()
    if role != "anonymous":
        page.force_login(world.user(role))
    lobby = page.get("/play/")
    assert lobby.status_code == (302 if role == "anonymous" else 200)
    match_id = world.new_match(**ONLINE)
    played = page.get(f"/matches/{match_id}/record/")
    if role in ("player", "opponent"):
        assert played.status_code == 200 and b'id="presence"' in played.content
    else:  # everybody else watches it on the live board
        assert played.status_code == 302 and (role == "anonymous" or played["Location"].endswith("/live/"))


@pytest.mark.parametrize("role", ROLES)
def test_a_players_fair_play_review_is_for_officials_and_the_directors_of_their_events(world, role):
    _entered(world, check_in=False)  # "player" entered in the event "director" runs, in none of "other_director"'s
    allowed = role in OFFICIALS
    answer = world.client(role).get(f"/api/players/{_p(world)}/fair-play/")
    assert answer.status_code in ((200,) if allowed else ANON if role == "anonymous" else (403,))
    from django.test import Client

    page = Client()
    if role != "anonymous":
        page.force_login(world.user(role))
    shown = page.get(f"/players/{_p(world)}/fair-play/")
    assert shown.status_code == (200 if allowed else 302 if role == "anonymous" else 403)
    # a player of no event of theirs: officials only
    outsider = world.client(role).get(f"/api/players/{_p(world, 'unrelated')}/fair-play/")
    assert outsider.status_code in ((200,) if role == "official" else ANON if role == "anonymous" else (403,))


# -- a slot's match played on another server, reported with its match file ---------------------------------------


def _online_slot(world) -> str:
    """The event played online, "player" and "opponent" drawn against each other: their slot's key."""
    t = world.event
    _as_staff(world, t, type="set_round_online", online=True)
    _entered(world, draw=True)
    return _final(world)


def _their_file() -> str:
    """A 3-point match played elsewhere between "Player" and "Opponent" (GNU Backgammon's record, renamed)."""
    from .conftest import FIXTURES

    return (FIXTURES / "match_012_3pt.mat").read_text().replace("Alice", "Player").replace("Bob", "Opponent")


PROOF_SENDERS = {"anonymous": ANON, "player": 201, "opponent": 201, "unrelated": 403, "other_director": 403,
                 "director": 201, "official": 201}
PROOF_CONSENTS = {"anonymous": ANON, "player": 403, "opponent": 200, "unrelated": 403, "other_director": 403,
                  "director": 200, "official": 200}


@pytest.mark.parametrize("role", ROLES)
def test_a_match_file_for_a_slot_is_sent_by_its_players_and_its_director(world, role):
    key = _online_slot(world)
    before = event_count()
    response = world.client(role).post(f"/api/tournaments/{world.event.pk}/slots/{key}/proof/",
                                       {"text": _their_file()}, format="json")
    check(response, PROOF_SENDERS[role], before)


@pytest.mark.parametrize("role", ROLES)
def test_a_players_match_file_is_consented_to_by_the_other_player_and_the_director(world, role):
    key = _online_slot(world)
    sent = world.client("player").post(f"/api/tournaments/{world.event.pk}/slots/{key}/proof/",
                                       {"text": _their_file()}, format="json")
    assert sent.status_code == 201 and sent.json()["waiting"] is True
    before = event_count()
    response = world.client(role).post(f"/api/tournaments/{world.event.pk}/slots/{key}/proof/consent/")
    check(response, PROOF_CONSENTS[role], before)


PROOF_DECLINES = PROOF_CONSENTS


@pytest.mark.parametrize("role", ROLES)
def test_a_players_match_file_is_declined_by_the_other_player_and_the_director(world, role):
    key = _online_slot(world)
    sent = world.client("player").post(f"/api/tournaments/{world.event.pk}/slots/{key}/proof/",
                                       {"text": _their_file()}, format="json")
    assert sent.status_code == 201 and sent.json()["waiting"] is True
    before = event_count()
    response = world.client(role).post(f"/api/tournaments/{world.event.pk}/slots/{key}/proof/decline/",
                                       {"reason": "not our match"}, format="json")
    check(response, PROOF_DECLINES[role], before)
