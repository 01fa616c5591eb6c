"""The append-only event log: the source of truth for everything Crawford shows."""

from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _


class Event(models.Model):
    """One immutable fact. ``global_position`` is gap-free in commit order."""

    global_position = models.BigIntegerField(_("position in the log"), primary_key=True)
    # no index of its own: the unique (stream_id, version) serves every lookup by stream, and each index is paid
    # for under the append lock
    stream_id = models.CharField(_("stream"), max_length=64)
    stream_type = models.CharField(_("stream type"), max_length=32)
    version = models.PositiveIntegerField(_("version"))
    event_type = models.CharField(_("event type"), max_length=64)
    schema_version = models.PositiveSmallIntegerField(_("schema version"), default=1)
    payload = models.JSONField(_("payload"))
    metadata = models.JSONField(_("metadata"), default=dict)
    # set by the append (not at save): the time is part of the content the chain hashes
    recorded_at = models.DateTimeField(_("recorded at"), default=timezone.now, editable=False)
    # eventlog/chain.py; empty on a row written without the append (which verify_log names)
    chain = models.CharField(_("chain hash"), max_length=64, db_default="", editable=False,
                             help_text=_("sha256 of the previous event's hash, this position and this event's content"))

    class Meta:
        # "log event": the site's "event" is a tournament (in French, "tournoi")
        verbose_name = _("log event")
        verbose_name_plural = _("log events")
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
        verbose_name = _("command result")
        verbose_name_plural = _("command results")
        constraints = [models.UniqueConstraint(fields=["actor", "key"], name="command_key_unique_per_actor")]


class ProjectionCheckpoint(models.Model):
    """How far a projection has read the log."""

    name = models.CharField(_("projection"), max_length=64, primary_key=True)
    position = models.BigIntegerField(_("position in the log"), default=0)
    updated_at = models.DateTimeField(_("updated at"), auto_now=True)

    class Meta:
        verbose_name = _("projection checkpoint")
        verbose_name_plural = _("projection checkpoints")


class ProjectionFailure(models.Model):
    """A stream a projection could not apply, set aside so that every other stream goes on.

    Written by the projection runner (``eventlog/projections.py``) when an event of the stream
    fails; from then on that projection skips the stream's events until an official has fixed the
    cause and rebuilt the projection (``manage.py rebuild_projections NAME``, or the admin's
    action), which clears its failures. Shown in the admin and at ``/api/health/``.
    """

    projection = models.CharField(_("projection"), max_length=64)
    stream_id = models.CharField(_("stream"), max_length=64)
    global_position = models.BigIntegerField(
        _("position in the log"), help_text=_("the first event of the stream that could not be applied"))
    version = models.PositiveIntegerField(_("version"), null=True)
    event_type = models.CharField(_("event type"), max_length=64)
    error = models.TextField(_("error"))
    traceback = models.TextField(_("traceback"), blank=True)
    skipped = models.PositiveIntegerField(_("skipped"), default=0,
                                          help_text=_("later events of the stream set aside since"))
    failed_at = models.DateTimeField(_("failed at"), auto_now_add=True)

    class Meta:
        verbose_name = _("projection failure")
        verbose_name_plural = _("projection failures")
        ordering = ["-failed_at"]
        constraints = [models.UniqueConstraint(fields=["projection", "stream_id"], name="projection_failure_unique")]

    def __str__(self) -> str:
        return f"{self.projection}: {self.stream_id} at #{self.global_position} ({self.event_type})"
