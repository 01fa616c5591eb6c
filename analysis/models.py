"""Read models of the ``analysis`` projection: what GNU Backgammon makes of each finished match.

One :class:`MatchAnalysis` per match and evaluation depth (``plies``), so a rebuild with the same setting
finds and fills the same row; its decisions and the two players' figures hang off it.
"""

from django.db import models


class MatchAnalysis(models.Model):
    QUEUED, RUNNING, DONE, FAILED = "queued", "running", "done", "failed"
    STATUSES = [(s, s) for s in (QUEUED, RUNNING, DONE, FAILED)]

    stream_id = models.CharField(max_length=64, db_index=True)
    plies = models.PositiveSmallIntegerField()
    status = models.CharField(max_length=8, choices=STATUSES, default=QUEUED)
    # a run holds the row until then; after it, the sweep takes the run for dead and queues it again
    lease_until = models.DateTimeField(null=True, blank=True)
    queued_at = models.DateTimeField(auto_now_add=True)
    attempts = models.PositiveSmallIntegerField(default=0)
    error = models.TextField(blank=True)
    games_done = models.PositiveSmallIntegerField(default=0)  # progress while running
    games = models.PositiveSmallIntegerField(default=0)
    # the progress the pages show: decisions of the games analysed so far, of all the match's decisions
    # (counted from its events before gnubg runs: services.decisions_per_game)
    decisions_done = models.PositiveIntegerField(default=0)
    decisions_total = models.PositiveIntegerField(default=0)
    seconds = models.FloatField(null=True, blank=True)  # gnubg's wall time, for the bench and the admin
    finished_at = models.DateTimeField(null=True, blank=True)
    player0_id = models.IntegerField(null=True, blank=True)
    player1_id = models.IntegerField(null=True, blank=True)
    tournament_id = models.IntegerField(null=True, blank=True)
    ended_at = models.DateTimeField(null=True, blank=True)  # when the match ended: the player page's time axis

    class Meta:
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
        ordering = ["side"]
        constraints = [models.UniqueConstraint(fields=["analysis", "side"], name="one_row_per_side")]
