"""Events that clubs run. The formats (brackets, Swiss, round robin) build on this."""

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from players.models import Club


class Tournament(models.Model):
    name = models.CharField(_("name"), max_length=160)
    club = models.ForeignKey(Club, null=True, blank=True, on_delete=models.SET_NULL, related_name="tournaments",
                             verbose_name=_("club"))
    director = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="directed_tournaments",
        verbose_name=_("director"),
    )
    starts_on = models.DateField(_("starts on"), null=True, blank=True)
    published = models.BooleanField(_("published"), default=True)
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)

    class Meta:
        verbose_name = _("event")
        verbose_name_plural = _("events")
        ordering = ["-starts_on", "name"]

    def __str__(self) -> str:
        return self.name


# -- read models: kept by the ``tournament_view`` projection, never written by hand ------------


class TournamentState(models.Model):
    tournament_id = models.BigIntegerField(primary_key=True)
    format = models.CharField(max_length=24)
    version = models.PositiveIntegerField(default=0)
    entries = models.JSONField(default=list)
    checked_in = models.JSONField(default=list)
    withdrawn = models.JSONField(default=list)
    drawn = models.BooleanField(default=False)
    winner = models.BigIntegerField(null=True)
    champions = models.JSONField(default=dict)
    flagged = models.JSONField(default=list)
    awaiting_draw = models.JSONField(default=list)
    needs_advance = models.BooleanField(default=False, help_text="the process manager has matches to create or replace")
    stages = models.JSONField(default=dict, help_text="a staged event: stage one's format, whether it is closed, "
                                                      "its table and the knockout's seeds ({} for one stage)")
    reentry = models.JSONField(default=dict, help_text="the knockout's re-entry rules, places open, re-entries made "
                                                       "and who may re-enter now ({} without re-entry)")
    tiebreaks = models.JSONField(default=list, help_text="the event's tie-breaks in its order (a standing's values "
                                                         "are a JSON object, whose keys PostgreSQL reorders)")

    class Meta:
        verbose_name = _("event state")
        verbose_name_plural = _("event states")


class TournamentSlot(models.Model):
    tournament_id = models.BigIntegerField(db_index=True)
    key = models.CharField(max_length=40)
    bracket = models.CharField(max_length=24)
    round = models.PositiveIntegerField()
    index = models.PositiveIntegerField()
    player_a = models.BigIntegerField(null=True)
    player_b = models.BigIntegerField(null=True)
    status = models.CharField(max_length=8)
    length = models.PositiveIntegerField()
    match_id = models.CharField(max_length=64, blank=True)
    winner = models.BigIntegerField(null=True)
    winner_points = models.PositiveIntegerField(default=0)
    loser_points = models.PositiveIntegerField(default=0)
    forfeit = models.BooleanField(default=False)
    table = models.PositiveIntegerField(null=True)
    entry_a = models.PositiveSmallIntegerField(default=1, help_text="which entry of player_a: 2 for a re-entry…")
    entry_b = models.PositiveSmallIntegerField(default=1)
    open_place = models.BooleanField(default=False, help_text="side b is a first-round place kept for re-entries")

    class Meta:
        verbose_name = _("event slot")
        verbose_name_plural = _("event slots")
        ordering = ["tournament_id", "bracket", "round", "index"]
        constraints = [models.UniqueConstraint(fields=["tournament_id", "key"], name="tournament_slot_unique")]


