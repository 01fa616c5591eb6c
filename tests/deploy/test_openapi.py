"""The OpenAPI document declares every answer: each response's shape, and one Error body with stable codes.

A client generated from the document (tests/deploy/test_generated_client.py) relies on it: a response
documented as a bare object gives that client nothing to read.
"""

from __future__ import annotations

import gc

import pytest
from rest_framework.test import APIClient

from deploy import api_errors
from games.engine import errors as engine_errors

pytestmark = pytest.mark.django_db

REF = "#/components/schemas/"


@pytest.fixture(scope="module")
def schema(django_db_blocker):
    with django_db_blocker.unblock():
        response = APIClient().get("/api/schema/", {"format": "json"})
    assert response.status_code == 200
    return response.json()


def resolve(schema: dict, node: dict) -> dict:
    while "$ref" in node:
        node = schema["components"]["schemas"][node["$ref"].removeprefix(REF)]
    return node


def undeclared(schema: dict, node: dict | None, seen: frozenset = frozenset()) -> str | None:
    """Why this response schema says nothing of its shape, or None when it does."""
    if not node:
        return "no schema"
    if node.get("$ref") in seen:  # a recursive shape (a nested form's errors) is declared where it began
        return None
    seen |= {node.get("$ref")}
    node = resolve(schema, node)
    if node.get("type") == "array":
        return undeclared(schema, node.get("items"), seen)
    if "oneOf" in node or "anyOf" in node or "allOf" in node:
        reasons = [undeclared(schema, n, seen) for n in node.get("oneOf") or node.get("anyOf") or node.get("allOf")]
        return next((r for r in reasons if r), None)
    if node.get("type") == "object" or "properties" in node:
        if node.get("properties"):
            return None
        values = node.get("additionalProperties")
        if isinstance(values, dict) and values:
            return undeclared(schema, values, seen)  # a map: what each value is must be declared
        return "an object with no declared properties (OpenApiTypes.OBJECT?)"
    if node.get("type") in ("string", "integer", "number", "boolean"):
        return None
    return f"no type: {node}"


def test_every_response_of_every_operation_has_a_declared_schema(schema):
    problems = []
    for path, operations in schema["paths"].items():
        for method, operation in operations.items():
            if not any(code.startswith("2") for code in operation["responses"]):
                problems.append(f"{method.upper()} {path}: no success response declared")
            for code, response in operation["responses"].items():
                if code == "204" or code.startswith("3"):
                    continue
                if not response.get("content"):
                    problems.append(f"{method.upper()} {path} {code}: no content declared")
                for media_type, content in (response.get("content") or {}).items():
                    why = undeclared(schema, content.get("schema"))
                    if why:
                        problems.append(f"{method.upper()} {path} {code} {media_type}: {why}")
    assert not problems, "responses without a declared schema:\n" + "\n".join(problems)


def test_every_operation_declares_its_refusals_as_the_error_body(schema):
    for path, operations in schema["paths"].items():
        for method, operation in operations.items():
            refused = operation["responses"].get("4XX")
            assert refused, f"{method.upper()} {path} declares no refusal"
            assert refused["content"]["application/json"]["schema"] == {"$ref": REF + "Refusal"}
    choices = schema["components"]["schemas"]["Refusal"]["oneOf"]
    assert {c["$ref"] for c in choices} == {REF + "Error", REF + "FieldErrors"}
    error = schema["components"]["schemas"]["Error"]
    assert set(error["required"]) == {"detail", "code"} and error["properties"]["code"] == {"$ref": REF + "ErrorCode"}


def test_the_error_codes_are_an_enum_naming_every_refusal(schema):
    codes = set(schema["components"]["schemas"]["ErrorCode"]["enum"])
    engine = {api_errors.code_of(cls("x"), api_errors.REFUSALS[engine_errors.EngineError])
              for cls in (engine_errors.IllegalMove, engine_errors.NotYourTurn, engine_errors.CubeNotAvailable,
                          engine_errors.InvalidAction, engine_errors.MatchOver)}
    assert engine == {"illegal_move", "not_your_turn", "cube_not_available", "invalid_action", "match_over"}
    assert engine | {"stale_version", "bad_command", "not_found", "permission_denied", "invalid_mat_file",
                     "idempotency_key_reused", "not_authenticated", "throttled", "server_error"} <= codes


def test_a_refusal_answers_its_own_code_and_the_status_of_its_class():
    import enum

    class Reason(enum.StrEnum):
        DEAD_CUBE = "cube_dead_here"
        OTHER = "other_reason"

    class DeadCube(engine_errors.EngineError):
        code = Reason.DEAD_CUBE

    missing = type("GoneMissing", (engine_errors.EngineError,), {"code": "not_found"})
    try:
        answer = api_errors.exception_handler(DeadCube("the cube is dead in the Crawford game"), {})
        assert (answer.status_code, answer.data) == (400, {"detail": "the cube is dead in the Crawford game",
                                                           "code": "cube_dead_here"})
        assert {"cube_dead_here", "other_reason"} <= set(api_errors.known_codes())  # the whole enum is declared
        assert api_errors.exception_handler(missing("no such thing"), {}).status_code == 404  # by its code
    finally:
        del DeadCube, missing
        gc.collect()  # the classes leave EngineError.__subclasses__(): the schema's enum is the real one again


def test_rest_frameworks_own_refusals_carry_a_code_too():
    answer = APIClient().post("/api/matches/", {}, format="json")
    assert answer.status_code in (401, 403)
    assert answer.json()["code"] == "not_authenticated" and answer.json()["detail"]
