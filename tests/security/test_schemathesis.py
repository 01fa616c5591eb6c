"""Schemathesis against the app's own OpenAPI schema: every operation, generated data, two identities.

The schema is loaded from the real WSGI application (``/api/schema/``). For each of its operations,
Schemathesis generates requests (valid ones and, in negative mode, ones that break the schema) that go
through the WSGI application as a staff user with a token and as an anonymous client. Path parameters
are sometimes generated, sometimes a real object (a match being played, events at several stages, a
player), so that requests get past the 404s.

The schema says little about the free-form bodies (a command is "an object"), so the command, creation
and import operations also get
- generated bodies shaped like the commands of docs/api.md: a known ``type`` and fields drawn from real ids,
  real slot keys, the live version and arbitrary JSON;
- explicit cases: a sensible body for every command type, then the same body with one field (or one
  element of a list field) replaced by a value of the wrong JSON type or an awkward one;
and every query parameter gets explicit near-numbers ("²" passes ``str.isdigit`` but not ``int``).

Asserted for every response: no 5xx, every 4xx carries a reason a person can read (``detail`` or
DRF's field errors, as JSON), and every accepted write leaves events that every projection can
apply (the projections run after it: no stream set aside). Each request runs in a savepoint rolled back afterwards, so every request
meets the same world and a database error cannot poison the next one. A failure lists, per distinct
problem (exception and the app's frame that raised it), the first request that showed it, with its
traceback. Deterministic: a seed per operation and identity, no example database.
"""

from __future__ import annotations

import json
import logging
import re
import zlib

import pytest
import schemathesis
from django.core import signals
from django.db import close_old_connections, transaction
from hypothesis import HealthCheck, Phase, example, given, seed, settings
from hypothesis import strategies as st
from schemathesis import GenerationMode
from schemathesis.core import NotSet
from schemathesis.core.result import Ok

from eventlog import projections
from eventlog.models import ProjectionFailure
from tests.conftest import built_once

from .conftest import event_count, mat_text, world_again, world_made

MAX_EXAMPLES = 30  # generated cases per operation and identity
# the operations whose bodies the schema leaves open get more, as staff (anonymous is refused at the door)
BODY_EXAMPLES = 80
BODY_LABELS = ("POST /api/matches/", "POST /api/matches/{stream_id}/commands/", "POST /api/matches/import/",
               "POST /api/tournaments/", "POST /api/tournaments/{id}/commands/")

CONFIG = schemathesis.Config.from_dict({
    "seed": 20261121,
    "generation": {"mode": "all", "max-examples": MAX_EXAMPLES, "deterministic": True, "database": "none"},
    "phases": {"stateful": {"enabled": False}},
})


def _load_schema():
    from deploy.wsgi import application

    return schemathesis.openapi.from_wsgi("/api/schema/", application, config=CONFIG)


SCHEMA = _load_schema()
OPERATIONS = sorted(result.ok().label for result in SCHEMA.get_all_operations() if isinstance(result, Ok))


# -- the world the requests meet ------------------------------------------------------------


@pytest.fixture(scope="module")
def _world_and_scene(django_db_setup, django_db_blocker):
    """The world and its scene built once for the module (a second of setup a test, a hundred tests): every test
    meets the same world, each request in a savepoint of its test's transaction, as before."""
    from django.contrib.auth import get_user_model

    def build():
        world = world_made(get_user_model())
        return world, scene_made(world)

    yield from built_once(django_db_blocker, build)


@pytest.fixture
def world(db, _world_and_scene):
    (world, _), restore_cache = _world_and_scene
    restore_cache()
    return world_again(world)


@pytest.fixture
def scene(world, _world_and_scene):
    return _world_and_scene[0][1]


