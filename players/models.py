"""People and clubs."""

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _


class Club(models.Model):
    name = models.CharField(_("name"), max_length=120, unique=True)
    country = models.CharField(_("country"), max_length=2, blank=True, help_text=_("ISO 3166 code, e.g. FR"))
    directors = models.ManyToManyField(
        settings.AUTH_USER_MODEL, blank=True, related_name="directed_clubs", verbose_name=_("directors"),
        help_text=_("may create events under the club's name (and so with its rating rule)"),
    )
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)

    class Meta:
        verbose_name = _("club")
        verbose_name_plural = _("clubs")
        ordering = ["name"]

    def __str__(self) -> str:
        return self.name


class Player(models.Model):
    display_name = models.CharField(_("name"), max_length=80)
    club = models.ForeignKey(Club, null=True, blank=True, on_delete=models.SET_NULL, related_name="players",
                             verbose_name=_("club"))
    country = models.CharField(_("country"), max_length=2, blank=True, help_text=_("ISO 3166 code, e.g. FR"))
    # a member's details as the club's list gives them (imported by a director): where the player is told of a
    # match, and the club's own number for them (their licence), which recognises them at the next import
    email = models.EmailField(_("e-mail address"), blank=True)
    club_member_id = models.CharField(_("club member number"), max_length=40, blank=True,
                                      help_text=_("the player's number in their club"))
    # a director said at a member import that a line naming only this member's name is this member ("same
    # person?"): the next list that names them so enters them without asking again (tournaments/console.py)
    name_confirmed = models.BooleanField(
        _("name confirmed at import"), default=False,
        help_text=_("a member list naming only this name means this player: imported without asking again"))
    # the language the player is written to in (a code of settings.LANGUAGES; empty: the site's): a detail of the
    # person like their address, chosen by the language switch when they are logged in, the club's member list or
    # the API (players/languages.py); no projection reads it, so it is a column and not an event
    language = models.CharField(_("language"), max_length=8, blank=True,
                                help_text=_("the language the player is written to in"))
    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="player",
        verbose_name=_("user account"),
    )
    # A read model: written only by the ``players`` projection from the log's PlayersMerged events
    # (players/projections.py); a merge is the command ``players.services.player_merge``.
    merged_into = models.ForeignKey(
        "self", null=True, blank=True, editable=False, on_delete=models.SET_NULL, related_name="duplicates",
        verbose_name=_("merged into"),
        help_text=_("a duplicate entry of the same person, counted as that player (from the log's merges)"),
    )
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)

    class Meta:
        verbose_name = _("player")
        verbose_name_plural = _("players")
        ordering = ["display_name"]
        # see players/authority.py: the one rule of who runs events and officiates matches
        permissions = [("officiate", "Run every event and officiate every match")]

    def __str__(self) -> str:
        return self.display_name
