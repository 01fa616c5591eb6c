"""Every answer of the match API is declared in the OpenAPI document, the
command's body is one schema per command type, and what the API really answers conforms to what it declares."""

import random

import jsonschema
import pytest
import yaml

from games.api.serializers import COMMAND_SERIALIZERS, typed_command
from games.commands import COMMAND_CLASSES, COMMAND_TYPES
from games.engine import errors as engine_errors
from games.errors import BadCommand, MatchNotFound, Reason
from games.limits import NotRepresentable

from .recorder import Recorder

pytestmark = pytest.mark.django_db


@pytest.fixture
def schema(api):
    return yaml.safe_load(api().get("/api/schema/").content)


def games_operations(schema):
    for path, item in schema["paths"].items():
        if path.startswith("/api/matches") and "/analysis/" not in path:
            for method, operation in item.items():
                yield f"{method.upper()} {path}", operation


def declared(node: dict, schema: dict) -> bool:
    """A named component, a list of them, or text: anything but a bare, undescribed object."""
    if "$ref" in node:
        return node["$ref"].rsplit("/", 1)[-1] in schema["components"]["schemas"]
    if node.get("type") == "array":
        return declared(node["items"], schema)
    return node.get("type") == "string"


def test_every_answer_of_the_match_api_is_declared(schema):
    seen = 0
    for label, operation in games_operations(schema):
        for status, response in operation["responses"].items():
            content = response.get("content")
            assert content, f"{label} {status}: no declared body"
            for media, body in content.items():
                assert declared(body["schema"], schema), f"{label} {status} {media}: {body['schema']}"
                seen += 1
        if label.startswith("POST"):
            assert {"400", "403"} <= set(operation["responses"]), f"{label}: its refusals are not declared"
    assert seen >= 20


def test_a_commands_body_is_one_schema_per_command_type(schema):
    body = schema["paths"]["/api/matches/{stream_id}/commands/"]["post"]["requestBody"]["content"]["application/json"]
    command = schema["components"]["schemas"][body["schema"]["$ref"].rsplit("/", 1)[-1]]
    assert command["discriminator"]["propertyName"] == "type"
    assert list(command["discriminator"]["mapping"]) == list(COMMAND_TYPES)
    for kind, ref in command["discriminator"]["mapping"].items():
        one = schema["components"]["schemas"][ref.rsplit("/", 1)[-1]]
        assert "expected_version" in one["required"] and "type" in one["required"]
    resign = schema["components"]["schemas"]["ResignCommand"]["properties"]
    assert set(resign) == {"type", "expected_version", "player", "kind"}
    correct = schema["components"]["schemas"]["CorrectResultCommand"]
    assert set(correct["required"]) == {"type", "expected_version", "winner", "score", "reason"}


@pytest.mark.parametrize("body, command", [
    ({"type": "roll", "expected_version": 2}, "RollDice(player=None, dice=None)"),
    ({"type": "roll", "expected_version": 2, "dice": [3, 1], "player": 1}, "RollDice(player=1, dice=(3, 1))"),
    ({"type": "move", "expected_version": 3, "move": "8/5 6/5"}, "Move(player=None, move='8/5 6/5')"),
    ({"type": "resign", "expected_version": 3}, "Resign(player=None, kind='single')"),
    ({"type": "correct_result", "expected_version": 3, "winner": 1, "score": [2, 5], "reason": "sheet"},
     "CorrectResult(winner=1, score=(2, 5), reason='sheet')"),
    ({"type": "void", "expected_version": 3, "reason": "no show"}, "VoidMatch(reason='no show')"),
    ({"type": "confirm_import", "expected_version": 3}, "ConfirmImport()"),
])
def test_each_body_is_built_into_its_typed_command(body, command):
    typed, version = typed_command(body)
    assert (repr(typed), version) == (command, body["expected_version"])
    assert type(typed) is COMMAND_CLASSES[body["type"]]