def scene_made(world) -> dict:
    """Real objects for path parameters and bodies: a match at the board, events at several stages."""
    from players.models import Player
    from tournaments import services

    staff, director = world.user("official"), world.user("director")
    a, b = world.player("player").pk, world.player("opponent").pk
    walk_in = Player.objects.create(display_name="Walk-in").pk

    def cmd(t, **c):
        services.tournament_command(actor=director if t == world.event else staff, tournament=t, command=c)

    for pid in (a, b):  # this event: two players, drawn, the final ready with its match
        cmd(world.event, type="enter", player=pid)
        cmd(world.event, type="check_in", player=pid)
    cmd(world.event, type="draw", method="manual", seeds=[a, b])
    services.tournament_advance(world.event)
    swiss = services.tournament_create(actor=staff, name="Swiss", format="swiss", settings={"rounds": 3})
    for pid in (a, b, walk_in):  # round 1 paired (one bye), its match created
        cmd(swiss, type="enter", player=pid)
    cmd(swiss, type="draw", method="manual", seeds=[a, b, walk_in])
    services.tournament_advance(swiss)
    undrawn = services.tournament_create(actor=staff, name="Tonight", format="single_elimination", settings={})
    for pid in (a, b):  # entered and checked in, waiting for the draw
        cmd(undrawn, type="enter", player=pid)
        cmd(undrawn, type="check_in", player=pid)

    match_id = world.new_match()
    world.send(match_id, type="roll", dice=[3, 1])  # Player to move 3-1
    final = services.tournament_view(world.event)[1].slots[0].key
    projections.run_all()  # caught up: after each accepted request they read only what it appended
    return {
        "match_id": match_id,
        "version": world.version(match_id),
        "events": {"drawn": world.event.pk, "swiss": swiss.pk, "undrawn": undrawn.pk, "other": world.other_event.pk},
        "players": [a, b, walk_in],
        "slots": [final] + [s.key for s in services.tournament_view(swiss)[1].slots],
        "final": final,
    }


@pytest.fixture
def one_connection():
    """The WSGI handler closes "old" connections at each request, which would end the test's transaction;
    Django's own test client switches this off the same way."""
    signals.request_started.disconnect(close_old_connections)
    signals.request_finished.disconnect(close_old_connections)
    yield
    signals.request_started.connect(close_old_connections)
    signals.request_finished.connect(close_old_connections)


# -- command-shaped bodies ---------------------------------------------------------------------

JSON = st.recursive(
    st.none() | st.booleans() | st.integers(-(2**70), 2**70) | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=6),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=4), inner, max_size=3),
    max_leaves=6,
)
# wrong JSON types and awkward values (\x00: PostgreSQL's jsonb refuses the NUL character)
JUNK = [[], {}, {"k": "\x00"}, "\x00", "x", 2**63, -1, None, True, 1.5]
EDGES = st.sampled_from([0, 1, 2, 3, 7, 2**31, 10**30, "", "²", [3, 1], [7, 0]] + JUNK)
MATCH_TYPES = ("roll", "move", "resign", "double", "take", "drop", "beaver", "raccoon", "accept_resignation",
               "decline_resignation", "correct_result", "void")
TOURNAMENT_TYPES = ("enter", "check_in", "withdraw", "draw", "pair_round", "forbid", "report_result", "confirm_result",
                    "correct_result", "forfeit", "keep_match", "void_match")
TRICKY_QUERY = ["²", "١٢", "-1", "1.5", "99999999999999999999999", " 7", "", "\x00"]


