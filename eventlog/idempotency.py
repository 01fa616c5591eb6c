"""Idempotency keys: a retried command returns the first answer and appends nothing.

Only successful answers are kept: a refused command appended nothing, so sending
it again (corrected, or later) under the same key simply tries again.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable

from django.db import IntegrityError, transaction

from .models import CommandResult
from .store import ConcurrencyError


class IdempotencyKeyReused(Exception):
    """The key was already used for a different command."""


def fingerprint(data) -> str:
    return hashlib.sha256(json.dumps(data, sort_keys=True, default=str).encode()).hexdigest()


def run_once(*, actor: str, key: str | None, request: dict, command: Callable[[], tuple[int, dict]]) -> tuple[int, dict]:
    """Run ``command`` (which appends) once per ``(actor, key)``; return ``(status, body)``."""
    if not key:
        return command()
    digest = fingerprint(request)
    with transaction.atomic():
        done = _stored(actor, key, digest)
        if done:
            return done
        try:
            status, body = command()
        except ConcurrencyError:
            # the same command, sent twice at once: the first one's answer is committed by now
            done = _stored(actor, key, digest)
            if done:
                return done
            raise
        try:
            with transaction.atomic():
                CommandResult.objects.create(actor=actor, key=key, fingerprint=digest, status_code=status, body=body)
        except IntegrityError:
            raise IdempotencyKeyReused(f"the Idempotency-Key {key!r} is in use by another command right now") from None
    return status, body


def _stored(actor: str, key: str, digest: str) -> tuple[int, dict] | None:
    found = CommandResult.objects.filter(actor=actor, key=key).first()
    if found is None:
        return None
    if found.fingerprint != digest:
        raise IdempotencyKeyReused(f"the Idempotency-Key {key!r} was already used for a different command")
    return found.status_code, found.body
