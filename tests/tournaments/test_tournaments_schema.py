"""The tournaments API as its OpenAPI document tells it: every answer declared, one body per command type."""

from __future__ import annotations

import pytest

from tournaments.commands import COMMAND_TYPES

pytestmark = pytest.mark.django_db


@pytest.fixture(scope="module")
def schema():
    from drf_spectacular.generators import SchemaGenerator

    return SchemaGenerator().get_schema(request=None, public=True)


def _resolve(schema, node):
    while "$ref" in node:
        node = schema["components"]["schemas"][node["$ref"].rsplit("/", 1)[1]]
    return node


def _declared(schema, node) -> bool:
    node = _resolve(schema, node)
    if node.get("type") == "array":
        return _declared(schema, node["items"])
    return bool(node.get("properties") or node.get("oneOf") or node.get("type") not in (None, "object"))


def test_every_tournaments_answer_has_a_declared_shape(schema):
    checked = 0
    for path, operations in schema["paths"].items():
        if not path.startswith("/api/tournaments/") or path.endswith("/analysis/"):
            continue
        for method, operation in operations.items():
            for code, answer in operation["responses"].items():
                body = answer.get("content", {}).get("application/json", {}).get("schema")
                assert body is not None and _declared(schema, body), (method, path, code)
                checked += 1
    assert checked >= 15


def test_the_command_body_is_one_schema_per_command_type(schema):
    body = schema["paths"]["/api/tournaments/{id}/commands/"]["post"]["requestBody"]["content"]["application/json"]
    one_of = _resolve(schema, body["schema"])
    kinds = {}
    for option in one_of["oneOf"]:
        resolved = _resolve(schema, option)
        kinds[tuple(_resolve(schema, resolved["properties"]["type"])["enum"])] = resolved
    assert sorted(k for (k,) in kinds) == sorted(COMMAND_TYPES)
    assert "score" in kinds[("report_result",)]["properties"] and "reason" in kinds[("correct_result",)]["required"]
    assert one_of["discriminator"]["propertyName"] == "type"