def _bodies(label: str, real: dict):
    """A strategy of command-shaped bodies for ``label``, or None where the schema's own are enough."""
    player = st.sampled_from(real["players"]) | EDGES | JSON
    two = st.lists(st.sampled_from(real["players"]) | EDGES, min_size=0, max_size=3) | JSON
    score = st.lists(st.integers(-1, 12) | EDGES, max_size=3) | JSON
    anything = EDGES | JSON
    events = st.sampled_from(list(real["events"].values()))
    if label == "POST /api/matches/{stream_id}/commands/":
        fields = {
            # checked first: mostly the live version, so that the engine gets to judge
            "expected_version": st.one_of(st.just(real["version"]), st.just(real["version"]), anything),
            "player": st.sampled_from([0, 1]) | anything,
            "dice": st.lists(st.integers(0, 7) | anything, max_size=3) | anything,
            "move": st.sampled_from(["8/5 6/5", "24/21 13/12", "bar/22", "6/off", "13/8*", ""]) | st.text(max_size=12)
            | anything,
            "kind": st.sampled_from(["single", "gammon", "backgammon"]) | anything,
            "winner": st.sampled_from([0, 1]) | anything, "score": score, "reason": st.text(max_size=8) | anything,
        }
        kind = st.one_of(st.sampled_from(MATCH_TYPES), st.sampled_from(MATCH_TYPES), anything)
        return st.fixed_dictionaries({"type": kind}, optional=fields)
    if label == "POST /api/tournaments/{id}/commands/":
        fields = {
            "player": player, "players": two, "slot": st.sampled_from(real["slots"]) | anything, "winner": player,
            "score": score, "reason": st.text(max_size=8) | anything,
            "method": st.sampled_from(["random", "rating", "manual"]) | anything,
            "seeds": st.permutations(real["players"]) | two, "pairings": st.lists(two, max_size=3) | anything,
            "round": st.integers(-1, 5) | anything,
            # checked before any handler: mostly absent (None), so that the handlers are reached
            "expected_version": st.one_of(st.none(), st.none(), st.none(), st.integers(-1, 12), anything),
        }
        kind = st.one_of(st.sampled_from(TOURNAMENT_TYPES), st.sampled_from(TOURNAMENT_TYPES), anything)
        return st.fixed_dictionaries({"type": kind}, optional=fields)
    if label == "POST /api/matches/":
        fields = {
            "published": st.booleans() | anything,
            "crawford": st.booleans() | anything, "jacoby": st.booleans() | anything,
            "beavers": st.booleans() | anything, "raccoons": st.booleans() | anything,
            "automatic_doubles": st.integers(-1, 2**40) | anything, "cube_limit": st.integers(-1, 2**40) | anything,
        }
        return st.fixed_dictionaries(
            {"player0": player, "player1": player, "length": st.integers(-1, 2**70) | anything}, optional=fields)
    if label == "POST /api/matches/import/":
        text = mat_text()
        lines = text.splitlines()
        mangled = st.one_of(
            st.integers(0, len(text)).map(lambda n: text[:n]),
            st.tuples(st.integers(0, len(lines) - 1), st.text(max_size=40)).map(
                lambda t: "\n".join(lines[: t[0]] + [t[1]] + lines[t[0] + 1:])),
            st.text(max_size=60),
        )
        return st.fixed_dictionaries({"text": mangled}, optional={
            "player0": player, "player1": player})
    return None


def _well_formed(label: str, real: dict) -> list[tuple[dict, dict]]:
    """(path parameters, body): a sensible request for every command type, or the operation's one body."""
    a, b, c = real["players"]
    final, events = real["final"], real["events"]
    if label == "POST /api/matches/{stream_id}/commands/":
        at = {"stream_id": real["match_id"]}
        bodies = [{"type": "roll", "dice": [3, 1]}, {"type": "move", "move": "8/5 6/5"},
                  {"type": "resign", "kind": "gammon"}, {"type": "void", "reason": "no show"},
                  {"type": "correct_result", "winner": 0, "score": [5, 0], "reason": "scoresheet"}]
        bodies += [{"type": t, "player": 0} for t in ("double", "take", "drop", "beaver", "raccoon",
                                                      "accept_resignation", "decline_resignation")]
        return [(at, {**body, "expected_version": real["version"]}) for body in bodies]
    if label == "POST /api/tournaments/{id}/commands/":
        undrawn, drawn, swiss = ({"id": events[k]} for k in ("undrawn", "drawn", "swiss"))
        return [
            (undrawn, {"type": "enter", "player": c}), (undrawn, {"type": "check_in", "player": a}),
            (undrawn, {"type": "withdraw", "player": a, "reason": "ill"}),
            (undrawn, {"type": "draw", "method": "manual", "seeds": [a, b]}),
            (undrawn, {"type": "forbid", "players": [a, b], "expected_version": None}),  # None: not checked
            (swiss, {"type": "pair_round", "pairings": [[a, b], [c, None]], "round": 2}),
            (drawn, {"type": "report_result", "slot": final, "winner": a, "score": [3, 0]}),
            (drawn, {"type": "confirm_result", "slot": final, "winner": a, "score": [3, 0]}),
            (drawn, {"type": "forfeit", "slot": final, "winner": a, "reason": "no-show"}),
            (drawn, {"type": "keep_match", "slot": final}), (drawn, {"type": "void_match", "slot": final,
                                                                     "reason": "wrong pairing"}),
            (drawn, {"type": "correct_result", "slot": final, "winner": a, "score": [3, 1], "reason": "scoresheet"}),
        ]
    if label == "POST /api/matches/":
        return [({}, {"player0": a, "player1": b, "length": 5, "cube_limit": 0})]
    if label == "POST /api/matches/import/":
        return [({}, {"text": mat_text(), "player0": a, "player1": b})]
    if label == "POST /api/tournaments/":
        return [({}, {"name": "Club night", "format": "single_elimination",
                      "settings": {"lengths": {"main": {"default": 3}}}})]
    return []


