"""Ratings: a projection of the match results in the log, plus each club's choice of ramp."""

from django.db import models
from django.utils.translation import gettext_lazy as _

from players.models import Club

from .formula import RAMPS, START_RATING


class ClubRatingRule(models.Model):
    """Which new-player ramp a club's events are rated with (recorded in each match when it is created)."""

    club = models.OneToOneField(Club, on_delete=models.CASCADE, related_name="rating_rule", verbose_name=_("club"))
    ramp = models.CharField(_("new players' ramp"), max_length=16, choices=[(r, r) for r in RAMPS], default="fibs")

    class Meta:
        verbose_name = _("club rating rule")
        verbose_name_plural = _("club rating rules")

    def __str__(self) -> str:
        return f"{self.club}: {self.ramp}"


class RatedMatch(models.Model):
    """A match result the ratings are computed from, in log order (``seq``)."""

    key = models.CharField(max_length=128, primary_key=True)
    player0_id = models.BigIntegerField(null=True)
    player1_id = models.BigIntegerField(null=True)
    length = models.PositiveIntegerField(default=0)
    ramp = models.CharField(max_length=16, default="fibs")
    seq = models.BigIntegerField(null=True, db_index=True, help_text="log position of the result")
    winner_seat = models.PositiveSmallIntegerField(null=True)
    voided = models.BooleanField(default=False)
    slot_key = models.CharField(
        max_length=128, blank=True, default="",
        help_text="the event slot this match is played for: its result is rated through the slot, never twice",
    )
    unrated = models.BooleanField(default=False, help_text="a friendly or walkover its creator or director marked")
    hidden = models.BooleanField(default=False, help_text="its event (or the match itself) is hidden: counted nowhere "
                                                          "public until published, then at its own place in the log")

    class Meta:
        verbose_name = _("rated match")
        verbose_name_plural = _("rated matches")

    @property
    def rated(self) -> bool:
        return (self.seq is not None and self.winner_seat is not None and not self.voided and self.length > 0
                and not self.unrated and not self.hidden)


class RatedEvent(models.Model):
    """An event's rated-match policy as its stream says (``TournamentConfigured``'s setting ``rated``, then the
    director's ``RatedSet``) and its visibility (``VisibilitySet``): kept only for events that ever said something
    else than "rated" or "published"."""

    stream_id = models.CharField(max_length=64, primary_key=True)
    rated = models.BooleanField(default=True)
    slots = models.JSONField(default=dict)  # slot -> rated, each slot's own setting (it wins over the event's)
    published = models.BooleanField(default=True)  # False: a hidden event, whose results count nowhere public

    class Meta:
        verbose_name = _("event's rating policy")
        verbose_name_plural = _("events' rating policies")

    def slot_rated(self, slot: str) -> bool:
        return self.slots.get(slot, self.rated)


class PlayerRating(models.Model):
    player_id = models.BigIntegerField(primary_key=True)
    rating = models.FloatField(default=START_RATING)
    experience = models.PositiveIntegerField(default=0)
    matches = models.PositiveIntegerField(default=0)
    last_seq = models.BigIntegerField(default=0)

    class Meta:
        verbose_name = _("player rating")
        verbose_name_plural = _("player ratings")
        ordering = ["-rating"]


class RatingChange(models.Model):
    """One player's rating after one rated match: the rating history."""

    player_id = models.BigIntegerField(db_index=True)
    match_key = models.CharField(max_length=128)
    seq = models.BigIntegerField()
    opponent_id = models.BigIntegerField(null=True)
    won = models.BooleanField()
    length = models.PositiveIntegerField()
    rating_before = models.FloatField()
    rating_after = models.FloatField()
    experience_after = models.PositiveIntegerField()

    class Meta:
        verbose_name = _("rating change")
        verbose_name_plural = _("rating changes")
        ordering = ["seq"]
        indexes = [models.Index(fields=["player_id", "seq"])]


class RatedSlot(models.Model):
    """An event's slot as the ratings read it: its current match, its paper result, the director's correction.

    The slot's one result (correction, else paper, else its match's) is rated as the ``RatedMatch`` keyed by
    ``slot_key``."""

    slot_key = models.CharField(max_length=128, primary_key=True)
    match_key = models.CharField(max_length=128, blank=True, default="")
    paper = models.JSONField(null=True, blank=True)
    correction = models.JSONField(null=True, blank=True)

    class Meta:
        verbose_name = _("rated slot")
        verbose_name_plural = _("rated slots")
