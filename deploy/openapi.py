"""The OpenAPI document's refusals: one ``Error`` body (deploy/api_errors.py answers it), declared once.

A drf-spectacular post-processing hook: every operation answers its refusals (``4XX``) with either an
``Error`` — ``{"detail", "code", …}``, the code one of ``ErrorCode`` — or, when a form's fields were refused,
``FieldErrors`` (each field's messages, as Django REST framework's validation answers them): the ``Refusal``
component. An operation that declares a status of its own (a 404, a 409 with more in it) keeps it.
"""

from __future__ import annotations

from deploy.api_errors import known_codes

REF = "#/components/schemas/"

ERROR = {
    "type": "object",
    "description": "A refusal: the reason for a person (`detail`) and a stable `code` for a program. A stale "
                   "command (409, `stale_version`) also carries `current_version` and `sent_version` (and the "
                   "match's state now); an unreadable .mat file the `game` and `move` where reading stopped.",
    "properties": {
        "detail": {"type": "string", "description": "why, in words a person can act on, in the language of the "
                   "request's Accept-Language (English or French; English when none is asked for)"},
        "code": {"$ref": REF + "ErrorCode"},
        "current_version": {"type": "integer", "description": "the stream's version now (409)"},
        "sent_version": {"type": "integer", "description": "the expected version the command carried (409)"},
        "game": {"type": "integer", "nullable": True, "description": "invalid_mat_file: the game"},
        "move": {"type": "integer", "nullable": True, "description": "invalid_mat_file: the move number"},
    },
    "required": ["detail", "code"],
    "additionalProperties": True,
}

FIELD_ERRORS = {
    "type": "object",
    "description": "A form refused field by field: each field's messages (`non_field_errors` for the whole form; "
                   "a nested form's field, its own FieldErrors).",
    "additionalProperties": {"oneOf": [{"type": "array", "items": {"type": "string"}}, {"$ref": REF + "FieldErrors"}]},
}


def declare_refusals(result, generator, request, public):
    schemas = result.setdefault("components", {}).setdefault("schemas", {})
    schemas["ErrorCode"] = {"type": "string", "enum": known_codes(),
                            "description": "What was refused, for a program: stable across wording changes."}
    schemas["Error"] = ERROR
    schemas["FieldErrors"] = FIELD_ERRORS
    schemas["Refusal"] = {"oneOf": [{"$ref": REF + "Error"}, {"$ref": REF + "FieldErrors"}],
                          "description": "Either body of a 4xx answer."}
    refused = {
        "description": "Refused: an `Error` (its `code` says why), or `FieldErrors` when fields of the request "
                       "were refused. Nothing was changed.",
        "content": {"application/json": {"schema": {"$ref": REF + "Refusal"}}},
    }
    for operations in result.get("paths", {}).values():
        for operation in operations.values():
            operation.setdefault("responses", {}).setdefault("4XX", refused)
    return result