ELEMENT_JUNK = [[], {}, "x", None, "\x00"]
CHECKED_FIRST = ("type", "expected_version")  # judged before the command's own fields: spoiled once is enough


def _one_thing_wrong(label: str, real: dict) -> list[tuple[dict, dict]]:
    """Each sensible request, then with one field, or one element of a list field, replaced by junk."""
    out, spoiled = [], set()
    for path, body in _well_formed(label, real):
        out.append((path, body))
        for name, value in body.items():
            if name in spoiled:
                continue
            out += [(path, {**body, name: junk}) for junk in JUNK]
            if name in CHECKED_FIRST:
                spoiled.add(name)
            if isinstance(value, list):
                for i in range(len(value)):
                    out += [(path, {**body, name: value[:i] + [junk] + value[i + 1:]}) for junk in ELEMENT_JUNK]
    return out


def _queries(operation):
    """Query strings with the schema's parameter names and values that look like numbers but are not quite."""
    names = [p.name for p in operation.query]
    if not names:
        return None
    tricky = st.sampled_from(TRICKY_QUERY + ["0", "rating", "name"])
    return st.fixed_dictionaries({}, optional={name: tricky | st.text(max_size=4) for name in names})


# -- the checks --------------------------------------------------------------------------------


class _LastError(logging.Handler):
    """Keeps the traceback Django logs for a request that ended in a 500."""

    def __init__(self):
        super().__init__(level=logging.ERROR)
        self.text = ""

    def emit(self, record):
        if record.exc_info:
            self.text = logging.Formatter().formatException(record.exc_info)


def _reason_of(body) -> bool:
    """A non-empty reason a person can read: ``{"detail": "..."}`` or DRF's field errors."""
    if isinstance(body, str):
        return bool(body.strip())
    if isinstance(body, list):
        return bool(body) and all(_reason_of(item) for item in body)
    if isinstance(body, dict):
        if "detail" in body:
            return _reason_of(body["detail"])
        return bool(body) and all(_reason_of(v) for v in body.values())
    return False


def _where(traceback: str) -> str:
    """The exception's type and the innermost frame of the project's own code, to tell problems apart."""
    lines = traceback.strip().splitlines()
    raised = [line for line in lines if re.match(r"[A-Za-z_][\w.]*(Error|Exception)\b", line)]
    ours = [line.strip() for line in lines if line.strip().startswith('File "') and "site-packages" not in line]
    return f"{raised[-1].split(':')[0] if raised else '?'} at {ours[-1] if ours else '?'}"


def _describe(case, response, traceback: str = "") -> str:
    body = case.body
    if isinstance(body, (bytes, bytearray)) or (isinstance(body, str) and len(body) > 300):
        body = body[:300]
    sent = f"  body ({case.media_type}): {body!r}\n" if not isinstance(body, NotSet) else "  (no body)\n"
    return (
        f"{case.method.upper()} {response.request.url}\n"
        + sent
        + f"  -> {response.status_code} {response.text[:400]!r}\n"
        + (f"  traceback:\n{traceback}" if traceback else "")
    )


def test_the_schema_covers_every_api_route():
    assert {"GET /api/matches/", "POST /api/matches/", "GET /api/matches/{stream_id}/",
            "POST /api/matches/{stream_id}/commands/", "GET /api/matches/{stream_id}/events/",
            "GET /api/matches/{stream_id}/games/", "GET /api/matches/{stream_id}/export.mat",
            "POST /api/matches/import/", "GET /api/tournaments/", "POST /api/tournaments/",
            "GET /api/tournaments/{id}/", "POST /api/tournaments/{id}/commands/",
            "GET /api/ratings/", "GET /api/players/{player_id}/ratings/"} <= set(OPERATIONS)


