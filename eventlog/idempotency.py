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

from django.db import DatabaseError, transaction

from . import store
from .models import CommandResult
from .refusals import Reason, Refusal


class IdempotencyKeyReused(Refusal):
    """The key was already used for a different command."""


class BadIdempotencyKey(Refusal, ValueError):
    """A key the store cannot hold (too long, control characters): HTTP 400, nothing run."""


MAX_KEY = CommandResult._meta.get_field("key").max_length


def _check_key(key: str) -> None:
    if len(key) > MAX_KEY or not key.isprintable():
        raise BadIdempotencyKey(Reason.KEY_TOO_LONG, most=MAX_KEY)


def fingerprint(data) -> str:
    return hashlib.sha256(json.dumps(data, sort_keys=True, default=str).encode()).hexdigest()


def run_once(
    *,
    actor: str,
    key: str | None,
    request: dict,
    command: Callable[[], tuple[int, dict]],
    answer: Callable[[dict], dict] = lambda receipt: receipt,
    receipt_of_append: bool = False,
) -> tuple[int, dict]:
    """Run ``command`` (which appends and returns ``(status, receipt)``) once per ``(actor, key)``;
    return ``(status, answer(receipt))``.

    ``receipt_of_append``: the command appends to one stream and returns ``(200, store.receipt_body(events,
    version))`` of that append; the receipt is then written by the append itself, in its round trip."""
    if key:
        _check_key(key)
    status, receipt = _run_or_recall(actor, key, request, command, receipt_of_append) if key else command()
    return status, answer(receipt)


def _run_or_recall(actor: str, key: str, request: dict, command, receipt_of_append: bool) -> tuple[int, dict]:
    # The command runs first and its receipt is written with its append, which writes nothing if the key turns out
    # to be taken: the first run of a key costs no read, and its receipt no round trip of its own when the append
    # keeps it. A retry finds out by failing: sent for the version its first run left behind, it is refused as
    # stale (or, had it appended, its receipt clashes), and only then is the receipt read and its answer returned.
    digest = fingerprint(request)
    try:
        if receipt_of_append and not transaction.get_connection().in_atomic_block:
            # No transaction around the command: its append is one statement that keeps the receipt (eventlog/
            # store.py), and a command that writes anything else with it opens its own transaction around both.
            with store.receipt_with_next_append(actor=actor, key=key, fingerprint=digest) as slot:
                status, body = command()
            _check_kept(slot, status, body, actor, key, digest)
        else:
            with transaction.atomic():
                if receipt_of_append:
                    with store.receipt_with_next_append(actor=actor, key=key, fingerprint=digest) as slot:
                        status, body = command()
                    _check_kept(slot, status, body, actor, key, digest)
                else:
                    status, body = command()
                    _keep(status, body, actor, key, digest)
    except Exception as failure:
        # a retry of a command that succeeded gets the first answer, whatever its second run ran into
        try:
            done = _stored(actor, key, digest)
        except DatabaseError:
            raise failure from None
        if done:
            return done
        if isinstance(failure, store.ReceiptTaken):  # taken by a command not committed, then rolled back
            raise IdempotencyKeyReused(Reason.KEY_IN_USE, key=repr(key)) from None
        raise
    return status, body


def _check_kept(slot, status: int, body: dict, actor: str, key: str, digest: str) -> None:
    if slot.kept is None:  # nothing appended: kept here
        _keep(status, body, actor, key, digest)
    elif (status, body) != (200, slot.body):
        raise ValueError("receipt_of_append: the command's answer is not its append's receipt")


def _keep(status: int, body: dict, actor: str, key: str, digest: str) -> None:
    if not store.keep_receipt(actor=actor, key=key, fingerprint=digest, status=status, body=body):
        raise store.ReceiptTaken(key)  # in run_once's transaction, which rolls back what the command wrote


def _stored(actor: str, key: str, digest: str) -> tuple[int, dict] | None:
    found = CommandResult.objects.filter(actor=actor, key=key).first()
    if found is None:
        return None
    if found.fingerprint != digest:
        raise IdempotencyKeyReused(Reason.KEY_USED, key=repr(key))
    return found.status_code, found.body
