"""Every refusal of the API, any app's, as a 4xx with a reason a person can act on."""

from django.core.exceptions import PermissionDenied
from rest_framework import status
from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_handler

from eventlog.idempotency import BadIdempotencyKey, IdempotencyKeyReused
from eventlog.store import ConcurrencyError, EventRejected
from games.engine.errors import EngineError
from games.engine.matfile import MatFileError
from games.services import BadCommand, MatchNotFound
from tournaments.services import TournamentError


def exception_handler(exc, context):
    if isinstance(exc, ConcurrencyError):
        return _refuse(status.HTTP_409_CONFLICT, "stale_version", str(exc), current_version=exc.actual or None)
    if isinstance(exc, BadIdempotencyKey):
        return _refuse(status.HTTP_400_BAD_REQUEST, "bad_idempotency_key", str(exc))
    if isinstance(exc, IdempotencyKeyReused):
        return _refuse(status.HTTP_422_UNPROCESSABLE_ENTITY, "idempotency_key_reused", str(exc))
    if isinstance(exc, MatFileError):
        return _refuse(status.HTTP_400_BAD_REQUEST, "invalid_mat_file", str(exc), game=exc.game, move=exc.move)
    if isinstance(exc, EngineError):
        return _refuse(status.HTTP_400_BAD_REQUEST, _code(exc), str(exc))
    if isinstance(exc, (BadCommand, TournamentError, EventRejected)):
        return _refuse(status.HTTP_400_BAD_REQUEST, "bad_command", str(exc))
    if isinstance(exc, MatchNotFound):
        return _refuse(status.HTTP_404_NOT_FOUND, "not_found", str(exc))
    if isinstance(exc, PermissionDenied):
        return _refuse(status.HTTP_403_FORBIDDEN, "permission_denied", str(exc) or "you may not do this")
    response = drf_handler(exc, context)
    if response is not None:
        response.data = _shortened(response.data)
    return response


MAX_DETAIL = 500  # characters of one reason: a refusal names the problem, it does not quote the input back


def _short(text: str) -> str:
    return text if len(text) <= MAX_DETAIL else text[: MAX_DETAIL - 1] + "…"


def _shortened(data):
    """DRF's field errors quote the value ("'xxx…' is not a valid choice"): each message cut to MAX_DETAIL."""
    if isinstance(data, dict):
        return {_short(str(k)): _shortened(v) for k, v in list(data.items())[:50]}
    if isinstance(data, list):
        return [_shortened(v) for v in data[:50]]
    if isinstance(data, str):
        return type(data)(_short(data)) if len(data) > MAX_DETAIL else data
    return data


def _code(exc) -> str:
    name = type(exc).__name__
    return "".join("_" + c.lower() if c.isupper() else c for c in name).lstrip("_")


def _refuse(status_code: int, code: str, detail: str, **extra) -> Response:
    body = {"detail": _short(detail), "code": code}
    body.update({k: v for k, v in extra.items() if v is not None})
    return Response(body, status=status_code)