@pytest.mark.django_db
@pytest.mark.parametrize("identity", ["official", "anonymous"])
@pytest.mark.parametrize("label", OPERATIONS)
def test_every_operation_answers_without_5xx_and_with_reasons(label, identity, world, scene, one_connection):
    operation = SCHEMA.find_operation_by_label(label)
    reals = {"stream_id": [scene["match_id"]], "id": list(scene["events"].values()), "player_id": scene["players"],
             "opponent_id": scene["players"][1:] + scene["players"][:1],  # head-to-head: each against another
             "slot": scene["slots"]}  # beside "id": the drawn event's final, then the Swiss event's slots
    names = [p.name for p in operation.path_parameters]
    real_paths = [dict(zip(names, values)) for values in zip(*(reals[n] for n in names))] if names else [{}]
    strategies = []
    for mode in (GenerationMode.POSITIVE, GenerationMode.NEGATIVE):
        strategies.append(operation.as_strategy(generation_mode=mode))
        if names:
            strategies += [operation.as_strategy(generation_mode=mode, path_parameters=p) for p in real_paths]
    bodies, queries = _bodies(label, scene), _queries(operation)
    if bodies is not None:  # as many draws as all the schema's own strategies together
        strategies += len(strategies) * [st.tuples(st.sampled_from(real_paths), bodies).map(
            lambda pb: operation.Case(path_parameters=pb[0], body=pb[1], media_type="application/json"))]
    if queries is not None:
        strategies.append(st.tuples(st.sampled_from(real_paths), queries).map(
            lambda pq: operation.Case(path_parameters=pq[0], query=pq[1])))
    headers = {"Authorization": f"Token {world.tokens['official']}"} if identity == "official" else {}
    problems: dict[str, str] = {}
    examples = BODY_EXAMPLES if identity == "official" and label in BODY_LABELS else MAX_EXAMPLES

    @seed(zlib.crc32(f"{label} {identity}".encode()))
    @settings(max_examples=examples, database=None, deadline=None, suppress_health_check=list(HealthCheck),
              phases=[Phase.explicit, Phase.generate])
    @given(case=st.one_of(strategies))
    def exercise(case):
        errors = _LastError()
        logger = logging.getLogger("django.request")
        logger.addHandler(errors)
        savepoint = transaction.savepoint()
        unstorable = []
        try:
            response = case.call(headers=headers)
            if response.status_code < 300 and case.method.upper() == "POST":
                # accepted: every read model must be able to hold what it appended
                projections.run_all()
                unstorable = list(ProjectionFailure.objects.values_list("projection", "error"))
        finally:
            transaction.savepoint_rollback(savepoint)
            logger.removeHandler(errors)
        if unstorable:
            key = f"accepted, but {unstorable[0][0]} cannot apply it: {unstorable[0][1][:80]}"
            problems.setdefault(key, _describe(case, response))
        if response.status_code >= 500:
            key = f"{response.status_code}: {_where(errors.text)}"
            problems.setdefault(key, _describe(case, response, errors.text))
        elif response.status_code >= 400:
            try:
                body = json.loads(response.text)
            except ValueError:
                body = None
            if not _reason_of(body):
                problems.setdefault(f"{response.status_code} without a reason", _describe(case, response))

    # explicit cases first: each query parameter with each tricky value; as staff, each body with one thing wrong
    explicit = [operation.Case(path_parameters=real_paths[0], query={q.name: value})
                for q in operation.query for value in TRICKY_QUERY]
    if identity == "official":
        explicit += [operation.Case(path_parameters=path, body=body, media_type="application/json")
                     for path, body in _one_thing_wrong(label, scene)]
    for case in reversed(explicit):
        exercise = example(case=case)(exercise)
    exercise()
    assert not problems, f"{label} as {identity}:\n" + "\n".join(f"[{k}] {v}" for k, v in problems.items())


@pytest.mark.django_db
@pytest.mark.parametrize("identity", ["official", "anonymous"])
def test_methods_the_schema_does_not_declare_are_refused_with_a_reason(world, scene, identity):
    from rest_framework.test import APIClient

    client = world.client(identity) if identity == "official" else APIClient()
    reals = {"stream_id": scene["match_id"], "id": scene["events"]["drawn"], "player_id": scene["players"][0],
             "opponent_id": scene["players"][1], "slot": scene["slots"][0]}
    seen = []
    for path, item in SCHEMA.raw_schema["paths"].items():
        url = re.sub(r"{(\w+)}", lambda m: str(reals[m[1]]), path)
        for method in {"get", "post", "put", "patch", "delete"} - set(item):
            before = event_count()
            response = getattr(client, method)(url, {}, format="json")
            allowed = (405,) if identity == "official" else (401, 403, 405)
            assert response.status_code in allowed and _reason_of(response.json()), (method, url, response.status_code)
            assert event_count() == before
            seen.append((method, path))
    assert ("delete", "/api/matches/{stream_id}/") in seen
