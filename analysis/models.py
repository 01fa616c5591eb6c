"""Read models of the ``analysis`` projection: what GNU Backgammon makes of each finished match.

One :class:`MatchAnalysis` per match and evaluation depth (``plies``), so a rebuild with the same setting
finds and fills the same row; its decisions and the two players' figures hang off it.
"""

from django.db import models
from django.utils.translation import gettext_lazy as _


class MatchAnalysis(models.Model):
    QUEUED, RUNNING, DONE, FAILED = "queued", "running", "done", "failed"
    # the stored values are the program's; the labels are the admin's, in the reader's language
    STATUSES = [(QUEUED, _("queued")), (RUNNING, _("running")), (DONE, _("done")), (FAILED, _("failed"))]

    stream_id = models.CharField(_("match stream"), max_length=64, db_index=True)
    plies = models.PositiveSmallIntegerField(_("depth (plies)"))
    status = models.CharField(_("status"), max_length=8, choices=STATUSES, default=QUEUED)
    # a run holds the row until then; after it, the sweep takes the run for dead and queues it again
    lease_until = models.DateTimeField(_("held until"), null=True, blank=True)
    queued_at = models.DateTimeField(_("queued at"), auto_now_add=True)
    attempts = models.PositiveSmallIntegerField(_("attempts"), default=0)
    error = models.TextField(_("error"), blank=True)
    games_done = models.PositiveSmallIntegerField(_("games analysed"), default=0)  # progress while running
    games = models.PositiveSmallIntegerField(_("games"), default=0)
    # the progress the pages show: decisions of the games analysed so far, of all the match's decisions
    # (counted from its events before gnubg runs: services.decisions_per_game)
    decisions_done = models.PositiveIntegerField(_("decisions analysed"), default=0)
    decisions_total = models.PositiveIntegerField(_("decisions"), default=0)
    # gnubg's wall time, for the bench and the admin
    seconds = models.FloatField(_("seconds"), null=True, blank=True)
    finished_at = models.DateTimeField(_("finished at"), null=True, blank=True)
    player0_id = models.IntegerField(_("first player (id)"), null=True, blank=True)
    player1_id = models.IntegerField(_("second player (id)"), null=True, blank=True)
    tournament_id = models.IntegerField(_("event (id)"), null=True, blank=True)
    # played online by its players from their own browsers (games/online.py), not at the board
    online = models.BooleanField(_("played online"), default=False)
    # when the match ended: the player page's time axis
    ended_at = models.DateTimeField(_("match ended at"), null=True, blank=True)
    # the match's stream version the analysis read, and whether the match had ended there: if not (an import that
    # stops mid-game, an abandoned match, one still played), the analysis goes up to where it stops
    version = models.PositiveIntegerField(_("version"), null=True, blank=True)
    match_finished = models.BooleanField(_("finished"), default=True)

    class Meta:
        verbose_name = _("match analysis")
        verbose_name_plural = _("match analyses")
        constraints = [models.UniqueConstraint(fields=["stream_id", "plies"], name="one_analysis_per_match_and_depth")]

    def __str__(self):
        return f"{self.stream_id} at {self.plies}-ply: {self.status}"


class Decision(models.Model):
    """A checker play with more than one legal play, or a cube decision, as gnubg scored it (equities: EMG)."""

    analysis = models.ForeignKey(MatchAnalysis, related_name="decisions", on_delete=models.CASCADE)
    game = models.PositiveSmallIntegerField()
    turn = models.PositiveSmallIntegerField()  # the n-th turn of the game (dances count), from 0
    version = models.IntegerField(null=True)  # the stream event of the play: where the viewer shows it
    player = models.PositiveSmallIntegerField()
    kind = models.CharField(max_length=12)
    dice = models.CharField(max_length=4, blank=True)
    played = models.CharField(max_length=64)
    best = models.CharField(max_length=64)
    equity_played = models.FloatField()
    equity_best = models.FloatField()
    loss = models.FloatField()
    verdict = models.CharField(max_length=12, blank=True)  # gnubg's mark: "", doubtful, bad, very bad

    class Meta:
        verbose_name = _("analysed decision")
        verbose_name_plural = _("analysed decisions")
        ordering = ["game", "version", "kind"]  # in the order they were played
        constraints = [models.UniqueConstraint(fields=["analysis", "game", "turn", "kind"], name="one_row_per_decision")]


class PlayerFigures(models.Model):
    """One player's figures in one match, named and computed as gnubg's ``show statistics match``."""

    analysis = models.ForeignKey(MatchAnalysis, related_name="figures", on_delete=models.CASCADE)
    side = models.PositiveSmallIntegerField()  # 0 or 1, as in the match
    player_id = models.IntegerField(null=True, blank=True)
    name = models.CharField(max_length=100)
    unforced_moves = models.PositiveIntegerField()
    chequer_error = models.FloatField()  # EMG, total
    chequer_rate = models.FloatField()  # mEMG per unforced move
    chequer_rating = models.CharField(max_length=32, blank=True)
    close_cube = models.PositiveIntegerField()
    cube_error = models.FloatField()
    cube_rate = models.FloatField()
    cube_rating = models.CharField(max_length=32, blank=True)
    overall_rate = models.FloatField()
    overall_rating = models.CharField(max_length=32, blank=True)
    performance_rating = models.FloatField()  # XG's scale, computed on gnubg's counts
    luck = models.FloatField()  # EMG, total
    marked_doubtful = models.PositiveIntegerField(default=0)
    marked_bad = models.PositiveIntegerField(default=0)
    marked_very_bad = models.PositiveIntegerField(default=0)

    class Meta:
        verbose_name = _("player's figures")
        verbose_name_plural = _("players' figures")
        ordering = ["side"]
        constraints = [models.UniqueConstraint(fields=["analysis", "side"], name="one_row_per_side")]
