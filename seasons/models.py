"""A club's seasons and series. The ``Season`` row names the season (like ``Tournament``); everything else here
is a read model kept by the ``season_tables`` projection (``seasons/projections.py``), never written by hand."""

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from players.models import Club


class Season(models.Model):
    name = models.CharField(_("name"), max_length=160)
    kind = models.CharField(_("kind"), max_length=8, default="season")  # "season" or "series"
    club = models.ForeignKey(Club, null=True, blank=True, on_delete=models.SET_NULL, related_name="seasons",
                             verbose_name=_("club"))
    director = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
                                 related_name="directed_seasons", verbose_name=_("director"))
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)

    class Meta:
        verbose_name = _("season")
        verbose_name_plural = _("seasons")
        ordering = ["-created_at", "pk"]

    def __str__(self) -> str:
        return self.name


# -- read models ------------------------------------------------------------------------------------


class SeasonState(models.Model):
    season_id = models.BigIntegerField(primary_key=True)
    version = models.PositiveIntegerField(default=0)

    class Meta:
        verbose_name = _("season state")
        verbose_name_plural = _("season states")


class SeasonEvent(models.Model):
    """An event the season counts, on its date."""

    season_id = models.BigIntegerField(db_index=True)
    tournament_id = models.BigIntegerField(db_index=True)
    on = models.DateField()
    finished = models.BooleanField(default=False)
    rated = models.BooleanField(default=True)  # an unrated event gives nothing
    published = models.BooleanField(default=True)  # a hidden event gives nothing and is named to its officials only
    field_size = models.PositiveIntegerField(default=0)
    rule_version = models.PositiveIntegerField(null=True)  # the version that scored it (None: no rule in force)

    class Meta:
        verbose_name = _("season's event")
        verbose_name_plural = _("seasons' events")
        unique_together = [("season_id", "tournament_id")]


class SeasonChouette(models.Model):
    """A chouette night the season counts (its club opted in), on its date, with the player each name on its sheet
    is, and what it gave (``games``: games on its sheet; ``rule_version``: the version that scored it)."""

    season_id = models.BigIntegerField(db_index=True)
    chouette_id = models.CharField(max_length=64, db_index=True)
    on = models.DateField()
    players = models.JSONField(default=dict)  # {name on the sheet: player id}
    games = models.PositiveIntegerField(default=0)
    rule_version = models.PositiveIntegerField(null=True)

    class Meta:
        verbose_name = _("season's chouette night")
        verbose_name_plural = _("seasons' chouette nights")
        unique_together = [("season_id", "chouette_id")]


class SeasonRule(models.Model):
    season_id = models.BigIntegerField(db_index=True)
    version = models.PositiveIntegerField()
    effective_from = models.DateField()
    rule = models.JSONField()

    class Meta:
        verbose_name = _("season rule")
        verbose_name_plural = _("season rules")
        unique_together = [("season_id", "version")]


class EventFinishes(models.Model):
    """What a finished event gave each player (place, matches won), as the seasons read it: one row per event
    that is in some season, re-derived from the event's stream whenever it changes."""

    tournament_id = models.BigIntegerField(primary_key=True)
    finished = models.BooleanField(default=False)
    rated = models.BooleanField(default=True)
    published = models.BooleanField(default=True)  # the event's stream's last VisibilitySet (none: published)
    field_size = models.PositiveIntegerField(default=0)
    finishes = models.JSONField(default=list)  # [{"player", "place", "wins": [[bracket, round, forfeit, rated]...]}]

    class Meta:
        verbose_name = _("event's finishes")
        verbose_name_plural = _("events' finishes")


class SeasonScore(models.Model):
    """The points one event (or one chouette night: ``chouette_id``) gave one player in one season, and the rule
    version that made them."""

    season_id = models.BigIntegerField(db_index=True)
    tournament_id = models.BigIntegerField(null=True)
    chouette_id = models.CharField(max_length=64, blank=True, default="")
    player_id = models.BigIntegerField()
    points = models.FloatField()
    rule_version = models.PositiveIntegerField()
    counted = models.BooleanField(default=True)  # among the player's best N

    class Meta:
        verbose_name = _("season score")
        verbose_name_plural = _("season scores")


class SeasonStanding(models.Model):
    season_id = models.BigIntegerField(db_index=True)
    player_id = models.BigIntegerField()
    rank = models.PositiveIntegerField()
    total = models.FloatField()
    events = models.PositiveIntegerField(default=0)

    class Meta:
        verbose_name = _("season standing")
        verbose_name_plural = _("season standings")


class PrintedSheet(models.Model):
    """A public PDF printed once for the state it shows (seasons/printing.py): ``key`` names the sheet, the reader's
    language and a digest of the facts printed. A row without ``pdf`` is a print under way (claimed at
    ``claimed_at``). Kept in the database, not the cache, so that the worker that prints and the web nodes that
    serve share it whatever the cache (the embedded default's and the tests' are per process)."""

    key = models.CharField(max_length=200, unique=True)
    pdf = models.BinaryField(null=True)
    claimed_at = models.DateTimeField()
    printed_at = models.DateTimeField(null=True)

    class Meta:
        verbose_name = _("printed sheet")
        verbose_name_plural = _("printed sheets")
