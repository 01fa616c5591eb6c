"""The match read model: a projection of the match streams, never written by hand."""

from django.db import models
from django.utils.translation import gettext_lazy as _


class MatchSummary(models.Model):
    """One row per match stream, kept up to date by the ``match_summary`` projection."""

    stream_id = models.CharField(max_length=64, primary_key=True)
    tournament_id = models.BigIntegerField(null=True, blank=True, db_index=True)
    player0_id = models.BigIntegerField(null=True)
    player1_id = models.BigIntegerField(null=True)
    player0_name = models.CharField(max_length=80)
    player1_name = models.CharField(max_length=80)
    length = models.PositiveIntegerField(help_text="0 = unlimited money session")
    score0 = models.PositiveIntegerField(default=0)
    score1 = models.PositiveIntegerField(default=0)
    game_number = models.PositiveIntegerField(default=0)
    crawford = models.BooleanField(default=False, help_text="the current (or next) game is the Crawford game")
    crawford_games = models.JSONField(default=list)
    cube_value = models.PositiveIntegerField(default=1)
    cube_owner = models.PositiveSmallIntegerField(null=True)
    turn = models.PositiveSmallIntegerField(default=0)
    phase = models.CharField(max_length=16)
    dice = models.JSONField(null=True)
    position_id = models.CharField(max_length=14, blank=True)
    match_id = models.CharField(max_length=12, blank=True)
    pips0 = models.PositiveIntegerField(default=167)
    pips1 = models.PositiveIntegerField(default=167)
    finished = models.BooleanField(default=False)
    winner = models.PositiveSmallIntegerField(null=True)
    voided = models.BooleanField(default=False)
    published = models.BooleanField(default=True)
    version = models.PositiveIntegerField(default=0)
    created_at = models.DateTimeField()
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["-created_at"]
        verbose_name = _("match summary")
        verbose_name_plural = _("match summaries")

    def __str__(self) -> str:
        return f"{self.player0_name} {self.score0}-{self.score1} {self.player1_name}"


class GameSummary(models.Model):
    """One row per game of a match: result and Crawford flags (the ``match_summary`` projection keeps it)."""

    stream_id = models.CharField(max_length=64, db_index=True)
    game = models.PositiveIntegerField()
    score0_before = models.PositiveIntegerField()
    score1_before = models.PositiveIntegerField()
    crawford = models.BooleanField(help_text="this game was played under the Crawford rule: no cube")
    post_crawford = models.BooleanField()
    finished = models.BooleanField(default=False)
    winner = models.PositiveSmallIntegerField(null=True)
    points = models.PositiveIntegerField(default=0)
    kind = models.CharField(max_length=12, blank=True)
    reason = models.CharField(max_length=12, blank=True)

    class Meta:
        verbose_name = _("game summary")
        verbose_name_plural = _("game summaries")
        ordering = ["stream_id", "game"]
        constraints = [models.UniqueConstraint(fields=["stream_id", "game"], name="game_summary_unique")]


class DiceSeed(models.Model):
    """A game's dice seed, kept secret until the game ends; only its hash is in the log before that. How many rolls
    it has given is read from the log (MatchRecord.seed_rolls), not kept here."""

    stream_id = models.CharField(max_length=64)
    game = models.PositiveIntegerField()
    seed = models.CharField(max_length=64)
    revealed = models.BooleanField(default=False)

    class Meta:
        verbose_name = _("dice seed")
        verbose_name_plural = _("dice seeds")
        constraints = [models.UniqueConstraint(fields=["stream_id", "game"], name="dice_seed_unique")]


class ImportJob(models.Model):
    """A big ``.mat`` record handed to a worker (games/imports.py): the request answers at once, the member
    follows its status. A work queue, not a fact of the log: the match it makes is appended as every import is."""

    QUEUED, RUNNING, DONE, FAILED = "queued", "running", "done", "failed"
    STATUSES = [(QUEUED, _("queued")), (RUNNING, _("running")), (DONE, _("done")), (FAILED, _("failed"))]

    user = models.ForeignKey("auth.User", on_delete=models.CASCADE, verbose_name=_("imported by"))
    status = models.CharField(_("status"), max_length=8, choices=STATUSES, default=QUEUED, db_index=True)
    text = models.TextField(_("record"))
    player0_id = models.BigIntegerField(null=True, blank=True)
    player1_id = models.BigIntegerField(null=True, blank=True)
    # the event the match goes into (its director's import); empty for a casual match. A label, as the match's own
    # tournament_id: games never looks events up, the recorder registered by the events' app does
    tournament_id = models.BigIntegerField(_("event"), null=True, blank=True)
    games = models.PositiveIntegerField(_("games"), default=0)
    games_done = models.PositiveIntegerField(default=0)  # judged so far, told by the worker
    progress = models.JSONField(default=list, blank=True)  # every games_done written, in order
    attempts = models.PositiveSmallIntegerField(_("attempts"), default=0)
    stream_id = models.CharField(_("match stream"), max_length=64, blank=True)
    refusal = models.JSONField(_("refusal"), null=True, blank=True)  # the API's answer to the record, when refused
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)
    started_at = models.DateTimeField(_("started at"), null=True, blank=True)
    finished_at = models.DateTimeField(_("finished at"), null=True, blank=True)

    class Meta:
        verbose_name = _("match import")
        verbose_name_plural = _("match imports")