@pytest.mark.parametrize("body, reason", [
    ([], Reason.COMMAND_OBJECT), ({"type": "fly", "expected_version": 1}, Reason.UNKNOWN_COMMAND_TYPE),
    ({"type": "move", "expected_version": 1, "move": 5}, Reason.MOVE_NOTATION),
    ({"type": "roll", "expected_version": True}, Reason.EXPECTED_VERSION),
    ({"type": "correct_result", "expected_version": 1, "winner": 0, "score": [5, True], "reason": "x"},
     Reason.SCORE_FIELD),
    ({"type": "void", "expected_version": 1, "reason": "   "}, Reason.REASON_REQUIRED),
    ({"type": "move", "expected_version": 1, "move": "8/5" * 200}, Reason.MOVE_TOO_LONG),
])
def test_a_body_that_is_no_command_is_refused_with_a_reason(body, reason):
    with pytest.raises(BadCommand) as refused:
        typed_command(body)
    assert refused.value.reason == reason


def test_a_body_with_several_fields_at_fault_names_each_and_is_said_in_french():
    from django.utils import translation

    from deploy import refusals

    with pytest.raises(BadCommand) as refused:
        typed_command({"type": "correct_result", "expected_version": 0, "winner": 3, "score": [7], "reason": ""})
    faults, refusal = [], refused.value
    while refusal.reason == Reason.FIELDS:
        faults.append(refusal.params["first"].reason)
        refusal = refusal.params["rest"]
    faults.append(refusal.reason)
    assert faults == [Reason.EXPECTED_VERSION, Reason.WINNER_SEAT, Reason.SCORE_FIELD, Reason.REASON_REQUIRED]
    assert str(refused.value).startswith("'expected_version' (the version of the match you are looking at) is "
                                         "required; 'winner' is 0 or 1; ")
    with translation.override("fr"):
        french = refusals.said(refused.value, "bad_command")
    assert french != str(refused.value) and "%(" not in french and french.count(" ; ") == 3


def test_bodies_validated_one_after_another_share_nothing():
    """The command serializers copy their declared fields shallowly (games/api/serializers.py, _Command.get_fields):
    a body's values, refusals and bindings stay its own, whatever was validated before or alongside it."""
    from games.api.serializers import MoveCommandSerializer

    first, second = MoveCommandSerializer(data={"type": "move", "expected_version": 4, "move": "8/5 6/5"}), \
        MoveCommandSerializer(data={"type": "move", "expected_version": "x", "move": 5})
    assert first.is_valid() and not second.is_valid()
    assert set(second.errors) == {"expected_version", "move"}
    assert first.fields["move"].parent is first and second.fields["move"].parent is second
    assert first.fields["move"] is not second.fields["move"]
    assert MoveCommandSerializer._declared_fields["move"].parent is None  # the class's own, never bound
    for body, command in [({"type": "move", "expected_version": 5, "move": "24/18"}, "Move(player=None, move='24/18')"),
                          ({"type": "roll", "expected_version": 6, "player": 0}, "RollDice(player=0, dice=None)")]:
        with pytest.raises(BadCommand) as refused:
            typed_command({**body, "player": 7})
        assert refused.value.reason == Reason.PLAYER_SEAT
        assert repr(typed_command(body)[0]) == command


def test_every_command_type_has_its_serializer_and_its_typed_value():
    assert tuple(COMMAND_SERIALIZERS) == tuple(COMMAND_CLASSES) == COMMAND_TYPES


def snake(name: str) -> str:
    return "".join("_" + c.lower() if c.isupper() else c for c in name).lstrip("_")


