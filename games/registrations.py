"""Matches found across the log by what their registration says: the event holding them, an imported record's
fingerprint. Each lookup has a partial index of its own on the log (games/migrations/0014), written only by the
appends of registrations: without it the lookup reads the whole log, and an import does it holding the log's lock,
which stops every other append meanwhile."""

from __future__ import annotations

from django.db.models import Exists, OuterRef, QuerySet

from eventlog.models import Event

from . import streams


def _registrations() -> QuerySet:
    return Event.objects.filter(stream_type=streams.STREAM_TYPE, event_type=streams.REGISTERED)


def in_event(tournament_id: int) -> QuerySet:
    """The registrations of the matches an event holds, in log order."""
    return _registrations().filter(payload__tournament_id=tournament_id).order_by("global_position")


def imported_as(fingerprint: str) -> QuerySet:
    """The registrations of imports of this record that still count (a voided import counted nothing)."""
    voided = Event.objects.filter(stream_id=OuterRef("stream_id"), event_type=streams.VOIDED)
    return _registrations().filter(payload__import_fingerprint=fingerprint).exclude(Exists(voided))