class TournamentStanding(models.Model):
    tournament_id = models.BigIntegerField(db_index=True)
    player_id = models.BigIntegerField()
    rank = models.PositiveIntegerField()
    played = models.PositiveIntegerField()
    wins = models.PositiveIntegerField()
    losses = models.PositiveIntegerField()
    byes = models.PositiveIntegerField(default=0, help_text="byes had: in a Swiss each is one of the wins (and of "
                                       "played); a round robin's rest rounds count for nothing")
    points_for = models.PositiveIntegerField()
    points_against = models.PositiveIntegerField()
    score = models.FloatField(default=0)
    tiebreaks = models.JSONField(default=dict)
    flight = models.CharField(max_length=16, blank=True, default="",
                              help_text="main, consolation or last_chance: each flight has its own table; '' for one")
    forfeits = models.PositiveIntegerField(default=0, help_text="matches lost by forfeit")
    withdrawn = models.BooleanField(default=False)
    shared = models.BooleanField(default=False, help_text="another player holds the same rank: knocked out in the "
                                 "same round of a knockout (shown 3=)")
    position = models.PositiveIntegerField(default=0, help_text="the row's place in its table as derived: the "
                                           "order of the players sharing a rank")

    class Meta:
        verbose_name = _("event standing")
        verbose_name_plural = _("event standings")
        ordering = ["tournament_id", "flight", "rank", "position"]


class TournamentMatchIndex(models.Model):
    """Which tournament a match stream belongs to, so its results reach the right view."""

    match_id = models.CharField(max_length=64, primary_key=True)
    tournament_id = models.BigIntegerField(db_index=True)

    class Meta:
        verbose_name = _("event's match")
        verbose_name_plural = _("events' matches")


class MatchNotice(models.Model):
    """The e-mail that tells both players where to play a match: one row per match, made by the ``match_notices``
    follower when the match is created, sent once by a Celery task. Not a projection's table: a rebuild keeps
    these rows, so nobody is told twice."""

    match_id = models.CharField(max_length=64, unique=True)
    tournament_id = models.BigIntegerField(db_index=True)
    slot = models.CharField(max_length=40)
    created_at = models.DateTimeField(auto_now_add=True)
    sent_at = models.DateTimeField(null=True)
    sent_to = models.JSONField(default=list)  # the player ids written to (those with an address)

    class Meta:
        verbose_name = _("match notice")
        verbose_name_plural = _("match notices")


class ByeNotice(models.Model):
    """The e-mail that tells a Swiss round's bye holder they have the bye (no match, a won match in the table), as
    a paired player is told where to play: one row per round and player, made by the ``match_notices`` follower
    when the round is paired, sent once by a Celery task. Kept through a rebuild, like ``MatchNotice``."""

    tournament_id = models.BigIntegerField(db_index=True)
    round = models.PositiveIntegerField()
    player_id = models.BigIntegerField()
    created_at = models.DateTimeField(auto_now_add=True)
    sent_at = models.DateTimeField(null=True)
    sent = models.BooleanField(default=False, help_text="written to (False: no address, or no longer the bye)")

    class Meta:
        verbose_name = _("bye notice")
        verbose_name_plural = _("bye notices")
        constraints = [models.UniqueConstraint(fields=["tournament_id", "round", "player_id"],
                                               name="bye_notice_unique")]


class TournamentLedger(models.Model):
    """The ``money_ledger`` projection's read model: an event's money as ``tournaments.ledger.ledger_of`` computes
    it from the stream (pools, lots, shares, payouts, balances), one row per event that records money."""

    tournament_id = models.BigIntegerField(primary_key=True)
    version = models.PositiveIntegerField(default=0, help_text="the stream's version it was computed at")
    ledger = models.JSONField(default=dict)

    class Meta:
        verbose_name = _("event's ledger")
        verbose_name_plural = _("events' ledgers")


class LedgerShare(models.Model):
    """One player's money from one event (all its pools together, and what was paid them): what their page
    shows they won. A lot's owner who is no player of the event has no row here, only in the ledger."""

    tournament_id = models.BigIntegerField(db_index=True)
    player_id = models.BigIntegerField(db_index=True)
    share = models.BigIntegerField(default=0, help_text="minor units (cents)")
    paid = models.BigIntegerField(default=0)
    currency = models.CharField(max_length=3, default="EUR")
    final = models.BooleanField(default=False, help_text="every flight has its champion: the share is final")

    class Meta:
        verbose_name = _("player's share")
        verbose_name_plural = _("players' shares")
        constraints = [models.UniqueConstraint(fields=["tournament_id", "player_id"], name="ledger_share_unique")]
