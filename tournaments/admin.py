"""The admin, fit for directors: their events created and listed here; each is run from the director's console
(``/events/{id}/run/``, tournaments/console.py), where the list's "Run this event" leads."""

from django import forms
from django.contrib import admin, messages
from django.core.exceptions import PermissionDenied
from django.urls import path, reverse
from django.utils.html import format_html
from django.utils.translation import gettext_lazy as _
from django.views.generic import RedirectView

from apikit.refusals import refusal_text
from eventlog.store import ConcurrencyError
from players import authority

from . import config, console, names, services, stream
from .event_form import setting_field
from .models import Tournament


class TournamentForm(forms.ModelForm):
    # the formats' names in the reader's language: a callable, read when the form is shown
    format = forms.ChoiceField(choices=lambda: [(f, names.format_name(f)) for f in stream.FORMATS], required=False,
                               label=_("Format"),
                               help_text=_("Chosen when the event is created; it is part of the event's record."))
    rounds = setting_field("rounds", _("Rounds"), _("Swiss only"))
    length = forms.IntegerField(required=False, min_value=1, initial=7, label=_("Length"),
                                help_text=_("Match length (odd)"))
    dice = forms.ChoiceField(choices=[("server", _("server dice (verifiable)")), ("board", _("dice from the board"))],
                             required=False, initial="server", label=_("Dice"),
                             help_text=_("Where the rolls of the event's matches come from; fixed for each match."))
    groups = setting_field("groups", _("Groups"), _("Round robin only: in this many groups (seeds dealt in snake "
                                                    "order)."))
    qualifiers = setting_field("qualifiers", _("Knockout of the top"),
                               _("Swiss or round robin in stages: its top K go on to a knockout, drawn when you close "
                                 "stage 1. Empty: one stage."))
    reentry_until_round = forms.IntegerField(
        required=False, min_value=1, label=_("Re-entry up to round"),
        help_text=_("Knockout: players knocked out up to this round may buy back in. Empty: no re-entry."))
    reentry_times = forms.IntegerField(required=False, min_value=1, initial=1, label=_("Re-entries per player"))

    consolation = forms.BooleanField(required=False, label=_("Consolation"),
                                     help_text=_("Knockout: the early losers play on in a Consolation bracket."))
    consolation_feeds = setting_field("consolation_feeds", _("Consolation fed up to round"),
                                      _("Losers of the Main up to this round go to the Consolation. Empty: the "
                                        "first round's."))
    last_chance = forms.BooleanField(required=False, label=_("Last Chance"),
                                     help_text=_("Knockout with a Consolation: its early losers play a Last Chance."))
    reset = forms.BooleanField(required=False, initial=True, label=_("Grand final reset"),
                               help_text=_("Double elimination: if the losers' bracket winner wins the grand final, "
                                           "a second one is played."))

    reach = setting_field("reach", _("Reach"), _("Ladder: how many rungs up one may challenge"))
    challenge_days = setting_field("challenge_days", _("Days per challenge"), _("Ladder: days to play a challenge"))
    division_size = setting_field("division_size", _("Division size"), _("League: players per division"))
    round_days = setting_field("round_days", _("Days per round"), _("League: days per round"))
    promote = setting_field("promote", _("Promoted"), _("League: how many go up each season"))
    relegate = setting_field("relegate", _("Relegated"), _("League: how many go down each season"))

    class Meta:
        model = Tournament
        fields = ["name", "club", "director", "starts_on", "published"]

    user = None  # set by TournamentAdmin.get_form

    def clean(self):
        data = super().clean()
        if self.instance.pk is None:  # the settings of a new event: the formats' own check, as the API's
            try:
                data["settings"] = config.checked(data.get("format") or stream.Format.SINGLE_ELIMINATION,
                                                  _settings(data))
            except config.SettingsError as refused:
                raise forms.ValidationError(refusal_text(refused), code="settings") from refused
        return data

    def clean_club(self):
        club = self.cleaned_data.get("club")
        if club and club.pk != self.initial.get("club") and not authority.may_create_event(self.user, club):
            raise forms.ValidationError(
                _("Only the directors of %(club)s and officials may hold events under its name.") % {"club": club})
        if club is None and self.instance.pk is None and not authority.may_create_event(self.user, None):
            raise forms.ValidationError(_("Choose your club: events are held under a club's name."))
        return club