class ExportJob(models.Model):
    """A big match's ``.mat`` file for one version of its stream, written by a worker (games/exports.py) the first
    time it is asked for: every request until then shares this row (unique per version) and is told to come back.
    Kept in the database, not only the cache, so that the worker that writes and the web nodes that serve share it
    whatever the cache (the embedded default's is per process)."""

    QUEUED, RUNNING, DONE = "queued", "running", "done"
    STATUSES = [(QUEUED, _("queued")), (RUNNING, _("running")), (DONE, _("done"))]

    stream_id = models.CharField(_("match stream"), max_length=64)
    version = models.PositiveIntegerField(_("version"))
    status = models.CharField(_("status"), max_length=8, choices=STATUSES, default=QUEUED)
    games = models.PositiveIntegerField(_("games"), default=0)
    games_done = models.PositiveIntegerField(default=0)  # written so far, told by the worker
    progress = models.JSONField(default=list, blank=True)  # every games_done written, in order
    text = models.TextField(null=True, blank=True)  # the .mat file, once written
    claimed_at = models.DateTimeField()  # a claim this old without a file: its worker died
    attempts = models.PositiveSmallIntegerField(default=0)  # runs started; the sweep gives up past imports' cap
    finished_at = models.DateTimeField(_("finished at"), null=True, blank=True)

    class Meta:
        verbose_name = _("match export")
        verbose_name_plural = _("match exports")
        constraints = [models.UniqueConstraint(fields=["stream_id", "version"], name="export_job_unique")]


class Presence(models.Model):
    """When each player of an online match was last seen by the server (their page's heartbeat), and whether their
    page said it was leaving. Not a fact of the log: a forfeit claimed on it writes into the log the reading it was
    judged on (``OnlineForfeitClaimed``), as a clock's press carries its reading."""

    stream_id = models.CharField(max_length=64)
    seat = models.PositiveSmallIntegerField()
    seen_at = models.BigIntegerField()  # the server's reading (milliseconds since 1970) of the last heartbeat
    left = models.BooleanField(default=False)  # the page said it was closing: away from that reading on

    class Meta:
        verbose_name = _("online presence")
        verbose_name_plural = _("online presences")
        constraints = [models.UniqueConstraint(fields=["stream_id", "seat"], name="presence_unique")]


class Challenge(models.Model):
    """A member's challenge to another to play a match online: a proposal, not a fact of the log. Accepted, it
    becomes an online match whose registration names it (``online.challenge``)."""

    OPEN, ACCEPTED, DECLINED, WITHDRAWN = "open", "accepted", "declined", "withdrawn"
    STATUSES = [(OPEN, _("open")), (ACCEPTED, _("accepted")), (DECLINED, _("declined")),
                (WITHDRAWN, _("withdrawn"))]

    challenger = models.ForeignKey("players.Player", on_delete=models.CASCADE, related_name="challenges_made",
                                   verbose_name=_("challenger"))
    opponent = models.ForeignKey("players.Player", on_delete=models.CASCADE, related_name="challenges_received",
                                 verbose_name=_("opponent"))
    length = models.PositiveSmallIntegerField(_("match length"))
    clock = models.CharField(_("clock"), max_length=20, blank=True)  # a preset's name; empty: no clock
    disconnect = models.CharField(_("disconnect clock"), max_length=20)  # a preset of games.online.DISCONNECT
    status = models.CharField(_("status"), max_length=10, choices=STATUSES, default=OPEN, db_index=True)
    stream_id = models.CharField(_("match stream"), max_length=64, blank=True)
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)

    class Meta:
        verbose_name = _("challenge")
        verbose_name_plural = _("challenges")
        ordering = ["-created_at"]
