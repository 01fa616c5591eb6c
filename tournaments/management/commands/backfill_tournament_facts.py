"""Append to every event's stream the facts of its matches it does not record yet (once; the log only grows).

A database from before the process manager (``tournaments/process.py``) kept the results of an event's
matches in the match streams only. This runs the process manager to the end of the log: each missing
``SlotMatchStarted``/``SlotFinished``/``SlotMatchResultCorrected``/``SlotMatchVoided`` is appended once, and
a second run appends nothing (each fact carries the match version it came from). The projections' sweep does
the same on its own; this is for doing it now, at a deploy.
"""

from django.core.management.base import BaseCommand

from eventlog.models import Event
from tournaments import process
from tournaments.events import MATCH_FACTS


class Command(BaseCommand):
    help = "Append the missing facts of events' matches to the events' streams (idempotent)."

    def handle(self, *args, **options):
        before = Event.objects.filter(event_type__in=MATCH_FACTS).count()
        read = process.backfill()
        added = Event.objects.filter(event_type__in=MATCH_FACTS).count() - before
        self.stdout.write(f"read {read} events; appended {added} facts to events' streams")
