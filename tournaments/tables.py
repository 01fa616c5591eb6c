"""Which table each match is played at: pure Python, from the tournament's facts alone.

A slot's table is a fact of the stream (``TableAssigned``): the process manager picks one when it creates
the slot's match, the director may move it. A table is busy while a match at it is being played (created,
neither finished, voided nor decided on paper); the director may take a table out of service
(``TableService``), and no match is sent to it until it is back.
"""

from __future__ import annotations

from .stream import Facts


def in_play(facts: Facts, slot: str) -> bool:
    """The slot's match is still being played (so its table is taken)."""
    link = facts.matches.get(slot)
    if link is None or slot in facts.paper:
        return False
    outcome = facts.outcomes.get(link["match_id"])
    return outcome is not None and not outcome.finished and not outcome.voided


def busy_tables(facts: Facts, *, except_slot: str | None = None) -> dict[int, str]:
    """table -> the slot whose match is being played there."""
    return {table: slot for slot, table in facts.tables.items() if slot != except_slot and in_play(facts, slot)}


def free_table(facts: Facts, taken: set[int] = frozenset()) -> int:
    """The lowest table in service and free (``taken``: tables just given out in the same batch)."""
    busy = set(busy_tables(facts)) | set(taken) | facts.out_of_service
    table = 1
    while table in busy:
        table += 1
    return table