def test_every_refusal_carries_the_code_clients_have_always_received():
    """``code`` is the class name in snake_case, as deploy/api_errors.py derived it: no client breaks."""
    from games.engine.matfile import MatFileError

    refusals = [c for c in vars(engine_errors).values()
                if isinstance(c, type) and issubclass(c, engine_errors.EngineError)]
    refusals += [BadCommand, NotRepresentable]
    assert len(refusals) >= 10
    for refusal in refusals:
        assert refusal.code == snake(refusal.__name__), refusal
    assert BadCommand.code == "bad_command" and MatchNotFound.code == "not_found"  # as the handler named these
    assert MatFileError.code == "invalid_mat_file" and isinstance(MatFileError.code, engine_errors.ErrorCode)


def validator(schema: dict, component: str):
    """A JSON Schema validator of one component (OpenAPI 3.0's ``nullable`` read as "or null")."""

    def plain(node):
        if isinstance(node, list):
            return [plain(n) for n in node]
        if not isinstance(node, dict):
            return node
        node = {k: plain(v) for k, v in node.items()}
        if node.pop("nullable", False):
            return {"anyOf": [node, {"type": "null"}]}
        return node

    document = {"components": plain(schema["components"]), "$ref": f"#/components/schemas/{component}"}
    return jsonschema.Draft7Validator(document)


def conforms(schema: dict, component: str, data) -> None:
    errors = sorted(validator(schema, component).iter_errors(data), key=str)
    assert not errors, "\n".join(f"{list(e.absolute_path)}: {e.message}" for e in errors[:5])


def test_what_the_api_answers_is_what_it_declares(schema, api, make_user):
    """A whole match, a refusal, a stale tablet: each answer validated against its declared component."""
    official = api(make_user("olga", official=True, player=False))
    seats = make_user("alice"), make_user("bob")
    created = official.post("/api/matches/", {"player0": seats[0].player.pk, "player1": seats[1].player.pk,
                                              "length": 3, "dice": "server"}, format="json")
    assert created.status_code == 201
    conforms(schema, "MatchState", created.json())
    wrong = {**created.json(), "phase": "dancing", "cube": {"value": "2"}}
    del wrong["board"]
    assert len(list(validator(schema, "MatchState").iter_errors(wrong))) == 4  # the check can fail (owner too)
    match = Recorder(official, created.json())
    answer = match.send(type="roll")
    conforms(schema, "MatchCommandAnswer", answer.json())
    refused = match.send(expect=400, type="double")
    conforms(schema, "Error", refused.json())
    stale = official.post(f"/api/matches/{match.id}/commands/", {"type": "roll", "expected_version": 2},
                          format="json")
    assert stale.status_code == 409
    conforms(schema, "StaleAnswer", stale.json())
    match.play_random(random.Random(5))
    conforms(schema, "MatchState", official.get(f"/api/matches/{match.id}/").json())
    from eventlog import projections

    projections.run_all()
    for path, component in (("games/", "GameRow"), ("dice/", "DiceProof"), ("events/", "Event")):
        rows = official.get(f"/api/matches/{match.id}/{path}").json()
        assert rows
        for row in rows:
            conforms(schema, component, row)
    for row in official.get("/api/matches/").json():
        conforms(schema, "MatchSummary", row)
    assert conforms(schema, "Error", official.get("/api/matches/nothing-here/").json()) is None


def test_each_legal_play_s_position_key_is_the_two_sides_counts_in_base_36():
    """The recording screen matches the taps against these keys (games/static/crawford/record.js): 26 counts of
    the mover's side, then 26 of the opponent's (index 0 off, 25 the bar), one base-36 digit each."""
    from games.engine.board import Position
    from games.engine.moves import legal_moves
    from games.selectors import _position_key

    digits = "0123456789abcdefghijklmnopqrstuvwxyz"
    bar_and_off = Position.from_points({25: 2, 6: 13}, {1: 5, 2: 5})  # 2 on the bar, none off; 5 borne off
    for position in (Position.start(), bar_and_off):
        for dice in ((3, 1), (6, 6), (5, 2)):
            for play in legal_moves(position, dice):
                key = _position_key(play.position)
                assert len(key) == 52
                assert [digits.index(c) for c in key] == [*play.position.mine, *play.position.theirs]
