"""A match command sent over the API, answered: run at most once per (actor, Idempotency-Key), the state it left,
and the match's version now; or, sent for a version the match has left, what happened since.

The answer of the first run is the record the command itself folded (no second fold); a retry's is the state at
the version its first run left, read again (the match may have moved on since).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from eventlog import store
from eventlog.idempotency import IdempotencyKeyReused, run_once

from . import selectors
from .command_handler import match_command
from .commands import MatchCommand
from .loading import match_load
from .rights import can_read


@dataclass(frozen=True)
class Answer:
    status: int  # 200, or 409 for a command sent for a version the match has left
    body: dict
    version: int | None  # the match's version now (None with a 409: its body says it)


def answer_command(*, actor, stream_id: str, body, parse: Callable[[object], tuple[MatchCommand, int]],
                   key: str | None, correlation_id: str | None = None) -> Answer:
    """``body`` (a command's JSON, read by ``parse`` into the typed command and the version it was sent for) run
    for ``actor`` at most once per ``key``."""
    ran: dict[int, object] = {}  # the record the command left, by its version

    def send() -> tuple[int, dict]:
        command, expected = parse(body)
        record, new = match_command(actor=actor, stream_id=stream_id, command=command, expected_version=expected,
                                    command_id=key, correlation_id=correlation_id)
        ran[record.version] = record
        return 200, store.receipt_body(new, record.version)  # kept by the append itself (receipt_of_append)

    def answer(receipt: dict) -> dict:
        version = receipt["version"]
        record = ran.get(version) or match_load(stream_id, version=version)
        return {"appended": receipt["appended"], "state": selectors.match_state_data(record)}

    try:
        status, answered = run_once(actor=str(actor.pk), key=key, request={"match": stream_id, "command": body},
                                    command=send, answer=answer, receipt_of_append=True)
    except (store.ConcurrencyError, IdempotencyKeyReused):
        # two tablets on one match: the one that was behind is told what the other recorded, and gets the state
        # now, instead of jargon (a reused key) or a bare version number
        stale = _stale(actor, stream_id, body)
        if stale is None:
            raise
        return Answer(409, stale, None)
    # a command run now left the version it answers with, and nothing is read again to say so; a retried
    # command's answer is the state it left, maybe overtaken since (asked of the log)
    left = ran.get(answered["state"]["version"]) if status == 200 else None
    return Answer(status, answered, left.version if left is not None else store.stream_version(stream_id))


def _stale(actor, stream_id: str, body) -> dict | None:
    """The stale answer, if the command was sent for a version of the match that has moved on; else None."""
    expected = body.get("expected_version") if isinstance(body, dict) else None
    if not isinstance(expected, int) or isinstance(expected, bool) or expected < 1:
        return None
    record = match_load(stream_id)
    if record.version <= expected or not can_read(actor, record):
        return None
    return {**selectors.stale_answer(record, store.read_stream(stream_id, after=expected)), "sent_version": expected}
