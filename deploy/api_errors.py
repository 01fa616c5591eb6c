"""Every refusal of the API, any app's, as a 4xx with a reason a person can act on and a code a program can.

The one place where a domain refusal becomes HTTP: ``REFUSALS`` says, per exception class (the first that
matches, most specific first), which status it gets and which code when the exception carries none of its
own. An exception with a ``code`` attribute (the engine's ``NotYourTurn.code == "not_your_turn"``, a
StrEnum member) answers that code; ``STATUS_OF_CODE`` gives the few codes whose status differs from their
class's (a tournament refusal coded ``not_found`` is a 404). The body is always
``{"detail": reason, "code": code, …}``: the OpenAPI document declares it as the ``Error`` component, with
every code of ``known_codes()`` as its enum (deploy/openapi.py).
"""

from __future__ import annotations

import enum
from collections.abc import Callable, Iterator
from typing import NamedTuple

from django.core.exceptions import PermissionDenied
from rest_framework import exceptions as drf_exceptions
from rest_framework import status
from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_handler

from eventlog.idempotency import BadIdempotencyKey, IdempotencyKeyReused
from eventlog.store import ConcurrencyError, EventRejected
from games.engine.errors import EngineError
from games.engine.matfile import MatFileError
from games.errors import BadCommand, MatchNotFound
from games.imports import ImportUnderWay
from seasons.decider import SeasonError
from tournaments.services import TournamentError

from . import refusals


class Refusal(NamedTuple):
    status: int
    code: str | None  # None: the exception's own code, else its class name in snake_case (IllegalMove: illegal_move)
    extra: Callable[[Exception], dict] = lambda exc: {}


REFUSALS: dict[type[Exception], Refusal] = {
    ConcurrencyError: Refusal(status.HTTP_409_CONFLICT, "stale_version",  # the version sent, when one was
                              lambda exc: {"current_version": exc.actual or None,
                                           **({"sent_version": exc.expected} if exc.expected >= 0 else {})}),
    BadIdempotencyKey: Refusal(status.HTTP_400_BAD_REQUEST, "bad_idempotency_key"),
    IdempotencyKeyReused: Refusal(status.HTTP_422_UNPROCESSABLE_ENTITY, "idempotency_key_reused"),
    MatFileError: Refusal(status.HTTP_400_BAD_REQUEST, "invalid_mat_file",
                          lambda exc: {"game": exc.game, "move": exc.move}),
    EngineError: Refusal(status.HTTP_400_BAD_REQUEST, None),
    ImportUnderWay: Refusal(status.HTTP_409_CONFLICT, None),
    BadCommand: Refusal(status.HTTP_400_BAD_REQUEST, "bad_command"),
    TournamentError: Refusal(status.HTTP_400_BAD_REQUEST, "bad_command"),
    SeasonError: Refusal(status.HTTP_400_BAD_REQUEST, None),  # its own code: already_in_season, bad_rule...
    EventRejected: Refusal(status.HTTP_400_BAD_REQUEST, "bad_command"),
    MatchNotFound: Refusal(status.HTTP_404_NOT_FOUND, "not_found"),
    PermissionDenied: Refusal(status.HTTP_403_FORBIDDEN, "permission_denied"),
}

# codes that answer another status than their exception class's
STATUS_OF_CODE: dict[str, int] = {
    "not_found": status.HTTP_404_NOT_FOUND,
    "permission_denied": status.HTTP_403_FORBIDDEN,
    "stale_version": status.HTTP_409_CONFLICT,
}

# answered outside the views (deploy/urls.py's handlers), for the enum of the schema
ADDRESS_CODES = ("not_found", "too_large", "bad_request", "server_error")


def exception_handler(exc, context):
    for cls, refusal in REFUSALS.items():
        if isinstance(exc, cls):
            code = code_of(exc, refusal)
            if not str(exc) and isinstance(exc, PermissionDenied):
                exc = PermissionDenied("you may not do this")
            # the reason in the reader's language (Accept-Language or the site's switch); English unchanged
            detail = refusals.said(exc, code)
            return _refuse(STATUS_OF_CODE.get(code, refusal.status), code, detail, **refusal.extra(exc))
    response = drf_handler(exc, context)
    if response is not None:
        if isinstance(exc, drf_exceptions.APIException) and isinstance(response.data, dict) \
                and isinstance(response.data.get("detail"), str):
            response.data["code"] = str(exc.get_codes())  # not_authenticated, throttled, method_not_allowed...
        response.data = _shortened(response.data)
    return response


def code_of_refusal(exc: Exception) -> str:
    """The code the API answers ``exc`` with (a refusal of no row: its own code, else ``bad_command``)."""
    refusal = next((r for cls, r in REFUSALS.items() if isinstance(exc, cls)), Refusal(400, "bad_command"))
    return code_of(exc, refusal)


def code_of(exc: Exception, refusal: Refusal) -> str:
    own = getattr(exc, "code", None)
    if isinstance(own, str) and own:  # a StrEnum member is a str: its value goes out
        return str(own.value if isinstance(own, enum.Enum) else own)
    return refusal.code or _snake(type(exc).__name__)


def known_codes() -> list[str]:
    """Every code a refusal can carry: each refusal class's (its own ``code``, and the rest of its enum; else its
    row's), Django REST framework's, and the address handlers'. Found the way ``exception_handler`` finds them."""
    codes = set(ADDRESS_CODES) | set(STATUS_OF_CODE)
    for cls in {sub for root in REFUSALS for sub in _with_subclasses(root)}:
        refusal = next(r for c, r in REFUSALS.items() if issubclass(cls, c))
        own = getattr(cls, "code", None)
        if isinstance(own, enum.Enum):
            codes |= {str(member.value) for member in type(own)}
        elif isinstance(own, str) and own:
            codes.add(own)
        else:
            codes.add(refusal.code or _snake(cls.__name__))
    for sub in _with_subclasses(drf_exceptions.APIException):
        if isinstance(sub.default_code, str):
            codes.add(sub.default_code)
    return sorted(codes)


def _with_subclasses(cls: type) -> Iterator[type]:
    yield cls
    for sub in cls.__subclasses__():
        yield from _with_subclasses(sub)


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


def _snake(name: str) -> str:
    return "".join("_" + c.lower() if c.isupper() else c for c in name).lstrip("_")


def _refuse(status_code: int, code: str, detail: str, **extra) -> Response:
    body = {"detail": _short(detail), "code": code}
    body.update({k: v for k, v in extra.items() if v is not None})
    return Response(body, status=status_code)