@admin.register(Tournament)
class TournamentAdmin(admin.ModelAdmin):
    form = TournamentForm
    list_display = ("name", "club", "director", "starts_on", "published", "run_link")
    search_fields = ("name",)
    actions = ["make_random_draw", "pair_next_round"]

    # a staff user without the model permissions still sees, and edits, the events they direct
    def _sees_all(self, request) -> bool:
        return super().has_view_permission(request) or authority.officiates_everything(request.user)

    def get_queryset(self, request):
        events = super().get_queryset(request)
        return events if self._sees_all(request) else events.filter(director=request.user)

    def has_module_permission(self, request):
        return (super().has_module_permission(request) or authority.officiates_everything(request.user)
                or _directs_any(request.user) or _directs_a_club(request.user))

    def has_add_permission(self, request):
        # a club's directors create its events here (clean_club keeps them to their own clubs' names)
        return (super().has_add_permission(request) or authority.officiates_everything(request.user)
                or _directs_a_club(request.user))

    def has_view_permission(self, request, obj=None):
        return self.has_change_permission(request, obj) or super().has_view_permission(request, obj)

    def has_change_permission(self, request, obj=None):
        if super().has_change_permission(request, obj) or authority.officiates_everything(request.user):
            return True
        if obj is None:
            return _directs_any(request.user) or _directs_a_club(request.user)
        return authority.runs_event(request.user, obj.director_id)

    def get_form(self, request, obj=None, **kwargs):
        form = super().get_form(request, obj, **kwargs)
        form.user = request.user  # clean_club asks who is creating the event
        return form

    def save_model(self, request, obj, form, change):
        if change:
            if "published" in form.changed_data:  # the event's matches follow it
                services.tournament_publish(actor=request.user, tournament=obj, published=obj.published)
            return super().save_model(request, obj, form, change)
        # a new event gets its stream and configuration through the service, like the API
        data = form.cleaned_data
        fmt = data.get("format") or stream.Format.SINGLE_ELIMINATION
        settings = data["settings"]
        created = services.tournament_create(actor=request.user, name=obj.name, format=fmt, club=obj.club,
                                             settings=settings)
        obj.pk = created.pk
        if not obj.published:  # hidden from its creation: a fact of its stream, which the ratings and seasons read
            services.tournament_publish(actor=request.user, tournament=created, published=False)
        Tournament.objects.filter(pk=obj.pk).update(starts_on=obj.starts_on, director=obj.director or request.user)

    @admin.display(description="")
    def run_link(self, obj):
        return format_html('<a href="{}">{}</a>', reverse("event-console", args=[obj.pk]), _("Run this event"))

    @admin.action(description=_("Make the draw (random seeding)"))
    def make_random_draw(self, request, queryset):
        for tournament in queryset:
            self._command(request, tournament, {"type": "draw", "method": "random"})

    @admin.action(description=_("Pair the next round (Swiss)"))
    def pair_next_round(self, request, queryset):
        for tournament in queryset:
            self._command(request, tournament, {"type": "pair_round"})

    def get_urls(self):
        # the director's console is the one place an event is run; the admin's old address leads there
        run = RedirectView.as_view(pattern_name="event-console")
        return [path("<id:pk>/run/", run, name="tournaments_tournament_run")] + super().get_urls()

    def _command(self, request, tournament, command) -> bool:
        try:
            services.tournament_command(actor=request.user, tournament=tournament, command=command)
        except (services.TournamentError, PermissionDenied, ConcurrencyError) as refused:
            self.message_user(request, f"{tournament.name}: {refused}", messages.ERROR)
            return False
        console.settle(tournament)  # directors see the outcome of their click at once; the live pages are told
        return True


def _settings(data: dict) -> dict:
    """The new event's settings as the form says them (the API takes the same as JSON)."""
    fmt = data.get("format") or stream.Format.SINGLE_ELIMINATION
    length = data.get("length") or 7
    settings = {"lengths": {b: {"default": length} for b in ("main", "consolation", "last_chance", "winners",
                                                              "losers", "grand_final", "rounds")}}
    if data.get("rounds"):
        settings["rounds"] = data["rounds"]
    settings["dice"] = data.get("dice") or "server"
    own = {stream.Format.LADDER: ("reach", "challenge_days"),
           stream.Format.LEAGUE: ("division_size", "round_days", "promote", "relegate")}.get(fmt, ())
    settings.update({k: data[k] for k in own if data.get(k) is not None})
    if data.get("qualifiers"):
        settings["qualifiers"] = data["qualifiers"]
    if data.get("groups"):
        settings["groups"] = data["groups"]
    if data.get("reentry_until_round"):
        settings["reentry"] = {"until_round": data["reentry_until_round"], "times": data.get("reentry_times") or 1}
    if data.get("consolation"):
        settings["consolation"] = True
        if data.get("consolation_feeds"):
            settings["consolation_feeds"] = data["consolation_feeds"]
    if data.get("last_chance"):
        settings["last_chance"] = True
    if fmt == stream.Format.DOUBLE_ELIMINATION:
        settings["reset"] = bool(data.get("reset"))
    return settings


def _directs_any(user) -> bool:
    return user.is_authenticated and Tournament.objects.filter(director=user).exists()


def _directs_a_club(user) -> bool:
    return user.is_authenticated and user.is_active and user.directed_clubs.exists()
