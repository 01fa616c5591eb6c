"""The append-only event log: the source of truth for everything Crawford shows."""

from django.db import models


class Event(models.Model):
    """One immutable fact. ``global_position`` is gap-free in commit order."""

    global_position = models.BigIntegerField(primary_key=True)
    stream_id = models.CharField(max_length=64, db_index=True)
    stream_type = models.CharField(max_length=32)
    version = models.PositiveIntegerField()
    event_type = models.CharField(max_length=64)
    schema_version = models.PositiveSmallIntegerField(default=1)
    payload = models.JSONField()
    metadata = models.JSONField(default=dict)
    recorded_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["stream_id", "version"], name="event_stream_version_unique")]
        ordering = ["global_position"]

    def __str__(self) -> str:
        return f"#{self.global_position} {self.stream_type}/{self.stream_id} v{self.version} {self.event_type}"


class CommandResult(models.Model):
    """The first answer to a command sent with an idempotency key, returned again on retry."""

    key = models.CharField(max_length=128)
    actor = models.CharField(max_length=64)
    fingerprint = models.CharField(max_length=64)
    status_code = models.PositiveSmallIntegerField()
    body = models.JSONField()
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["actor", "key"], name="command_key_unique_per_actor")]


class ProjectionCheckpoint(models.Model):
    """How far a projection has read the log."""

    name = models.CharField(max_length=64, primary_key=True)
    position = models.BigIntegerField(default=0)
    updated_at = models.DateTimeField(auto_now=True)
