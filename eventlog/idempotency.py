"""Idempotency keys: a retried command returns the first answer and appends nothing.

Only successful answers are kept: a refused command appended nothing, so sending
it again (corrected, or later) under the same key simply tries again.

What is stored with the key is a *receipt*: what the command returns while the log
is locked (the events it appended, the version it left), small and cheap to make.
The answer is built from the receipt after the commit, by a function of the log
alone, so a retry builds the same answer. Building it (folding, legal plays, IDs)
under the log's lock would hold every other writer back.
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


class BadIdempotencyKey(ValueError):
    """A key the store cannot hold (too long, control characters): HTTP 400, nothing run."""


MAX_KEY = CommandResult._meta.get_field("key").max_length


def _check_key(key: str) -> None:
    if len(key) > MAX_KEY or not key.isprintable():
        raise BadIdempotencyKey(f"an Idempotency-Key is at most {MAX_KEY} printable characters")


def fingerprint(data) -> str:
    return hashlib.sha256(json.dumps(data, sort_keys=True, default=str).encode()).hexdigest()


def run_once(
    *,
    actor: str,
    key: str | None,
    request: dict,
    command: Callable[[], tuple[int, dict]],
    answer: Callable[[dict], dict] = lambda receipt: receipt,
) -> tuple[int, dict]:
    """Run ``command`` (which appends and returns ``(status, receipt)``) once per ``(actor, key)``;
    return ``(status, answer(receipt))``."""
    if key:
        _check_key(key)
    status, receipt = _run_or_recall(actor, key, request, command) if key else command()
    return status, answer(receipt)


def _run_or_recall(actor: str, key: str, request: dict, command) -> tuple[int, dict]:
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
